// endpoint_catalog.cpp: the endpoint table (see endpoint_catalog.hpp).
// Parameters, allowed values and lengths are those of the service's
// published API description (chatwork/api, RAML/api-ja.raml), which the
// sandbox (helper/sandbox/api_handlers.cpp) reads; scopes are the RAML's
// securedBy leaf scope (tests/unit/endpoint_catalog_raml_test.cpp holds them
// to it), which agrees with spec 5.5's "Allows" column; room_post is spec
// 4.6/4.7/8.2.
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
// RAML trait room_icon: the 17 icon presets; anything else is a 400.
constexpr std::string_view kIconPresets =
    "group|check|document|meeting|event|project|business|study|security|star|idea|heart|magcup|beer|music|sports|"
    "travel";
// RAML: a room name is 1-255 characters, a message or task body 1-65,535,
// an invitation link's code 1-50 of [A-Za-z0-9_-].
constexpr std::size_t kMaxRoomName = 255;
constexpr std::size_t kMaxBody = 65535;
constexpr std::size_t kMaxLinkCode = 50;
constexpr EndpointParam kRoomsCreate[] = {
    {"name", W::form, T::text, true, "", 1, kMaxRoomName},
    {"description", W::form, T::text, false, ""},
    {"icon_preset", W::form, T::choice, false, kIconPresets},
    {"members_admin_ids", W::form, T::id_list, true, ""},
    {"members_member_ids", W::form, T::id_list, false, ""},
    {"members_readonly_ids", W::form, T::id_list, false, ""},
    // chatwork/api PR #7: an invitation link made with the room.
    {"link", W::form, T::choice, false, "0|1"},
    {"link_code", W::form, T::url_code, false, "", 1, kMaxLinkCode},
    {"link_need_acceptance", W::form, T::choice, false, "0|1"},
};
constexpr EndpointParam kRoom[] = {kRoomId};
constexpr EndpointParam kRoomUpdate[] = {
    kRoomId,
    {"name", W::form, T::text, false, "", 1, kMaxRoomName},
    {"description", W::form, T::text, false, ""},
    {"icon_preset", W::form, T::choice, false, kIconPresets},
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
    {"body", W::form, T::text, true, "", 1, kMaxBody},
    {"self_unread", W::form, T::choice, false, "0|1"},
};
// RAML: read up to message_id (optional: everything); unread from it on (required).
constexpr EndpointParam kMessagesRead[] = {
    kRoomId,
    {"message_id", W::form, T::id, false, ""},
};
constexpr EndpointParam kMessagesUnread[] = {
    kRoomId,
    {"message_id", W::form, T::id, true, ""},
};
constexpr EndpointParam kMessage[] = {kRoomId, {"message_id", W::path, T::id, true, ""}};
constexpr EndpointParam kMessagePut[] = {
    kRoomId,
    {"message_id", W::path, T::id, true, ""},
    {"body", W::form, T::text, true, "", 1, kMaxBody},
};
constexpr EndpointParam kTasksGet[] = {
    kRoomId,
    {"account_id", W::query, T::id, false, ""},
    {"assigned_by_account_id", W::query, T::id, false, ""},
    {"status", W::query, T::choice, false, "open|done"},
};
constexpr EndpointParam kTasksPost[] = {
    kRoomId,
    {"body", W::form, T::text, true, "", 1, kMaxBody},
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
// A multipart body (takes_file_part): the file part, up to
// kMaxUploadFileBytes (upload_limits.hpp), and an optional message.
constexpr EndpointParam kFilesPost[] = {
    kRoomId,
    {"file", W::form, T::file, true, ""},
    {"message", W::form, T::text, false, "", 0, kMaxBody},
};
constexpr EndpointParam kFile[] = {
    kRoomId,
    {"file_id", W::path, T::id, true, ""},
    {"create_download_url", W::query, T::choice, false, "0|1"},
};
constexpr EndpointParam kLinkWrite[] = {
    kRoomId,
    {"code", W::form, T::url_code, false, "", 1, kMaxLinkCode},
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
    // RAML securedBy: marking read or unread needs rooms.messages:write
    // (a read-only grant cannot), though it changes only the caller's view.
    {E::room_messages_read_put, M::Put, "/rooms/{room_id}/messages/read", params(kMessagesRead),
     "rooms.messages:write", false, false},
    {E::room_messages_unread_put, M::Put, "/rooms/{room_id}/messages/unread", params(kMessagesUnread),
     "rooms.messages:write", false, false},
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
        case ParamType::url_code:
            return "url_code";
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

bool takes_file_part(const EndpointInfo& endpoint) {
    for (const EndpointParam& param : endpoint.params) {
        if (param.type == ParamType::file) return true;
    }
    return false;
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

std::size_t utf8_length(std::string_view text) {
    std::size_t count = 0;
    for (char c : text) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
    }
    return count;
}

namespace {

bool all_digits(std::string_view text) {
    if (text.empty() || text.size() > 19) return false;  // fits int64 seconds
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

bool is_id_list(std::string_view text) {
    if (text.empty()) return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        if (!is_resource_id(text.substr(start, comma == std::string_view::npos ? comma : comma - start))) {
            return false;
        }
        if (comma == std::string_view::npos) return true;
        start = comma + 1;
    }
}

bool is_url_code(std::string_view text) {
    for (char c : text) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                        c == '-';
        if (!ok) return false;
    }
    return true;
}

}  // namespace

std::string allowed_list(std::string_view allowed) {
    std::string out;
    for (char c : allowed) out += c == '|' ? std::string(", ") : std::string(1, c);
    return out;
}

ValueProblem value_problem(const EndpointParam& p, std::string_view value) {
    const auto length = [&] {
        if (p.min_chars == 0 && p.max_chars == 0) return ValueProblem::none;
        const std::size_t n = utf8_length(value);
        if (n >= p.min_chars && (p.max_chars == 0 || n <= p.max_chars)) return ValueProblem::none;
        if (p.max_chars == 0) return ValueProblem::too_short;
        return p.min_chars == 0 ? ValueProblem::too_long : ValueProblem::bad_length;
    };
    switch (p.type) {
        case ParamType::id:
            return is_resource_id(value) ? ValueProblem::none : ValueProblem::not_id;
        case ParamType::id_list:
            // An optional list may be given empty (no members of that role).
            return (value.empty() && !p.required) || is_id_list(value) ? ValueProblem::none : ValueProblem::not_id_list;
        case ParamType::choice:
            return is_allowed_value(p, value) ? ValueProblem::none : ValueProblem::not_choice;
        case ParamType::unix_time:
            return all_digits(value) ? ValueProblem::none : ValueProblem::not_unix_time;
        case ParamType::file:
            return ValueProblem::none;  // a file part's bytes: only its size is ruled (upload_limits.hpp)
        case ParamType::url_code:
            return is_url_code(value) ? length() : ValueProblem::not_url_code;
        case ParamType::text:
            return length();
    }
    return ValueProblem::none;
}

std::string param_value_problem(const EndpointParam& p, std::string_view value) {
    const std::string name(p.name);
    const std::string min = std::to_string(p.min_chars);
    const std::string max = std::to_string(p.max_chars);
    switch (value_problem(p, value)) {
        case ValueProblem::none:
            return {};
        case ValueProblem::not_id:
            return name + " must be an id: 1 to 20 digits without a leading zero.";
        case ValueProblem::not_id_list:
            return name + " must be ids separated by commas, e.g. 101,102.";
        case ValueProblem::not_choice:
            return name + " must be one of: " + allowed_list(p.allowed) + ".";
        case ValueProblem::not_unix_time:
            return name + " must be a Unix time in seconds (digits only).";
        case ValueProblem::not_url_code:
            return name + " may hold only letters A-Z and a-z, digits, '_' and '-'.";
        case ValueProblem::too_short:
            return name + " must be at least " + min + " characters.";
        case ValueProblem::too_long:
            return name + " must be at most " + max + " characters.";
        case ValueProblem::bad_length:
            return name + " must be " + min + " to " + max + " characters (it has " +
                   std::to_string(utf8_length(value)) + ").";
    }
    return {};
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
