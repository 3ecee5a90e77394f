// endpoint_catalog.cpp: the endpoint table (see endpoint_catalog.hpp).
// Parameters are those the service's API v2 takes and the sandbox
// (helper/sandbox/api_handlers.cpp) reads; scopes are spec 5.5's "Allows"
// column; room_post is spec 4.6/4.7/8.2.
#include "roomkey/endpoint_catalog.hpp"

namespace roomkey {

namespace {

using W = ParamWhere;
using T = ParamType;

constexpr EndpointParam kRoomId{"room_id", W::path, T::id, true, ""};

template <std::size_t N>
constexpr EndpointParams params(const EndpointParam (&array)[N]) {
    return EndpointParams{array, N};
}

// [parameters] one array per distinct list, named after the endpoint(s) using it.
constexpr EndpointParam kMyTasks[] = {
    {"assigned_by_account_id", W::query, T::id, false, ""},
    {"status", W::query, T::choice, false, "open|done"},
};
constexpr EndpointParam kRequest[] = {{"request_id", W::path, T::id, true, ""}};
constexpr EndpointParam kRoomsCreate[] = {
    {"name", W::form, T::text, true, ""},
    {"description", W::form, T::text, false, ""},
    {"icon_preset", W::form, T::text, false, ""},
    {"members_admin_ids", W::form, T::id_list, true, ""},
    {"members_member_ids", W::form, T::id_list, false, ""},
    {"members_readonly_ids", W::form, T::id_list, false, ""},
};
constexpr EndpointParam kRoom[] = {kRoomId};
constexpr EndpointParam kRoomUpdate[] = {
    kRoomId,
    {"name", W::form, T::text, false, ""},
    {"description", W::form, T::text, false, ""},
    {"icon_preset", W::form, T::text, false, ""},
};
constexpr EndpointParam kRoomDelete[] = {
    kRoomId,
    {"action_type", W::form, T::choice, true, "leave|delete"},
};
constexpr EndpointParam kMembersPut[] = {
    kRoomId,
    {"members_admin_ids", W::form, T::id_list, true, ""},
    {"members_member_ids", W::form, T::id_list, false, ""},
    {"members_readonly_ids", W::form, T::id_list, false, ""},
};
constexpr EndpointParam kMessagesGet[] = {
    kRoomId,
    {"force", W::query, T::choice, false, "0|1"},
};
constexpr EndpointParam kMessagesPost[] = {
    kRoomId,
    {"body", W::form, T::text, true, ""},
    {"self_unread", W::form, T::choice, false, "0|1"},
};
constexpr EndpointParam kMessagesUnread[] = {
    kRoomId,
    {"message_id", W::form, T::id, true, ""},
};
constexpr EndpointParam kMessage[] = {kRoomId, {"message_id", W::path, T::id, true, ""}};
constexpr EndpointParam kMessagePut[] = {
    kRoomId,
    {"message_id", W::path, T::id, true, ""},
    {"body", W::form, T::text, true, ""},
};
constexpr EndpointParam kTasksGet[] = {
    kRoomId,
    {"account_id", W::query, T::id, false, ""},
    {"assigned_by_account_id", W::query, T::id, false, ""},
    {"status", W::query, T::choice, false, "open|done"},
};
constexpr EndpointParam kTasksPost[] = {
    kRoomId,
    {"body", W::form, T::text, true, ""},
    {"to_ids", W::form, T::id_list, true, ""},
    {"limit", W::form, T::unix_time, false, ""},
    {"limit_type", W::form, T::choice, false, "none|date|time"},
};
constexpr EndpointParam kTask[] = {kRoomId, {"task_id", W::path, T::id, true, ""}};
constexpr EndpointParam kTaskStatus[] = {
    kRoomId,
    {"task_id", W::path, T::id, true, ""},
    {"body", W::form, T::choice, true, "open|done"},
};
constexpr EndpointParam kFilesGet[] = {
    kRoomId,
    {"account_id", W::query, T::id, false, ""},
};
constexpr EndpointParam kFilesPost[] = {
    kRoomId,
    {"file", W::form, T::file, true, ""},
    {"message", W::form, T::text, false, ""},
};
constexpr EndpointParam kFile[] = {
    kRoomId,
    {"file_id", W::path, T::id, true, ""},
    {"create_download_url", W::query, T::choice, false, "0|1"},
};
constexpr EndpointParam kLinkWrite[] = {
    kRoomId,
    {"code", W::form, T::text, false, ""},
    {"description", W::form, T::text, false, ""},
    {"need_acceptance", W::form, T::choice, false, "0|1"},
};

constexpr EndpointParams kNone{};

using E = Endpoint;
using M = Method;

// [table] in kAllEndpoints order (checked below). Destructive: every DELETE,
// and the PUTs that replace a whole record the caller cannot restore from the
// answer (a room's member list, a message's body).
constexpr EndpointInfo kCatalog[] = {
    {E::me, M::Get, "/me", kNone, "users.profile.me:read", false, false},
    {E::my_status, M::Get, "/my/status", kNone, "users.status.me:read", false, false},
    {E::my_tasks, M::Get, "/my/tasks", params(kMyTasks), "users.tasks.me:read", false, false},
    {E::contacts, M::Get, "/contacts", kNone, "contacts.all:read", false, false},
    {E::incoming_requests_get, M::Get, "/incoming_requests", kNone, "contacts.all:read", false, false},
    {E::incoming_requests_put, M::Put, "/incoming_requests/{request_id}", params(kRequest), "contacts.all:write", false,
     false},
    {E::incoming_requests_delete, M::Delete, "/incoming_requests/{request_id}", params(kRequest), "contacts.all:write",
     false, true},
    {E::rooms_list, M::Get, "/rooms", kNone, "rooms.info:read", false, false},
    {E::rooms_create, M::Post, "/rooms", params(kRoomsCreate), "rooms:write", false, false},
    {E::room_get, M::Get, "/rooms/{room_id}", params(kRoom), "rooms.info:read", false, false},
    {E::room_update, M::Put, "/rooms/{room_id}", params(kRoomUpdate), "rooms.info:write", false, false},
    {E::room_delete, M::Delete, "/rooms/{room_id}", params(kRoomDelete), "rooms:write", false, true},
    {E::room_members_get, M::Get, "/rooms/{room_id}/members", params(kRoom), "rooms.members:read", false, false},
    {E::room_members_put, M::Put, "/rooms/{room_id}/members", params(kMembersPut), "rooms.members:write", false, true},
    {E::room_messages_get, M::Get, "/rooms/{room_id}/messages", params(kMessagesGet), "rooms.messages:read", false,
     false},
    {E::room_messages_post, M::Post, "/rooms/{room_id}/messages", params(kMessagesPost), "rooms.messages:write", true,
     false},
    // Marking read/unread changes only the caller's own view: a read scope.
    {E::room_messages_read_put, M::Put, "/rooms/{room_id}/messages/read", params(kRoom), "rooms.messages:read", false,
     false},
    {E::room_messages_unread_put, M::Put, "/rooms/{room_id}/messages/unread", params(kMessagesUnread),
     "rooms.messages:read", false, false},
    {E::room_message_get, M::Get, "/rooms/{room_id}/messages/{message_id}", params(kMessage), "rooms.messages:read",
     false, false},
    {E::room_message_put, M::Put, "/rooms/{room_id}/messages/{message_id}", params(kMessagePut), "rooms.messages:write",
     false, true},
    {E::room_message_delete, M::Delete, "/rooms/{room_id}/messages/{message_id}", params(kMessage),
     "rooms.messages:write", false, true},
    {E::room_tasks_get, M::Get, "/rooms/{room_id}/tasks", params(kTasksGet), "rooms.tasks:read", false, false},
    {E::room_tasks_post, M::Post, "/rooms/{room_id}/tasks", params(kTasksPost), "rooms.tasks:write", true, false},
    {E::room_task_get, M::Get, "/rooms/{room_id}/tasks/{task_id}", params(kTask), "rooms.tasks:read", false, false},
    {E::room_task_status_put, M::Put, "/rooms/{room_id}/tasks/{task_id}/status", params(kTaskStatus),
     "rooms.tasks:write", false, false},
    {E::room_files_get, M::Get, "/rooms/{room_id}/files", params(kFilesGet), "rooms.files:read", false, false},
    {E::room_files_post, M::Post, "/rooms/{room_id}/files", params(kFilesPost), "rooms.files:write", false, false},
    {E::room_file_get, M::Get, "/rooms/{room_id}/files/{file_id}", params(kFile), "rooms.files:read", false, false},
    {E::room_link_get, M::Get, "/rooms/{room_id}/link", params(kRoom), "rooms.info:read", false, false},
    {E::room_link_post, M::Post, "/rooms/{room_id}/link", params(kLinkWrite), "rooms.info:write", false, false},
    {E::room_link_put, M::Put, "/rooms/{room_id}/link", params(kLinkWrite), "rooms.info:write", false, false},
    {E::room_link_delete, M::Delete, "/rooms/{room_id}/link", params(kRoom), "rooms.info:write", false, true},
};

constexpr std::size_t kCount = sizeof(kCatalog) / sizeof(kCatalog[0]);
static_assert(kCount == sizeof(kAllEndpoints) / sizeof(kAllEndpoints[0]), "one catalog entry per Endpoint");

constexpr bool in_declaration_order() {
    for (std::size_t i = 0; i < kCount; ++i) {
        if (kCatalog[i].endpoint != kAllEndpoints[i]) return false;
    }
    return true;
}
static_assert(in_declaration_order(), "kCatalog[i] must describe kAllEndpoints[i] (endpoint_info indexes it)");

// Index of an Endpoint in kAllEndpoints (enumerators are declared without values).
constexpr std::size_t index_of(Endpoint endpoint) {
    return static_cast<std::size_t>(endpoint);
}
static_assert(index_of(kAllEndpoints[kCount - 1]) == kCount - 1, "Endpoint values are 0..N-1");

// Next "/segment" of `text` from `pos` (which must point at '/'); advances pos.
std::optional<std::string_view> next_segment(std::string_view text, std::size_t& pos) {
    if (pos >= text.size() || text[pos] != '/') return std::nullopt;
    const std::size_t start = pos + 1;
    const std::size_t slash = text.find('/', start);
    const std::size_t stop = slash == std::string_view::npos ? text.size() : slash;
    pos = stop;
    return text.substr(start, stop - start);
}

bool is_placeholder(std::string_view segment) {
    return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

}  // namespace

std::string_view to_string(ParamWhere where) {
    switch (where) {
        case ParamWhere::path:
            return "path";
        case ParamWhere::query:
            return "query";
        case ParamWhere::form:
            return "form";
    }
    return "unknown";
}

std::string_view to_string(ParamType type) {
    switch (type) {
        case ParamType::id:
            return "id";
        case ParamType::id_list:
            return "id_list";
        case ParamType::text:
            return "text";
        case ParamType::choice:
            return "choice";
        case ParamType::unix_time:
            return "unix_time";
        case ParamType::file:
            return "file";
    }
    return "unknown";
}

EndpointCatalog endpoint_catalog() {
    return EndpointCatalog{kCatalog, kCount};
}

const EndpointInfo& endpoint_info(Endpoint endpoint) {
    const std::size_t i = index_of(endpoint);
    return kCatalog[i < kCount ? i : 0];
}

const EndpointInfo* find_endpoint(Method method, std::string_view path_template) {
    for (const EndpointInfo& info : kCatalog) {
        if (info.method == method && info.path == path_template) return &info;
    }
    return nullptr;
}

const EndpointParam* find_param(const EndpointInfo& info, std::string_view name) {
    for (const EndpointParam& param : info.params) {
        if (param.name == name) return &param;
    }
    return nullptr;
}

bool is_allowed_value(const EndpointParam& param, std::string_view value) {
    std::string_view rest = param.allowed;
    while (!rest.empty()) {
        const std::size_t bar = rest.find('|');
        if (rest.substr(0, bar) == value) return true;
        if (bar == std::string_view::npos) break;
        rest.remove_prefix(bar + 1);
    }
    return false;
}

std::optional<TemplateIds> match_path_template(std::string_view path_template, std::string_view path) {
    TemplateIds ids;
    std::size_t t = 0;
    std::size_t p = 0;
    while (t < path_template.size()) {
        const auto want = next_segment(path_template, t);
        const auto got = next_segment(path, p);
        if (!want || !got) return std::nullopt;
        if (is_placeholder(*want)) {
            if (!is_resource_id(*got)) return std::nullopt;
            (*want == "{room_id}" ? ids.room_id : ids.item_id) = std::string(*got);
        } else if (*want != *got) {
            return std::nullopt;
        }
    }
    if (p != path.size()) return std::nullopt;  // more segments, or a trailing '/'
    return ids;
}

std::string fill_path_template(std::string_view path_template,
                               const std::function<std::string(std::string_view name)>& value) {
    std::string out;
    std::size_t pos = 0;
    while (pos < path_template.size()) {
        const auto segment = next_segment(path_template, pos);
        if (!segment) break;
        out += '/';
        if (is_placeholder(*segment)) {
            out += value(segment->substr(1, segment->size() - 2));
        } else {
            out += *segment;
        }
    }
    return out;
}

}  // namespace roomkey
