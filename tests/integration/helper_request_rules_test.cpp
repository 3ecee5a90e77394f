// helper_request_rules_test.cpp: the header and request rules of an outside
// audit, on real sockets: Permissions-Policy, token answers never
// compressed, the CSRF headers each at most once, Sec-Fetch-Site's four
// values only, 411 for a body without Content-Length, and log lines with
// every byte outside printable ASCII escaped. (Clear-Site-Data on logout and
// the BFF routes' answers: bff_signin_test.cpp.)
#include <gtest/gtest.h>

#include "common/request_log.hpp"
#include "common/security_headers.hpp"
#include "common/tls.hpp"
#include "support/helper_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace {

bool has_header_named(const RawResponse& r, const std::string& name) {
    return ifind(r.head, "\r\n" + name + ":") != std::string::npos;
}

class HelperRequestRules : public ::testing::Test {
protected:
    void SetUp() override {
        auto tls = native::ensure_tls_material(dir_ / "state");
        ASSERT_TRUE(tls) << tls.error().detail;
        upstream_ = std::make_unique<StubUpstream>(tls->server_cert_path, tls->server_key_path);
        HelperConfig config = testing::test_config(dir_);
        testing::use_upstream(config, *upstream_);
        helper_ = std::make_unique<RunningHelper>(config);
        ASSERT_TRUE(helper_->ok()) << helper_->error();
    }
    std::string host() const { return "127.0.0.1:" + std::to_string(helper_->port()); }
    std::string own_origin() const { return "https://" + host(); }

    // One request on a connection of its own; `fields` are extra header lines.
    std::optional<RawResponse> send(const std::string& method, const std::string& target, const std::string& fields,
                                    const std::string& body = "", bool with_length = true) {
        RawTls conn(helper_->port());
        EXPECT_TRUE(conn.ok()) << "no TLS connection";
        std::string request = method + " " + target + " HTTP/1.1\r\nHost: " + host() + "\r\n" + fields;
        if (with_length && !body.empty()) request += "Content-Length: " + std::to_string(body.size()) + "\r\n";
        if (!conn.send(request + "\r\n" + body)) return std::nullopt;
        return conn.read_response(3000);
    }

    TempDir dir_;
    std::unique_ptr<StubUpstream> upstream_;
    std::unique_ptr<RunningHelper> helper_;
};

TEST_F(HelperRequestRules, ThePageDeniesThePowerfulFeaturesTheAppDoesNotUse) {
    auto res = send("GET", "/", "");
    ASSERT_TRUE(res) << "no answer to GET /";
    EXPECT_EQ(res->status, 200);
    std::string policy;
    for (const auto& [name, value] : native::security_headers(native::HeaderProfile::helper)) {
        if (name == "Permissions-Policy") policy = value;
    }
    EXPECT_TRUE(res->has_header("Permissions-Policy", policy)) << res->head;
    for (const char* feature : {"camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"}) {
        EXPECT_NE(policy.find(feature), std::string::npos) << feature;
    }
    // The app copies to the clipboard.
    EXPECT_EQ(policy.find("clipboard-write"), std::string::npos) << policy;
}

TEST_F(HelperRequestRules, TokenAnswersAreNeverCompressedWhateverTheBrowserAccepts) {
    const std::string form = "grant_type=refresh_token&refresh_token=RT";
    for (const char* accepts : {"gzip", "br", "gzip, deflate, br"}) {
        auto token = send("POST", "/oauth/token",
                          std::string("X-Roomkey-Request: 1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                                      "Accept-Encoding: ") +
                              accepts + "\r\n",
                          form);
        ASSERT_TRUE(token) << accepts;
        EXPECT_EQ(token->status, 200) << token->head;
        EXPECT_FALSE(has_header_named(*token, "Content-Encoding")) << accepts << ": " << token->head;
        EXPECT_NE(token->body.find("UPSTREAM-ANSWER"), std::string::npos) << "the body as it came: " << token->body;
    }
    // The same server compresses other JSON for such a browser: the rule is the route's.
    auto config = send("GET", "/config.json", "Accept-Encoding: gzip\r\n");
    ASSERT_TRUE(config) << "no answer to GET /config.json";
    EXPECT_TRUE(config->has_header("Content-Encoding", "gzip")) << config->head;
}

TEST_F(HelperRequestRules, TheCsrfHeadersTwiceAre403InEitherOrder) {
    const std::string own = "Origin: " + own_origin() + "\r\n";
    const std::string evil = "Origin: https://evil.example\r\n";
    const std::vector<std::pair<std::string, std::string>> twice = {
        {"Origin, foreign first", evil + own},
        {"Origin, own first", own + evil},
        {"Origin, own twice", own + own},
        {"X-Roomkey-Request", "X-Roomkey-Request: 0\r\nX-Roomkey-Request: 1\r\n"},
        {"X-Roomkey-Request, 1 twice", "X-Roomkey-Request: 1\r\nX-Roomkey-Request: 1\r\n"},
        {"Sec-Fetch-Site", "X-Roomkey-Request: 1\r\nSec-Fetch-Site: same-origin\r\nSec-Fetch-Site: cross-site\r\n"},
    };
    for (const auto& [name, fields] : twice) {
        for (const char* target : {"/api/me", "/"}) {
            auto res = send("GET", target, fields);
            ASSERT_TRUE(res) << name;
            EXPECT_EQ(res->status, 403) << name << " " << target << ": " << res->head;
        }
    }
    // Once each, the same values pass.
    auto once = send("GET", "/api/me", own + "X-Roomkey-Request: 1\r\nSec-Fetch-Site: same-origin\r\n");
    ASSERT_TRUE(once) << "no answer to GET /api/me with the headers once each";
    EXPECT_EQ(once->status, 200) << once->head;
    EXPECT_EQ(upstream_->targets(), std::vector<std::string>{"GET /v2/me"});
}

TEST_F(HelperRequestRules, SecFetchSiteOutsideItsFourValuesCountsAsCrossSite) {
    for (const char* site : {"CROSS-SITE", "Same-Origin", "same-site", "cross-site", "same-origin, none", "x"}) {
        auto res = send("GET", "/api/me", std::string("X-Roomkey-Request: 1\r\nSec-Fetch-Site: ") + site + "\r\n");
        ASSERT_TRUE(res) << site;
        EXPECT_EQ(res->status, 403) << site << ": " << res->head;
    }
    for (const char* site : {"same-origin", "none"}) {
        auto res = send("GET", "/api/me", std::string("X-Roomkey-Request: 1\r\nSec-Fetch-Site: ") + site + "\r\n");
        ASSERT_TRUE(res) << site;
        EXPECT_EQ(res->status, 200) << site << ": " << res->head;
    }
    EXPECT_EQ(upstream_->targets().size(), 2u);
}

TEST_F(HelperRequestRules, ABodyWithoutContentLengthIs411AndNeverARequest) {
    // The body is a whole request of its own: it must be neither forwarded
    // as an empty-bodied POST's follower nor parsed as the next request.
    const std::string inner = "GET /api/me HTTP/1.1\r\nHost: " + host() + "\r\nX-Roomkey-Request: 1\r\n\r\n";
    for (const char* method : {"POST", "PUT", "PATCH"}) {
        RawTls conn(helper_->port());
        ASSERT_TRUE(conn.ok());
        ASSERT_TRUE(conn.send(std::string(method) + " /api/rooms/1/messages HTTP/1.1\r\nHost: " + host() +
                              "\r\nX-Roomkey-Request: 1\r\nContent-Type: text/plain\r\n\r\n" + inner));
        auto res = conn.read_response(3000);
        ASSERT_TRUE(res) << method;
        EXPECT_EQ(res->status, 411) << method << ": " << res->head;
        EXPECT_TRUE(res->has_header("Connection", "close")) << res->head;
        EXPECT_FALSE(conn.read_response(1000)) << method << ": the body was read as a request";
        EXPECT_TRUE(conn.closed_within(2000)) << method;
    }
    EXPECT_TRUE(upstream_->targets().empty()) << upstream_->targets().front();
    // A body-less POST without Content-Length (some browsers send it so) is
    // answered as body-less.
    RawTls conn(helper_->port());
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE(conn.send("POST /api/rooms/1/link HTTP/1.1\r\nHost: " + host() + "\r\nX-Roomkey-Request: 1\r\n\r\n"));
    auto res = conn.read_response(3000);
    ASSERT_TRUE(res) << "no answer within 3 s to a POST without a body length";
    EXPECT_EQ(res->status, 200) << res->head;
    EXPECT_EQ(upstream_->targets(), std::vector<std::string>{"POST /v2/rooms/1/link"});
}

TEST_F(HelperRequestRules, LogLinesEscapeEveryByteOutsidePrintableAscii) {
    auto res = send("GET", "/caf\xC3\xA9\\x\x7F.js", "");
    ASSERT_TRUE(res) << "no answer to a path with bytes outside printable ASCII";
    EXPECT_EQ(res->status, 404) << res->head;
    const std::string log = helper_->wait_for_log(".js 404");
    EXPECT_NE(log.find("GET /caf\\xC3\\xA9\\x5Cx\\x7F.js 404"), std::string::npos) << log;
    for (const char c : log) {
        const auto byte = static_cast<unsigned char>(c);
        EXPECT_TRUE(c == '\n' || (byte >= 0x20 && byte < 0x7f)) << "raw byte " << int(byte) << " in the log";
    }
}

TEST(HelperRequestLogLine, EscapesAsNginxDoes) {
    using native::escape_for_log;
    EXPECT_EQ(escape_for_log("/a b"), "/a b");
    EXPECT_EQ(escape_for_log("\xFF\x80\t\\"), "\\xFF\\x80\\x09\\x5C");
    // Cut at 200 bytes of the path, then escaped: a multi-byte character cut
    // in two is still escaped byte by byte.
    const std::string line =
        native::request_log_line("GET", "/" + std::string(198, 'a') + "\xC3\xA9zz", 404, std::nullopt);
    EXPECT_EQ(line, "GET /" + std::string(198, 'a') + "\\xC3... 404");
}

}  // namespace
}  // namespace roomkey::helper
