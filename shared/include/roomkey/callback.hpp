// callback.hpp: validating the redirect back from the consent screen (spec
// 4.2, 7.1). The result, ValidatedCallback, is the only input the code
// exchange accepts, so the state check cannot be skipped.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "roomkey/authorization.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"

namespace roomkey {

enum class CallbackErrorKind {
    no_pending_authorization,  // nothing stored, or already used (single use)
    malformed_url,             // not a URL, or its query is not form-encoded
    redirect_mismatch,         // not the redirect URI the request named
    repeated_parameter,        // code, state, error, ... given more than once
    state_missing,             // no state: cannot be tied to our request
    state_mismatch,            // CSRF, or a stale or replayed callback
    access_denied,             // spec 4.2: the resource owner pressed deny (3001)
    authorization_error,       // the consent screen reported another error (spec 7.1)
    code_missing,              // neither code nor error
};
std::string_view to_string(CallbackErrorKind kind);

struct CallbackError {
    CallbackErrorKind kind;
    // access_denied -> 3001; authorization_error -> the error_code parameter
    // when it names a spec 7.1 code.
    std::optional<AuthorizationErrorCode> code;
    std::string error;        // the OAuth "error" parameter, when one was sent
    std::string description;  // "error_description" as sent (display as text only)
};

// The outcome of a successful callback; only validate_callback makes one.
class ValidatedCallback {
public:
    const std::string& code() const { return code_; }                    // secret
    const std::string& code_verifier() const { return code_verifier_; }  // secret; empty without PKCE
    const std::string& redirect_uri_sent() const { return redirect_uri_sent_; }  // empty when not sent
    const std::string& client_id() const { return client_id_; }
    const ScopeSet& scopes() const { return scopes_; }  // requested

private:
    ValidatedCallback(std::string code, const PendingAuthorization& pending);
    friend Result<ValidatedCallback, CallbackError> validate_callback(std::string_view redirect_url,
                                                                      std::optional<PendingAuthorization>& pending);

    std::string code_;
    std::string code_verifier_;
    std::string redirect_uri_sent_;
    std::string client_id_;
    ScopeSet scopes_;
};

// Reads the URL the browser landed on. Consumes `pending` (it is reset on
// every call, success or not), so a state cannot be used twice. Checks, in
// order: a pending record, URL syntax, the redirect URI when one was sent,
// repeated parameters, state (constant-time), then error / code.
Result<ValidatedCallback, CallbackError> validate_callback(std::string_view redirect_url,
                                                           std::optional<PendingAuthorization>& pending);

}  // namespace roomkey
