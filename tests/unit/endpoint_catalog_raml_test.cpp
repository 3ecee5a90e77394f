// endpoint_catalog_raml_test.cpp: the catalog's scopes against the service's
// published API description. The table below is copied from the securedBy
// lists of chatwork/api, RAML/api-ja.raml (HEAD 65670e1): for every method
// and path, the scopes any one of which lets a token call it (the aggregate
// scopes first, the leaf last). The catalog names the leaf; spec 5.5's
// aggregates must grant it, and no other scope may.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/scopes.hpp"

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace endpoint_catalog_raml_test {
namespace {

struct RamlSecuredBy {
    Method method;
    std::string_view path;
    std::vector<std::string_view> scopes;  // as listed in the RAML, the leaf last
};

const std::vector<RamlSecuredBy>& raml_table() {
    using M = Method;
    static const std::vector<RamlSecuredBy> table = {
        {M::Get, "/me", {"users.all:read", "users.profile.me:read"}},
        {M::Get, "/my/status", {"users.all:read", "users.status.me:read"}},
        {M::Get, "/my/tasks", {"users.all:read", "users.tasks.me:read"}},
        {M::Get, "/contacts", {"contacts.all:read_write", "contacts.all:read"}},
        {M::Get, "/incoming_requests", {"contacts.all:read_write", "contacts.all:read"}},
        {M::Put, "/incoming_requests/{request_id}", {"contacts.all:read_write", "contacts.all:write"}},
        {M::Delete, "/incoming_requests/{request_id}", {"contacts.all:read_write", "contacts.all:write"}},
        {M::Get, "/rooms", {"rooms.all:read_write", "rooms.all:read", "rooms.info:read"}},
        {M::Post, "/rooms", {"rooms.all:read_write", "rooms.all:write", "rooms:write"}},
        {M::Get, "/rooms/{room_id}", {"rooms.all:read_write", "rooms.all:read", "rooms.info:read"}},
        {M::Put, "/rooms/{room_id}", {"rooms.all:read_write", "rooms.all:write", "rooms.info:write"}},
        {M::Delete, "/rooms/{room_id}", {"rooms.all:read_write", "rooms.all:write", "rooms:write"}},
        {M::Get, "/rooms/{room_id}/members", {"rooms.all:read_write", "rooms.all:read", "rooms.members:read"}},
        {M::Put, "/rooms/{room_id}/members", {"rooms.all:read_write", "rooms.all:write", "rooms.members:write"}},
        {M::Get, "/rooms/{room_id}/messages", {"rooms.all:read_write", "rooms.all:read", "rooms.messages:read"}},
        {M::Post, "/rooms/{room_id}/messages", {"rooms.all:read_write", "rooms.all:write", "rooms.messages:write"}},
        {M::Put, "/rooms/{room_id}/messages/read", {"rooms.all:read_write", "rooms.all:write", "rooms.messages:write"}},
        {M::Put, "/rooms/{room_id}/messages/unread", {"rooms.all:read_write", "rooms.all:write", "rooms.messages:write"}},
        {M::Get, "/rooms/{room_id}/messages/{message_id}", {"rooms.all:read_write", "rooms.all:read", "rooms.messages:read"}},
        {M::Put, "/rooms/{room_id}/messages/{message_id}", {"rooms.all:read_write", "rooms.all:write", "rooms.messages:write"}},
        {M::Delete, "/rooms/{room_id}/messages/{message_id}", {"rooms.all:read_write", "rooms.all:write", "rooms.messages:write"}},
        {M::Get, "/rooms/{room_id}/tasks", {"rooms.all:read_write", "rooms.all:read", "rooms.tasks:read"}},
        {M::Post, "/rooms/{room_id}/tasks", {"rooms.all:read_write", "rooms.all:write", "rooms.tasks:write"}},
        {M::Get, "/rooms/{room_id}/tasks/{task_id}", {"rooms.all:read_write", "rooms.all:read", "rooms.tasks:read"}},
        {M::Put, "/rooms/{room_id}/tasks/{task_id}/status", {"rooms.all:read_write", "rooms.all:write", "rooms.tasks:write"}},
        {M::Get, "/rooms/{room_id}/files", {"rooms.all:read_write", "rooms.all:read", "rooms.files:read"}},
        {M::Post, "/rooms/{room_id}/files", {"rooms.all:read_write", "rooms.all:write", "rooms.files:write"}},
        {M::Get, "/rooms/{room_id}/files/{file_id}", {"rooms.all:read_write", "rooms.all:read", "rooms.files:read"}},
        {M::Get, "/rooms/{room_id}/link", {"rooms.all:read_write", "rooms.all:read", "rooms.info:read"}},
        {M::Post, "/rooms/{room_id}/link", {"rooms.all:read_write", "rooms.all:write", "rooms.info:write"}},
        {M::Put, "/rooms/{room_id}/link", {"rooms.all:read_write", "rooms.all:write", "rooms.info:write"}},
        {M::Delete, "/rooms/{room_id}/link", {"rooms.all:read_write", "rooms.all:write", "rooms.info:write"}},
    };
    return table;
}

TEST(EndpointCatalogRaml, EveryCatalogEntryIsInTheRamlAndTheOtherWayRound) {
    std::set<std::string> raml;
    for (const RamlSecuredBy& row : raml_table()) {
        raml.insert(std::string(to_string(row.method)) + " " + std::string(row.path));
        EXPECT_NE(find_endpoint(row.method, row.path), nullptr) << to_string(row.method) << " " << row.path;
    }
    for (const EndpointInfo& info : endpoint_catalog()) {
        EXPECT_EQ(raml.count(std::string(to_string(info.method)) + " " + std::string(info.path)), 1u)
            << to_string(info.method) << " " << info.path << " is not in the RAML table";
    }
}

TEST(EndpointCatalogRaml, TheCatalogScopeIsTheRamlLeafScope) {
    for (const RamlSecuredBy& row : raml_table()) {
        const EndpointInfo* info = find_endpoint(row.method, row.path);
        ASSERT_NE(info, nullptr);
        EXPECT_EQ(info->scope, row.scopes.back()) << to_string(row.method) << " " << row.path;
    }
}

TEST(EndpointCatalogRaml, EachRamlScopeAloneGrantsTheEndpointAndNoOtherScopeDoes) {
    for (const RamlSecuredBy& row : raml_table()) {
        const EndpointInfo* info = find_endpoint(row.method, row.path);
        ASSERT_NE(info, nullptr);
        const std::set<std::string_view> listed(row.scopes.begin(), row.scopes.end());
        for (const ScopeInfo& scope : scope_catalog()) {
            const bool allowed = grant_allows(ScopeSet{std::string(scope.name)}, info->endpoint);
            EXPECT_EQ(allowed, listed.count(scope.name) == 1)
                << scope.name << " for " << to_string(row.method) << " " << row.path;
        }
    }
}

// The issue that found it: "Mark as read" after a read-only sign-in fails live.
TEST(EndpointCatalogRaml, MarkReadIsRefusedToAReadOnlyGrant) {
    EXPECT_FALSE(grant_allows(ScopeSet{"rooms.all:read"}, Endpoint::room_messages_read_put));
    EXPECT_FALSE(grant_allows(ScopeSet{"rooms.messages:read"}, Endpoint::room_messages_unread_put));
    EXPECT_TRUE(grant_allows(ScopeSet{"rooms.messages:write"}, Endpoint::room_messages_read_put));
}

}  // namespace
}  // namespace endpoint_catalog_raml_test
}  // namespace roomkey
