// endpoints.hpp: the allowlist of REST API endpoints (spec 4.4-4.8, Chatwork-style
// API v2), shared by the helper's API proxy and the sandbox's router: a path
// that match_endpoint() does not recognise is never forwarded or served. The
// paths, methods, parameters and scopes live in one table,
// endpoint_catalog.hpp; the functions here read it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "roomkey/http.hpp"

namespace roomkey {

enum class Endpoint {
    // The caller's own account (scope users.*).
    me,                        // GET    /me
    my_status,                 // GET    /my/status
    my_tasks,                  // GET    /my/tasks
    // Contacts and contact approval requests (scope contacts.*).
    contacts,                  // GET    /contacts
    incoming_requests_get,     // GET    /incoming_requests
    incoming_requests_put,     // PUT    /incoming_requests/{request_id}
    incoming_requests_delete,  // DELETE /incoming_requests/{request_id}
    // Rooms (scope rooms.*).
    rooms_list,                // GET    /rooms
    rooms_create,              // POST   /rooms
    room_get,                  // GET    /rooms/{room_id}
    room_update,               // PUT    /rooms/{room_id}
    room_delete,               // DELETE /rooms/{room_id}
    room_members_get,          // GET    /rooms/{room_id}/members
    room_members_put,          // PUT    /rooms/{room_id}/members
    room_messages_get,         // GET    /rooms/{room_id}/messages
    room_messages_post,        // POST   /rooms/{room_id}/messages      (spec 4.6, 8.2)
    room_messages_read_put,    // PUT    /rooms/{room_id}/messages/read
    room_messages_unread_put,  // PUT    /rooms/{room_id}/messages/unread
    room_message_get,          // GET    /rooms/{room_id}/messages/{message_id}
    room_message_put,          // PUT    /rooms/{room_id}/messages/{message_id}
    room_message_delete,       // DELETE /rooms/{room_id}/messages/{message_id}
    room_tasks_get,            // GET    /rooms/{room_id}/tasks
    room_tasks_post,           // POST   /rooms/{room_id}/tasks         (spec 4.7, 8.2)
    room_task_get,             // GET    /rooms/{room_id}/tasks/{task_id}
    room_task_status_put,      // PUT    /rooms/{room_id}/tasks/{task_id}/status
    room_files_get,            // GET    /rooms/{room_id}/files
    room_files_post,           // POST   /rooms/{room_id}/files
    room_file_get,             // GET    /rooms/{room_id}/files/{file_id}
    room_link_get,             // GET    /rooms/{room_id}/link
    room_link_post,            // POST   /rooms/{room_id}/link
    room_link_put,             // PUT    /rooms/{room_id}/link
    room_link_delete,          // DELETE /rooms/{room_id}/link
};

// Every Endpoint value, in declaration order (for tables and exhaustive tests).
inline constexpr Endpoint kAllEndpoints[] = {
    Endpoint::me, Endpoint::my_status, Endpoint::my_tasks, Endpoint::contacts,
    Endpoint::incoming_requests_get, Endpoint::incoming_requests_put,
    Endpoint::incoming_requests_delete, Endpoint::rooms_list, Endpoint::rooms_create,
    Endpoint::room_get, Endpoint::room_update, Endpoint::room_delete,
    Endpoint::room_members_get, Endpoint::room_members_put, Endpoint::room_messages_get,
    Endpoint::room_messages_post, Endpoint::room_messages_read_put,
    Endpoint::room_messages_unread_put, Endpoint::room_message_get,
    Endpoint::room_message_put, Endpoint::room_message_delete, Endpoint::room_tasks_get,
    Endpoint::room_tasks_post, Endpoint::room_task_get, Endpoint::room_task_status_put,
    Endpoint::room_files_get, Endpoint::room_files_post, Endpoint::room_file_get,
    Endpoint::room_link_get, Endpoint::room_link_post, Endpoint::room_link_put,
    Endpoint::room_link_delete,
};

// What the app reads as soon as a session starts, all at once: its
// dashboard (the account, the unread/mention/task counts, the room list).
// The app sends these (web/app, App::load_dashboard); the helper opens as many
// upstream connections when a sign-in comes back to it (Proxy::callback_arrived).
inline constexpr Endpoint kDashboardReads[] = {Endpoint::me, Endpoint::my_status, Endpoint::rooms_list};

struct EndpointMatch {
    Endpoint endpoint;
    std::string room_id;  // digits, for /rooms/{room_id}/...; empty otherwise
    std::string item_id;  // digits: message_id, task_id, file_id or request_id; empty otherwise
};

// The one rule for resource ids (room, message, task, file, request, account):
// 1-20 ASCII digits without a leading zero, so one resource has exactly one
// spelling. Used by match_endpoint and by the API builders and readers.
bool is_resource_id(std::string_view text);

// Recognises `path`, relative to {base_url} ("/rooms/123/messages"; no query,
// no fragment), by the endpoint catalog's path templates. IDs must pass is_resource_id (per-room limits cannot be
// dodged with "0123", nor the allowlist with "..", "%2e"). Refused: empty segments ("//", trailing '/'), '.' or '..' segments,
// percent escapes, unknown paths, and methods the path does not offer.
std::optional<EndpointMatch> match_endpoint(Method method, std::string_view path);

// The method an endpoint is called with.
Method method_of(Endpoint endpoint);

// True for POST /rooms/{room_id}/messages and POST /rooms/{room_id}/tasks,
// the calls counted together by the per-room posting limit (spec 8.2).
bool is_room_post(Endpoint endpoint);

// Stable identifier, the enumerator's name ("room_messages_post").
std::string_view to_string(Endpoint endpoint);

}  // namespace roomkey
