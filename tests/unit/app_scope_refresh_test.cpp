// app_scope_refresh_test.cpp: "refresh with fewer scopes" (spec 4.3, issue
// 13): which requests may go (web/app/scope_refresh.hpp), the page API's
// refresh_scopes action, and the whole round through the App against the
// fake service, which grants only what a narrower refresh asks for.
#include "app/scope_refresh.hpp"

#include <gtest/gtest.h>

#include "app/intents.hpp"

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_scope_refresh_test {
namespace {

const ScopeSet kGranted{"users.all:read", "rooms.all:read_write"};

TEST(ScopeRefresh, ASubsetOfTheGrantMayGo) {
    EXPECT_EQ(ScopeRefresh::refusal(ScopeSet{"users.all:read"}, kGranted, false), std::nullopt);
    // A leaf an aggregate of the grant includes is a subset too.
    EXPECT_EQ(ScopeRefresh::refusal(ScopeSet{"rooms.messages:read", "users.profile.me:read"}, kGranted, false),
              std::nullopt);
}

TEST(ScopeRefresh, MoreThanTheGrantIsRefusedWithWhatToDo) {
    const auto why = ScopeRefresh::refusal(ScopeSet{"users.all:read", "contacts.all:read"}, kGranted, false);
    ASSERT_TRUE(why) << "asking for more than the grant was not refused";
    EXPECT_NE(why->find("only narrow"), std::string::npos) << *why;
    EXPECT_NE(why->find("Sign in again"), std::string::npos) << *why;
}

TEST(ScopeRefresh, NothingUsableOrNothingLessIsRefused) {
    EXPECT_TRUE(ScopeRefresh::refusal(ScopeSet{}, kGranted, false)) << "no scope gives no API access (5.4.4)";
    EXPECT_TRUE(ScopeRefresh::refusal(kGranted, kGranted, false)) << "the same grant is not fewer scopes";
    // The same leaves spelled differently are still the same grant.
    EXPECT_TRUE(
        ScopeRefresh::refusal(ScopeSet{"users.all:read", "rooms.all:read", "rooms.all:write"}, kGranted, false));
    EXPECT_TRUE(ScopeRefresh::refusal(ScopeSet{"users.all:read"}, kGranted, true)) << "a refresh under way";
}

TEST(ScopeRefresh, ShowsWhatWasAskedAndGrantedAndClearsItsError) {
    ScopeRefresh narrow;
    narrow.refuse("first try refused");
    narrow.start(ScopeSet{"users.all:read"}, kGranted);
    EXPECT_TRUE(narrow.pending());
    EXPECT_EQ(narrow.error(), "") << "a new attempt clears the old error";
    narrow.granted(ScopeSet{"users.all:read"});
    EXPECT_FALSE(narrow.pending());
    EXPECT_EQ(narrow.requested(), ScopeSet{"users.all:read"});
    EXPECT_EQ(narrow.granted_before(), kGranted);
    ASSERT_TRUE(narrow.granted_after()) << "the narrower grant was not recorded";
    EXPECT_EQ(*narrow.granted_after(), ScopeSet{"users.all:read"});
    narrow.reset();
    EXPECT_FALSE(narrow.granted_after()) << "sign-out forgets it";
}

TEST(ScopeRefresh, PageActionReadsTheScopeList) {
    auto parsed = parse_action(R"({"type":"refresh_scopes","scope":"users.all:read rooms.messages:read"})");
    ASSERT_TRUE(parsed) << parsed.error();
    const auto* action = std::get_if<intent::RefreshScopes>(&*parsed);
    ASSERT_NE(action, nullptr);
    EXPECT_EQ(action->scopes, (ScopeSet{"users.all:read", "rooms.messages:read"}));
    EXPECT_FALSE(parse_action(R"({"type":"refresh_scopes"})"));
    const auto unknown = parse_action(R"({"type":"refresh_scopes","scope":"nope:read"})");
    ASSERT_FALSE(unknown) << "an unknown scope was accepted";
    EXPECT_NE(unknown.error().find("nope:read"), std::string::npos) << unknown.error();
}

}  // namespace
}  // namespace app_scope_refresh_test
}  // namespace roomkey::app
