// bff_signin_test.cpp: the BFF mode's sign-in and session, on real sockets
// against the sandbox (docs/bff.md): /bff/login -> consent -> the helper's
// own callback -> the session cookie and its attributes; /config.json;
// /bff/session; the API with the token attached; incremental consent,
// offline_access and narrowing on refresh; the failures that come back as
// #bff_error; logout.
#include <gtest/gtest.h>

#include "support/bff_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace bff_signin_test {
namespace {

using bff_testing::BffTest;
using bff_testing::CookieJar;
using bff_testing::parse_json;
using bff_testing::set_cookies;

class BffSignIn : public BffTest {};

TEST_F(BffSignIn, SignInSetsAHostPrefixedSessionCookieAndTheApiWorks) {
    auto helper = start_helper(0, state_dir());
    CookieJar jar;
    auto done = sign_in(*helper, jar);
    ASSERT_TRUE(done) << why_no_answer(done);
    EXPECT_EQ(done->status, 303);
    EXPECT_EQ(done->get_header_value("Location"), "/");
    // The session cookie's attributes (the page's script never reads it), the login cookie cleared.
    std::string session_line;
    bool login_cleared = false;
    for (const auto& line : set_cookies(*done)) {
        if (line.rfind("__Host-roomkey_session=", 0) == 0) session_line = line;
        if (line.rfind("__Host-roomkey_login=;", 0) == 0 && line.find("Max-Age=0") != std::string::npos) {
            login_cleared = true;
        }
    }
    ASSERT_FALSE(session_line.empty()) << "no __Host-roomkey_session cookie set";
    for (const char* attribute : {"; Secure", "; HttpOnly", "; SameSite=Strict", "; Path=/"}) {
        EXPECT_NE(session_line.find(attribute), std::string::npos) << attribute << " in " << session_line;
    }
    EXPECT_EQ(session_line.find("Domain"), std::string::npos) << session_line;
    // Max-Age: the refresh token's 14 days at most.
    const auto max_age = std::stol(session_line.substr(session_line.find("Max-Age=") + 8));
    EXPECT_GT(max_age, 14 * 86400 - 60);
    EXPECT_LE(max_age, 14 * 86400);
    EXPECT_TRUE(login_cleared) << "the login cookie was not cleared (Max-Age=0)";

    auto me = api_get(*helper, jar, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
    EXPECT_TRUE(parse_json(me->body).contains("account_id")) << me->body;

    auto session = bff_get(*helper, jar, "/bff/session");
    ASSERT_TRUE(session) << why_no_answer(session);
    ASSERT_EQ(session->status, 200);
    const auto s = parse_json(session->body);
    EXPECT_EQ(s["signed_in"], true);
    EXPECT_EQ(s["scope"], "users.all:read rooms.all:read_write");
    EXPECT_GT(s["expires_in"].get<long>(), 1700);
    EXPECT_GT(s["refresh_expires_in"].get<long>(), 14 * 86400 - 60);
    ASSERT_EQ(s["token_requests"].size(), 1u);
    EXPECT_EQ(s["token_requests"][0]["grant_type"], "authorization_code");
    EXPECT_EQ(s["token_requests"][0]["status"], 200);
}

TEST_F(BffSignIn, ConfigJsonNamesTheBffRoutesAndNoTokenEndpoint) {
    auto helper = start_helper(0, state_dir());
    auto res = helper->client()->Get("/config.json");
    ASSERT_TRUE(res) << why_no_answer(res);
    const auto cfg = parse_json(res->body);
    EXPECT_EQ(cfg["session"], "bff");
    EXPECT_EQ(cfg["token_endpoint"], "");
    EXPECT_EQ(cfg["bff_login"], "/bff/login");
    EXPECT_EQ(cfg["bff_session"], "/bff/session");
    EXPECT_EQ(cfg["bff_logout"], "/bff/logout");
    EXPECT_EQ(cfg["bff_refresh"], "/bff/refresh");
    EXPECT_EQ(res->body.find(bff_testing::kBffClientSecret), std::string::npos);
    // The page cannot reach the token endpoint through the helper.
    auto token = helper->client()->Post("/oauth/token", helper->app_headers(), "grant_type=refresh_token",
                                        "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 404);
}

TEST_F(BffSignIn, SignedOutSessionAndApiSayNone) {
    auto helper = start_helper(0, state_dir());
    CookieJar jar;
    auto session = bff_get(*helper, jar, "/bff/session");
    ASSERT_TRUE(session) << why_no_answer(session);
    EXPECT_EQ(session->status, 200);
    EXPECT_EQ(parse_json(session->body)["signed_in"], false);
    auto me = api_get(*helper, jar, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 401);
    EXPECT_EQ(me->get_header_value("X-Roomkey-Session"), "none");
    EXPECT_NE(me->body.find("roomkey session: no session; sign in again"), std::string::npos) << me->body;
}

TEST_F(BffSignIn, AnAuthorizationHeaderFromThePageIsRefused) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    auto headers = app_fetch(*helper_, jar_);
    headers.emplace("Authorization", "Bearer something");
    auto res = helper_->client()->Get("/api/me", headers);
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 400);
    EXPECT_NE(res->body.find("tokens are not accepted from the page"), std::string::npos) << res->body;
}

TEST_F(BffSignIn, LogoutForgetsTheTokensAndSaysTheGrantStays) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::string old_cookie = jar_.header();
    auto out = bff_post(*helper_, jar_, "/bff/logout");
    ASSERT_TRUE(out) << why_no_answer(out);
    EXPECT_EQ(out->status, 200);
    const auto body = parse_json(out->body);
    EXPECT_EQ(body["signed_in"], false);
    EXPECT_NE(body["note"].get<std::string>().find("stays granted at the service"), std::string::npos);
    EXPECT_TRUE(jar_.session().empty()) << "the cookie is cleared";
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 401);
    // A copy of the cookie kept from before the logout no longer works here.
    CookieJar copy;
    copy.cookies[std::string(kBffSessionCookie)] = old_cookie.substr(old_cookie.find('=') + 1);
    auto replayed = api_get(*helper_, copy, "/me");
    ASSERT_TRUE(replayed) << why_no_answer(replayed);
    EXPECT_EQ(replayed->status, 401);
}

TEST_F(BffSignIn, LogoutClearsTheSiteDataAndNoSessionAnswerIsCompressed) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    for (const char* path : {"/bff/session", "/bff/refresh", "/bff/logout"}) {
        httplib::Headers h = app_fetch(*helper_, jar_);
        h.emplace("Accept-Encoding", "gzip, deflate, br");
        auto res = std::string(path) == "/bff/session" ? helper_->client()->Get(path, h)
                                                       : helper_->client()->Post(path, h, "", "application/json");
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_EQ(res->status, 200) << path << ": " << res->body;
        EXPECT_FALSE(res->has_header("Content-Encoding")) << path << ": " << res->get_header_value("Content-Encoding");
        EXPECT_EQ(res->has_header("Clear-Site-Data"), std::string(path) == "/bff/logout") << path;
        if (std::string(path) == "/bff/logout") {
            EXPECT_EQ(res->get_header_value("Clear-Site-Data"), "\"cookies\", \"storage\"");
        }
        jar_.take(*res);
    }
}

TEST_F(BffSignIn, RefusedConsentComesBackAsAFragmentError) {
    auto helper = start_helper(0, state_dir());
    CookieJar jar;
    auto done = sign_in(*helper, jar, "", "deny");
    ASSERT_TRUE(done) << why_no_answer(done);
    EXPECT_EQ(done->status, 303);
    EXPECT_EQ(done->get_header_value("Location").rfind("/#bff_error=access_denied&bff_error_description=", 0), 0u)
        << done->get_header_value("Location");
    EXPECT_TRUE(jar.session().empty()) << "a refused consent set a session cookie";
}

TEST_F(BffSignIn, ACallbackWithoutItsLoginCookieOrWithAnotherStateIsRefused) {
    auto helper = start_helper(0, state_dir());
    CookieJar none;
    auto expired = navigate(*helper, none, "/callback?code=abc&state=def");
    ASSERT_TRUE(expired) << why_no_answer(expired);
    EXPECT_EQ(expired->status, 303);
    EXPECT_EQ(expired->get_header_value("Location").rfind("/#bff_error=login_expired&", 0), 0u);

    CookieJar jar;
    auto login = navigate(*helper, jar, "/bff/login");
    ASSERT_TRUE(login) << why_no_answer(login);
    jar.take(*login);
    auto mismatch = navigate(*helper, jar, "/callback?code=abc&state=not-the-state");
    ASSERT_TRUE(mismatch) << why_no_answer(mismatch);
    EXPECT_EQ(mismatch->get_header_value("Location").rfind("/#bff_error=state_mismatch&", 0), 0u)
        << mismatch->get_header_value("Location");
}

TEST_F(BffSignIn, LoginRefusesUnknownScopesAndCrossSiteNavigations) {
    auto helper = start_helper(0, state_dir());
    CookieJar jar;
    auto unknown = navigate(*helper, jar, "/bff/login?scope=rooms.all:read%20no.such:scope");
    ASSERT_TRUE(unknown) << why_no_answer(unknown);
    EXPECT_EQ(unknown->status, 400);
    EXPECT_NE(unknown->body.find("no.such:scope"), std::string::npos) << unknown->body;
    auto cross = helper->client()->Get("/bff/login", {{"Sec-Fetch-Site", "cross-site"}, {"Sec-Fetch-Mode", "navigate"}});
    ASSERT_TRUE(cross) << why_no_answer(cross);
    EXPECT_EQ(cross->status, 400);
    auto fetched = helper->client()->Get("/bff/login", {{"Sec-Fetch-Site", "same-origin"}, {"Sec-Fetch-Mode", "cors"}});
    ASSERT_TRUE(fetched) << why_no_answer(fetched);
    EXPECT_EQ(fetched->status, 400);
}

TEST_F(BffSignIn, IncrementalConsentReplacesTheSessionWithTheWiderGrant) {
    auto helper = start_helper(0, state_dir());
    CookieJar jar;
    ASSERT_TRUE(sign_in(*helper, jar, "users.all:read")) << "the sign-in got no answer";
    EXPECT_EQ(parse_json(bff_get(*helper, jar, "/bff/session")->body)["scope"], "users.all:read");
    auto rooms = api_get(*helper, jar, "/rooms");
    ASSERT_TRUE(rooms) << why_no_answer(rooms);
    EXPECT_EQ(rooms->status, 403) << "rooms need rooms.all:read: " << rooms->body;
    // A second /bff/login while signed in, with the union of scopes.
    auto again = sign_in(*helper, jar, "users.all:read rooms.all:read_write");
    ASSERT_TRUE(again) << why_no_answer(again);
    EXPECT_EQ(again->status, 303);
    EXPECT_EQ(parse_json(bff_get(*helper, jar, "/bff/session")->body)["scope"],
              "users.all:read rooms.all:read_write");
    rooms = api_get(*helper, jar, "/rooms");
    ASSERT_TRUE(rooms) << why_no_answer(rooms);
    EXPECT_EQ(rooms->status, 200) << rooms->body;
}

TEST_F(BffSignIn, OfflineAccessGivesARefreshTokenWithoutExpiry) {
    auto helper = start_helper(0, state_dir());
    CookieJar jar;
    auto done = sign_in(*helper, jar, "users.all:read offline_access");
    ASSERT_TRUE(done) << why_no_answer(done);
    ASSERT_EQ(done->status, 303) << done->get_header_value("Location");
    const auto s = parse_json(bff_get(*helper, jar, "/bff/session")->body);
    EXPECT_EQ(s["signed_in"], true);
    EXPECT_TRUE(s["refresh_expires_in"].is_null()) << s.dump();
}

TEST_F(BffSignIn, RefreshNarrowsTheScopeAndRefusesWidening) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    auto wider = bff_post(*helper_, jar_, "/bff/refresh", R"({"scope": "users.all:read rooms.all:read_write offline_access"})");
    ASSERT_TRUE(wider) << why_no_answer(wider);
    EXPECT_EQ(wider->status, 400);
    EXPECT_NE(wider->body.find("can only narrow"), std::string::npos) << wider->body;

    auto narrowed = bff_post(*helper_, jar_, "/bff/refresh", R"({"scope": "users.all:read"})");
    ASSERT_TRUE(narrowed) << why_no_answer(narrowed);
    ASSERT_EQ(narrowed->status, 200) << narrowed->body;
    const auto s = parse_json(narrowed->body);
    EXPECT_EQ(s["scope"], "users.all:read");
    ASSERT_EQ(s["token_requests"].size(), 2u);
    EXPECT_EQ(s["token_requests"][1]["grant_type"], "refresh_token");
    EXPECT_NE(s["token_requests"][1]["request"].get<std::string>().find("&scope=users.all%3Aread"), std::string::npos);
    const auto header = parse_json(narrowed->get_header_value("X-Roomkey-Token-Request"));
    EXPECT_EQ(header["grant_type"], "refresh_token");
    // The renewed cookie carries the narrowed grant.
    EXPECT_EQ(parse_json(bff_get(*helper_, jar_, "/bff/session")->body)["scope"], "users.all:read");
    auto rooms = api_get(*helper_, jar_, "/rooms");
    ASSERT_TRUE(rooms) << why_no_answer(rooms);
    EXPECT_EQ(rooms->status, 403);
}

}  // namespace
}  // namespace bff_signin_test
}  // namespace roomkey::helper
