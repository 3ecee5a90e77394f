// endpoints.cpp: the REST endpoint allowlist (see endpoints.hpp).
#include "roomkey/endpoints.hpp"

#include <cstddef>
#include <utility>

#include "roomkey/endpoint_catalog.hpp"

namespace roomkey {

namespace {

constexpr std::size_t kMaxIdDigits = 20;  // enough for any unsigned 64-bit value

}  // namespace

bool is_resource_id(std::string_view text) {
    if (text.empty() || text.size() > kMaxIdDigits || text[0] == '0') return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

// The catalog's templates are the allowlist: a path matches the entry whose
// template it fills with valid ids. No two entries share method and template,
// and ids never equal a literal segment ("read", "status"), so at most one
// entry matches (tests/unit/endpoint_catalog_test.cpp proves it both ways).
std::optional<EndpointMatch> match_endpoint(Method method, std::string_view path) {
    for (const EndpointInfo& info : endpoint_catalog()) {
        if (info.method != method) continue;
        if (auto ids = match_path_template(info.path, path)) {
            return EndpointMatch{info.endpoint, std::move(ids->room_id), std::move(ids->item_id)};
        }
    }
    return std::nullopt;
}

Method method_of(Endpoint endpoint) {
    return endpoint_info(endpoint).method;
}

bool is_room_post(Endpoint endpoint) {
    return endpoint_info(endpoint).room_post;
}

std::string_view to_string(Endpoint endpoint) {
    switch (endpoint) {
        case Endpoint::me:
            return "me";
        case Endpoint::my_status:
            return "my_status";
        case Endpoint::my_tasks:
            return "my_tasks";
        case Endpoint::contacts:
            return "contacts";
        case Endpoint::incoming_requests_get:
            return "incoming_requests_get";
        case Endpoint::incoming_requests_put:
            return "incoming_requests_put";
        case Endpoint::incoming_requests_delete:
            return "incoming_requests_delete";
        case Endpoint::rooms_list:
            return "rooms_list";
        case Endpoint::rooms_create:
            return "rooms_create";
        case Endpoint::room_get:
            return "room_get";
        case Endpoint::room_update:
            return "room_update";
        case Endpoint::room_delete:
            return "room_delete";
        case Endpoint::room_members_get:
            return "room_members_get";
        case Endpoint::room_members_put:
            return "room_members_put";
        case Endpoint::room_messages_get:
            return "room_messages_get";
        case Endpoint::room_messages_post:
            return "room_messages_post";
        case Endpoint::room_messages_read_put:
            return "room_messages_read_put";
        case Endpoint::room_messages_unread_put:
            return "room_messages_unread_put";
        case Endpoint::room_message_get:
            return "room_message_get";
        case Endpoint::room_message_put:
            return "room_message_put";
        case Endpoint::room_message_delete:
            return "room_message_delete";
        case Endpoint::room_tasks_get:
            return "room_tasks_get";
        case Endpoint::room_tasks_post:
            return "room_tasks_post";
        case Endpoint::room_task_get:
            return "room_task_get";
        case Endpoint::room_task_status_put:
            return "room_task_status_put";
        case Endpoint::room_files_get:
            return "room_files_get";
        case Endpoint::room_files_post:
            return "room_files_post";
        case Endpoint::room_file_get:
            return "room_file_get";
        case Endpoint::room_link_get:
            return "room_link_get";
        case Endpoint::room_link_post:
            return "room_link_post";
        case Endpoint::room_link_put:
            return "room_link_put";
        case Endpoint::room_link_delete:
            return "room_link_delete";
    }
    return "unknown";
}

}  // namespace roomkey
