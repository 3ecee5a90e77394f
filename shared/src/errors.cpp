// errors.cpp: the error catalogs (spec 7.1-7.3) and the JSON error bodies.
//
// [SECTION] Authorization error table (spec 7.1)
// [SECTION] Token endpoint errors (spec 2.4, 7.2)
// [SECTION] REST API error bodies (spec 2.7, 7.3)
#include "roomkey/errors.hpp"
#include "roomkey/json_text.hpp"
#include "roomkey/www_authenticate.hpp"

#include <nlohmann/json.hpp>

namespace roomkey {

using json = nlohmann::json;

// ---------------------------------------------------------------------------
// [SECTION] Authorization error table (spec 7.1)
// ---------------------------------------------------------------------------
namespace {

using C = AuthorizationErrorCode;

// Ascending by number; the oauth_error column maps each code onto the
// RFC 6749 4.1.2.1 identifiers so the sandbox can redirect with a standard error.
const std::array<AuthorizationErrorInfo, kAuthorizationErrorCount> kAuthorizationErrors = {{
    {C::response_type_missing, "response_type_missing", "`response_type` parameter is missing.",
     "response_type not given.",
     "Developer: send response_type=code in the authorization request.", "invalid_request"},
    {C::access_denied, "access_denied", "The resource owner denied the request.",
     "Owner denied at the login or consent screen.",
     "User: sign in again and press the allow button on the consent screen to grant access.",
     "access_denied"},
    {C::token_response_type_unsupported, "token_response_type_unsupported",
     "`token` response type is not supported.", "Unsupported response_type given.",
     "Developer: the implicit grant is not offered; use response_type=code (authorization code grant).",
     "unsupported_response_type"},
    {C::response_type_unknown, "response_type_unknown", "<response type> response type is unknown.",
     "Undefined response_type given.", "Developer: the only response_type handled is code.",
     "unsupported_response_type"},
    {C::scope_missing, "scope_missing", "Scope is missing.", "scope not given.",
     "Developer: send a space-delimited scope parameter naming at least one scope.",
     "invalid_scope"},
    {C::scope_unknown, "scope_unknown", "The scope is unknown.", "Undefined scope given.",
     "Developer: use only scope names from the scope list (spec 5.5); check spelling and case.",
     "invalid_scope"},
    {C::scope_unregistered, "scope_unregistered", "The scope is unregistered.",
     "Invalid scope given (not registered for the client).",
     "Developer: request only scopes registered for the client, or add the scope on the client management screen.",
     "invalid_scope"},
    {C::client_id_missing, "client_id_missing", "`client_id` is missing.", "client_id not given.",
     "Developer: send the client ID issued at registration as client_id.", "invalid_request"},
    {C::client_id_unknown, "client_id_unknown", "The client ID <client_id> is unknown.",
     "client_id unknown.",
     "Developer: check the configured client ID against the client management screen; the client may have been deleted.",
     "unauthorized_client"},
    {C::redirect_uri_missing, "redirect_uri_missing", "`redirect_uri` is missing.",
     "redirect_uri not given.",
     "Developer: the client has more than one registered redirect URI, so redirect_uri must be sent (spec 4.2).",
     "invalid_request"},
    {C::redirect_uri_malformed, "redirect_uri_malformed", "The redirect URI is malformed.",
     "redirect_uri format invalid.", "Developer: send an absolute URI, percent-encoded in the query.",
     "invalid_request"},
    {C::redirect_uri_unregistered, "redirect_uri_unregistered", "The redirect URI is unregistered.",
     "redirect_uri not registered.",
     "Developer: send exactly one of the registered redirect URIs (character for character), or register it.",
     "invalid_request"},
    {C::reserved_request_not_found, "reserved_request_not_found",
     "reserved authorization request is not found or already timed out.",
     "The reserved authorization request is missing or timed out; the request is retried.",
     "User: start signing in again from the app; the login took too long or the page was reopened.",
     "invalid_request"},
    {C::code_challenge_method_unsupported, "code_challenge_method_unsupported",
     "`code_challenge_method` is unsupported.", "Unsupported code_challenge_method given.",
     "Developer: send code_challenge_method=S256 (plain is not accepted).", "invalid_request"},
    {C::code_challenge_malformed, "code_challenge_malformed", "`code_challenge` is malformed.",
     "code_challenge invalid.",
     "Developer: send BASE64URL(SHA-256(code_verifier)) without padding, 43-128 characters of [A-Za-z0-9-._~].",
     "invalid_request"},
    {C::code_verifier_malformed, "code_verifier_malformed", "`code_verifier` is malformed.",
     "code_verifier invalid.",
     "Developer: generate a code_verifier of 43-128 characters of [A-Za-z0-9-._~] and send the same one to the token endpoint.",
     "invalid_request"},
}};

}  // namespace

const std::array<AuthorizationErrorInfo, kAuthorizationErrorCount>& all_authorization_errors() {
    return kAuthorizationErrors;
}

const AuthorizationErrorInfo& info(AuthorizationErrorCode code) {
    for (const auto& entry : kAuthorizationErrors) {
        if (entry.code == code) return entry;
    }
    // Only reachable with a value cast from an unlisted number; the table's
    // first row is a safe, generic answer.
    return kAuthorizationErrors[0];
}

std::string_view to_string(AuthorizationErrorCode code) { return info(code).identifier; }

int to_number(AuthorizationErrorCode code) { return static_cast<int>(code); }

std::optional<AuthorizationErrorCode> authorization_error_from_number(long number) {
    for (const auto& entry : kAuthorizationErrors) {
        if (static_cast<long>(entry.code) == number) return entry.code;
    }
    return std::nullopt;
}

std::string describe(AuthorizationErrorCode code, std::string_view argument) {
    std::string text(info(code).description);
    for (std::string_view placeholder : {std::string_view("<response type>"), std::string_view("<client_id>")}) {
        auto at = text.find(placeholder);
        if (at != std::string::npos) text.replace(at, placeholder.size(), argument);
    }
    return text;
}

// ---------------------------------------------------------------------------
// [SECTION] Token endpoint errors (spec 2.4, 7.2)
// ---------------------------------------------------------------------------
namespace {

const std::array<TokenErrorInfo, kTokenErrorCount> kTokenErrors = {{
    {token_error::invalid_request,
     "A parameter is missing, repeated, malformed or not allowed (e.g. no code_verifier after a PKCE request).",
     "Developer: check grant_type, code, redirect_uri, code_verifier and client_id against spec 4.3.", 400},
    {token_error::invalid_client,
     "Client authentication failed: unknown client ID, wrong client secret, or Basic authentication used by a public client.",
     "Developer: check the client ID and secret on the client management screen; public clients send client_id without Basic authentication.",
     401},
    {token_error::invalid_grant,
     "The authorization code or refresh token is invalid, expired, revoked, already used, or was issued to another client or redirect URI.",
     "User: sign in again. (Codes live 1 minute, refresh tokens 14 days without offline_access.)", 400},
    {token_error::unauthorized_client, "The client may not use this grant type.",
     "Developer: use the authorization code grant; check the client type.", 400},
    {token_error::unsupported_grant_type,
     "grant_type is neither authorization_code nor refresh_token.",
     "Developer: send grant_type=authorization_code or grant_type=refresh_token.", 400},
    {token_error::invalid_scope,
     "The requested scope is unknown, not registered, or exceeds the scope originally granted.",
     "Developer: on refresh, request only scopes from the original grant (or omit scope).", 400},
    {token_error::server_error, "The authorization server failed unexpectedly.",
     "User: try again later.", 500},
}};

}  // namespace

const std::array<TokenErrorInfo, kTokenErrorCount>& all_token_errors() { return kTokenErrors; }

const TokenErrorInfo* token_error_info(std::string_view identifier) {
    for (const auto& entry : kTokenErrors) {
        if (entry.identifier == identifier) return &entry;
    }
    return nullptr;
}

std::string to_json(const TokenError& error) {
    json body = json::object();
    body["error"] = error.error;
    body["error_description"] = error.description;
    body["error_uri"] = nullptr;
    // Replacement for invalid UTF-8 rather than the default, which would throw (abort).
    return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

int http_status(const TokenError& error) {
    const TokenErrorInfo* known = token_error_info(error.error);
    return known ? known->http_status : 400;
}

std::string_view remedy(const TokenError& error) {
    const TokenErrorInfo* known = token_error_info(error.error);
    return known ? known->remedy : std::string_view("User: sign in again; if it persists, report the error text.");
}

std::string_view to_string(ErrorBodyError error) {
    switch (error) {
        case ErrorBodyError::not_json: return "not_json";
        case ErrorBodyError::not_object: return "not_object";
        case ErrorBodyError::error_missing: return "error_missing";
        case ErrorBodyError::error_not_string: return "error_not_string";
        case ErrorBodyError::description_not_string: return "description_not_string";
        case ErrorBodyError::error_uri_invalid: return "error_uri_invalid";
        case ErrorBodyError::errors_missing: return "errors_missing";
        case ErrorBodyError::errors_not_array: return "errors_not_array";
        case ErrorBodyError::errors_item_not_string: return "errors_item_not_string";
    }
    return "unknown";
}

namespace {

Result<json, ErrorBodyError> parse_object(std::string_view body) {
    json parsed = parse_json_text(body);
    if (parsed.is_discarded()) return Err{ErrorBodyError::not_json};
    if (!parsed.is_object()) return Err{ErrorBodyError::not_object};
    return parsed;
}

}  // namespace

Result<TokenError, ErrorBodyError> read_token_error(std::string_view body) {
    auto parsed = parse_object(body);
    if (!parsed) return Err{parsed.error()};
    const json& object = parsed.value();
    if (!object.contains("error")) return Err{ErrorBodyError::error_missing};
    const json& error = object["error"];
    if (!error.is_string() || error.get_ref<const std::string&>().empty()) {
        return Err{ErrorBodyError::error_not_string};
    }
    TokenError result{error.get<std::string>(), {}};
    if (object.contains("error_description")) {
        const json& description = object["error_description"];
        if (!description.is_string()) return Err{ErrorBodyError::description_not_string};
        result.description = description.get<std::string>();
    }
    if (object.contains("error_uri")) {
        const json& uri = object["error_uri"];
        if (!uri.is_null() && !uri.is_string()) return Err{ErrorBodyError::error_uri_invalid};
    }
    return result;
}

// ---------------------------------------------------------------------------
// [SECTION] REST API error bodies (spec 2.7, 7.3)
// ---------------------------------------------------------------------------
std::string to_json(const ApiErrorBody& body) {
    json object = json::object();
    object["errors"] = json::array();
    for (const auto& message : body.errors) object["errors"].push_back(message);
    return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<ApiErrorBody, ErrorBodyError> read_api_error_body(std::string_view body) {
    auto parsed = parse_object(body);
    if (!parsed) return Err{parsed.error()};
    const json& object = parsed.value();
    if (!object.contains("errors")) return Err{ErrorBodyError::errors_missing};
    const json& errors = object["errors"];
    if (!errors.is_array()) return Err{ErrorBodyError::errors_not_array};
    ApiErrorBody result;
    for (const json& item : errors) {
        if (!item.is_string()) return Err{ErrorBodyError::errors_item_not_string};
        result.errors.push_back(item.get<std::string>());
    }
    return result;
}

bool is_per_room_rate_limit(const HttpResponse& response) {
    if (response.status != 429) return false;
    auto body = read_api_error_body(response.body);
    if (!body) return false;
    for (const auto& message : body->errors) {
        if (message == kPerRoomRateLimitMessage) return true;
    }
    return false;
}

bool is_invalid_api_token(const HttpResponse& response) {
    // A 401 to a Bearer request carries the Bearer challenge (spec 5.2.2) and
    // may carry an `errors` body as well: that is a token problem, not a wrong
    // API token, and refreshing (not re-typing a token) is the remedy.
    if (response.status != 401 || find_bearer_challenge(response.headers)) return false;
    return read_api_error_body(response.body).ok();
}

}  // namespace roomkey
