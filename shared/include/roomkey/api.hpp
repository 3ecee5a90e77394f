// api.hpp: REST API request builders and response readers (spec 4.1, 4.4-4.8,
// 5.1, 5.2, 9). Builders validate their inputs and return an HttpRequest;
// readers turn a response into typed records, keeping ids exactly as sent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "roomkey/errors.hpp"
#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

// ---------------------------------------------------------------------------
// Configuration and credentials
// ---------------------------------------------------------------------------
// Spec 5.1.1: the API-token header's name unless configured otherwise (the
// real name carries the service's brand, so it is a setting everywhere).
inline constexpr std::string_view kDefaultApiTokenHeader = "x-servicetoken";

struct ApiConfig {
    // {base_url}: "https://api.example.com/v2", or an origin-relative path such
    // as "/api" when calls go through the helper's proxy. Plain http is refused
    // (spec 4.1.1); so are a query, a fragment and userinfo.
    std::string base_url;
    // Spec 5.1.1: the API-token header (the brand word is a setting).
    std::string token_header{kDefaultApiTokenHeader};
};

// Spec 5.2.1: an OAuth access token, sent as "Authorization: Bearer <token>".
struct BearerToken {
    std::string token;
};
// Spec 5.1.1: an API token, sent in ApiConfig::token_header.
struct ApiToken {
    std::string token;
};
// roomkey-helper's BFF mode (docs/bff.md): the helper holds the token and
// attaches it; the page's request carries no credential at all.
struct HeldByHelper {};
using Credentials = std::variant<BearerToken, ApiToken, HeldByHelper>;

// Spec 9.1: the version is the last path segment of {base_url} ("v2").
// Behind the helper's proxy ("/api") that segment is the proxy's path.
std::string api_version(const ApiConfig& config);

// ---------------------------------------------------------------------------
// Request builders (we misuse the API: ApiRequestError)
// ---------------------------------------------------------------------------
enum class ApiRequestError {
    invalid_base_url,      // not https://host[/path] nor "/path"
    invalid_token,         // empty, or bytes outside visible ASCII (header injection)
    invalid_token_header,  // not an HTTP token (RFC 9110 5.6.2)
    unknown_endpoint,      // method + path not in the allowlist (endpoints.hpp)
    invalid_room_id,       // not a resource id (digits, see is_resource_id)
    empty_body,            // message or task text is empty
    no_assignee,           // a task needs at least one assignee
    invalid_account_id,    // an assignee id that is not a resource id
    invalid_limit,         // negative limit, limit without a type, or a type without limit
};
std::string_view to_string(ApiRequestError error);

// A request to any allowlisted endpoint: `path` is relative to {base_url}
// ("/rooms/1/messages"). `params` go in the query for GET and in a
// form-urlencoded body otherwise (spec 4.1.3). Credentials go in a header,
// never in the URL (spec 5.1.2).
Result<HttpRequest, ApiRequestError> api_request(const ApiConfig& config, const Credentials& credentials,
                                                 Method method, std::string_view path,
                                                 const FormFields& params = {});

// Puts `credentials` on a request built with HeldByHelper (none), in the
// header place the builders give them (first): the REST client attaches
// them when the request goes, so a request is built once.
Result<Unit, ApiRequestError> attach_credentials(const ApiConfig& config, const Credentials& credentials,
                                                 HttpRequest& request);

// Spec 4.4: GET /me.
Result<HttpRequest, ApiRequestError> get_me(const ApiConfig& config, const Credentials& credentials);
// Spec 4.5: GET /my/status.
Result<HttpRequest, ApiRequestError> get_my_status(const ApiConfig& config, const Credentials& credentials);
// Spec 4.8: GET /rooms.
Result<HttpRequest, ApiRequestError> get_rooms(const ApiConfig& config, const Credentials& credentials);

// Spec 4.6: POST /rooms/{room_id}/messages with body=<text>&self_unread=0|1.
Result<HttpRequest, ApiRequestError> post_message(const ApiConfig& config, const Credentials& credentials,
                                                  std::string_view room_id, std::string_view body,
                                                  bool self_unread = false);

enum class TaskLimitType { none, date, time };
std::string_view to_string(TaskLimitType type);

// Spec 4.7: POST /rooms/{room_id}/tasks with body, to_ids (comma-joined),
// limit (Unix seconds; only with limit_type date or time) and limit_type.
Result<HttpRequest, ApiRequestError> post_task(const ApiConfig& config, const Credentials& credentials,
                                               std::string_view room_id, std::string_view body,
                                               const std::vector<std::string>& to_ids,
                                               std::optional<std::int64_t> limit = std::nullopt,
                                               TaskLimitType limit_type = TaskLimitType::none);

// ---------------------------------------------------------------------------
// Response readers (the peer broke the contract: ApiReadError)
// ---------------------------------------------------------------------------
enum class ApiReadErrorKind {
    http_status,    // not a 2xx response: read it with read_api_error instead (spec 4.1.4)
    not_json,       // the body is not JSON text
    not_object,     // an object was expected (top level or array element)
    not_array,      // an array was expected
    missing_field,  // a required field is absent (or null)
    wrong_type,     // a field of the wrong JSON type (e.g. a float id)
    invalid_value,  // right type, unusable value (negative count, id not digits)
};
std::string_view to_string(ApiReadErrorKind kind);

struct ApiReadError {
    ApiReadErrorKind kind;
    std::string field;  // "account_id", "[2].room_id", "task_ids[0]"; "" for the whole body
};
// "api.missing_field: [2].room_id"
std::string to_string(const ApiReadError& error);

// Spec 2.6: the account record. Only account_id is required; the other
// fields are the service's (spec: "not shown") and optional. Unknown fields
// are ignored. Ids are strings of digits, kept exactly.
struct Account {
    std::string account_id;
    std::optional<std::string> room_id;  // the account's own "my chat" room
    std::optional<std::string> name;
    std::optional<std::string> chatwork_id;
    std::optional<std::string> organization_id;
    std::optional<std::string> organization_name;
    std::optional<std::string> department;
    std::optional<std::string> title;
    std::optional<std::string> url;
    std::optional<std::string> introduction;
    std::optional<std::string> mail;
    std::optional<std::string> tel_organization;
    std::optional<std::string> tel_extension;
    std::optional<std::string> tel_mobile;
    std::optional<std::string> skype;
    std::optional<std::string> facebook;
    std::optional<std::string> twitter;
    std::optional<std::string> avatar_image_url;
    std::optional<std::string> login_mail;
};

// Spec 2.5: all six counts are required non-negative integers.
struct MyStatus {
    std::int64_t unread_room_num = 0;
    std::int64_t mention_room_num = 0;
    std::int64_t mytask_room_num = 0;
    std::int64_t unread_num = 0;
    std::int64_t mention_num = 0;
    std::int64_t mytask_num = 0;
};

// One element of GET /rooms; only room_id and name are required.
struct Room {
    std::string room_id;
    std::string name;
    std::optional<std::string> type;  // "my" | "direct" | "group"
    std::optional<std::string> role;  // "admin" | "member" | "readonly"
    std::optional<std::int64_t> unread_num;
    std::optional<std::int64_t> mention_num;
    std::optional<std::int64_t> mytask_num;
    std::optional<std::int64_t> message_num;
    std::optional<std::int64_t> file_num;
    std::optional<std::int64_t> task_num;
    std::optional<std::string> icon_path;
    std::optional<std::int64_t> last_update_time;  // Unix seconds
    std::optional<bool> sticky;
    std::optional<std::string> description;  // GET /rooms/{room_id} only
};

Result<Account, ApiReadError> read_account(const HttpResponse& response);
Result<MyStatus, ApiReadError> read_status(const HttpResponse& response);
Result<std::vector<Room>, ApiReadError> read_rooms(const HttpResponse& response);
// Spec 4.6: {"message_id": "..."}; the id as a string of digits.
Result<std::string, ApiReadError> read_posted_message(const HttpResponse& response);
// Spec 4.7: {"task_ids": [...]}; the ids as strings of digits.
Result<std::vector<std::string>, ApiReadError> read_posted_tasks(const HttpResponse& response);
// Spec 2.7 / 7.3: the "errors" array of an error response (any status).
Result<ApiErrorBody, ApiReadError> read_api_error(const HttpResponse& response);

// ---------------------------------------------------------------------------
// Writers: the records as the service sends them, so the sandbox answers with
// the very types the readers above produce (api_writers.cpp). Absent optional
// fields are left out. Ids are JSON numbers, as the service sends them, when
// they fit 64 bits (any other id text goes back as the string it was);
// message ids are strings (they exceed 2^53).
// ---------------------------------------------------------------------------
std::string to_json(const Account& account);
std::string to_json(const MyStatus& status);
std::string to_json(const Room& room);
std::string to_json(const std::vector<Room>& rooms);
// {"message_id": "..."} (spec 4.6) and {"task_ids": [...]} (spec 4.7).
std::string posted_message_json(const std::string& message_id);
std::string posted_tasks_json(const std::vector<std::string>& task_ids);

}  // namespace roomkey
