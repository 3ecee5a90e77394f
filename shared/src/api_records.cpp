// api_records.cpp: readers for the room, task and contact endpoints (see
// api_records.hpp). The record fields are the service's ("not shown" in spec
// 4.8): ids, the text a view lists a record by, and a task's status are
// required; the rest is kept when it reads and dropped when it does not.
#include "roomkey/api_records.hpp"

#include "api_json.hpp"

namespace roomkey {

namespace {

using namespace detail;

// A required string field (names, bodies): missing or not a string refuses the record.
Result<std::string, ApiReadError> required_string(const json& object, const char* name, const std::string& prefix) {
    const json* value = json_member(object, name);
    if (!value) return Err{read_error(ApiReadErrorKind::missing_field, join_field(prefix, name))};
    if (!value->is_string()) return Err{read_error(ApiReadErrorKind::wrong_type, join_field(prefix, name))};
    return value->get<std::string>();
}

Result<AccountBrief, ApiReadError> account_brief(const json& object, const std::string& prefix) {
    if (!object.is_object()) return Err{read_error(ApiReadErrorKind::not_object, prefix)};
    AccountBrief out;
    std::optional<ApiReadError> error;
    take(required_id(object, "account_id", prefix), out.account_id, error);
    std::optional<std::string> name;
    take_if_valid(optional_string(object, "name", prefix), name);
    out.name = name.value_or("");
    take_if_valid(optional_string(object, "avatar_image_url", prefix), out.avatar_image_url);
    if (error) return Err{*error};
    return out;
}

// A nested account object that must be present ("account" of a message).
Result<AccountBrief, ApiReadError> required_account(const json& object, const char* name, const std::string& prefix) {
    const json* value = json_member(object, name);
    if (!value) return Err{read_error(ApiReadErrorKind::missing_field, join_field(prefix, name))};
    return account_brief(*value, join_field(prefix, name));
}

// A nested account object that may be absent; present but broken still refuses
// (an id we would show wrong is worse than none).
Result<std::optional<AccountBrief>, ApiReadError> optional_account(const json& object, const char* name,
                                                                   const std::string& prefix) {
    const json* value = json_member(object, name);
    if (!value) return std::optional<AccountBrief>{};
    auto account = account_brief(*value, join_field(prefix, name));
    if (!account) return Err{account.error()};
    return std::optional<AccountBrief>{std::move(account).value()};
}

Result<ChatMessage, ApiReadError> message_value(const json& o, const std::string& p) {
    if (!o.is_object()) return Err{read_error(ApiReadErrorKind::not_object, p)};
    ChatMessage m;
    std::optional<ApiReadError> error;
    take(required_id(o, "message_id", p), m.message_id, error);
    take(required_account(o, "account", p), m.account, error);
    take(required_string(o, "body", p), m.body, error);
    take(required_count(o, "send_time", p), m.send_time, error);
    take_if_valid(optional_count(o, "update_time", p), m.update_time);
    if (error) return Err{*error};
    return m;
}

Result<ChatTask, ApiReadError> task_value(const json& o, const std::string& p) {
    if (!o.is_object()) return Err{read_error(ApiReadErrorKind::not_object, p)};
    ChatTask t;
    std::optional<ApiReadError> error;
    take(required_id(o, "task_id", p), t.task_id, error);
    take(optional_account(o, "account", p), t.account, error);
    take(optional_account(o, "assigned_by_account", p), t.assigned_by_account, error);
    if (const json* room = json_member(o, "room")) {
        const std::string rp = join_field(p, "room");
        if (!room->is_object()) {
            if (!error) error = read_error(ApiReadErrorKind::not_object, rp);
        } else {
            TaskRoomBrief brief;
            take(required_id(*room, "room_id", rp), brief.room_id, error);
            std::optional<std::string> name;
            take_if_valid(optional_string(*room, "name", rp), name);
            brief.name = name.value_or("");
            take_if_valid(optional_string(*room, "icon_path", rp), brief.icon_path);
            t.room = std::move(brief);
        }
    }
    take(required_string(o, "body", p), t.body, error);
    take(required_string(o, "status", p), t.status, error);
    if (!error && t.status != "open" && t.status != "done") {
        error = read_error(ApiReadErrorKind::invalid_value, join_field(p, "status"));
    }
    take_if_valid(optional_id(o, "message_id", p), t.message_id);
    take_if_valid(optional_count(o, "limit_time", p), t.limit_time);
    take_if_valid(optional_string(o, "limit_type", p), t.limit_type);
    if (error) return Err{*error};
    return t;
}

Result<RoomMember, ApiReadError> member_value(const json& o, const std::string& p) {
    if (!o.is_object()) return Err{read_error(ApiReadErrorKind::not_object, p)};
    RoomMember m;
    std::optional<ApiReadError> error;
    take(required_id(o, "account_id", p), m.account_id, error);
    take(required_string(o, "name", p), m.name, error);
    take(required_string(o, "role", p), m.role, error);
    take_if_valid(optional_string(o, "chatwork_id", p), m.chatwork_id);
    take_if_valid(optional_string(o, "organization_name", p), m.organization_name);
    take_if_valid(optional_string(o, "department", p), m.department);
    take_if_valid(optional_id(o, "room_id", p), m.room_id);
    take_if_valid(optional_id(o, "organization_id", p), m.organization_id);
    take_if_valid(optional_string(o, "avatar_image_url", p), m.avatar_image_url);
    if (error) return Err{*error};
    return m;
}

Result<ChatFile, ApiReadError> file_value(const json& o, const std::string& p) {
    if (!o.is_object()) return Err{read_error(ApiReadErrorKind::not_object, p)};
    ChatFile f;
    std::optional<ApiReadError> error;
    take(required_id(o, "file_id", p), f.file_id, error);
    take(optional_account(o, "account", p), f.account, error);
    take(required_string(o, "filename", p), f.filename, error);
    take(required_count(o, "filesize", p), f.filesize, error);
    take_if_valid(optional_id(o, "message_id", p), f.message_id);
    take_if_valid(optional_count(o, "upload_time", p), f.upload_time);
    take_if_valid(optional_string(o, "download_url", p), f.download_url);
    if (error) return Err{*error};
    return f;
}

Result<Contact, ApiReadError> contact_value(const json& o, const std::string& p) {
    if (!o.is_object()) return Err{read_error(ApiReadErrorKind::not_object, p)};
    Contact c;
    std::optional<ApiReadError> error;
    take(required_id(o, "account_id", p), c.account_id, error);
    take(required_string(o, "name", p), c.name, error);
    take_if_valid(optional_id(o, "room_id", p), c.room_id);
    take_if_valid(optional_string(o, "chatwork_id", p), c.chatwork_id);
    take_if_valid(optional_string(o, "organization_name", p), c.organization_name);
    take_if_valid(optional_string(o, "department", p), c.department);
    take_if_valid(optional_id(o, "organization_id", p), c.organization_id);
    take_if_valid(optional_string(o, "avatar_image_url", p), c.avatar_image_url);
    if (error) return Err{*error};
    return c;
}

Result<ContactRequest, ApiReadError> request_value(const json& o, const std::string& p) {
    if (!o.is_object()) return Err{read_error(ApiReadErrorKind::not_object, p)};
    ContactRequest r;
    std::optional<ApiReadError> error;
    take(required_id(o, "request_id", p), r.request_id, error);
    take(required_id(o, "account_id", p), r.account_id, error);
    take(required_string(o, "name", p), r.name, error);
    take_if_valid(optional_string(o, "message", p), r.message);
    take_if_valid(optional_string(o, "organization_name", p), r.organization_name);
    take_if_valid(optional_id(o, "room_id", p), r.room_id);
    take_if_valid(optional_string(o, "chatwork_id", p), r.chatwork_id);
    take_if_valid(optional_id(o, "organization_id", p), r.organization_id);
    take_if_valid(optional_string(o, "department", p), r.department);
    take_if_valid(optional_string(o, "avatar_image_url", p), r.avatar_image_url);
    if (error) return Err{*error};
    return r;
}

// A JSON array of records; 204 No Content is the service's empty list.
template <class Record>
Result<std::vector<Record>, ApiReadError> read_list(const HttpResponse& response,
                                                    Result<Record, ApiReadError> (*reader)(const json&,
                                                                                           const std::string&)) {
    if (response.status == 204) return std::vector<Record>{};
    auto parsed = parse_body(response);
    if (!parsed) return Err{parsed.error()};
    if (!parsed->is_array()) return Err{read_error(ApiReadErrorKind::not_array, "")};
    std::vector<Record> out;
    out.reserve(parsed->size());
    std::size_t index = 0;
    for (const json& item : *parsed) {
        auto record = reader(item, "[" + std::to_string(index++) + "]");
        if (!record) return Err{record.error()};
        out.push_back(std::move(record).value());
    }
    return out;
}

}  // namespace

Result<std::vector<ChatMessage>, ApiReadError> read_messages(const HttpResponse& response) {
    return read_list(response, message_value);
}

Result<ChatMessage, ApiReadError> read_message(const HttpResponse& response) {
    auto parsed = parse_object(response);
    if (!parsed) return Err{parsed.error()};
    return message_value(*parsed, "");
}

Result<std::vector<ChatTask>, ApiReadError> read_tasks(const HttpResponse& response) {
    return read_list(response, task_value);
}

Result<std::vector<RoomMember>, ApiReadError> read_members(const HttpResponse& response) {
    return read_list(response, member_value);
}

Result<std::vector<ChatFile>, ApiReadError> read_files(const HttpResponse& response) {
    return read_list(response, file_value);
}

Result<std::vector<Contact>, ApiReadError> read_contacts(const HttpResponse& response) {
    return read_list(response, contact_value);
}

Result<std::vector<ContactRequest>, ApiReadError> read_incoming_requests(const HttpResponse& response) {
    return read_list(response, request_value);
}

Result<Contact, ApiReadError> read_accepted_request(const HttpResponse& response) {
    auto parsed = parse_object(response);
    if (!parsed) return Err{parsed.error()};
    return contact_value(*parsed, "");
}

Result<UnreadCounts, ApiReadError> read_unread_counts(const HttpResponse& response) {
    auto parsed = parse_object(response);
    if (!parsed) return Err{parsed.error()};
    UnreadCounts counts;
    std::optional<ApiReadError> error;
    take(required_count(*parsed, "unread_num", ""), counts.unread_num, error);
    take(required_count(*parsed, "mention_num", ""), counts.mention_num, error);
    if (error) return Err{*error};
    return counts;
}

bool is_already_read_answer(const HttpResponse& response) {
    return response.status == 400;
}

Result<UnreadCounts, ApiReadError> read_mark_read_answer(const HttpResponse& response) {
    if (is_already_read_answer(response)) return UnreadCounts{};
    return read_unread_counts(response);
}

Result<std::string, ApiReadError> read_task_status_answer(const HttpResponse& response) {
    auto parsed = parse_object(response);
    if (!parsed) return Err{parsed.error()};
    return required_id(*parsed, "task_id", "");
}

}  // namespace roomkey
