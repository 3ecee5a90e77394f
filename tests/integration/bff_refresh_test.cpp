// bff_refresh_test.cpp: the BFF mode refreshes by itself (docs/bff.md):
// before the access token expires, once on the service's 401, one token
// request for requests that race, the renewed cookie set; and a refresh
// token the service refuses ends the session.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "support/bff_fixture.hpp"

namespace roomkey::helper {
namespace bff_refresh_test {
namespace {

using bff_testing::BffTest;
using bff_testing::CookieJar;
using bff_testing::parse_json;

class BffRefresh : public BffTest {};

TEST_F(BffRefresh, TheHelperRefreshesBeforeTheAccessTokenExpires) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::string before = jar_.session();
    const std::size_t issued = refresh_tokens_issued();
    make_refresh_due();
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
    EXPECT_EQ(refresh_tokens_issued(), issued + 1);
    EXPECT_NE(jar_.session(), before) << "the renewed cookie was set";
    const auto record = parse_json(me->get_header_value("X-Roomkey-Token-Request"));
    EXPECT_EQ(record["grant_type"], "refresh_token");
    EXPECT_EQ(record["status"], 200);
    // The renewed cookie needs no refresh for another half hour.
    me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200);
    EXPECT_EQ(refresh_tokens_issued(), issued + 1);
    EXPECT_EQ(me->get_header_value("X-Roomkey-Token-Request"), "");
}

TEST_F(BffRefresh, TheServicesOwn401CausesOneRefreshAndARetry) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::size_t issued = refresh_tokens_issued();
    // The service's clock passes the access token's expiry; the helper's does not.
    advance_clock(1801);
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
    EXPECT_EQ(refresh_tokens_issued(), issued + 1);
}

TEST_F(BffRefresh, AStubborn401IsRelayedAfterOneRefresh) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::size_t issued = refresh_tokens_issued();
    inject_fault(R"({"kind":"invalid_token","target":"api","count":2})");
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 401);
    EXPECT_NE(me->get_header_value("WWW-Authenticate").find("invalid_token"), std::string::npos);
    EXPECT_EQ(me->get_header_value("X-Roomkey-Session"), "") << "the service's 401, as it came";
    EXPECT_EQ(refresh_tokens_issued(), issued + 1) << "one refresh, not a loop";
}

TEST_F(BffRefresh, RacingRequestsCauseOneRefresh) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::size_t issued = refresh_tokens_issued();
    make_refresh_due();
    // Delay the token endpoint so every request arrives while the refresh is under way.
    inject_fault(R"({"kind":"delay","target":"token","delay_ms":500})");
    const httplib::Headers headers = app_fetch(*helper_, jar_);
    constexpr int kRequests = 8;
    std::vector<int> statuses(kRequests, 0);
    std::vector<std::string> cookies(kRequests);
    std::vector<std::thread> threads;
    for (int i = 0; i < kRequests; ++i) {
        threads.emplace_back([&, i] {
            auto res = helper_->client()->Get("/api/me", headers);
            if (!res) return;
            statuses[i] = res->status;
            CookieJar mine;
            mine.take(*res);
            cookies[i] = mine.session();
        });
    }
    for (auto& t : threads) t.join();
    for (int i = 0; i < kRequests; ++i) {
        EXPECT_EQ(statuses[i], 200) << "request " << i;
        EXPECT_FALSE(cookies[i].empty()) << "request " << i << " got the renewed cookie";
    }
    EXPECT_EQ(refresh_tokens_issued(), issued + 1);
    // A request still carrying the old cookie after the refresh uses the new tokens.
    auto late = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(late) << why_no_answer(late);
    EXPECT_EQ(late->status, 200) << late->body;
    EXPECT_EQ(refresh_tokens_issued(), issued + 1);
}

TEST_F(BffRefresh, ARefusedRefreshEndsTheSession) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    make_refresh_due();
    inject_fault(R"({"kind":"invalid_token","target":"token"})");
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 401);
    EXPECT_EQ(me->get_header_value("X-Roomkey-Session"), "none");
    EXPECT_NE(me->body.find("invalid_grant"), std::string::npos) << me->body;
    EXPECT_NE(me->body.find("sign in again"), std::string::npos) << me->body;
    EXPECT_TRUE(jar_.session().empty()) << "the cookie is cleared";
    const auto record = parse_json(me->get_header_value("X-Roomkey-Token-Request"));
    EXPECT_EQ(record["status"], 400);
    EXPECT_EQ(record["error"], "invalid_grant");
    auto session = bff_get(*helper_, jar_, "/bff/session");
    ASSERT_TRUE(session) << why_no_answer(session);
    EXPECT_EQ(parse_json(session->body)["signed_in"], false);
}

TEST_F(BffRefresh, AnUnreachableTokenEndpointKeepsTheSession) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    inject_fault(R"({"kind":"status5xx","target":"token","status":503})");
    auto refreshed = bff_post(*helper_, jar_, "/bff/refresh");
    ASSERT_TRUE(refreshed) << why_no_answer(refreshed);
    EXPECT_EQ(refreshed->status, 502) << refreshed->body;
    EXPECT_FALSE(jar_.session().empty());
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
}

// A helper that has no table for a session yet (after a restart) takes it
// up from the cookie and still refreshes ahead of the access token's
// expiry, not only once the service refuses it.
TEST_F(BffRefresh, ARestartedHelperTakesUpTheSessionAndRefreshesAhead) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    helper_.reset();
    helper_ = start_helper(0, state_dir());
    ASSERT_TRUE(helper_->ok()) << "the helper did not restart on its saved state";
    const std::size_t issued = refresh_tokens_issued();
    make_refresh_due();
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
    EXPECT_EQ(refresh_tokens_issued(), issued + 1) << "refreshed ahead of the expiry, 10 s before it";
    EXPECT_NE(me->get_header_value("X-Roomkey-Token-Request"), "");
}

// An answer from the token endpoint that the helper cannot use, when the
// access token has already expired: the request is not sent (502), and the
// session stays, as its refresh token was not used up: the next request
// refreshes and goes.
TEST_F(BffRefresh, AnUnusableRefreshAnswerKeepsTheSessionForTheNextRequest) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    clock_offset_ = 1801;  // the helper's access token has expired
    inject_fault(R"({"kind":"malformed_json","target":"token"})");
    auto first = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(first) << why_no_answer(first);
    EXPECT_EQ(first->status, 502) << first->body;
    EXPECT_NE(first->body.find("safe to send again"), std::string::npos) << first->body;
    EXPECT_EQ(first->get_header_value("X-Roomkey-Session"), "");
    EXPECT_FALSE(jar_.session().empty()) << "the cookie is kept";
    const std::size_t issued = refresh_tokens_issued();
    auto second = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(second) << why_no_answer(second);
    EXPECT_EQ(second->status, 200) << second->body;
    EXPECT_EQ(refresh_tokens_issued(), issued + 1);
}

}  // namespace
}  // namespace bff_refresh_test
}  // namespace roomkey::helper
