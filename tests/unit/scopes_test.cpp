// scopes_test.cpp: the scope catalog and scope rules (spec 5.4.4, 5.5, 4.3).
#include "roomkey/scopes.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace scopes_test {
namespace {

ScopeSet set_of(std::initializer_list<const char*> names) {
    ScopeSet out;
    for (const char* name : names) out.insert(name);
    return out;
}

const ScopeSet kRoomLeaves = set_of({"rooms:write", "rooms.info:read", "rooms.info:write", "rooms.members:read",
                                     "rooms.members:write", "rooms.messages:read", "rooms.messages:write",
                                     "rooms.tasks:read", "rooms.tasks:write", "rooms.files:read",
                                     "rooms.files:write"});

// spec 5.5: 22 rows, 5 aggregates, every included name is itself in the catalog.
TEST(ScopeCatalog, Spec55HasEveryRow) {
    const auto& catalog = scope_catalog();
    EXPECT_EQ(catalog.size(), 22u);
    ScopeSet names;
    ScopeSet aggregates;
    for (const auto& scope : catalog) {
        EXPECT_TRUE(names.insert(std::string(scope.name)).second) << "duplicate " << scope.name;
        EXPECT_FALSE(scope.allows.empty()) << scope.name;
        if (scope.aggregate()) aggregates.insert(std::string(scope.name));
        for (auto member : scope.includes) EXPECT_TRUE(is_known_scope(member)) << scope.name << " -> " << member;
    }
    EXPECT_EQ(aggregates, set_of({"users.all:read", "rooms.all:read_write", "rooms.all:read", "rooms.all:write",
                                  "contacts.all:read_write"}));
    // The "Includes" column of spec 5.5, copied by hand.
    const std::pair<const char*, ScopeSet> includes[] = {
        {"users.all:read", set_of({"users.profile.me:read", "users.status.me:read", "users.tasks.me:read"})},
        {"rooms.all:read_write", set_of({"rooms.all:read", "rooms.all:write"})},
        {"rooms.all:read", set_of({"rooms.info:read", "rooms.members:read", "rooms.messages:read", "rooms.tasks:read",
                                   "rooms.files:read"})},
        {"rooms.all:write", set_of({"rooms:write", "rooms.info:write", "rooms.members:write", "rooms.messages:write",
                                    "rooms.tasks:write", "rooms.files:write"})},
        {"contacts.all:read_write", set_of({"contacts.all:read", "contacts.all:write"})},
    };
    for (const auto& [name, members] : includes) {
        const ScopeInfo* scope = find_scope(name);
        ASSERT_NE(scope, nullptr) << name;
        EXPECT_EQ(ScopeSet(scope->includes.begin(), scope->includes.end()), members) << name;
    }
    EXPECT_EQ(find_scope("rooms:read"), nullptr) << "not a scope of spec 5.5";
}

TEST(ScopeList, ParsesSpaceDelimitedNames) {
    auto parsed = parse_scope_list("rooms.all:read users.status.me:read");
    ASSERT_TRUE(parsed) << to_string(parsed.error().kind);
    EXPECT_EQ(*parsed, set_of({"rooms.all:read", "users.status.me:read"}));
}

TEST(ScopeList, ToleratesRepeatsAndExtraSpaces) {
    auto parsed = parse_scope_list("  offline_access   users.all:read offline_access ");
    ASSERT_TRUE(parsed) << to_string(parsed.error().kind);
    EXPECT_EQ(*parsed, set_of({"offline_access", "users.all:read"}));
}

// spec 7.1 code 5001.
TEST(ScopeList, EmptyListIsScopeMissing) {
    for (const char* text : {"", "   "}) {
        auto parsed = parse_scope_list(text);
        ASSERT_FALSE(parsed) << "accepted '" << text << "'";
        EXPECT_EQ(parsed.error().kind, ScopeError::empty);
        EXPECT_EQ(to_authorization_error(parsed.error().kind), AuthorizationErrorCode::scope_missing);
    }
}

// spec 7.1 code 5002: names are case-sensitive; every unknown name is reported once.
TEST(ScopeList, UnknownNamesAreListed) {
    auto parsed = parse_scope_list("foo rooms.all:read Rooms.all:read foo users.all:read\tbar");
    ASSERT_FALSE(parsed) << "parsed as " << format_scope_list(*parsed);
    EXPECT_EQ(parsed.error().kind, ScopeError::unknown);
    EXPECT_EQ(parsed.error().unknown, (std::vector<std::string>{"foo", "Rooms.all:read", "users.all:read\tbar"}))
        << "only spaces separate names (RFC 6749 3.3)";
    EXPECT_EQ(to_authorization_error(ScopeError::unknown), AuthorizationErrorCode::scope_unknown);
}

TEST(ScopeList, FormatIsStableCatalogOrder) {
    const auto a = format_scope_list(set_of({"rooms.messages:read", "users.all:read", "offline_access"}));
    EXPECT_EQ(a, "offline_access users.all:read rooms.messages:read");
    EXPECT_EQ(format_scope_list({}), "");
    EXPECT_EQ(format_scope_list(set_of({"zz", "rooms:write", "aa"})), "rooms:write aa zz");
    auto reparsed = parse_scope_list(a);
    ASSERT_TRUE(reparsed) << to_string(reparsed.error().kind) << ": " << a;
    EXPECT_EQ(format_scope_list(*reparsed), a);
}

// spec 5.5: aggregates include their listed scopes, transitively.
TEST(ScopeRules, ExpandIsTransitive) {
    ScopeSet expanded = expand(set_of({"rooms.all:read_write"}));
    ScopeSet want = kRoomLeaves;
    want.insert({"rooms.all:read_write", "rooms.all:read", "rooms.all:write"});
    EXPECT_EQ(expanded, want);
    EXPECT_EQ(leaf_scopes(set_of({"rooms.all:read_write"})), kRoomLeaves);
    EXPECT_EQ(expand(set_of({"offline_access", "x"})), set_of({"offline_access", "x"}));
}

TEST(ScopeRules, CompactUsesAggregates) {
    EXPECT_EQ(compact(set_of({"rooms.all:read", "rooms.all:write"})), set_of({"rooms.all:read_write"}));
    EXPECT_EQ(compact(kRoomLeaves), set_of({"rooms.all:read_write"}));
    EXPECT_EQ(compact(set_of({"users.profile.me:read", "users.status.me:read", "users.tasks.me:read",
                              "offline_access"})),
              set_of({"users.all:read", "offline_access"}));
    ScopeSet partial = kRoomLeaves;
    partial.erase("rooms:write");
    ScopeSet want = set_of({"rooms.all:read", "rooms.info:write", "rooms.members:write", "rooms.messages:write",
                            "rooms.tasks:write", "rooms.files:write"});
    EXPECT_EQ(compact(partial), want);
    EXPECT_EQ(compact(set_of({"contacts.all:read"})), set_of({"contacts.all:read"}));
}

TEST(ScopeRules, CompactAndExpandAgreeOnEveryScope) {
    for (const auto& scope : scope_catalog()) {
        ScopeSet one{std::string(scope.name)};
        EXPECT_EQ(compact(expand(one)), one) << scope.name;
        EXPECT_EQ(leaf_scopes(compact(leaf_scopes(one))), leaf_scopes(one)) << scope.name;
    }
}

// spec 4.3: a refresh may ask only for scopes within the original grant.
TEST(ScopeRules, SubsetGrantComparesLeaves) {
    EXPECT_TRUE(is_subset_grant(set_of({"rooms.messages:read"}), set_of({"rooms.all:read"})));
    EXPECT_TRUE(is_subset_grant(set_of({"rooms.all:read"}), leaf_scopes(set_of({"rooms.all:read"}))))
        << "an aggregate is granted by all of its leaves";
    EXPECT_FALSE(is_subset_grant(set_of({"rooms.all:read_write"}), set_of({"rooms.all:read"})));
    EXPECT_FALSE(is_subset_grant(set_of({"offline_access"}), set_of({"users.all:read"})));
    EXPECT_TRUE(is_subset_grant({}, set_of({"users.all:read"})));
    EXPECT_TRUE(grants(set_of({"users.all:read"}), "users.tasks.me:read"));
    EXPECT_FALSE(grants(set_of({"users.profile.me:read"}), "users.all:read"));
}

// spec 5.4.4: offline_access alone gives no API access.
TEST(ScopeRules, Spec544OfflineAccessAloneGivesNoAccess) {
    EXPECT_FALSE(gives_api_access(set_of({"offline_access"})));
    EXPECT_FALSE(gives_api_access({}));
    EXPECT_TRUE(gives_api_access(set_of({"offline_access", "users.status.me:read"})));
    for (Endpoint endpoint : kAllEndpoints) {
        EXPECT_FALSE(grant_allows(set_of({"offline_access"}), endpoint)) << to_string(endpoint);
    }
}

// spec 5.5: every endpoint needs exactly one leaf scope of the catalog.
TEST(EndpointScopes, EveryEndpointNeedsAKnownLeaf) {
    for (Endpoint endpoint : kAllEndpoints) {
        auto scope = required_scope(endpoint);
        ASSERT_TRUE(scope) << to_string(endpoint) << " has no scope";
        const ScopeInfo* info = find_scope(*scope);
        ASSERT_NE(info, nullptr) << *scope;
        EXPECT_FALSE(info->aggregate()) << to_string(endpoint) << " maps to an aggregate";
        EXPECT_NE(*scope, kOfflineAccessScope);
        EXPECT_TRUE(grant_allows(ScopeSet{std::string(*scope)}, endpoint)) << to_string(endpoint);
    }
}

// spec 5.5 "Allows" column, one line per endpoint family.
TEST(EndpointScopes, Spec55Mapping) {
    EXPECT_EQ(required_scope(Endpoint::me), "users.profile.me:read");
    EXPECT_EQ(required_scope(Endpoint::my_status), "users.status.me:read");
    EXPECT_EQ(required_scope(Endpoint::my_tasks), "users.tasks.me:read");
    EXPECT_EQ(required_scope(Endpoint::rooms_list), "rooms.info:read");
    EXPECT_EQ(required_scope(Endpoint::rooms_create), "rooms:write");
    EXPECT_EQ(required_scope(Endpoint::room_delete), "rooms:write");
    EXPECT_EQ(required_scope(Endpoint::room_update), "rooms.info:write");
    EXPECT_EQ(required_scope(Endpoint::room_members_get), "rooms.members:read");
    EXPECT_EQ(required_scope(Endpoint::room_members_put), "rooms.members:write");
    EXPECT_EQ(required_scope(Endpoint::room_messages_get), "rooms.messages:read");
    EXPECT_EQ(required_scope(Endpoint::room_messages_post), "rooms.messages:write");
    EXPECT_EQ(required_scope(Endpoint::room_message_delete), "rooms.messages:write");
    EXPECT_EQ(required_scope(Endpoint::room_tasks_post), "rooms.tasks:write");
    EXPECT_EQ(required_scope(Endpoint::room_task_get), "rooms.tasks:read");
    EXPECT_EQ(required_scope(Endpoint::room_files_post), "rooms.files:write");
    EXPECT_EQ(required_scope(Endpoint::room_file_get), "rooms.files:read");
    EXPECT_EQ(required_scope(Endpoint::contacts), "contacts.all:read");
    EXPECT_EQ(required_scope(Endpoint::incoming_requests_put), "contacts.all:write");
}

TEST(EndpointScopes, GrantAllowsThroughAggregates) {
    const ScopeSet users = set_of({"users.all:read"});
    EXPECT_TRUE(grant_allows(users, Endpoint::me));
    EXPECT_TRUE(grant_allows(users, Endpoint::my_status));
    EXPECT_FALSE(grant_allows(users, Endpoint::room_messages_post));
    const ScopeSet rooms = set_of({"rooms.all:read_write"});
    for (Endpoint endpoint : kAllEndpoints) {
        std::string_view name = to_string(endpoint);
        bool is_room = name.rfind("room", 0) == 0;
        EXPECT_EQ(grant_allows(rooms, endpoint), is_room) << name;
    }
    EXPECT_FALSE(grant_allows(set_of({"rooms.all:read"}), Endpoint::room_messages_post))
        << "reading rooms does not allow posting";
}

}  // namespace
}  // namespace scopes_test
}  // namespace roomkey
