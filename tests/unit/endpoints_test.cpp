// endpoints_test.cpp: the REST endpoint allowlist (spec 4.4-4.8) used by the
// helper's API proxy and the sandbox's router.
#include "roomkey/endpoints.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace endpoints_test {
namespace {

struct Row {
    Method method;
    const char* path;
    Endpoint endpoint;
    const char* room_id;
    const char* item_id;
};

const Row kTable[] = {
    {Method::Get, "/me", Endpoint::me, "", ""},                       // spec 4.4
    {Method::Get, "/my/status", Endpoint::my_status, "", ""},         // spec 4.5
    {Method::Get, "/my/tasks", Endpoint::my_tasks, "", ""},
    {Method::Get, "/contacts", Endpoint::contacts, "", ""},
    {Method::Get, "/incoming_requests", Endpoint::incoming_requests_get, "", ""},
    {Method::Put, "/incoming_requests/77", Endpoint::incoming_requests_put, "", "77"},
    {Method::Delete, "/incoming_requests/77", Endpoint::incoming_requests_delete, "", "77"},
    {Method::Get, "/rooms", Endpoint::rooms_list, "", ""},
    {Method::Post, "/rooms", Endpoint::rooms_create, "", ""},
    {Method::Get, "/rooms/123", Endpoint::room_get, "123", ""},
    {Method::Put, "/rooms/123", Endpoint::room_update, "123", ""},
    {Method::Delete, "/rooms/123", Endpoint::room_delete, "123", ""},
    {Method::Get, "/rooms/123/members", Endpoint::room_members_get, "123", ""},
    {Method::Put, "/rooms/123/members", Endpoint::room_members_put, "123", ""},
    {Method::Get, "/rooms/123/messages", Endpoint::room_messages_get, "123", ""},
    {Method::Post, "/rooms/123/messages", Endpoint::room_messages_post, "123", ""},  // spec 4.6
    {Method::Put, "/rooms/123/messages/read", Endpoint::room_messages_read_put, "123", ""},
    {Method::Put, "/rooms/123/messages/unread", Endpoint::room_messages_unread_put, "123", ""},
    {Method::Get, "/rooms/123/messages/9876543210123456789", Endpoint::room_message_get, "123",
     "9876543210123456789"},
    {Method::Put, "/rooms/123/messages/5", Endpoint::room_message_put, "123", "5"},
    {Method::Delete, "/rooms/123/messages/5", Endpoint::room_message_delete, "123", "5"},
    {Method::Get, "/rooms/123/tasks", Endpoint::room_tasks_get, "123", ""},
    {Method::Post, "/rooms/123/tasks", Endpoint::room_tasks_post, "123", ""},  // spec 4.7
    {Method::Get, "/rooms/123/tasks/8", Endpoint::room_task_get, "123", "8"},
    {Method::Put, "/rooms/123/tasks/8/status", Endpoint::room_task_status_put, "123", "8"},
    {Method::Get, "/rooms/123/files", Endpoint::room_files_get, "123", ""},
    {Method::Post, "/rooms/123/files", Endpoint::room_files_post, "123", ""},
    {Method::Get, "/rooms/123/files/4", Endpoint::room_file_get, "123", "4"},
    {Method::Get, "/rooms/123/link", Endpoint::room_link_get, "123", ""},
    {Method::Post, "/rooms/123/link", Endpoint::room_link_post, "123", ""},
    {Method::Put, "/rooms/123/link", Endpoint::room_link_put, "123", ""},
    {Method::Delete, "/rooms/123/link", Endpoint::room_link_delete, "123", ""},
};

TEST(MatchEndpoint, RecognisesEveryEndpointOfTheAllowlist) {
    std::set<Endpoint> seen;
    for (const Row& row : kTable) {
        const auto match = match_endpoint(row.method, row.path);
        ASSERT_TRUE(match) << to_string(row.method) << " " << row.path << " should be allowed";
        EXPECT_EQ(match->endpoint, row.endpoint) << row.path << " matched " << to_string(match->endpoint);
        EXPECT_EQ(match->room_id, row.room_id) << row.path;
        EXPECT_EQ(match->item_id, row.item_id) << row.path;
        EXPECT_EQ(method_of(row.endpoint), row.method) << to_string(row.endpoint);
        seen.insert(row.endpoint);
    }
    for (Endpoint e : kAllEndpoints) EXPECT_EQ(seen.count(e), 1u) << to_string(e) << " has no row in the table";
}

TEST(MatchEndpoint, RefusesMethodsThePathDoesNotOffer) {
    EXPECT_FALSE(match_endpoint(Method::Post, "/me"));
    EXPECT_FALSE(match_endpoint(Method::Delete, "/rooms"));
    EXPECT_FALSE(match_endpoint(Method::Post, "/rooms/1/messages/read"));
    EXPECT_FALSE(match_endpoint(Method::Get, "/rooms/1/messages/read"));
    EXPECT_FALSE(match_endpoint(Method::Put, "/rooms/1/tasks/2")) << "only the status of a task is PUT";
    EXPECT_FALSE(match_endpoint(Method::Delete, "/rooms/1/files/2"));
    EXPECT_FALSE(match_endpoint(Method::Get, "/incoming_requests/1"));
}

TEST(MatchEndpoint, RefusesUnknownPaths) {
    for (const char* path : {"", "/", "me", "/v2/me", "/me/", "/mee", "/my", "/my/status/x", "/rooms/1/secret",
                             "/rooms/1/tasks/2/done", "/rooms/1/messages/2/x", "/oauth/token", "/token",
                             "/rooms/1/files/2/3"}) {
        for (Method m : {Method::Get, Method::Post, Method::Put, Method::Delete}) {
            EXPECT_FALSE(match_endpoint(m, path)) << to_string(m) << " \"" << path << "\" should be refused";
        }
    }
}

// room_id and the other ids are plain digits: the proxy forwards the path as
// given, so anything else could walk out of the allowlist upstream.
TEST(MatchEndpoint, RefusesIdsThatAreNotPlainDigits) {
    for (const char* path : {"/rooms/../me", "/rooms/%2e%2e/messages", "/rooms/./messages", "/rooms/1a/messages",
                             "/rooms/-1/messages", "/rooms/+1/messages", "/rooms/ 1/messages", "/rooms//messages",
                             "/rooms/1//messages", "/rooms/%31/messages", "/rooms/1%2Fmessages", "/rooms/1;x/messages",
                             "/rooms/0123/messages", "/rooms/0/messages", "/rooms/123456789012345678901/messages",
                             "/rooms/1/messages/..", "/rooms/1/tasks/x/status", "/incoming_requests/abc",
                             "/rooms/1/messages?x=1", "/rooms/1/messages#f", "/ROOMS/1/messages", "//rooms/1/messages",
                             "/rooms/1/messages/"}) {
        EXPECT_FALSE(match_endpoint(Method::Post, path)) << "POST \"" << path << "\" should be refused";
        EXPECT_FALSE(match_endpoint(Method::Get, path)) << "GET \"" << path << "\" should be refused";
    }
    EXPECT_FALSE(match_endpoint(Method::Get, std::string_view("/rooms/1\0/messages", 18)));
    EXPECT_TRUE(match_endpoint(Method::Post, "/rooms/12345678901234567890/messages")) << "20 digits still fit";
}

// spec 8.2: POST messages and POST tasks share one per-room counter.
TEST(IsRoomPost, IsTrueExactlyForPostMessagesAndPostTasks) {
    for (Endpoint e : kAllEndpoints) {
        const bool expected = e == Endpoint::room_messages_post || e == Endpoint::room_tasks_post;
        EXPECT_EQ(is_room_post(e), expected) << to_string(e);
    }
}

TEST(EndpointToString, IsUniqueAndStable) {
    std::set<std::string_view> names;
    for (Endpoint e : kAllEndpoints) {
        EXPECT_TRUE(names.insert(to_string(e)).second) << to_string(e) << " is used twice";
    }
    EXPECT_EQ(to_string(Endpoint::room_messages_post), "room_messages_post");
    EXPECT_EQ(to_string(Endpoint::me), "me");
}

}  // namespace
}  // namespace endpoints_test
}  // namespace roomkey
