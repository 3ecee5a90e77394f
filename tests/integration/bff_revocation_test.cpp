// bff_revocation_test.cpp: logout means logout for every helper that shares
// the cookie key (bff_revocations.hpp): a copy of the cookie kept from
// before POST /bff/logout is refused by the same helper after a restart and
// by another helper on the same state directory, and is never refreshed
// into a new cookie.
#include <gtest/gtest.h>

#include "support/bff_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace bff_revocation_test {
namespace {

using bff_testing::BffTest;
using bff_testing::CookieJar;
using bff_testing::parse_json;

class BffRevocation : public BffTest {
protected:
    // Signed in at helper 0, a copy of the cookie kept, then signed out there.
    CookieJar sign_in_keep_a_copy_and_log_out() {
        CookieJar copy;
        start_signed_in();
        copy = jar_;
        auto out = bff_post(*helper_, jar_, "/bff/logout");
        EXPECT_TRUE(out) << why_no_answer(out);
        if (out) {
            EXPECT_EQ(out->status, 200);
        }
        return copy;
    }
    // The copy opens no session at `door`: the API, /bff/session and a refresh all say so.
    void expect_signed_out(testing::RunningHelper& door, CookieJar copy, const std::string& where) {
        const std::size_t refreshes = refresh_tokens_issued();
        CookieJar api_copy = copy;
        auto me = api_get(door, api_copy, "/me");
        ASSERT_TRUE(me) << why_no_answer(me);
        EXPECT_EQ(me->status, 401) << where << ": " << me->body;
        CookieJar session_copy = copy;
        auto session = bff_get(door, session_copy, "/bff/session");
        ASSERT_TRUE(session) << why_no_answer(session);
        EXPECT_EQ(parse_json(session->body)["signed_in"], false) << where << ": " << session->body;
        CookieJar refresh_copy = copy;
        auto refreshed = bff_post(door, refresh_copy, "/bff/refresh");
        ASSERT_TRUE(refreshed) << why_no_answer(refreshed);
        EXPECT_EQ(refreshed->status, 401) << where << ": " << refreshed->body;
        EXPECT_TRUE(refresh_copy.session().empty()) << where << ": refreshed into a new cookie";
        EXPECT_EQ(refresh_tokens_issued(), refreshes) << where << ": a token request was made for it";
    }
};

TEST_F(BffRevocation, ASignedOutCookieStaysRefusedAfterTheHelperRestarts) {
    CookieJar copy;
    ASSERT_NO_FATAL_FAILURE(copy = sign_in_keep_a_copy_and_log_out());
    helper_.reset();  // stopped; the same port and state dir again
    auto again = start_helper(0, state_dir());
    ASSERT_TRUE(again->ok()) << again->error();
    expect_signed_out(*again, copy, "after a restart");
}

TEST_F(BffRevocation, ASignedOutCookieIsRefusedByAnotherHelperSharingTheStateDir) {
    auto other = start_helper(1, state_dir());
    ASSERT_TRUE(other->ok()) << other->error();
    CookieJar copy;
    ASSERT_NO_FATAL_FAILURE(copy = sign_in_keep_a_copy_and_log_out());
    expect_signed_out(*other, copy, "at the other helper");
}

TEST_F(BffRevocation, AnotherSessionOnTheSameHelpersIsNotAffected) {
    auto other = start_helper(1, state_dir());
    ASSERT_TRUE(other->ok()) << other->error();
    CookieJar second;
    auto done = sign_in(*other, second);
    ASSERT_TRUE(done) << why_no_answer(done);
    CookieJar copy;
    ASSERT_NO_FATAL_FAILURE(copy = sign_in_keep_a_copy_and_log_out());
    auto me = api_get(*other, second, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
}

}  // namespace
}  // namespace bff_revocation_test
}  // namespace roomkey::helper
