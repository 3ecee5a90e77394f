// helper_compression_test.cpp: roomkey-helper in front of roomkey-sandbox on
// real sockets: an API answer goes gzip-compressed when the page accepts it
// and as it is when not; a token endpoint answer never does, whatever the
// page accepts (it holds secrets: helper/proxy.hpp compress_api_answer).
#include <gtest/gtest.h>
#include <zlib.h>

#include "helper/proxy.hpp"
#include "support/helper_fixture.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace {

std::string gunzip(const std::string& packed) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) return {};
    std::string out;
    char buffer[16384];
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
    z.avail_in = static_cast<uInt>(packed.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
    }
    inflateEnd(&z);
    return rc == Z_STREAM_END ? out : std::string();
}

class HelperCompression : public sandbox::testing::SandboxTest {
protected:
    void SetUp() override {
        SandboxTest::SetUp();
        HelperConfig config = testing::test_config(dir_);
        config.state_dir = sandbox::testing::shared_state_dir();  // trusts the sandbox's local CA
        config.upstream.base_url = sandbox().base_url();
        config.upstream.auth_url = sandbox().auth_url();
        config.upstream.consent_url = sandbox().consent_url();
        config.upstream.client_id = "roomkey-web";
        helper_ = std::make_unique<RunningHelper>(config);
        ASSERT_TRUE(helper_->ok()) << helper_->error();
    }
    void TearDown() override {
        helper_.reset();
        SandboxTest::TearDown();
    }
    // A page's fetch(): the bodies are checked as they came off the wire.
    std::unique_ptr<httplib::SSLClient> page() const {
        auto c = helper_->client();
        c->set_default_headers({});
        return c;
    }
    httplib::Result api(const std::string& path, const std::string& accept) const {
        return page()->Get(("/api" + path).c_str(), {{"X-Roomkey-Request", "1"},
                                                     {"x-servicetoken", sandbox::testing::kAliceToken},
                                                     {"Accept-Encoding", accept}});
    }

    TempDir dir_;
    std::unique_ptr<RunningHelper> helper_;
};

TEST_F(HelperCompression, AnApiAnswerIsGzipCompressedWhenThePageAcceptsIt) {
    auto plain = api("/rooms", "identity");
    ASSERT_TRUE(plain) << why_no_answer(plain);
    ASSERT_EQ(plain->status, 200) << plain->body;
    EXPECT_EQ(plain->get_header_value("Content-Encoding"), "") << "not asked for";
    ASSERT_GE(plain->body.size(), kCompressFromBytes) << "the demo room list is large enough to compress";

    auto packed = api("/rooms", "gzip, deflate, br");
    ASSERT_TRUE(packed) << why_no_answer(packed);
    ASSERT_EQ(packed->status, 200);
    EXPECT_EQ(packed->get_header_value("Content-Encoding"), "gzip");
    EXPECT_EQ(packed->get_header_value("Vary"), "Accept-Encoding");
    EXPECT_LT(packed->body.size(), plain->body.size());
    EXPECT_EQ(gunzip(packed->body), plain->body) << "the same answer, compressed";
    EXPECT_FALSE(packed->get_header_value("x-ratelimit-remaining").empty()) << "the service's headers still relayed";
}

TEST_F(HelperCompression, ATokenAnswerIsNeverCompressed) {
    // An exchange of a code never issued: the service's JSON error, as a
    // success would be, comes through the token route.
    auto c = page();
    std::string body = "grant_type=authorization_code&code=" + std::string(600, 'c') +
                       "&redirect_uri=https%3A%2F%2F127.0.0.1%2Fcallback&code_verifier=" + std::string(43, 'v') +
                       "&client_id=roomkey-web";
    auto res = c->Post("/oauth/token", {{"X-Roomkey-Request", "1"}, {"Accept-Encoding", "gzip, deflate, br"}}, body,
                       "application/x-www-form-urlencoded");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 400) << res->body;
    EXPECT_EQ(res->get_header_value("Content-Encoding"), "");
    EXPECT_NE(res->body.find("\"error\""), std::string::npos) << "readable as it came: " << res->body;
}

}  // namespace
}  // namespace roomkey::helper
