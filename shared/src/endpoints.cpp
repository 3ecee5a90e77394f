// endpoints.cpp: the REST endpoint allowlist (see endpoints.hpp).
#include "roomkey/endpoints.hpp"

#include <array>
#include <cstddef>

namespace roomkey {

namespace {

constexpr std::size_t kMaxSegments = 5;  // rooms/{id}/tasks/{id}/status is the longest
constexpr std::size_t kMaxIdDigits = 20;  // enough for any unsigned 64-bit value

bool is_id(std::string_view s) { return is_resource_id(s); }

// Splits "/a/b/c" into {"a","b","c"}; nullopt for anything that is not a
// plain sequence of non-empty segments (no trailing '/', no "//").
std::optional<std::array<std::string_view, kMaxSegments>> split(std::string_view path,
                                                                 std::size_t& count) {
    std::array<std::string_view, kMaxSegments> segments{};
    count = 0;
    if (path.size() < 2 || path[0] != '/') return std::nullopt;
    std::size_t start = 1;
    while (true) {
        std::size_t slash = path.find('/', start);
        std::string_view segment =
            path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        if (segment.empty() || count == kMaxSegments) return std::nullopt;
        segments[count++] = segment;
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    return segments;
}

std::optional<EndpointMatch> pick(Method method, std::initializer_list<std::pair<Method, Endpoint>> options,
                                  std::string_view room_id = {}, std::string_view item_id = {}) {
    for (const auto& [m, endpoint] : options) {
        if (m == method) return EndpointMatch{endpoint, std::string(room_id), std::string(item_id)};
    }
    return std::nullopt;
}

std::optional<EndpointMatch> match_room(Method method, const std::array<std::string_view, kMaxSegments>& s,
                                        std::size_t n) {
    const std::string_view room = s[1];
    if (!is_id(room)) return std::nullopt;
    if (n == 2) {
        return pick(method, {{Method::Get, Endpoint::room_get},
                             {Method::Put, Endpoint::room_update},
                             {Method::Delete, Endpoint::room_delete}},
                    room);
    }
    const std::string_view kind = s[2];
    if (n == 3) {
        if (kind == "members") {
            return pick(method, {{Method::Get, Endpoint::room_members_get}, {Method::Put, Endpoint::room_members_put}},
                        room);
        }
        if (kind == "messages") {
            return pick(method,
                        {{Method::Get, Endpoint::room_messages_get}, {Method::Post, Endpoint::room_messages_post}},
                        room);
        }
        if (kind == "tasks") {
            return pick(method, {{Method::Get, Endpoint::room_tasks_get}, {Method::Post, Endpoint::room_tasks_post}},
                        room);
        }
        if (kind == "files") {
            return pick(method, {{Method::Get, Endpoint::room_files_get}, {Method::Post, Endpoint::room_files_post}},
                        room);
        }
        if (kind == "link") {
            return pick(method,
                        {{Method::Get, Endpoint::room_link_get},
                         {Method::Post, Endpoint::room_link_post},
                         {Method::Put, Endpoint::room_link_put},
                         {Method::Delete, Endpoint::room_link_delete}},
                        room);
        }
        return std::nullopt;
    }
    const std::string_view item = s[3];
    if (n == 4) {
        if (kind == "messages") {
            // "read" and "unread" are words, every other 4th segment must be a message id.
            if (item == "read") return pick(method, {{Method::Put, Endpoint::room_messages_read_put}}, room);
            if (item == "unread") return pick(method, {{Method::Put, Endpoint::room_messages_unread_put}}, room);
            if (!is_id(item)) return std::nullopt;
            return pick(method,
                        {{Method::Get, Endpoint::room_message_get},
                         {Method::Put, Endpoint::room_message_put},
                         {Method::Delete, Endpoint::room_message_delete}},
                        room, item);
        }
        if (!is_id(item)) return std::nullopt;
        if (kind == "tasks") return pick(method, {{Method::Get, Endpoint::room_task_get}}, room, item);
        if (kind == "files") return pick(method, {{Method::Get, Endpoint::room_file_get}}, room, item);
        return std::nullopt;
    }
    if (n == 5 && kind == "tasks" && is_id(item) && s[4] == "status") {
        return pick(method, {{Method::Put, Endpoint::room_task_status_put}}, room, item);
    }
    return std::nullopt;
}

}  // namespace

bool is_resource_id(std::string_view text) {
    if (text.empty() || text.size() > kMaxIdDigits || text[0] == '0') return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

std::optional<EndpointMatch> match_endpoint(Method method, std::string_view path) {
    std::size_t n = 0;
    const auto segments = split(path, n);
    if (!segments) return std::nullopt;
    const auto& s = *segments;
    const std::string_view first = s[0];

    if (first == "me" && n == 1) return pick(method, {{Method::Get, Endpoint::me}});
    if (first == "my" && n == 2) {
        if (s[1] == "status") return pick(method, {{Method::Get, Endpoint::my_status}});
        if (s[1] == "tasks") return pick(method, {{Method::Get, Endpoint::my_tasks}});
        return std::nullopt;
    }
    if (first == "contacts" && n == 1) return pick(method, {{Method::Get, Endpoint::contacts}});
    if (first == "incoming_requests") {
        if (n == 1) return pick(method, {{Method::Get, Endpoint::incoming_requests_get}});
        if (n == 2 && is_id(s[1])) {
            return pick(method,
                        {{Method::Put, Endpoint::incoming_requests_put},
                         {Method::Delete, Endpoint::incoming_requests_delete}},
                        {}, s[1]);
        }
        return std::nullopt;
    }
    if (first == "rooms") {
        if (n == 1) {
            return pick(method, {{Method::Get, Endpoint::rooms_list}, {Method::Post, Endpoint::rooms_create}});
        }
        return match_room(method, s, n);
    }
    return std::nullopt;
}

Method method_of(Endpoint endpoint) {
    switch (endpoint) {
        case Endpoint::me:
        case Endpoint::my_status:
        case Endpoint::my_tasks:
        case Endpoint::contacts:
        case Endpoint::incoming_requests_get:
        case Endpoint::rooms_list:
        case Endpoint::room_get:
        case Endpoint::room_members_get:
        case Endpoint::room_messages_get:
        case Endpoint::room_message_get:
        case Endpoint::room_tasks_get:
        case Endpoint::room_task_get:
        case Endpoint::room_files_get:
        case Endpoint::room_file_get:
        case Endpoint::room_link_get: return Method::Get;
        case Endpoint::rooms_create:
        case Endpoint::room_messages_post:
        case Endpoint::room_tasks_post:
        case Endpoint::room_files_post:
        case Endpoint::room_link_post: return Method::Post;
        case Endpoint::incoming_requests_put:
        case Endpoint::room_update:
        case Endpoint::room_members_put:
        case Endpoint::room_messages_read_put:
        case Endpoint::room_messages_unread_put:
        case Endpoint::room_message_put:
        case Endpoint::room_task_status_put:
        case Endpoint::room_link_put: return Method::Put;
        case Endpoint::incoming_requests_delete:
        case Endpoint::room_delete:
        case Endpoint::room_message_delete:
        case Endpoint::room_link_delete: return Method::Delete;
    }
    return Method::Get;
}

bool is_room_post(Endpoint endpoint) {
    return endpoint == Endpoint::room_messages_post || endpoint == Endpoint::room_tasks_post;
}

std::string_view to_string(Endpoint endpoint) {
    switch (endpoint) {
        case Endpoint::me: return "me";
        case Endpoint::my_status: return "my_status";
        case Endpoint::my_tasks: return "my_tasks";
        case Endpoint::contacts: return "contacts";
        case Endpoint::incoming_requests_get: return "incoming_requests_get";
        case Endpoint::incoming_requests_put: return "incoming_requests_put";
        case Endpoint::incoming_requests_delete: return "incoming_requests_delete";
        case Endpoint::rooms_list: return "rooms_list";
        case Endpoint::rooms_create: return "rooms_create";
        case Endpoint::room_get: return "room_get";
        case Endpoint::room_update: return "room_update";
        case Endpoint::room_delete: return "room_delete";
        case Endpoint::room_members_get: return "room_members_get";
        case Endpoint::room_members_put: return "room_members_put";
        case Endpoint::room_messages_get: return "room_messages_get";
        case Endpoint::room_messages_post: return "room_messages_post";
        case Endpoint::room_messages_read_put: return "room_messages_read_put";
        case Endpoint::room_messages_unread_put: return "room_messages_unread_put";
        case Endpoint::room_message_get: return "room_message_get";
        case Endpoint::room_message_put: return "room_message_put";
        case Endpoint::room_message_delete: return "room_message_delete";
        case Endpoint::room_tasks_get: return "room_tasks_get";
        case Endpoint::room_tasks_post: return "room_tasks_post";
        case Endpoint::room_task_get: return "room_task_get";
        case Endpoint::room_task_status_put: return "room_task_status_put";
        case Endpoint::room_files_get: return "room_files_get";
        case Endpoint::room_files_post: return "room_files_post";
        case Endpoint::room_file_get: return "room_file_get";
        case Endpoint::room_link_get: return "room_link_get";
        case Endpoint::room_link_post: return "room_link_post";
        case Endpoint::room_link_put: return "room_link_put";
        case Endpoint::room_link_delete: return "room_link_delete";
    }
    return "unknown";
}

}  // namespace roomkey
