// authorization.hpp: the authorization request of spec 4.2. Client side: the
// state value, the consent-screen URL and the single-use record the browser
// keeps until the callback. Sandbox side: validating an incoming request
// against every condition of spec 7.1 and building the redirect back.
// Both sides share one implementation of each rule.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/client.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/random.hpp"
#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/time.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

// Spec 2.2 / 8.3: an authorization code is valid for 1 minute.
inline constexpr Seconds kAuthorizationCodeLifetime{60};
// 32 random bytes: 256 bits, well above the 128 bits a CSRF token needs.
inline constexpr std::size_t kStateRandomBytes = 32;

// ===========================================================================
// Client side
// ===========================================================================

// A fresh anti-CSRF state value (spec 4.2): base64url of 32 random bytes.
std::string make_state(const RandomSource& random);

struct AuthorizationRequest {
    std::string redirect_uri;  // empty = not sent (allowed only with exactly one registered)
    ScopeSet scopes;
    std::string state;
    std::optional<PkcePair> pkce;  // required for public clients (spec 5.4.1)
};

enum class AuthorizationRequestErrorKind {
    consent_url_invalid,           // consent URL is not an absolute https URL without fragment
    client_id_missing,             // 11000
    no_registered_redirect_uri,    // the ClientConfig lists no redirect URI at all
    redirect_uri_missing,          // 13000: several registered, none chosen
    redirect_uri_malformed,        // 14000
    redirect_uri_unregistered,     // 15000
    scope_missing,                 // 5001
    scope_unknown,                 // 5002
    scope_unregistered,            // 5003: not among the client's registered scopes
    offline_access_public_client,  // 5003: public clients cannot register it (spec 2.1, 5.4.3)
    offline_access_alone,          // 5001: it gives no API access alone (spec 5.4.4)
    state_missing,                 // this project always sends a state (spec 4.2 anti-CSRF)
    pkce_required,                 // 19000: public client without PKCE (spec 4.2, 5.4.1)
    code_challenge_malformed,      // 19000
    code_verifier_malformed,       // 20000: it would be refused at the token endpoint
};
std::string_view to_string(AuthorizationRequestErrorKind kind);

// "We were asked to build a request the service would refuse."
struct AuthorizationRequestError {
    AuthorizationRequestErrorKind kind;
    std::optional<AuthorizationErrorCode> code;  // the spec 7.1 code the service would answer with
    std::string message;                         // for the developer; holds no secret
};

// {consent_url}?response_type=code&client_id=..&redirect_uri=..&scope=..&state=..
// &code_challenge=..&code_challenge_method=S256 (spec 4.2). redirect_uri is sent
// whenever the request names one, which it must when several are registered.
Result<std::string, AuthorizationRequestError> build_authorization_url(std::string_view consent_url,
                                                                       const ClientConfig& client,
                                                                       const AuthorizationRequest& request);

// What the browser keeps (in sessionStorage, single use) between sending the
// user to the consent screen and the callback.
struct PendingAuthorization {
    std::string state;
    std::string code_verifier;      // empty when PKCE was not used; secret
    std::string redirect_uri_sent;  // empty when redirect_uri was not sent
    std::string client_id;
    ScopeSet scopes;  // requested
    Instant created_at;
};

PendingAuthorization make_pending(const ClientConfig& client, const AuthorizationRequest& request, Instant now);

enum class PendingError {
    not_json,           // not JSON text
    not_object,         // top level is not an object
    version_unsupported,// "v" missing or not 1
    field_missing,      // a required member is absent
    field_wrong_type,   // a member has the wrong JSON type
    scope_invalid,      // "scope" is not a valid scope list
};
std::string_view to_string(PendingError error);

// A JSON object; it contains the code_verifier, so it belongs in
// sessionStorage only, never in a URL or a log.
std::string serialize(const PendingAuthorization& pending);
Result<PendingAuthorization, PendingError> parse_pending(std::string_view text);

// ===========================================================================
// Sandbox side (the consent screen of spec 4.2 / 7.1)
// ===========================================================================

// A request that passed every check: show the consent screen for it.
struct ValidatedAuthorization {
    std::string client_id;
    ClientType client_type = ClientType::public_client;
    std::string redirect_uri;         // where the outcome goes: the given one or the single registered one
    bool redirect_uri_given = false;  // spec 4.3: the token request must then repeat it
    ScopeSet scopes;                  // requested (each registered for the client)
    std::optional<std::string> state; // echoed unchanged on the redirect
    std::optional<std::string> code_challenge;  // method S256 (the only one accepted)
};

struct AuthorizationRejection {
    AuthorizationErrorCode code;
    std::string description;  // spec 7.1 text, placeholder filled
    // The complete Location for a redirect carrying error, error_code,
    // error_description and state. Set only once the client is known and the
    // redirect URI is verified as registered for it (RFC 6749 4.1.2.1);
    // otherwise the error is shown on a page and never redirected.
    std::optional<std::string> redirect_to;
};

using ClientLookup = std::function<const ClientConfig*(std::string_view client_id)>;
using ScopeRegisteredCheck = std::function<bool(std::string_view scope)>;

// Checks, in this order: client_id (11000, 12000), redirect_uri (14000, 15000,
// 13000), then, redirectable: response_type (1001, 4001, 4002), scope (5001,
// 5002, 5003, offline_access rules), PKCE (18000, 19000). A repeated parameter
// counts as malformed. Scopes are checked against the client's `scopes`.
Result<ValidatedAuthorization, AuthorizationRejection> validate_authorization_request(
    const FormFields& query, const ClientLookup& find_client);
// The same, with the "registered for the client" test supplied by the caller.
Result<ValidatedAuthorization, AuthorizationRejection> validate_authorization_request(
    const FormFields& query, const ClientLookup& find_client, const ScopeRegisteredCheck& scope_registered);

// `redirect_uri` with `params` appended to its query (after any existing one).
std::string build_redirect(std::string_view redirect_uri, FormFields params);

// Spec 4.2 outcomes: allow -> code + state; deny -> error=access_denied (3001) + state.
std::string allow_redirect(const ValidatedAuthorization& request, std::string_view code);
std::string deny_redirect(const ValidatedAuthorization& request);
// An error after validation (e.g. 16000): error, error_code, error_description, state.
std::string error_redirect(const ValidatedAuthorization& request, AuthorizationErrorCode code,
                           std::string_view argument = {});

}  // namespace roomkey
