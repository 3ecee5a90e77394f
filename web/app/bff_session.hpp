// bff_session.hpp: the page side of roomkey-helper's BFF mode (docs/bff.md):
// the helper holds the token set in an HttpOnly cookie and the page only
// learns what /bff/session tells it (signed in or not, the granted scope, the
// lifetimes left, the token requests the helper made), so no token ever
// reaches the page. Pure: building the requests and navigations, reading the
// answers, and the X-Roomkey-Session and X-Roomkey-Token-Request headers
// (the `#bff_error=` fragment is read with the launch URL, launch_url.hpp).
// The BFF panel drives it (bff_panel.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/bff_session.hpp"
#include "roomkey/http.hpp"
#include "roomkey/launch_url.hpp"  // BffCallbackError: the #bff_error fragment
#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

// The helper's reports (BffTokenRequestReport: its own BffTokenRequest
// record plus the masked lines), /bff/session's answer (BffSessionInfo) and
// their readers are shared/'s (bff_session.hpp): the helper writes them with
// the same types.

// A 401 carrying `X-Roomkey-Session: none`: the helper holds no session for
// this browser (none, expired, or its refresh was refused). The reason the
// helper gave ("roomkey session: ...; sign in again"), or a generic one.
std::optional<std::string> bff_session_ended(const HttpResponse& response);

// The answer's X-Roomkey-Token-Request header, when the helper made a token
// request while answering it; nullopt when absent or unreadable.
std::optional<BffTokenRequestReport> token_request_header(const HttpResponse& response);

// The navigation that starts a sign-in: `login_path?scope=<space-separated>`.
std::string bff_login_url(std::string_view login_path, const ScopeSet& scopes);
// GET /bff/session, POST /bff/refresh (with `{"scope": ...}` when narrowing),
// POST /bff/logout. The anti-CSRF header is added by the App's send().
HttpRequest bff_session_request(std::string_view path);
HttpRequest bff_refresh_request(std::string_view path, const std::optional<ScopeSet>& scopes);
HttpRequest bff_logout_request(std::string_view path);
// /bff/logout's note (the authorization stays granted at the service), or a
// text saying the same when the answer has none.
std::string bff_logout_note(const HttpResponse& response);
// The reason of a refused /bff/refresh (400 with errors[]), or the status.
std::string bff_refusal(const HttpResponse& response);

// The page's picture of the helper's session, with the lifetimes turned
// into instants when they were read.
class BffSessionView {
public:
    // What /bff/session (or /bff/refresh) said at `now`.
    void on_session(const BffSessionInfo& info, Instant now);
    void signed_out() { *this = BffSessionView{}; }

    bool signed_in() const { return signed_in_; }
    const ScopeSet& scope() const { return scope_; }
    std::optional<Instant> access_expires_at() const { return access_expires_at_; }
    std::optional<Instant> refresh_expires_at() const { return refresh_expires_at_; }
    Seconds access_lifetime() const { return access_lifetime_; }
    const std::vector<BffTokenRequestReport>& token_requests() const { return token_requests_; }
    // A token request not yet in the log: true the first time only.
    bool first_report(const BffTokenRequestReport& request);

private:
    bool signed_in_ = false;
    ScopeSet scope_;
    std::optional<Instant> access_expires_at_;
    std::optional<Instant> refresh_expires_at_;
    Seconds access_lifetime_{0};
    std::vector<BffTokenRequestReport> token_requests_;
    std::vector<BffTokenRequestReport> logged_;
};

}  // namespace roomkey::app
