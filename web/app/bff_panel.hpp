// bff_panel.hpp: the page side of roomkey-helper's BFF mode (docs/bff.md):
// the session the helper holds for this browser, as the page knows it, and
// the steps that ask, refresh and end it. The helper runs the
// authorization-code + PKCE flow and keeps the tokens in an HttpOnly
// cookie; this page:
//   - signs in by navigating to /bff/login?scope=... (it keeps no state or
//     verifier: the helper does);
//   - asks GET /bff/session on load, so a reload keeps the session;
//   - sends /api/... with no credential (the REST client's helper holder)
//     and never refreshes a token itself; it only shows the lifetimes the
//     helper reports;
//   - reads a 401 with X-Roomkey-Session: none as "signed out", with the
//     helper's reason;
//   - narrows the scope through POST /bff/refresh and signs out with POST
//     /bff/logout (whose note says the grant stays at the service);
//   - logs every step: the /bff/login navigation, the callback the helper
//     handled, and each token request the helper made (bff_flow_steps.hpp).
#pragma once

#include <optional>
#include <string>

#include "app/bff_session.hpp"
#include "app/sign_in.hpp"
#include "roomkey/launch_url.hpp"
#include "roomkey/rest_client.hpp"

namespace roomkey::app {

// The helper's BFF session routes.
enum class BffRoute { session, refresh, logout };

// What the BFF panel asks of the App beyond what the sign-in asks.
class BffHost : public SignInHost {
public:
    // Sends a request to one of the helper's BFF routes; its answer comes
    // back to BffPanel::on_answer with the route.
    virtual void send_bff(BffRoute route, std::string label, HttpRequest request, Instant now) = 0;
    // Leave the page for `url` (the helper's /bff/login).
    virtual void navigate(std::string url) = 0;
    // Nobody holds credentials any more: every request waiting goes.
    virtual void drop_calls(const std::string& reason, Instant now) = 0;

protected:
    ~BffHost() = default;
};

class BffPanel {
public:
    BffPanel(BffHost& host, RestClient& client, SignIn& sign_in) : host_(host), client_(client), sign_in_(sign_in) {}

    // The helper's session as /bff/session last told it.
    const BffSessionView& view() const { return view_; }
    // Where the session stands while a BFF route is on its way.
    bool signing_in() const { return phase_ == Phase::signing_in; }
    bool refreshing() const { return phase_ == Phase::refreshing; }

    // The launch URL's #bff_error, shown once the configuration is read.
    void on_launch(const LaunchUrl& launch) { callback_error_ = launch.bff_error; }
    // The configuration is here: a #bff_error is shown, and in BFF mode the
    // helper is asked whether this browser has a session.
    void on_config(Instant now);

    void sign_in(const ScopeSet& scopes, Instant now);
    // Signed out here: the helper forgets the tokens too (POST /bff/logout).
    void sign_out(Instant now);
    // Spec 4.3 through the helper: POST /bff/refresh, with fewer scopes when given.
    void refresh(std::optional<ScopeSet> scopes, Instant now);
    // The page came back from the back/forward cache while at /bff/login:
    // true when that sign-in was abandoned (the helper's login cookie expires).
    bool page_restored();

    void on_answer(BffRoute route, const std::optional<HttpResponse>& response, const std::string& reason, Instant now);
    // Any answer through the helper: a token request it made meanwhile is
    // logged, and /bff/session read again for the new lifetimes.
    void note_response(const HttpResponse& response, Instant now);
    // The helper says there is no session (401 X-Roomkey-Session: none).
    void ended(const std::string& why, Instant now);

private:
    bool bff_mode() const { return host_.config() && host_.config()->bff(); }
    void ask_session(Instant now);
    void take_session(const BffSessionInfo& info, Instant now);
    void log_token_request(const BffTokenRequestReport& request);

    BffHost& host_;
    RestClient& client_;
    SignIn& sign_in_;

    BffSessionView view_;
    // What the page is doing with the helper's session: one state, not
    // flags that could disagree (a refresh after signing in, say). These are
    // not rows of shared/'s session table: in this mode that table runs in
    // the helper, one per cookie session (bff_refresh_flight.cpp), and owns
    // the tokens, their refresh and the grant's end; the page holds no token,
    // so the table's rows (a verifier to keep, a code to exchange, a refresh
    // to schedule, requests held for it) have nothing to act on here. This
    // is only which of the page's requests to the helper is on its way.
    enum class Phase {
        idle,        // nothing on its way
        signing_in,  // navigated to /bff/login (a page restored from the cache)
        refreshing,  // a POST /bff/refresh is in flight
    };
    Phase phase_ = Phase::idle;
    bool session_asked_ = false;                      // GET /bff/session in flight
    std::optional<BffCallbackError> callback_error_;  // the launch URL's #bff_error, until the config is read
};

}  // namespace roomkey::app
