// incremental_consent_test.cpp: "sign in again adding <scope>" asks for the
// union of the grant and the scope, and never offline_access for the public client.
#include "roomkey/incremental_consent.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace incremental_consent_test {
namespace {

TEST(ScopesAdding, IsTheUnionOfTheGrantAndTheScope) {
    const ScopeSet granted{"users.profile.me:read", "rooms.info:read"};
    const auto r = scopes_adding(granted, "rooms.messages:read", ClientType::public_client);
    ASSERT_TRUE(r) << to_string(r.error());
    EXPECT_EQ(format_scope_list(*r), "users.profile.me:read rooms.info:read rooms.messages:read");
}

TEST(ScopesAdding, CompactsToAggregatesWhenTheyAreComplete) {
    const ScopeSet granted{"users.profile.me:read", "users.status.me:read"};
    const auto r = scopes_adding(granted, "users.tasks.me:read", ClientType::public_client);
    ASSERT_TRUE(r) << describe(r.error(), "users.tasks.me:read");
    EXPECT_EQ(format_scope_list(*r), "users.all:read");
    const auto rooms = scopes_adding({"rooms.all:read"}, "rooms.all:write", ClientType::public_client);
    ASSERT_TRUE(rooms) << describe(rooms.error(), "rooms.all:write");
    EXPECT_EQ(format_scope_list(*rooms), "rooms.all:read_write");
}

TEST(ScopesAdding, OfflineAccessStaysRefusedForThePublicClient) {
    const ScopeSet granted{"rooms.all:read"};
    const auto r = scopes_adding(granted, "offline_access", ClientType::public_client);
    ASSERT_FALSE(r) << "offline_access added for a public client: " << format_scope_list(*r);
    EXPECT_EQ(r.error(), AddScopeError::offline_access_public_client);
    EXPECT_NE(describe(r.error(), "offline_access").find("confidential"), std::string::npos);
    // A grant that somehow named it does not carry it into the new request.
    const auto dropped =
        scopes_adding({"offline_access", "rooms.all:read"}, "contacts.all:read", ClientType::public_client);
    ASSERT_TRUE(dropped) << describe(dropped.error(), "contacts.all:read");
    EXPECT_EQ(dropped->count("offline_access"), 0u);
    // A confidential client may add it.
    const auto conf = scopes_adding(granted, "offline_access", ClientType::confidential);
    ASSERT_TRUE(conf) << describe(conf.error(), "offline_access");
    EXPECT_EQ(conf->count("offline_access"), 1u);
}

TEST(ScopesAdding, RefusesUnknownAndAlreadyGranted) {
    EXPECT_EQ(scopes_adding({}, "rooms.everything", ClientType::public_client).error(), AddScopeError::unknown_scope);
    EXPECT_EQ(scopes_adding({"rooms.all:read"}, "rooms.tasks:read", ClientType::public_client).error(),
              AddScopeError::already_granted)
        << "the aggregate already grants the leaf";
    EXPECT_NE(describe(AddScopeError::unknown_scope, "rooms.everything").find("rooms.everything"), std::string::npos);
}

}  // namespace
}  // namespace incremental_consent_test
}  // namespace roomkey
