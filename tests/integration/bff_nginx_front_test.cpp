// bff_nginx_front_test.cpp: `roomkey-helper nginx-config --session bff`
// before two BFF helpers on loopback that share one key (docs/bff.md,
// docs/deploy.md): a whole sign-in and API calls through a running nginx; a
// session's requests reach one helper (the consistent hash on the cookie's
// stable id), before and after a refresh; the CSRF rule holds at nginx too;
// nginx never holds the client secret.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "helper/nginx_config.hpp"
#include "support/bff_fixture.hpp"
#include "support/nginx_process.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace bff_nginx_front_test {
namespace {

using bff_testing::BffTest;
using bff_testing::CookieJar;
using bff_testing::Door;
using bff_testing::parse_json;

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

class BffNginxFront : public BffTest {
protected:
    // The sandbox knows one redirect URI: nginx's.
    void SetUp() override {
        start_sandbox(1);
        nginx_port_ = ports_[0];
    }

    void start_front() {
        const std::string front = "https://127.0.0.1:" + std::to_string(nginx_port_);
        NginxOptions options;
        for (int i = 0; i < 2; ++i) {
            HelperConfig c = bff_config(0, state_dir());
            c.port = integration::free_port();
            c.front_origin = front;
            helpers_.push_back(std::make_unique<testing::RunningHelper>(c));
            ASSERT_TRUE(helpers_.back()->ok()) << helpers_.back()->error();
            options.bff_helper_ports.push_back(helpers_.back()->port());
        }
        HelperConfig config = bff_config(0, state_dir());
        config.port = nginx_port_;
        ::chmod(config.web_root.c_str(), 0755);
        ::chmod((config.web_root + "/index.html").c_str(), 0644);
        options.out_dir = out_.path();
        options.standalone = true;
        auto file = write_nginx_config(config, options);
        ASSERT_TRUE(file) << file.error();
        site_ = read_text(out_ / "roomkey.conf");
        nginx_ = std::make_unique<integration::RunningNginx>(out_.path(), *file);
        ASSERT_TRUE(nginx_->wait_until([this] { return static_cast<bool>(door().client()->Get("/config.json")); }))
            << "nginx never answered /config.json";
    }
    void TearDown() override {
        nginx_.reset();
        helpers_.clear();
        BffTest::TearDown();
    }
    Door door() const { return Door(nginx_port_, state_dir() + "/ca-cert.pem"); }
    // How many /api/me requests each helper has logged.
    std::vector<std::size_t> api_me_counts() const {
        std::vector<std::size_t> out;
        for (const auto& h : helpers_) out.push_back(testing::RunningHelper::occurrences(h->log(), "GET /api/me "));
        return out;
    }

    int nginx_port_ = 0;
    integration::TempDir out_;
    std::vector<std::unique_ptr<testing::RunningHelper>> helpers_;
    std::unique_ptr<integration::RunningNginx> nginx_;
    std::string site_;
};

TEST_F(BffNginxFront, SignInAndApiThroughNginxReachOneHelperPerSession) {
    start_front();
    ASSERT_FALSE(HasFatalFailure()) << "nginx did not start in front of the helpers";
    auto cfg = door().client()->Get("/config.json");
    ASSERT_TRUE(cfg) << why_no_answer(cfg);
    EXPECT_EQ(parse_json(cfg->body)["session"], "bff");
    EXPECT_EQ(parse_json(cfg->body)["redirect_uri"], door().origin() + "/callback");

    // Several sessions, each pinned to one helper.
    constexpr int kSessions = 6;
    std::vector<CookieJar> jars(kSessions);
    for (auto& jar : jars) {
        auto done = sign_in(door(), jar);
        ASSERT_TRUE(done) << why_no_answer(done);
        ASSERT_EQ(done->status, 303) << done->get_header_value("Location");
        EXPECT_EQ(done->get_header_value("Location"), "/");
        ASSERT_FALSE(jar.session().empty()) << "no session cookie after the sign-in through nginx";
    }
    for (auto& jar : jars) {
        const auto before = api_me_counts();
        for (int i = 0; i < 3; ++i) {
            auto me = api_get(door(), jar, "/me");
            ASSERT_TRUE(me) << why_no_answer(me);
            EXPECT_EQ(me->status, 200) << me->body;
            EXPECT_EQ(me->get_header_value("Content-Security-Policy").empty(), false);
        }
        // A refresh changes the sealed part, not the id: still the same helper.
        auto refreshed = bff_post(door(), jar, "/bff/refresh");
        ASSERT_TRUE(refreshed) << why_no_answer(refreshed);
        EXPECT_EQ(refreshed->status, 200) << refreshed->body;
        auto me = api_get(door(), jar, "/me");
        ASSERT_TRUE(me) << why_no_answer(me);
        EXPECT_EQ(me->status, 200);
        const auto after = api_me_counts();
        std::size_t helpers_used = 0;
        for (std::size_t h = 0; h < after.size(); ++h) helpers_used += after[h] != before[h] ? 1 : 0;
        EXPECT_EQ(helpers_used, 1u) << "one session, one helper";
    }
    auto session = bff_get(door(), jars[0], "/bff/session");
    ASSERT_TRUE(session) << why_no_answer(session);
    EXPECT_EQ(parse_json(session->body)["signed_in"], true);
    auto out = bff_post(door(), jars[0], "/bff/logout");
    ASSERT_TRUE(out) << why_no_answer(out);
    EXPECT_EQ(out->status, 200);
    EXPECT_TRUE(jars[0].session().empty()) << "the logout left the session cookie set";
}

TEST_F(BffNginxFront, NginxRefusesWhatTheHelperRefusesAndHoldsNoSecret) {
    start_front();
    ASSERT_FALSE(HasFatalFailure()) << "nginx did not start in front of the helpers";
    CookieJar jar;
    ASSERT_TRUE(sign_in(door(), jar)) << "the sign-in through nginx got no answer";
    // No X-Roomkey-Request, even from the app's Origin; a foreign Origin.
    auto no_header = door().client()->Get("/api/me", {{"Origin", door().origin()}, {"Cookie", jar.header()}});
    ASSERT_TRUE(no_header) << why_no_answer(no_header);
    EXPECT_EQ(no_header->status, 403);
    auto foreign = door().client()->Get(
        "/bff/session", {{"Origin", "https://evil.example"}, {"X-Roomkey-Request", "1"}, {"Cookie", jar.header()}});
    ASSERT_TRUE(foreign) << why_no_answer(foreign);
    EXPECT_EQ(foreign->status, 403);
    auto token = door().client()->Post("/oauth/token", {{"X-Roomkey-Request", "1"}}, "grant_type=refresh_token",
                                       "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 404);
    // The helpers hold the secret; nginx's files do not.
    EXPECT_EQ(site_.find(bff_testing::kBffClientSecret), std::string::npos);
    struct stat st {};
    EXPECT_NE(::stat((out_ / "client-secret.conf").c_str(), &st), 0) << "no secret include in the BFF mode";
    EXPECT_NE(site_.find("hash $roomkey_bff_session consistent;"), std::string::npos);
}

// Behind nginx the preview route reaches the session's helper, which keeps
// its own rule: a URL neither on the service's origin nor issued by the
// service through that helper is refused, with what is allowed.
TEST_F(BffNginxFront, APreviewReachesTheSessionsHelperWhichFetchesOnlyWhatTheServiceIssued) {
    start_front();
    ASSERT_FALSE(HasFatalFailure()) << "nginx did not start in front of the helpers";
    CookieJar jar;
    ASSERT_TRUE(sign_in(door(), jar)) << "the sign-in through nginx got no answer";
    auto foreign = door().client()->Post("/file-preview", app_fetch(door(), jar),
                                         "url=https%3A%2F%2Fevil.example%2Fa.png", "application/x-www-form-urlencoded");
    ASSERT_TRUE(foreign) << why_no_answer(foreign);
    EXPECT_EQ(foreign->status, 403) << foreign->body;
    EXPECT_NE(foreign->body.find("configured service's origin"), std::string::npos) << foreign->body;
    std::size_t seen = 0;
    for (const auto& h : helpers_) seen += testing::RunningHelper::occurrences(h->log(), "POST /file-preview ");
    EXPECT_EQ(seen, 1u) << "the helper answered, not nginx";
}

}  // namespace
}  // namespace bff_nginx_front_test
}  // namespace roomkey::helper
