// bff_grant_end_test.cpp: a BFF session lasts as long as the grant behind it
// (spec 5.4.2): 14 days from the sign-in, however often it was refreshed.
// The cookie's Max-Age and /bff/session's refresh_expires_in count down to
// that end across refreshes, and past it the helper says signed out without
// asking the service (docs/bff.md, "The session cookie").
#include <gtest/gtest.h>

#include <string>

#include "support/bff_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace bff_grant_end_test {
namespace {

using bff_testing::BffTest;
using bff_testing::CookieJar;
using bff_testing::parse_json;
using bff_testing::session_max_age;

constexpr long long kDay = 24 * 60 * 60;
constexpr long long kGrant = 14 * kDay;
// The seconds the test itself may take between two of its steps (a loaded
// machine); far below the day that separates a right answer from a wrong one.
constexpr long long kSlack = 120;

// `seconds` is `expected`, give or take kSlack.
::testing::AssertionResult about(long long seconds, long long expected) {
    if (seconds >= expected - kSlack && seconds <= expected + kSlack) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << seconds << " s, expected " << expected << " s (give or take " << kSlack
                                       << ")";
}

class BffGrantEnd : public BffTest {};

TEST_F(BffGrantEnd, CookieAndSessionCountDownToTheGrantsEndAcrossRefreshes) {
    helper_ = start_helper(0, state_dir());
    ASSERT_TRUE(helper_->ok()) << helper_->error();
    auto signed_in = sign_in(*helper_, jar_);
    ASSERT_TRUE(signed_in) << why_no_answer(signed_in);
    ASSERT_EQ(signed_in->status, 303) << signed_in->get_header_value("Location");
    const auto first = session_max_age(*signed_in);
    ASSERT_TRUE(first) << "the callback sets the session cookie";
    EXPECT_TRUE(about(*first, kGrant)) << "day 0: the whole 14 days";

    long long elapsed = 0;
    // Days 1, 5 and 9 refresh through POST /bff/refresh; day 13 through an
    // API call whose access token has long expired (the helper's own refresh).
    for (const long long day : {1, 5, 9, 13}) {
        SCOPED_TRACE("day " + std::to_string(day));
        advance_both_clocks(day * kDay - elapsed);
        elapsed = day * kDay;
        const long long left = kGrant - elapsed;
        const std::size_t issued = refresh_tokens_issued();
        auto refreshed = day == 13 ? api_get(*helper_, jar_, "/me") : bff_post(*helper_, jar_, "/bff/refresh");
        ASSERT_TRUE(refreshed) << why_no_answer(refreshed);
        ASSERT_EQ(refreshed->status, 200) << refreshed->body;
        EXPECT_EQ(refresh_tokens_issued(), issued + 1) << "a refresh was made";
        const auto max_age = session_max_age(*refreshed);
        ASSERT_TRUE(max_age) << "the renewed cookie is set";
        EXPECT_TRUE(about(*max_age, left)) << "the cookie lives until the grant's end, not 14 days from the refresh";

        auto session = bff_get(*helper_, jar_, "/bff/session");
        ASSERT_TRUE(session) << why_no_answer(session);
        ASSERT_EQ(session->status, 200) << session->body;
        const auto body = parse_json(session->body);
        ASSERT_EQ(body["signed_in"], true) << session->body;
        ASSERT_TRUE(body["refresh_expires_in"].is_number_integer()) << session->body;
        EXPECT_TRUE(about(body["refresh_expires_in"].get<long long>(), left)) << session->body;
    }

    // An hour past the grant's end. A browser would have dropped the cookie
    // at its Max-Age; a copy kept past it must not count as a session.
    advance_both_clocks(kGrant + 60 * 60 - elapsed);
    const std::size_t issued = refresh_tokens_issued();
    CookieJar kept = jar_;
    auto session = bff_get(*helper_, kept, "/bff/session");
    ASSERT_TRUE(session) << why_no_answer(session);
    EXPECT_EQ(parse_json(session->body)["signed_in"], false) << session->body;
    EXPECT_EQ(session->get_header_value("X-Roomkey-Token-Request"), "") << "the helper did not ask the service";

    kept = jar_;
    auto me = api_get(*helper_, kept, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 401) << me->body;
    EXPECT_EQ(me->get_header_value("X-Roomkey-Session"), "none");
    EXPECT_EQ(me->get_header_value("X-Roomkey-Token-Request"), "")
        << "the helper knew the grant had ended without a token request: " << me->body;
    EXPECT_TRUE(kept.session().empty()) << "the cookie is cleared";
    EXPECT_EQ(refresh_tokens_issued(), issued);
}

}  // namespace
}  // namespace bff_grant_end_test
}  // namespace roomkey::helper
