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
    if (!config_load_.value || !config_load_.value->configured) {
        UserError error;
        error.title = "Sign-in cannot start";
        error.message = config_load_.value
                            ? "roomkey-helper has no upstream service configured."
                            : "roomkey-helper's configuration is not loaded (" +
                                  (config_load_.error.empty() ? std::string("still loading") : config_load_.error) +
                                  ").";
        error.remedy = "Start roomkey with ./scripts/run.sh, then try again.";
        error.offers_try_again = true;
        set_error(std::move(error));
        return;
    }
    if (config_load_.value->bff()) {
        // Issue 30: the helper makes state and PKCE; a session it holds is
        // replaced by the new one when the callback comes (incremental consent).
        bff_sign_in(scopes, now);
        return;
    }
    if (holder() == CredentialHolder::api_token || session().state() != SessionState::signed_out) sign_out(now);

    AuthorizationRequest request;
    request.redirect_uri = config_load_.value->redirect_uri;
    request.scopes = scopes;
    request.state = make_state(random_);
    request.pkce = make_pkce(random_);  // mandatory for public clients (spec 5.4.1), used always
    const ClientConfig client = config_load_.value->client();
    auto url = build_authorization_url(config_load_.value->consent_url, client, request);
    if (!url) {
        set_error(authorization_request_error(url.error()));
        return;
    }
    sign_in_.requested_scopes = scopes;
    feedback_.error.reset();
    feedback_.notice = "Opening the consent screen...";
    log_flow_step(authorization_step(*url), now);  // shown if the page comes back (back/forward cache)
    // The pending record is kept in sessionStorage before the page leaves.
    perform(client_.sign_in(session_config(client.client_id), std::move(*url),
                            serialize(make_pending(client, request, now))),
            now);
}

void App::sign_out(Instant now) {
    if (holder() == CredentialHolder::helper) bff_sign_out(now);  // the helper forgets the tokens (POST /bff/logout)
    bff_.view.signed_out();
    bff_.signing_in = false;
    perform(client_.sign_out(), now);
    drop_all_calls("signed out", now);
    // The log keeps its entries, but rewritten masked: the secrets of this
    // session exist nowhere any more.
    trace_.log.forget_secrets(redaction());
    trace_.secrets.clear();
    sign_in_.api_token.clear();
    sign_in_.callback.reset();
    sign_in_.refresh_tick_at.reset();
    reset_account_data();
    sign_in_.requested_scopes.clear();
    sign_in_.scope_refresh.reset();
    feedback_.error.reset();
    feedback_.notice.clear();
    // Everything else that belonged to the session: the reveal switch, what
    // was copied, the posts (their texts) and the session's counters. The
    // pacing scheduler and its samples stay: the service still counts those
    // sends in its windows, whoever signs in next (spec 8.1, 8.2).
    trace_.reveal = false;
    effects_.push_back(effect::ForgetClipboard{trace_.copied});
    trace_.copied = false;
    features_.posting.clear();
    stats_.counters = Counters{};
}

// Issue 28: Back from the consent screen, and the browser showed this page
// again from its back/forward cache, with the state it had when it left
// (signing in, Sign in greyed out). That sign-in is abandoned: the session
// goes back to signed out, and its pending authorization leaves
// sessionStorage, so a callback carrying its state (the consent screen
// reached again by Forward, say) is refused like any unknown one: it stays
// single use. A page restored in any other state is as it was.
void App::page_restored(Instant now) {
    if (bff_.signing_in) {
        // The same in BFF mode: the helper's login cookie simply expires.
        bff_.signing_in = false;
        sign_in_.requested_scopes.clear();
        feedback_.notice =
            "Sign-in was not completed: you came back from the consent screen. Sign in again when you are "
            "ready.";
        return;
    }
    if (holder() != CredentialHolder::page_session || session().state() != SessionState::authorizing ||
        sign_in_.callback)
        return;
    perform(client_.sign_out(), now);
    effects_.push_back(effect::ForgetPending{});
    sign_in_.requested_scopes.clear();
    feedback_.error.reset();
    feedback_.notice =
        "Sign-in was not completed: you came back from the consent screen. Sign in again when you are ready.";
}

std::string App::clipboard_notice() const {
    if (!trace_.clear_refused) return {};
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
    sign_in_.api_token = std::move(token);
    add_secret(sign_in_.api_token);
    client_.set_api_config(api_config());
    client_.use_api_token(sign_in_.api_token);
    feedback_.error.reset();
    feedback_.notice = "Using an API token (spec 5.1): it is sent only in the " +
                       (config_load_.value ? config_load_.value->token_header : std::string(kDefaultApiTokenHeader)) +
                       " header.";
    features_.dashboard.load(now);
}

// ===========================================================================
// [SECTION] The session state machine
// ===========================================================================

SessionConfig App::session_config(const std::string& client_id) const {
    SessionConfig config = default_session_config();
    if (config_load_.value) config.token_url = config_load_.value->token_endpoint;
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
        sign_in_.scope_refresh.refuse(
            "Sign in with OAuth first: only an OAuth grant can be narrowed (an API token has no scopes).");
        return;
    }
    const bool busy = session().state() == SessionState::refreshing;
    if (auto why = ScopeRefresh::refusal(scopes, tokens->scope, busy)) {
        sign_in_.scope_refresh.refuse(std::move(*why));
        return;
    }
    sign_in_.scope_refresh.start(scopes, tokens->scope);
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
    if (holder() == CredentialHolder::page_session &&
        (state == SessionState::signed_in || state == SessionState::refreshing)) {
        perform(client_.refresh(now), now);
    }
}

void App::process_callback(Instant now) {
    ValidatedCallback callback = std::move(*sign_in_.callback);
    sign_in_.callback.reset();
    const std::string client_id = callback.client_id();
    RestStep step = client_.callback(session_config(client_id), std::move(callback), sign_in_.callback_at, now);
    for (const Lifecycle& event : step.lifecycle) {
        if (const auto* expired = std::get_if<lifecycle::CodeExpired>(&event)) {
            sign_in_.requested_scopes.clear();
            feedback_.notice.clear();
            set_error(code_expired_error(expired->waited));
            return;
        }
    }
    feedback_.notice = "Exchanging the authorization code...";
    perform(std::move(step), now);
}

void App::on_signed_in(Instant now) {
    feedback_.error.reset();
    feedback_.notice = "Signed in.";
    features_.dashboard.load(now);
}

void App::remember_tokens() {
    if (const auto& tokens = session().tokens()) {
        add_secret(tokens->access_token);
        add_secret(tokens->refresh_token);
    }
}

void App::add_secret(const std::string& secret) {
    if (secret.empty()) return;
    if (std::find(trace_.secrets.begin(), trace_.secrets.end(), secret) != trace_.secrets.end()) return;
    trace_.secrets.push_back(secret);
    // Old tokens stay in old log entries; keep masking the recent ones.
    if (trace_.secrets.size() > kMaxSecrets) trace_.secrets.erase(trace_.secrets.begin());
}

// ===========================================================================
// [SECTION] Session views
// ===========================================================================

std::string App::session_label() const {
    if (holder() == CredentialHolder::api_token) return "api token";
    if (holder() == CredentialHolder::helper)
        return bff_.refreshing ? "refreshing" : "signed in";  // the helper holds the tokens
    if (bff_.signing_in) return "signing in";
    if (sign_in_.callback) return "exchanging";
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
    if (!granted || sign_in_.requested_scopes.empty()) return false;
    return expand(*granted) != expand(sign_in_.requested_scopes);
}

std::optional<Instant> App::access_expires_at() const {
    if (holder() == CredentialHolder::helper) return bff_.view.access_expires_at();
    const auto& tokens = session().tokens();
    if (!tokens) return std::nullopt;
    return tokens->access_expires_at;
}

}  // namespace roomkey::app
