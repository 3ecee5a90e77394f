// api.cpp: REST API request builders and response readers (see api.hpp).
//
// [SECTION] error names
// [SECTION] configuration and credentials
// [SECTION] request builders
// [SECTION] JSON field readers
// [SECTION] response readers
#include "roomkey/api.hpp"

#include <limits>
#include <nlohmann/json.hpp>

#include "api_json.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/json_text.hpp"

namespace roomkey {

using json = nlohmann::json;

// [SECTION] error names

std::string_view to_string(ApiRequestError error) {
    switch (error) {
        case ApiRequestError::invalid_base_url:
            return "api_request.invalid_base_url";
        case ApiRequestError::invalid_token:
            return "api_request.invalid_token";
        case ApiRequestError::invalid_token_header:
            return "api_request.invalid_token_header";
        case ApiRequestError::unknown_endpoint:
            return "api_request.unknown_endpoint";
        case ApiRequestError::invalid_room_id:
            return "api_request.invalid_room_id";
        case ApiRequestError::empty_body:
            return "api_request.empty_body";
        case ApiRequestError::no_assignee:
            return "api_request.no_assignee";
        case ApiRequestError::invalid_account_id:
            return "api_request.invalid_account_id";
        case ApiRequestError::invalid_limit:
            return "api_request.invalid_limit";
    }
    return "api_request.unknown";
}

std::string_view to_string(ApiReadErrorKind kind) {
    switch (kind) {
        case ApiReadErrorKind::http_status:
            return "api.http_status";
        case ApiReadErrorKind::not_json:
            return "api.not_json";
        case ApiReadErrorKind::not_object:
            return "api.not_object";
        case ApiReadErrorKind::not_array:
            return "api.not_array";
        case ApiReadErrorKind::missing_field:
            return "api.missing_field";
        case ApiReadErrorKind::wrong_type:
            return "api.wrong_type";
        case ApiReadErrorKind::invalid_value:
            return "api.invalid_value";
    }
    return "api.unknown";
}

std::string to_string(const ApiReadError& error) {
    std::string out(to_string(error.kind));
    if (!error.field.empty()) {
        out += ": ";
        out += error.field;
    }
    return out;
}

std::string_view to_string(TaskLimitType type) {
    switch (type) {
        case TaskLimitType::none:
            return "none";
        case TaskLimitType::date:
            return "date";
        case TaskLimitType::time:
            return "time";
    }
    return "none";
}

// [SECTION] configuration and credentials

namespace detail {

// base_url without a trailing '/', or nullopt when it is neither an https URL
// (spec 4.1.1) nor an origin-relative path.
std::optional<std::string_view> checked_base(std::string_view base_url) {
    while (!base_url.empty() && base_url.back() == '/') base_url.remove_suffix(1);
    if (base_url.empty()) return std::nullopt;
    if (base_url[0] == '/') {
        // "//host" would be scheme-relative: another origin.
        if (base_url.size() > 1 && base_url[1] == '/') return std::nullopt;
        auto url = parse_url(std::string("x:") + std::string(base_url));
        if (!url || url->query || url->fragment) return std::nullopt;
        return base_url;
    }
    auto url = parse_url(base_url);
    if (!url || url->scheme != "https" || url->query || url->fragment) return std::nullopt;
    return base_url;
}

// RFC 9110 5.6.2 tchar.
bool is_http_token(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos) return false;
    }
    return true;
}

// Visible ASCII only: a CR, LF or space in a token would split or bend the header.
bool is_header_safe_token(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s) {
        if (c < 0x21 || c > 0x7E) return false;
    }
    return true;
}

Result<Unit, ApiRequestError> apply_credentials(const ApiConfig& config, const Credentials& credentials,
                                                Headers& headers) {
    if (const auto* bearer = std::get_if<BearerToken>(&credentials)) {
        if (!is_header_safe_token(bearer->token)) return Err{ApiRequestError::invalid_token};
        headers.set("authorization", "Bearer " + bearer->token);  // spec 5.2.1
        return Unit{};
    }
    if (std::holds_alternative<HeldByHelper>(credentials)) return Unit{};  // the helper attaches it
    const auto& api_token = std::get<ApiToken>(credentials);
    if (!is_http_token(config.token_header) || iequals(config.token_header, "authorization")) {
        return Err{ApiRequestError::invalid_token_header};
    }
    if (!is_header_safe_token(api_token.token)) return Err{ApiRequestError::invalid_token};
    headers.set(config.token_header, api_token.token);  // spec 5.1.1
    return Unit{};
}

}  // namespace detail

std::string api_version(const ApiConfig& config) {
    std::string_view base = config.base_url;
    base = base.substr(0, base.find_first_of("?#"));
    while (!base.empty() && base.back() == '/') base.remove_suffix(1);
    const std::size_t slash = base.rfind('/');
    if (slash == std::string_view::npos) return {};
    // "https://host" has no path, so no version segment.
    if (slash > 0 && base[slash - 1] == '/') return {};
    return std::string(base.substr(slash + 1));
}

// [SECTION] request builders

Result<HttpRequest, ApiRequestError> api_request(const ApiConfig& config, const Credentials& credentials, Method method,
                                                 std::string_view path, const FormFields& params) {
    const auto base = detail::checked_base(config.base_url);
    if (!base) return Err{ApiRequestError::invalid_base_url};
    if (!match_endpoint(method, path)) return Err{ApiRequestError::unknown_endpoint};

    HttpRequest request;
    request.method = method;
    request.url = std::string(*base) + std::string(path);
    auto applied = detail::apply_credentials(config, credentials, request.headers);
    if (!applied) return Err{applied.error()};
    request.headers.set("accept", "application/json");  // spec 4.1.4
    if (method == Method::Get) {
        if (!params.empty()) request.url = append_query(request.url, params);
    } else {
        request.headers.set("content-type", "application/x-www-form-urlencoded");  // spec 4.1.3
        request.body = form_encode(params);
    }
    return request;
}

Result<Unit, ApiRequestError> attach_credentials(const ApiConfig& config, const Credentials& credentials,
                                                 HttpRequest& request) {
    Headers headers;
    auto applied = detail::apply_credentials(config, credentials, headers);
    if (!applied) return Err{applied.error()};
    for (const auto& [name, value] : request.headers.fields()) headers.add(name, value);
    request.headers = std::move(headers);
    return Unit{};
}

Result<HttpRequest, ApiRequestError> get_me(const ApiConfig& config, const Credentials& credentials) {
    return api_request(config, credentials, Method::Get, "/me");
}

Result<HttpRequest, ApiRequestError> get_my_status(const ApiConfig& config, const Credentials& credentials) {
    return api_request(config, credentials, Method::Get, "/my/status");
}

Result<HttpRequest, ApiRequestError> get_rooms(const ApiConfig& config, const Credentials& credentials) {
    return api_request(config, credentials, Method::Get, "/rooms");
}

Result<HttpRequest, ApiRequestError> post_message(const ApiConfig& config, const Credentials& credentials,
                                                  std::string_view room_id, std::string_view body, bool self_unread) {
    if (!is_resource_id(room_id)) return Err{ApiRequestError::invalid_room_id};
    if (body.empty()) return Err{ApiRequestError::empty_body};
    const std::string path = "/rooms/" + std::string(room_id) + "/messages";
    return api_request(config, credentials, Method::Post, path,
                       {{"body", std::string(body)}, {"self_unread", self_unread ? "1" : "0"}});
}

Result<HttpRequest, ApiRequestError> post_task(const ApiConfig& config, const Credentials& credentials,
                                               std::string_view room_id, std::string_view body,
                                               const std::vector<std::string>& to_ids,
                                               std::optional<std::int64_t> limit, TaskLimitType limit_type) {
    if (!is_resource_id(room_id)) return Err{ApiRequestError::invalid_room_id};
    if (body.empty()) return Err{ApiRequestError::empty_body};
    if (to_ids.empty()) return Err{ApiRequestError::no_assignee};
    std::string joined;
    for (const std::string& id : to_ids) {
        if (!is_resource_id(id)) return Err{ApiRequestError::invalid_account_id};
        if (!joined.empty()) joined += ',';
        joined += id;
    }
    // A deadline needs both halves: a type without a time, or a time the
    // service would ignore, is a caller mistake.
    const bool wants_limit = limit_type != TaskLimitType::none;
    if (wants_limit != limit.has_value() || (limit && *limit < 0)) return Err{ApiRequestError::invalid_limit};

    FormFields fields{{"body", std::string(body)}, {"to_ids", joined}};
    if (limit) fields.emplace_back("limit", std::to_string(*limit));
    fields.emplace_back("limit_type", std::string(to_string(limit_type)));
    const std::string path = "/rooms/" + std::string(room_id) + "/tasks";
    return api_request(config, credentials, Method::Post, path, fields);
}

// [SECTION] JSON field readers

namespace detail {

ApiReadError read_error(ApiReadErrorKind kind, std::string field) {
    return ApiReadError{kind, std::move(field)};
}

std::string join_field(std::string_view prefix, std::string_view name) {
    if (prefix.empty()) return std::string(name);
    return std::string(prefix) + "." + std::string(name);
}

// Parses a 2xx body as JSON.
Result<json, ApiReadError> parse_body(const HttpResponse& response) {
    if (response.status < 200 || response.status > 299) return Err{read_error(ApiReadErrorKind::http_status, "")};
    json value = parse_json_text(response.body);
    if (value.is_discarded()) return Err{read_error(ApiReadErrorKind::not_json, "")};
    return value;
}

// Ids are kept exactly: a JSON integer (even beyond 2^53, which a double
// would round) or a string of digits. Floats and negatives are refused.
Result<std::string, ApiReadError> id_value(const json& value, const std::string& field) {
    std::string text;
    if (value.is_number_unsigned()) {
        text = std::to_string(value.get<std::uint64_t>());
    } else if (value.is_number_integer()) {
        return Err{read_error(ApiReadErrorKind::invalid_value, field)};  // negative
    } else if (value.is_string()) {
        text = value.get<std::string>();
    } else {
        return Err{read_error(ApiReadErrorKind::wrong_type, field)};
    }
    if (!is_resource_id(text)) return Err{read_error(ApiReadErrorKind::invalid_value, field)};
    return text;
}

Result<std::string, ApiReadError> required_id(const json& object, const char* name, const std::string& prefix) {
    const std::string field = join_field(prefix, name);
    const json* value = json_member(object, name);
    if (!value) return Err{read_error(ApiReadErrorKind::missing_field, field)};
    return id_value(*value, field);
}

Result<std::optional<std::string>, ApiReadError> optional_id(const json& object, const char* name,
                                                             const std::string& prefix) {
    const json* value = json_member(object, name);
    if (!value) return std::optional<std::string>{};
    auto id = id_value(*value, join_field(prefix, name));
    if (!id) return Err{id.error()};
    return std::optional<std::string>{std::move(id).value()};
}

Result<std::optional<std::string>, ApiReadError> optional_string(const json& object, const char* name,
                                                                 const std::string& prefix) {
    const json* value = json_member(object, name);
    if (!value) return std::optional<std::string>{};
    if (!value->is_string()) return Err{read_error(ApiReadErrorKind::wrong_type, join_field(prefix, name))};
    return std::optional<std::string>{value->get<std::string>()};
}

// A non-negative integer that fits in int64.
Result<std::optional<std::int64_t>, ApiReadError> optional_count(const json& object, const char* name,
                                                                 const std::string& prefix) {
    const json* value = json_member(object, name);
    if (!value) return std::optional<std::int64_t>{};
    const std::string field = join_field(prefix, name);
    if (value->is_number_unsigned()) {
        const auto n = value->get<std::uint64_t>();
        if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            return Err{read_error(ApiReadErrorKind::invalid_value, field)};
        }
        return std::optional<std::int64_t>{static_cast<std::int64_t>(n)};
    }
    if (value->is_number_integer()) return Err{read_error(ApiReadErrorKind::invalid_value, field)};  // negative
    return Err{read_error(ApiReadErrorKind::wrong_type, field)};
}

Result<std::int64_t, ApiReadError> required_count(const json& object, const char* name, const std::string& prefix) {
    auto count = optional_count(object, name, prefix);
    if (!count) return Err{count.error()};
    if (!count->has_value()) return Err{read_error(ApiReadErrorKind::missing_field, join_field(prefix, name))};
    return **count;
}

Result<std::optional<bool>, ApiReadError> optional_bool(const json& object, const char* name,
                                                        const std::string& prefix) {
    const json* value = json_member(object, name);
    if (!value) return std::optional<bool>{};
    if (!value->is_boolean()) return Err{read_error(ApiReadErrorKind::wrong_type, join_field(prefix, name))};
    return std::optional<bool>{value->get<bool>()};
}

Result<Room, ApiReadError> room_value(const json& object, const std::string& prefix) {
    if (!object.is_object()) return Err{read_error(ApiReadErrorKind::not_object, prefix)};
    Room room;
    std::optional<ApiReadError> error;
    take(required_id(object, "room_id", prefix), room.room_id, error);
    const json* name = json_member(object, "name");
    if (!error && !name) error = read_error(ApiReadErrorKind::missing_field, join_field(prefix, "name"));
    if (!error && !name->is_string()) error = read_error(ApiReadErrorKind::wrong_type, join_field(prefix, "name"));
    if (!error) room.name = name->get<std::string>();
    // The room record's fields are "not shown" (spec 2.6): an id and a name
    // to list it by are needed, the rest is shown when it reads.
    take_if_valid(optional_string(object, "type", prefix), room.type);
    take_if_valid(optional_string(object, "role", prefix), room.role);
    take_if_valid(optional_count(object, "unread_num", prefix), room.unread_num);
    take_if_valid(optional_count(object, "mention_num", prefix), room.mention_num);
    take_if_valid(optional_count(object, "mytask_num", prefix), room.mytask_num);
    take_if_valid(optional_count(object, "message_num", prefix), room.message_num);
    take_if_valid(optional_count(object, "file_num", prefix), room.file_num);
    take_if_valid(optional_count(object, "task_num", prefix), room.task_num);
    take_if_valid(optional_string(object, "icon_path", prefix), room.icon_path);
    take_if_valid(optional_count(object, "last_update_time", prefix), room.last_update_time);
    take_if_valid(optional_bool(object, "sticky", prefix), room.sticky);
    take_if_valid(optional_string(object, "description", prefix), room.description);
    if (error) return Err{*error};
    return room;
}

Result<json, ApiReadError> parse_object(const HttpResponse& response) {
    auto value = parse_body(response);
    if (!value) return Err{value.error()};
    if (!value->is_object()) return Err{read_error(ApiReadErrorKind::not_object, "")};
    return value;
}

}  // namespace detail

// [SECTION] response readers

Result<Account, ApiReadError> read_account(const HttpResponse& response) {
    using namespace detail;
    auto parsed = parse_object(response);
    if (!parsed) return Err{parsed.error()};
    const json& o = *parsed;
    const std::string p;
    Account account;
    std::optional<ApiReadError> error;
    take(required_id(o, "account_id", p), account.account_id, error);  // spec 2.6
    // Everything else of the account record is "not shown" (spec 2.6): tolerated.
    take_if_valid(optional_id(o, "room_id", p), account.room_id);
    take_if_valid(optional_string(o, "name", p), account.name);
    take_if_valid(optional_string(o, "chatwork_id", p), account.chatwork_id);
    take_if_valid(optional_id(o, "organization_id", p), account.organization_id);
    take_if_valid(optional_string(o, "organization_name", p), account.organization_name);
    take_if_valid(optional_string(o, "department", p), account.department);
    take_if_valid(optional_string(o, "title", p), account.title);
    take_if_valid(optional_string(o, "url", p), account.url);
    take_if_valid(optional_string(o, "introduction", p), account.introduction);
    take_if_valid(optional_string(o, "mail", p), account.mail);
    take_if_valid(optional_string(o, "tel_organization", p), account.tel_organization);
    take_if_valid(optional_string(o, "tel_extension", p), account.tel_extension);
    take_if_valid(optional_string(o, "tel_mobile", p), account.tel_mobile);
    take_if_valid(optional_string(o, "skype", p), account.skype);
    take_if_valid(optional_string(o, "facebook", p), account.facebook);
    take_if_valid(optional_string(o, "twitter", p), account.twitter);
    take_if_valid(optional_string(o, "avatar_image_url", p), account.avatar_image_url);
    take_if_valid(optional_string(o, "login_mail", p), account.login_mail);
    if (error) return Err{*error};
    return account;
}

Result<MyStatus, ApiReadError> read_status(const HttpResponse& response) {
    using namespace detail;
    auto parsed = parse_object(response);
    if (!parsed) return Err{parsed.error()};
    const json& o = *parsed;
    const std::string p;
    MyStatus status;
    std::optional<ApiReadError> error;
    take(required_count(o, "unread_room_num", p), status.unread_room_num, error);
    take(required_count(o, "mention_room_num", p), status.mention_room_num, error);
    take(required_count(o, "mytask_room_num", p), status.mytask_room_num, error);
    take(required_count(o, "unread_num", p), status.unread_num, error);
    take(required_count(o, "mention_num", p), status.mention_num, error);
    take(required_count(o, "mytask_num", p), status.mytask_num, error);
    if (error) return Err{*error};
    return status;
}

Result<std::vector<Room>, ApiReadError> read_rooms(const HttpResponse& response) {
    auto parsed = detail::parse_body(response);
    if (!parsed) return Err{parsed.error()};
    if (!parsed->is_array()) return Err{detail::read_error(ApiReadErrorKind::not_array, "")};
    std::vector<Room> rooms;
    rooms.reserve(parsed->size());
    std::size_t index = 0;
    for (const json& item : *parsed) {
        auto room = detail::room_value(item, "[" + std::to_string(index++) + "]");
        if (!room) return Err{room.error()};
        rooms.push_back(std::move(room).value());
    }
    return rooms;
}

Result<std::string, ApiReadError> read_posted_message(const HttpResponse& response) {
    auto parsed = detail::parse_object(response);
    if (!parsed) return Err{parsed.error()};
    return detail::required_id(*parsed, "message_id", "");
}

Result<std::vector<std::string>, ApiReadError> read_posted_tasks(const HttpResponse& response) {
    auto parsed = detail::parse_object(response);
    if (!parsed) return Err{parsed.error()};
    const json* ids = json_member(*parsed, "task_ids");
    if (!ids) return Err{detail::read_error(ApiReadErrorKind::missing_field, "task_ids")};
    if (!ids->is_array()) return Err{detail::read_error(ApiReadErrorKind::not_array, "task_ids")};
    std::vector<std::string> out;
    std::size_t index = 0;
    for (const json& item : *ids) {
        auto id = detail::id_value(item, "task_ids[" + std::to_string(index++) + "]");
        if (!id) return Err{id.error()};
        out.push_back(std::move(id).value());
    }
    return out;
}

Result<ApiErrorBody, ApiReadError> read_api_error(const HttpResponse& response) {
    // The format rule lives in errors.cpp; this maps its errors to field names.
    auto body = read_api_error_body(response.body);
    if (body) return std::move(body).value();
    switch (body.error()) {
        case ErrorBodyError::not_json:
            return Err{detail::read_error(ApiReadErrorKind::not_json, "")};
        case ErrorBodyError::errors_missing:
            return Err{detail::read_error(ApiReadErrorKind::missing_field, "errors")};
        case ErrorBodyError::errors_not_array:
            return Err{detail::read_error(ApiReadErrorKind::not_array, "errors")};
        case ErrorBodyError::errors_item_not_string:
            return Err{detail::read_error(ApiReadErrorKind::wrong_type, "errors[]")};
        default:
            return Err{detail::read_error(ApiReadErrorKind::not_object, "")};
    }
}

}  // namespace roomkey
