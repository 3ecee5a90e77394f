// token.hpp: the token endpoint (spec 4.3, 2.3, 2.4, 5.3, 5.4). Client side:
// the code exchange and refresh requests and reading the token response.
// Sandbox side: parsing a token request and answering with a token set.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/callback.hpp"
#include "roomkey/client.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/time.hpp"

namespace roomkey {

// Spec 2.3 / 5.2.3 / 8.3.
inline constexpr Seconds kAccessTokenLifetime{30 * 60};
// Spec 2.3 / 5.4.2 / 8.3: without offline_access; with it there is no expiry.
inline constexpr Seconds kRefreshTokenLifetime{14 * 24 * 60 * 60};
// An expires_in above this is refused as implausible (and would overflow Instant).
inline constexpr std::int64_t kMaxExpiresInSeconds = 366LL * 24 * 60 * 60;

// ===========================================================================
// Client side
// ===========================================================================

// POST {token_url} with grant_type=authorization_code, code, redirect_uri (only
// when it was sent on the consent request) and code_verifier (when PKCE was
// used). Public client: client_id in the body, no Authorization header.
// Confidential client: Authorization: Basic base64(id ":" secret) (spec 4.3)
// and no client_id in the body.
HttpRequest build_code_exchange(std::string_view token_url, const ValidatedCallback& callback,
                                const ClientCredentials& credentials);

// POST {token_url} with grant_type=refresh_token, refresh_token and, when
// given, scope (space-delimited); client authentication as above.
HttpRequest build_refresh_request(std::string_view token_url, std::string_view refresh_token,
                                  const std::optional<ScopeSet>& scope, const ClientCredentials& credentials);

// The Authorization header value a confidential client authenticates with
// at the token endpoint (spec 4.3, 5.3): "Basic " + base64(id ":" secret).
// Used by build_* above and by roomkey-helper in BFF mode.
std::string basic_authorization(const ConfidentialClient& client);

// RFC 7617 2: the user-id of Basic credentials cannot hold a colon (the first
// colon ends it). A confidential client whose ID has one cannot authenticate
// as spec 4.3 describes: configuration refuses such an ID up front.
bool usable_with_basic_authentication(std::string_view client_id);

struct TokenSet {
    std::string access_token;   // secret
    std::string refresh_token;  // secret
    std::string token_type;     // always "Bearer" (normalised spelling)
    std::int64_t expires_in = 0;
    ScopeSet scope;  // granted
    Instant access_expires_at;
    // now + 14 days; nullopt when offline_access was granted (no expiry, spec 5.4.3).
    std::optional<Instant> refresh_expires_at;
};

enum class TokenResponseErrorKind {
    error_response,          // non-200 with a spec 2.4 error body: see `error`
    malformed_error_body,    // non-200 whose body is not a spec 2.4 error body
    not_json,                // 200, body is not JSON
    not_object,              // 200, top level is not an object
    field_missing,           // a required member is absent: see `field`
    field_wrong_type,        // a member has the wrong JSON type: see `field`
    field_empty,             // access_token or refresh_token is an empty string
    token_type_unsupported,  // token_type is not Bearer (spec 2.3)
    expires_in_invalid,      // expires_in not in 1 .. kMaxExpiresInSeconds
    scope_invalid,           // scope is empty or names scopes outside the catalog
};
std::string_view to_string(TokenResponseErrorKind kind);

// "The token endpoint answered something we cannot use" (the peer's fault,
// except error_response, which is the server's considered refusal).
struct TokenResponseError {
    TokenResponseErrorKind kind;
    int status = 0;                   // HTTP status of the response
    std::string field;                // the offending member, for field_* / token_type / expires_in / scope
    std::optional<TokenError> error;  // for error_response
};

// Reads a token endpoint response (spec 4.3, 2.3, 2.4); never crashes on any input.
Result<TokenSet, TokenResponseError> read_token_response(const HttpResponse& response, Instant now);

// ===========================================================================
// Sandbox side
// ===========================================================================

enum class GrantType { authorization_code, refresh_token };
std::string_view to_string(GrantType type);  // the wire value
std::optional<GrantType> grant_type_from(std::string_view wire);  // nullopt: neither of the two

struct TokenRequest {
    GrantType grant_type = GrantType::authorization_code;
    std::string client_id;                     // from Basic or the client_id parameter
    std::optional<std::string> client_secret;  // set exactly when Basic authentication was used
    // grant_type=authorization_code
    std::string code;
    std::optional<std::string> redirect_uri;
    std::optional<std::string> code_verifier;  // format already checked (20000)
    // grant_type=refresh_token
    std::string refresh_token;
    std::optional<ScopeSet> scope;
};

// Parses a token request: POST, content-type application/x-www-form-urlencoded,
// no repeated parameter, grant_type authorization_code or refresh_token
// (else unsupported_grant_type), client authentication by Basic (id and
// secret percent-decoded) or the client_id parameter but not both, the
// grant's required parameters, and the code_verifier format (spec 7.1 20000).
// Does not look anything up: codes, tokens and secrets are the caller's.
Result<TokenRequest, TokenError> parse_token_request(const HttpRequest& request);

// What the authorization request bound a code to, as the sandbox stored it.
struct CodeGrantBinding {
    std::string client_id;
    std::string redirect_uri;         // effective (given or the single registered one)
    bool redirect_uri_given = false;  // whether the authorization request carried it
    std::optional<std::string> code_challenge;  // S256
};
// Spec 4.3 rules for an authorization_code request against its code:
// same client; redirect_uri repeated identically when it was given (and, when
// it was not, only the effective one is tolerated); code_verifier present and
// matching when a code_challenge was given, absent otherwise. invalid_grant
// on any mismatch.
Result<Unit, TokenError> check_code_grant(const TokenRequest& request, const CodeGrantBinding& binding);

// {"access_token":..,"refresh_token":..,"token_type":"Bearer","expires_in":..,"scope":".."}
std::string token_set_json(std::string_view access_token, std::string_view refresh_token, std::int64_t expires_in,
                           const ScopeSet& scope);
// 200 with the token set, content-type application/json, cache-control:
// no-store and pragma: no-cache (spec 2.3).
HttpResponse make_token_response(std::string_view access_token, std::string_view refresh_token,
                                 std::int64_t expires_in, const ScopeSet& scope);
// The error body of spec 2.4 with its RFC 6749 5.2 status and the same cache headers.
HttpResponse make_token_error_response(const TokenError& error);

}  // namespace roomkey
