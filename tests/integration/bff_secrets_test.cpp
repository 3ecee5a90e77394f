// bff_secrets_test.cpp: in the BFF mode no token, code, verifier or secret
// reaches the page or the log: every answer of a whole session
// (sign-in, API calls, refreshes, a refused refresh, logout) and every log
// line are searched for each token value the sandbox issued; and cookies
// never authorise a request that lacks the app's CSRF marks.
#include <gtest/gtest.h>

#include <vector>

#include "support/bff_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace bff_secrets_test {
namespace {

using bff_testing::BffTest;
using bff_testing::CookieJar;

class BffSecrets : public BffTest {
protected:
    // Status line aside, what the page could read of an answer.
    void keep(const httplib::Response& res) {
        std::string text = res.body;
        for (const auto& [name, value] : res.headers) text += "\n" + name + ": " + value;
        seen_.push_back(text);
    }
    void keep(const httplib::Result& res) {
        ASSERT_TRUE(res) << why_no_answer(res);
        keep(*res);
    }
    std::vector<std::string> seen_;
};

TEST_F(BffSecrets, NoTokenOrSecretInAnyAnswerOrLogLine) {
    auto helper = start_helper(0, state_dir());
    CookieJar jar;
    // The sign-in's own answers: /bff/login, the callback.
    SignInSeen sign_in_seen;
    ASSERT_TRUE(sign_in(*helper, jar, "", "allow", &sign_in_seen)) << "the sign-in got no answer";
    ASSERT_EQ(sign_in_seen.answers.size(), 2u);
    for (const httplib::Response& answer : sign_in_seen.answers) keep(answer);
    const std::string code = sign_in_seen.code;
    ASSERT_FALSE(code.empty()) << "the consent screen gave no code";

    keep(helper->client()->Get("/config.json"));
    keep(bff_get(*helper, jar, "/bff/session"));
    keep(api_get(*helper, jar, "/me"));
    keep(api_get(*helper, jar, "/rooms"));
    keep(bff_post(*helper, jar, "/bff/refresh"));
    keep(bff_post(*helper, jar, "/bff/refresh", R"({"scope": "users.all:read"})"));
    keep(bff_get(*helper, jar, "/bff/session"));
    make_refresh_due();  // a refresh made by /api itself
    keep(api_get(*helper, jar, "/me"));
    inject_fault(R"({"kind":"invalid_token","target":"token"})");
    keep(bff_post(*helper, jar, "/bff/refresh"));  // refused: the session ends
    keep(bff_post(*helper, jar, "/bff/logout"));

    const std::vector<std::string> tokens = issued_tokens();
    ASSERT_GE(tokens.size(), 8u) << "5 token sets issued: the code exchange and four refreshes";
    std::vector<std::string> secrets = tokens;
    secrets.push_back(code);
    secrets.push_back(bff_testing::kBffClientSecret);
    const std::string log = helper->wait_for_log("POST /bff/logout");
    for (const std::string& secret : secrets) {
        for (std::size_t i = 0; i < seen_.size(); ++i) {
            EXPECT_EQ(seen_[i].find(secret), std::string::npos) << "answer " << i << " holds a secret:\n" << seen_[i];
        }
        EXPECT_EQ(log.find(secret), std::string::npos) << "the log holds a secret:\n" << log;
    }
    // The helper's own token requests are in its log (without a secret:
    // above), as the page's are in the page's HTTP log.
    EXPECT_NE(log.find("token request: POST https://"), std::string::npos) << log;
    EXPECT_NE(log.find("/token grant_type=authorization_code 200"), std::string::npos) << log;
    EXPECT_NE(log.find("/token grant_type=refresh_token 200"), std::string::npos) << log;
    // The refreshes are in the answers, masked.
    bool masked_refresh = false;
    for (const auto& text : seen_) {
        masked_refresh = masked_refresh || text.find("refresh_token=\u2022\u2022\u2022\u2022") != std::string::npos;
    }
    EXPECT_TRUE(masked_refresh) << "no answer showed a masked refresh_token";
}

TEST_F(BffSecrets, TheCookieAloneAuthorisesNothing) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::string origin = "https://127.0.0.1:" + std::to_string(helper_->port());
    struct Case {
        const char* what;
        httplib::Headers headers;
    };
    const std::vector<Case> cases = {
        {"no X-Roomkey-Request (same Origin)", {{"Origin", origin}, {"Cookie", jar_.header()}}},
        {"no X-Roomkey-Request, no Origin", {{"Cookie", jar_.header()}}},
        {"a foreign Origin", {{"Origin", "https://evil.example"}, {"X-Roomkey-Request", "1"}, {"Cookie", jar_.header()}}},
        {"cross-site", {{"Sec-Fetch-Site", "cross-site"}, {"X-Roomkey-Request", "1"}, {"Cookie", jar_.header()}}},
        {"same-site", {{"Sec-Fetch-Site", "same-site"}, {"X-Roomkey-Request", "1"}, {"Cookie", jar_.header()}}},
    };
    for (const auto& c : cases) {
        auto me = helper_->client()->Get("/api/me", c.headers);
        ASSERT_TRUE(me) << why_no_answer(me);
        EXPECT_EQ(me->status, 403) << c.what;
        auto session = helper_->client()->Get("/bff/session", c.headers);
        ASSERT_TRUE(session) << why_no_answer(session);
        EXPECT_EQ(session->status, 403) << c.what;
        auto refresh = helper_->client()->Post("/bff/refresh", c.headers, "", "application/json");
        ASSERT_TRUE(refresh) << why_no_answer(refresh);
        EXPECT_EQ(refresh->status, 403) << c.what;
        auto logout = helper_->client()->Post("/bff/logout", c.headers, "", "application/json");
        ASSERT_TRUE(logout) << why_no_answer(logout);
        EXPECT_EQ(logout->status, 403) << c.what;
    }
    // With the marks, the same cookie works (and was not logged out above).
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200);
}

}  // namespace
}  // namespace bff_secrets_test
}  // namespace roomkey::helper
