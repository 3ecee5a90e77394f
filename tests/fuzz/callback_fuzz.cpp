// callback_fuzz.cpp. Property (invariants + round trip) of validate_callback,
// the reader of the URL the browser lands on after the consent screen:
// - no crash on any URL; the pending record is spent on every call;
// - it accepts only a URL whose single "state" equals the pending state and
//   whose single "code" is the code it returns, on the redirect URI that was
//   sent (when one was), and hands on the pending verifier, client and scopes;
// - the consent side's redirects (allow_redirect, deny_redirect,
//   error_redirect, built for the same request) read back exactly: the same
//   code for any code bytes, access_denied, the same spec 7.1 code, for any
//   state bytes.
// Input layout: byte 0 picks the pending record's redirect URI; the rest is
// the landed URL, and is also used as a code and as a state.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "roomkey/authorization.hpp"
#include "roomkey/callback.hpp"
#include "roomkey/url.hpp"

namespace {

using namespace roomkey;

constexpr std::string_view kRedirects[] = {"https://127.0.0.1:8443/callback", "http://127.0.0.1:8080/cb?app=1",
                                           "com.example.app:/oauth2redirect", "https://127.0.0.1:8443/callback"};
constexpr std::string_view kState = "c3RhdGUtb2YtdGhlLXJlcXVlc3QtMzItYnl0ZXMtbG9uZw";

PendingAuthorization make(std::string_view redirect, bool sent, std::string state) {
    PendingAuthorization p;
    p.state = std::move(state);
    p.code_verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    p.redirect_uri_sent = sent ? std::string(redirect) : std::string();
    p.client_id = "roomkey-public";
    p.scopes = {"rooms.all:read_write", "users.profile.me:read"};
    return p;
}

ValidatedAuthorization request_for(std::string_view redirect, const std::string& state) {
    ValidatedAuthorization r;
    r.client_id = "roomkey-public";
    r.redirect_uri = std::string(redirect);
    r.redirect_uri_given = true;
    r.state = state;
    return r;
}

void check_hand_off(const ValidatedCallback& ok, const PendingAuthorization& p) {
    if (ok.code().empty()) std::abort();
    if (ok.code_verifier() != p.code_verifier || ok.client_id() != p.client_id || ok.scopes() != p.scopes ||
        ok.redirect_uri_sent() != p.redirect_uri_sent) {
        std::abort();
    }
}

// Any landed URL: only a URL that answers our request passes.
void landed(std::string_view url, std::string_view redirect, bool sent) {
    const PendingAuthorization p = make(redirect, sent, std::string(kState));
    std::optional<PendingAuthorization> slot = p;
    auto result = validate_callback(url, slot);
    if (slot) std::abort();  // single use, success or not
    std::optional<PendingAuthorization> empty;
    auto again = validate_callback(url, empty);
    if (again || again.error().kind != CallbackErrorKind::no_pending_authorization) std::abort();
    if (!result) {
        if (to_string(result.error().kind).empty()) std::abort();
        return;
    }
    check_hand_off(*result, p);
    auto parsed = parse_url(url);
    if (!parsed) std::abort();
    auto query = form_decode(parsed->query.value_or(""));
    if (!query) std::abort();
    if (form_count(*query, "state") != 1 || form_get(*query, "state") != std::string(kState)) std::abort();
    if (form_count(*query, "code") != 1 || form_get(*query, "code") != result->code()) std::abort();
    if (form_count(*query, "error") != 0) std::abort();
    if (sent) {
        auto expected = parse_url(redirect);
        if (!expected || parsed->scheme != expected->scheme || parsed->path != expected->path ||
            origin_of(*parsed) != origin_of(*expected)) {
            std::abort();
        }
    }
}

// The consent side's answers, with `bytes` as the code and as the state.
void consent_round_trip(std::string_view bytes, std::string_view redirect, bool sent) {
    if (bytes.empty()) return;
    const std::string fixed_state(kState);
    {  // allow: any code bytes come back unchanged
        const PendingAuthorization p = make(redirect, sent, fixed_state);
        std::optional<PendingAuthorization> slot = p;
        auto ok = validate_callback(allow_redirect(request_for(redirect, fixed_state), bytes), slot);
        if (!ok || ok->code() != bytes) std::abort();
        check_hand_off(*ok, p);
    }
    const std::string state(bytes);
    {  // allow with any state bytes
        std::optional<PendingAuthorization> slot = make(redirect, sent, state);
        auto ok = validate_callback(allow_redirect(request_for(redirect, state), "code-1"), slot);
        if (!ok || ok->code() != "code-1") std::abort();
    }
    {  // deny
        std::optional<PendingAuthorization> slot = make(redirect, sent, state);
        auto denied = validate_callback(deny_redirect(request_for(redirect, state)), slot);
        if (denied || denied.error().kind != CallbackErrorKind::access_denied ||
            denied.error().code != AuthorizationErrorCode::access_denied) {
            std::abort();
        }
    }
    {  // an error after validation keeps its spec 7.1 code
        std::optional<PendingAuthorization> slot = make(redirect, sent, state);
        const auto code = AuthorizationErrorCode::reserved_request_not_found;
        auto failed = validate_callback(error_redirect(request_for(redirect, state), code), slot);
        if (failed || failed.error().kind != CallbackErrorKind::authorization_error || failed.error().code != code) {
            std::abort();
        }
    }
    {  // a different state never passes
        std::optional<PendingAuthorization> slot = make(redirect, sent, state + "x");
        auto stale = validate_callback(allow_redirect(request_for(redirect, state), "code-1"), slot);
        if (stale || stale.error().kind != CallbackErrorKind::state_mismatch) std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::string_view redirect = kRedirects[data[0] % 4];
    const bool sent = (data[0] % 4) != 3;  // the last one: redirect_uri not sent
    const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    landed(rest, redirect, sent);
    consent_round_trip(rest, redirect, sent);
    return 0;
}
