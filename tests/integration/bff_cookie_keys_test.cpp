// bff_cookie_keys_test.cpp: the sealed session cookie on real sockets
// (docs/bff.md): tampered, truncated, expired and wrong-key cookies are
// refused; the key survives a restart (so do sessions); a rotated-out key
// still opens its sessions, which are re-sealed with the new key; two
// helpers with one key serve the same session; the key file is 0600.
#include <gtest/gtest.h>

#include "common/openssl_random.hpp"
#include "helper/bff_keys.hpp"
#include "support/bff_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace bff_cookie_keys_test {
namespace {

using bff_testing::BffTest;
using bff_testing::CookieJar;
using bff_testing::parse_json;

class BffCookieKeys : public BffTest {
protected:
    // A jar holding only the session cookie, with `value`.
    static CookieJar with_session(const std::string& value) {
        CookieJar jar;
        jar.cookies[std::string(kBffSessionCookie)] = value;
        return jar;
    }
    // The API's answer to a cookie: 200, or 401 with X-Roomkey-Session: none.
    static void expect_refused(const bff_testing::Door& helper, const std::string& value, const std::string& why) {
        CookieJar jar = with_session(value);
        auto res = api_get(helper, jar, "/me");
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_EQ(res->status, 401) << res->body;
        EXPECT_EQ(res->get_header_value("X-Roomkey-Session"), "none");
        EXPECT_NE(res->body.find(why), std::string::npos) << res->body;
        EXPECT_TRUE(jar.session().empty()) << "the refused cookie is cleared";
    }
};

TEST_F(BffCookieKeys, TamperedTruncatedAndForeignCookiesAreRefused) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::string good = jar_.session();
    ASSERT_FALSE(good.empty()) << "the signed-in browser holds no session cookie";

    std::string flipped = good;
    char& c = flipped[flipped.size() / 2 + 12];
    c = c == 'A' ? 'B' : 'A';
    expect_refused(*helper_, flipped, "changed, cut short");
    expect_refused(*helper_, good.substr(0, good.size() - 5), "");  // cut short: not opened, whatever the reason
    expect_refused(*helper_, good.substr(0, 30), "");
    expect_refused(*helper_, "garbage", "not one roomkey-helper wrote");
    // The sealed part behind another session id: the id is bound to it.
    std::string other_id = good;
    other_id[0] = other_id[0] == 'A' ? 'B' : 'A';
    expect_refused(*helper_, other_id, "changed, cut short");

    // The unchanged cookie still works after all that.
    CookieJar again = with_session(good);
    auto me = api_get(*helper_, again, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
}

TEST_F(BffCookieKeys, ACookieFromAHelperWithAnotherKeyIsRefused) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::string cookie = jar_.session();
    helper_.reset();
    auto stranger = start_helper(0, dir_ / "other-state");
    expect_refused(*stranger, cookie, "sealed with a key this helper does not have");
}

TEST_F(BffCookieKeys, AnExpiredCookieIsRefused) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    // Past the refresh token's 14 days (the cookie's sealed lifetime).
    clock_offset_ = 15 * 86400;
    expect_refused(*helper_, jar_.session(), "expired");
}

TEST_F(BffCookieKeys, ARestartKeepsTheKeyAndTheSession) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    const std::string key_file = state_dir() + "/" + kBffKeyFile;
    EXPECT_EQ(testing::file_mode(key_file), 0600u);
    const std::string key = testing::read_file(key_file);
    helper_.reset();
    helper_ = start_helper(0, state_dir());
    EXPECT_EQ(testing::read_file(key_file), key);
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
}

TEST_F(BffCookieKeys, ThePreviousKeyStillOpensSessionsWhichAreResealed) {
    ASSERT_NO_FATAL_FAILURE(start_signed_in());
    helper_.reset();
    auto rotated = rotate_bff_key(state_dir(), native::openssl_random);
    ASSERT_TRUE(rotated) << rotated.error();
    EXPECT_EQ(testing::file_mode(state_dir() + "/" + kBffPreviousKeyFile), 0600u);
    helper_ = start_helper(0, state_dir());
    const std::string before = jar_.session();
    auto me = api_get(*helper_, jar_, "/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
    EXPECT_NE(jar_.session(), before) << "re-sealed with the new key";

    // A second rotation drops the first key: the re-sealed cookie (new key,
    // now previous) still works, the original one no longer does.
    helper_.reset();
    ASSERT_TRUE(rotate_bff_key(state_dir(), native::openssl_random)) << "rotate-bff-key failed in " << state_dir();
    helper_ = start_helper(0, state_dir());
    CookieJar resealed = with_session(jar_.session());
    auto still = api_get(*helper_, resealed, "/me");
    ASSERT_TRUE(still) << why_no_answer(still);
    EXPECT_EQ(still->status, 200) << still->body;
    expect_refused(*helper_, before, "sealed with a key this helper does not have");
}

TEST_F(BffCookieKeys, TwoHelpersWithOneKeyServeTheSameSession) {
    auto first = start_helper(0, state_dir());
    auto second = start_helper(1, state_dir());
    CookieJar jar;
    ASSERT_TRUE(sign_in(*first, jar)) << "the sign-in at the first helper got no answer";
    auto at_second = api_get(*second, jar, "/me");
    ASSERT_TRUE(at_second) << why_no_answer(at_second);
    EXPECT_EQ(at_second->status, 200) << at_second->body;
    auto session = bff_get(*second, jar, "/bff/session");
    ASSERT_TRUE(session) << why_no_answer(session);
    EXPECT_EQ(parse_json(session->body)["signed_in"], true);
    // And a sign-in that starts at one may end at the other (its login cookie).
    CookieJar other;
    auto login = navigate(*first, other, "/bff/login");
    ASSERT_TRUE(login) << why_no_answer(login);
    EXPECT_EQ(login->status, 303);
}

}  // namespace
}  // namespace bff_cookie_keys_test
}  // namespace roomkey::helper
