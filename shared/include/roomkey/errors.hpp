// errors.hpp: the service's own error catalogs as data: the consent screen's
// numeric authorization errors (spec 7.1), the token endpoint's error bodies
// (spec 2.4, 7.2) and the REST API's error bodies (spec 2.7, 7.3).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/time.hpp"

namespace roomkey {

// ---------------------------------------------------------------------------
// Authorization errors (spec 7.1): the numbers are the service's error_code.
// ---------------------------------------------------------------------------
enum class AuthorizationErrorCode : int {
    response_type_missing = 1001,
    access_denied = 3001,
    token_response_type_unsupported = 4001,
    response_type_unknown = 4002,
    scope_missing = 5001,
    scope_unknown = 5002,
    scope_unregistered = 5003,
    client_id_missing = 11000,
    client_id_unknown = 12000,
    redirect_uri_missing = 13000,
    redirect_uri_malformed = 14000,
    redirect_uri_unregistered = 15000,
    reserved_request_not_found = 16000,
    code_challenge_method_unsupported = 18000,
    code_challenge_malformed = 19000,
    code_verifier_malformed = 20000,
};

struct AuthorizationErrorInfo {
    AuthorizationErrorCode code;
    std::string_view identifier;   // stable, the enumerator's name ("scope_unknown")
    std::string_view description;  // spec text; "<response type>" / "<client_id>" placeholders
    std::string_view condition;    // when the service reports it (spec 7.1)
    std::string_view remedy;       // what the user or the client's developer can do
    std::string_view oauth_error;  // RFC 6749 4.1.2.1 identifier for a redirect ("invalid_scope")
};

inline constexpr std::size_t kAuthorizationErrorCount = 16;

// All 16 codes in ascending numeric order.
const std::array<AuthorizationErrorInfo, kAuthorizationErrorCount>& all_authorization_errors();

const AuthorizationErrorInfo& info(AuthorizationErrorCode code);
std::string_view to_string(AuthorizationErrorCode code);  // the identifier
int to_number(AuthorizationErrorCode code);                // 1001 ... 20000
// nullopt for numbers the spec does not list.
std::optional<AuthorizationErrorCode> authorization_error_from_number(long number);

// The description with its placeholder filled ("foo response type is unknown.");
// for codes without a placeholder, `argument` is ignored.
std::string describe(AuthorizationErrorCode code, std::string_view argument = {});

// ---------------------------------------------------------------------------
// Token endpoint errors (spec 2.4, 7.2; identifiers from RFC 6749 5.2).
// ---------------------------------------------------------------------------
namespace token_error {
inline constexpr std::string_view invalid_request = "invalid_request";
inline constexpr std::string_view invalid_client = "invalid_client";
inline constexpr std::string_view invalid_grant = "invalid_grant";
inline constexpr std::string_view unauthorized_client = "unauthorized_client";
inline constexpr std::string_view unsupported_grant_type = "unsupported_grant_type";
inline constexpr std::string_view invalid_scope = "invalid_scope";
inline constexpr std::string_view server_error = "server_error";
}  // namespace token_error

struct TokenErrorInfo {
    std::string_view identifier;  // "invalid_grant"
    std::string_view cause;       // what the server objects to
    std::string_view remedy;      // what the user or developer can do
    int http_status;              // RFC 6749 5.2 (the spec does not state it, 7.2)
};

inline constexpr std::size_t kTokenErrorCount = 7;
const std::array<TokenErrorInfo, kTokenErrorCount>& all_token_errors();
// nullptr for identifiers RFC 6749 5.2 does not define.
const TokenErrorInfo* token_error_info(std::string_view identifier);

// The body of a failed token request (spec 2.4).
struct TokenError {
    std::string error;        // identifier, e.g. "invalid_grant"
    std::string description;  // error_description; empty when absent
};

// {"error":..,"error_description":..,"error_uri":null} (spec 2.4: error_uri is always null).
std::string to_json(const TokenError& error);
// 400, except 401 for invalid_client (RFC 6749 5.2) and 500 for server_error.
int http_status(const TokenError& error);
// A user-facing remedy; a generic one for identifiers not in the table.
std::string_view remedy(const TokenError& error);

// Why an error body could not be read: the peer broke the format contract.
enum class ErrorBodyError {
    not_json,               // body is not JSON text
    not_object,             // top level is not an object
    error_missing,          // token error body without "error"
    error_not_string,       // "error" is not a non-empty string
    description_not_string, // "error_description" present but not a string
    error_uri_invalid,      // "error_uri" present but neither null nor a string
    errors_missing,         // API error body without "errors"
    errors_not_array,       // "errors" is not an array
    errors_item_not_string, // an element of "errors" is not a string
};
std::string_view to_string(ErrorBodyError error);

Result<TokenError, ErrorBodyError> read_token_error(std::string_view body);

// ---------------------------------------------------------------------------
// REST API errors (spec 2.7, 7.3).
// ---------------------------------------------------------------------------
struct ApiErrorBody {
    std::vector<std::string> errors;
};

// {"errors":[...]}
std::string to_json(const ApiErrorBody& body);
Result<ApiErrorBody, ErrorBodyError> read_api_error_body(std::string_view body);

// Spec 5.1.4 / 7.3: the message for a wrong API token (the spec names it only
// "an invalid-token message"; this is the sandbox's wording).
inline constexpr std::string_view kInvalidApiTokenMessage = "Invalid API token";
// Spec 7.3 / 8.2, verbatim.
inline constexpr std::string_view kPerRoomRateLimitMessage =
    "Rate limit for message posting per room exceeded.";
// Spec 5.2.2: error_description values of the Bearer challenge (the expired
// one "states that the access token expired"; the wording is the sandbox's).
inline constexpr std::string_view kAccessTokenExpiredDescription = "The access token expired";
inline constexpr std::string_view kAccessTokenInvalidDescription = "The access token is invalid";
// Spec 7.3: after the per-room posting error the caller waits about 10 s.
inline constexpr Seconds kPerRoomRetryAfter{10};

// True for a 429 whose body's "errors" holds kPerRoomRateLimitMessage (spec 7.3).
bool is_per_room_rate_limit(const HttpResponse& response);
// True for a 401 whose body's "errors" is a JSON array and that carries no
// Bearer challenge (wrong API token, spec 5.1.4; a Bearer 401 is spec 5.2.2).
bool is_invalid_api_token(const HttpResponse& response);

}  // namespace roomkey
