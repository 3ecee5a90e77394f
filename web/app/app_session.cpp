// app_session.cpp: sign-in, sign-out and the API token, and the bridge to
// shared/'s session state machine (authorization callback, token exchange,
// refresh, the secrets to mask in the log).
#include <algorithm>
#include <type_traits>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/format.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/url.hpp"
#include "roomkey/www_authenticate.hpp"

namespace roomkey::app {

using namespace detail;

// ===========================================================================
// [SECTION] Sign-in, sign-out, API token
// ===========================================================================

void App::sign_in(const ScopeSet& scopes, Instant now) {
    if (!config_ || !config_->configured) {
        UserError error;
        error.title = "Sign-in cannot start";
        error.message = config_ ? "roomkey-helper has no upstream service configured."
                                : "roomkey-helper's configuration is not loaded (" +
                                      (config_error_.empty() ? std::string("still loading") : config_error_) + ").";
        error.remedy = "Start roomkey with ./scripts/run.sh, then try again.";
        error.offers_try_again = true;
        set_error(std::move(error));
        return;
    }
    if (config_->bff()) {
        // Issue 30: the helper makes state and PKCE; a session it holds is
        // replaced by the new one when the callback comes (incremental consent).
        bff_sign_in(scopes, now);
        return;
    }
    if (holder() == CredentialHolder::api_token || session().state() != SessionState::signed_out) sign_out(now);

    AuthorizationRequest request;
    request.redirect_uri = config_->redirect_uri;
    request.scopes = scopes;
    request.state = make_state(random_);
    request.pkce = make_pkce(random_);  // mandatory for public clients (spec 5.4.1), used always
    const ClientConfig client = config_->client();
    auto url = build_authorization_url(config_->consent_url, client, request);
    if (!url) {
        set_error(authorization_request_error(url.error()));
        return;
    }
    requested_scopes_ = scopes;
    last_error_.reset();
    notice_ = "Opening the consent screen...";
    log_flow_step(authorization_step(*url), now);  // shown if the page comes back (back/forward cache)
    // The pending record is kept in sessionStorage before the page leaves.
    perform(client_.sign_in(session_config(client.client_id), std::move(*url),
                            serialize(make_pending(client, request, now))),
            now);
}

void App::sign_out(Instant now) {
    if (holder() == CredentialHolder::helper) bff_sign_out(now);  // the helper forgets the tokens (POST /bff/logout)
    bff_.signed_out();
    bff_signing_in_ = false;
    perform(client_.sign_out(), now);
    drop_all_calls("signed out", now);
    // The log keeps its entries, but rewritten masked: the secrets of this
    // session exist nowhere any more.
    log_.forget_secrets(redaction());
    secrets_.clear();
    api_token_.clear();
    callback_.reset();
    refresh_tick_at_.reset();
    reset_account_data();
    requested_scopes_.clear();
    scope_refresh_.reset();
    last_error_.reset();
    notice_.clear();
    // Everything else that belonged to the session: the reveal switch, what
    // was copied, the posts (their texts) and the session's counters. The
    // pacing scheduler and its samples stay: the service still counts those
    // sends in its windows, whoever signs in next (spec 8.1, 8.2).
    reveal_ = false;
    effects_.push_back(effect::ForgetClipboard{session_copied_});
    session_copied_ = false;
    posting_.clear();
    counters_ = Counters{};
}

// Issue 28: Back from the consent screen, and the browser showed this page
// again from its back/forward cache, with the state it had when it left
// (signing in, Sign in greyed out). That sign-in is abandoned: the session
// goes back to signed out, and its pending authorization leaves
// sessionStorage, so a callback carrying its state (the consent screen
// reached again by Forward, say) is refused like any unknown one: it stays
// single use. A page restored in any other state is as it was.
void App::page_restored(Instant now) {
    if (bff_signing_in_) {
        // The same in BFF mode: the helper's login cookie simply expires.
        bff_signing_in_ = false;
        requested_scopes_.clear();
        notice_ = "Sign-in was not completed: you came back from the consent screen. Sign in again when you are "
                  "ready.";
        return;
    }
    if (holder() != CredentialHolder::page_session || session().state() != SessionState::authorizing || callback_) return;
    perform(client_.sign_out(), now);
    effects_.push_back(effect::ForgetPending{});
    requested_scopes_.clear();
    last_error_.reset();
    notice_ = "Sign-in was not completed: you came back from the consent screen. Sign in again when you are ready.";
}

std::string App::clipboard_notice() const {
    if (!clipboard_clear_refused_) return {};
    return "The clipboard still holds what roomkey copied: this browser lets a page change the clipboard only "
           "right after a click or key press, so roomkey clears it at your next click or key press.";
}

void App::use_api_token(std::string token, Instant now) {
    token = trim(token);
    // shared/ decides what a usable token is (no control bytes, not empty).
    if (auto probe = get_me(api_config(), ApiToken{token}); !probe) {
        UserError error;
        error.title = "This API token cannot be used";
        error.message =
            "It is empty or holds characters a header cannot carry (" + std::string(to_string(probe.error())) + ").";
        error.remedy = "Copy the token again from the service's settings page.";
        set_error(std::move(error));
        return;
    }
    if (holder() != CredentialHolder::none || session().state() != SessionState::signed_out) sign_out(now);
    api_token_ = std::move(token);
    add_secret(api_token_);
    client_.set_api_config(api_config());
    client_.use_api_token(api_token_);
    last_error_.reset();
    notice_ = "Using an API token (spec 5.1): it is sent only in the " +
              (config_ ? config_->token_header : std::string("x-servicetoken")) + " header.";
    dashboard_.load(now);
}

// ===========================================================================
// [SECTION] The session state machine
// ===========================================================================

SessionConfig App::session_config(const std::string& client_id) const {
    SessionConfig config = default_session_config();
    if (config_) config.token_url = config_->token_endpoint;
    // Through the helper the browser is always a public client: in BFF mode
    // (a confidential client) the helper adds the secret (spec 4.3).
    config.credentials = PublicClient{client_id};
    return config;
}

// Spec 4.3: a refresh may ask for fewer scopes than were granted; the new
// tokens then grant only those (and so does every later refresh).
void App::refresh_with_scopes(const ScopeSet& scopes, Instant now) {
    if (holder() == CredentialHolder::helper) {
        bff_refresh(scopes, now);  // POST /bff/refresh {"scope": ...}
        return;
    }
    const auto& tokens = session().tokens();
    if (holder() != CredentialHolder::page_session || !tokens) {
        scope_refresh_.refuse(
            "Sign in with OAuth first: only an OAuth grant can be narrowed (an API token has no scopes).");
        return;
    }
    const bool busy = session().state() == SessionState::refreshing;
    if (auto why = ScopeRefresh::refusal(scopes, tokens->scope, busy)) {
        scope_refresh_.refuse(std::move(*why));
        return;
    }
    scope_refresh_.start(scopes, tokens->scope);
    perform(client_.refresh(now, scopes), now);
}

// "Refresh now": the page's own session refreshes its tokens; in BFF mode
// the helper refreshes them (POST /bff/refresh).
void App::refresh_now(Instant now) {
    if (holder() == CredentialHolder::helper) {
        bff_refresh(std::nullopt, now);
        return;
    }
    const SessionState state = session().state();
    if (holder() == CredentialHolder::page_session && (state == SessionState::signed_in || state == SessionState::refreshing)) {
        perform(client_.refresh(now), now);
    }
}

void App::process_callback(Instant now) {
    ValidatedCallback callback = std::move(*callback_);
    callback_.reset();
    const std::string client_id = callback.client_id();
    RestStep step = client_.callback(session_config(client_id), std::move(callback), callback_received_at_, now);
    for (const Lifecycle& event : step.lifecycle) {
        if (const auto* expired = std::get_if<lifecycle::CodeExpired>(&event)) {
            requested_scopes_.clear();
            notice_.clear();
            set_error(code_expired_error(expired->waited));
            return;
        }
    }
    notice_ = "Exchanging the authorization code...";
    perform(std::move(step), now);
}

void App::on_signed_in(Instant now) {
    last_error_.reset();
    notice_ = "Signed in.";
    dashboard_.load(now);
}

void App::remember_tokens() {
    if (const auto& tokens = session().tokens()) {
        add_secret(tokens->access_token);
        add_secret(tokens->refresh_token);
    }
}

void App::add_secret(const std::string& secret) {
    if (secret.empty()) return;
    if (std::find(secrets_.begin(), secrets_.end(), secret) != secrets_.end()) return;
    secrets_.push_back(secret);
    // Old tokens stay in old log entries; keep masking the recent ones.
    if (secrets_.size() > kMaxSecrets) secrets_.erase(secrets_.begin());
}

// ===========================================================================
// [SECTION] Session views
// ===========================================================================

std::string App::session_label() const {
    if (holder() == CredentialHolder::api_token) return "api token";
    if (holder() == CredentialHolder::helper) return bff_refreshing_ ? "refreshing" : "signed in";  // the helper holds the tokens
    if (bff_signing_in_) return "signing in";
    if (callback_) return "exchanging";
    switch (session().state()) {
        case SessionState::signed_out:
            return "signed out";
        case SessionState::authorizing:
            return "signing in";
        case SessionState::exchanging:
            return "exchanging";
        case SessionState::signed_in:
            return "signed in";
        case SessionState::refreshing:
            return "refreshing";
        case SessionState::expired:
            return "expired";
        case SessionState::failed:
            return "failed";
    }
    return "unknown";
}

bool App::scopes_differ() const {
    const ScopeSet* granted = granted_scopes();
    if (!granted || requested_scopes_.empty()) return false;
    return expand(*granted) != expand(requested_scopes_);
}

std::optional<Instant> App::access_expires_at() const {
    if (holder() == CredentialHolder::helper) return bff_.access_expires_at();
    const auto& tokens = session().tokens();
    if (!tokens) return std::nullopt;
    return tokens->access_expires_at;
}

}  // namespace roomkey::app
