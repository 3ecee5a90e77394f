// callback.cpp: the redirect back from the consent screen (spec 4.2, 7.1):
// state check, error mapping, and the hand-off to the code exchange.
#include "roomkey/callback.hpp"

#include <utility>

#include "roomkey/pkce.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

std::string_view to_string(CallbackErrorKind kind) {
    using K = CallbackErrorKind;
    switch (kind) {
        case K::no_pending_authorization: return "callback.no_pending_authorization";
        case K::malformed_url: return "callback.malformed_url";
        case K::redirect_mismatch: return "callback.redirect_mismatch";
        case K::repeated_parameter: return "callback.repeated_parameter";
        case K::state_missing: return "callback.state_missing";
        case K::state_mismatch: return "callback.state_mismatch";
        case K::access_denied: return "callback.access_denied";
        case K::authorization_error: return "callback.authorization_error";
        case K::code_missing: return "callback.code_missing";
    }
    return "callback.unknown";
}

ValidatedCallback::ValidatedCallback(std::string code, const PendingAuthorization& pending)
    : code_(std::move(code)),
      code_verifier_(pending.code_verifier),
      redirect_uri_sent_(pending.redirect_uri_sent),
      client_id_(pending.client_id),
      scopes_(pending.scopes) {}

namespace {

CallbackError fail(CallbackErrorKind kind) { return CallbackError{kind, std::nullopt, {}, {}}; }

// Same scheme, origin (default ports folded) and path; the query may differ
// because the server appends to it, and a fragment is the browser's business.
bool same_endpoint(const Url& landed, const Url& sent) {
    return landed.scheme == sent.scheme && origin_of(landed) == origin_of(sent) && landed.path == sent.path;
}

// The error_code parameter as a spec 7.1 code; nullopt for anything else.
std::optional<AuthorizationErrorCode> parse_error_code(const std::optional<std::string>& text) {
    if (!text || text->empty() || text->size() > 9) return std::nullopt;
    long number = 0;
    for (char c : *text) {
        if (c < '0' || c > '9') return std::nullopt;
        number = number * 10 + (c - '0');
    }
    return authorization_error_from_number(number);
}

}  // namespace

Result<ValidatedCallback, CallbackError> validate_callback(std::string_view redirect_url,
                                                           std::optional<PendingAuthorization>& pending_slot) {
    // Single use: whatever happens below, this pending record is spent.
    if (!pending_slot) return Err{fail(CallbackErrorKind::no_pending_authorization)};
    const PendingAuthorization pending = std::move(*pending_slot);
    pending_slot.reset();

    auto landed = parse_url(redirect_url);
    if (!landed) return Err{fail(CallbackErrorKind::malformed_url)};
    auto query = form_decode(landed->query.value_or(std::string()));
    if (!query) return Err{fail(CallbackErrorKind::malformed_url)};

    if (!pending.redirect_uri_sent.empty()) {
        auto sent = parse_url(pending.redirect_uri_sent);
        if (!sent || !same_endpoint(*landed, *sent)) return Err{fail(CallbackErrorKind::redirect_mismatch)};
    }

    for (std::string_view name : {"code", "state", "error", "error_code", "error_description"}) {
        if (form_count(*query, name) > 1) return Err{fail(CallbackErrorKind::repeated_parameter)};
    }

    // State first: until it matches, nothing in this URL is known to answer our request.
    const auto state = form_get(*query, "state");
    if (!state || state->empty()) return Err{fail(CallbackErrorKind::state_missing)};
    if (pending.state.empty() || !constant_time_equals(*state, pending.state)) {
        return Err{fail(CallbackErrorKind::state_mismatch)};
    }

    if (auto error = form_get(*query, "error")) {
        CallbackError out{CallbackErrorKind::authorization_error, parse_error_code(form_get(*query, "error_code")),
                          std::move(*error), form_get(*query, "error_description").value_or(std::string())};
        if (out.error == "access_denied") {
            out.kind = CallbackErrorKind::access_denied;
            out.code = AuthorizationErrorCode::access_denied;
        }
        return Err{std::move(out)};
    }

    auto code = form_get(*query, "code");
    if (!code || code->empty()) return Err{fail(CallbackErrorKind::code_missing)};
    return ValidatedCallback(std::move(*code), pending);
}

}  // namespace roomkey
