// sign_in.hpp: the page's own sign-in (authorization code + PKCE), the API
// token, the scopes asked for and the refresh with fewer of them: the state
// they need and the steps they take through the REST client's session. The
// tokens themselves are the REST client's; the BFF mode's sign-in is the
// helper's (bff_panel.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/feature.hpp"
#include "app/flow_steps.hpp"
#include "app/scope_refresh.hpp"
#include "app/user_errors.hpp"
#include "roomkey/callback.hpp"
#include "roomkey/launch_url.hpp"
#include "roomkey/public_config.hpp"
#include "roomkey/random.hpp"
#include "roomkey/rest_client.hpp"
#include "roomkey/session.hpp"

namespace roomkey::app {

// The service's name for "Sign in to <service>", from its API address:
// a registered name says it ("https://api.chatwork.com/v2" -> "Chatwork");
// an address without one (an IP address, localhost) is said as it is, with
// its port ("https://127.0.0.1:8444/v2" -> "127.0.0.1:8444").
std::string service_name(std::string_view base_url);

// What the sign-in asks of the App that routes for it.
class SignInHost {
public:
    virtual const std::optional<PublicConfig>& config() const = 0;
    virtual const std::string& config_error() const = 0;
    virtual ApiConfig api_config() const = 0;
    // Performs what the REST client says (token requests, sends, answers).
    virtual void perform(RestStep step, Instant now) = 0;
    virtual void set_error(UserError error, ErrorSource source) = 0;
    virtual void notice(std::string text) = 0;
    virtual void notice_words(Words words) { notice(words.text()); }  // kept as words where the host can
    virtual void reset_error() = 0;
    virtual void log_flow_step(FlowStep step, Instant at) = 0;
    // A secret to mask in the HTTP log.
    virtual void add_secret(const std::string& secret) = 0;
    // sessionStorage's pending authorization belongs to an abandoned sign-in.
    virtual void forget_pending() = 0;
    // Ends whatever session there is (sign-out), before a new one begins.
    virtual void end_session(Instant now) = 0;
    // Someone signed in (page session or API token): the account loads.
    virtual void signed_in(Instant now) = 0;
    virtual void token_refreshed() = 0;
    // The session ended: what the previous account showed goes.
    virtual void reset_account_data() = 0;

protected:
    ~SignInHost() = default;
};

class SignIn {
public:
    SignIn(SignInHost& host, RestClient& client, const RandomSource& random)
        : host_(host), client_(client), random_(random) {}

    // ---- what the UI and the page API read ----
    const ScopeSet& requested_scopes() const { return requested_scopes_; }
    // "Refresh with fewer scopes" (intent::RefreshScopes): asked, granted, why not.
    const ScopeRefresh& scope_refresh() const { return scope_refresh_; }
    bool auto_refresh() const { return auto_refresh_; }
    // A validated callback waits for the configuration to exchange its code.
    bool exchanging() const { return callback_.has_value(); }
    std::string masked_api_token() const;
    const std::string& api_token() const { return api_token_; }

    SessionConfig session_config(const std::string& client_id) const;

    // ---- the page loaded, the configuration came ----
    // The page loaded at `launch_url` with `pending_record` (already out of
    // sessionStorage): an authorization answer is validated at once (spec 4.2).
    void on_launch(std::string_view launch_url, const LaunchUrl& launch,
                   const std::optional<std::string>& pending_record, Instant now);
    // /config.json was read: the flow's earlier steps are told in the log.
    void on_config(Instant now);
    // /config.json was answered (read or not) or failed: a waiting callback
    // exchanges its code or fails with `reason`.
    void after_config(const std::string& reason, Instant now);

    // ---- intents ----
    // Sign-in may start (the helper's configuration is here and names a service);
    // otherwise the user is told why not.
    bool may_start();
    void start(const ScopeSet& scopes, Instant now);
    // The page came back from the back/forward cache while it was at the consent screen.
    void page_restored(Instant now);
    void use_api_token(std::string token, Instant now);
    // Spec 4.3: a refresh may ask for fewer scopes than were granted.
    void refresh_with_scopes(const ScopeSet& scopes, Instant now);
    void refresh_now(Instant now);
    void set_auto_refresh(bool on, Instant now);
    // "Try again" after a failed or expired session: the table starts afresh.
    void try_again();
    // "Sign in again adding <scope>": the union of the scopes `granted` (or,
    // without a grant, those asked for) and that one; nullopt, with the user
    // told why, when it cannot be asked for.
    std::optional<ScopeSet> adding(const std::string& scope, const ScopeSet* granted);

    // ---- the REST client's session ----
    void on_token_answer(TokenRequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                         Instant now);
    void schedule_refresh(Instant at) { refresh_tick_at_ = at; }
    void tick(Instant now);
    std::optional<Instant> wake_at() const;
    // Signed out: everything the session asked for goes.
    void forget();

    // ---- the BFF mode shares the scopes asked for and the narrower refresh ----
    void set_requested(ScopeSet scopes) { requested_scopes_ = std::move(scopes); }
    ScopeRefresh& scope_refresh() { return scope_refresh_; }

private:
    void process_callback(Instant now);
    void remember_tokens();

    SignInHost& host_;
    RestClient& client_;
    const RandomSource& random_;

    std::optional<ValidatedCallback> callback_;  // validated, waiting for the config
    Instant callback_at_;                        // when the page loaded with it (spec 2.2: code valid 1 minute)
    // The authorization request and callback, waiting for the configuration
    // (its consent_url) to be told in the HTTP log as steps (flow_steps.hpp).
    struct ArrivedCallback {
        std::optional<PendingAuthorization> pending;  // as the callback consumed it
        std::string url;
        std::optional<CallbackError> refused;
        Instant at;
    };
    std::optional<ArrivedCallback> steps_;
    ScopeSet requested_scopes_;
    ScopeRefresh scope_refresh_;
    bool auto_refresh_ = true;
    std::optional<Instant> refresh_tick_at_;
    std::string api_token_;
    std::string reload_place_;  // the launch address's place (#/rooms/2100): a reload, told once the config is here
};

}  // namespace roomkey::app
