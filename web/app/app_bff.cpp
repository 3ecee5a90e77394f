// app_bff.cpp: issue 30, the page side of roomkey-helper's BFF mode
// (docs/bff.md). The helper runs the authorization-code + PKCE flow and
// keeps the tokens in an HttpOnly cookie; this page:
//   - signs in by navigating to /bff/login?scope=... (it keeps no state or
//     verifier: the helper does);
//   - asks GET /bff/session on load, so a reload keeps the session;
//   - sends /api/... with no credential (HeldByHelper) and never refreshes a
//     token itself; it only shows the lifetimes the helper reports;
//   - reads a 401 with X-Roomkey-Session: none as "signed out", with the
//     helper's reason;
//   - narrows the scope through POST /bff/refresh and signs out with POST
//     /bff/logout (whose note says the grant stays at the service);
//   - logs every step: the /bff/login navigation, the callback the helper
//     handled, and each token request the helper made (bff_flow_steps.hpp).
#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/bff_flow_steps.hpp"

namespace roomkey::app {

using namespace detail;

namespace {

UserError bff_callback_user_error(const BffCallbackError& error) {
    UserError out;
    out.code = error.code;
    out.offers_try_again = true;
    out.remedy = "Sign in again.";
    if (error.code == "access_denied") {
        out.title = "Sign-in denied";
        out.message = "Access was denied at the consent screen, so roomkey-helper received no authorization.";
    } else {
        out.title = "Sign-in through roomkey-helper failed";
        out.message = "roomkey-helper refused the answer from the consent screen";
        out.message += error.description.empty() ? std::string(".") : ": " + error.description;
    }
    out.message += " No session was made.";
    return out;
}

}  // namespace

// ===========================================================================
// [SECTION] Views
// ===========================================================================

const ScopeSet* App::granted_scopes() const {
    if (holder() == CredentialHolder::helper) return &bff_.scope();
    if (holder() == CredentialHolder::page_session && session().tokens()) return &session().tokens()->scope;
    return nullptr;
}

std::string App::tokens_held_by() const {
    if (holder() == CredentialHolder::helper) return "held by roomkey-helper (BFF), never in this page";
    if (holder() == CredentialHolder::page_session && session().tokens()) return "in this page's memory (public client)";
    if (holder() == CredentialHolder::api_token) return "the API token is in this page's memory";
    return {};
}

// ===========================================================================
// [SECTION] Sign-in, session, refresh, sign-out
// ===========================================================================

// The configuration is here: a #bff_error the page loaded with is shown (and
// told in the log as the callback's step), and the helper is asked whether
// this browser has a session.
void App::bff_on_config(Instant now) {
    if (bff_callback_error_) {
        const BffCallbackError error = std::move(*bff_callback_error_);
        bff_callback_error_.reset();
        log_flow_step(bff_callback_step(config_->redirect_uri, error), now);
        set_error(bff_callback_user_error(error));
    }
    if (bff_config()) bff_ask_session(now);
}

void App::bff_ask_session(Instant now) {
    if (bff_session_asked_) return;
    bff_session_asked_ = true;
    send(BffCall{BffRoute::session}, "session (roomkey-helper BFF)", bff_session_request(config_->bff_session), now);
}

void App::bff_sign_in(const ScopeSet& scopes, Instant now) {
    const std::string url = bff_login_url(config_->bff_login, scopes);
    // Told now, so a page shown again from the back/forward cache has it;
    // the page that comes back from the callback tells it again from the
    // helper's report of its token request.
    log_flow_step(bff_login_step(url), now);
    requested_scopes_ = scopes;
    bff_signing_in_ = true;
    last_error_.reset();
    notice_ = "Opening the consent screen through roomkey-helper...";
    effects_.push_back(effect::Navigate{url});
}

void App::bff_sign_out(Instant now) {
    send(BffCall{BffRoute::logout}, "sign-out (roomkey-helper BFF)", bff_logout_request(config_->bff_logout), now);
}

void App::bff_refresh(std::optional<ScopeSet> scopes, Instant now) {
    if (bff_refreshing_) {
        if (scopes) scope_refresh_.refuse("A refresh is already under way: wait for it, then try again.");
        return;
    }
    if (scopes) {
        const ScopeSet granted = bff_.scope();
        if (auto why = ScopeRefresh::refusal(*scopes, granted, false)) {
            scope_refresh_.refuse(std::move(*why));
            return;
        }
        scope_refresh_.start(*scopes, granted);
    }
    bff_refreshing_ = true;
    send(BffCall{BffRoute::refresh}, scopes ? "refresh with fewer scopes (roomkey-helper BFF)" : "refresh (roomkey-helper BFF)",
         bff_refresh_request(config_->bff_refresh, scopes), now);
}

void App::on_bff_answer(BffRoute route, const std::optional<HttpResponse>& response, const std::string& reason,
                        Instant now) {
    if (route == BffRoute::session) bff_session_asked_ = false;
    if (route == BffRoute::refresh) bff_refreshing_ = false;
    if (route == BffRoute::logout) {
        // Signed out here already (sign_out); this says what the helper did.
        if (response && is_success(response->status)) {
            notice_ = "Signed out: " + bff_logout_note(*response);
        } else {
            notice_ = "Signed out here, but roomkey-helper did not confirm it (" +
                      (response ? "HTTP " + std::to_string(response->status) : reason) +
                      "): its session cookie may remain until it expires.";
        }
        return;
    }
    if (!response) {
        if (route == BffRoute::refresh && scope_refresh_.pending()) {
            scope_refresh_.failed("The refresh did not go through (" + reason + "): the scopes granted before still apply.");
        }
        set_error(transport_error(route == BffRoute::session ? "Reading the session" : "Refreshing", reason));
        return;
    }
    if (auto why = bff_session_ended(*response)) {
        if (scope_refresh_.pending()) scope_refresh_.failed("The refresh was refused and the session ended: sign in again.");
        bff_ended(*why, now);
        return;
    }
    if (!is_success(response->status)) {
        const std::string why = bff_refusal(*response);
        if (route == BffRoute::refresh && scope_refresh_.pending()) {
            scope_refresh_.failed(why + ": the scopes granted before still apply.");
            return;
        }
        UserError error;
        error.title = route == BffRoute::session ? "roomkey-helper's session could not be read" : "The refresh failed";
        error.message = why;
        error.code = "HTTP " + std::to_string(response->status);
        error.remedy = "Try again; if it persists, sign in again.";
        error.offers_try_again = true;
        set_error(std::move(error));
        return;
    }
    auto info = read_bff_session(response->body);
    if (!info) {
        set_error(unreadable_answer_error(route == BffRoute::session ? "Reading the session" : "Refreshing", info.error()));
        return;
    }
    if (route == BffRoute::refresh) {
        if (scope_refresh_.pending()) {
            requested_scopes_ = scope_refresh_.requested();
            scope_refresh_.granted(info->scope);
        }
        if (info->signed_in) {
            ++counters_.token_refreshes;
            notice_ = "roomkey-helper refreshed the access token.";
        }
    }
    bff_take_session(*info, now);
}

void App::bff_take_session(const BffSessionInfo& info, Instant now) {
    if (!info.signed_in) {
        if (holder() == CredentialHolder::helper) bff_ended("roomkey-helper holds no session for this browser any more", now);
        return;
    }
    const bool arrived = holder() != CredentialHolder::helper;
    if (arrived && holder() != CredentialHolder::none) sign_out(now);  // an API token or a page-held grant gives way
    bff_.on_session(info, now);
    // How this session was made, told again from the helper's report: the
    // page that navigated to /bff/login is gone, and its log with it.
    for (const HelperTokenRequest& request : info.token_requests) {
        if (request.grant_type == "authorization_code" && arrived && bff_.first_report(request)) {
            const Instant at = instant_from_unix_seconds(request.at);
            log_flow_step(bff_login_step(bff_login_url(config_->bff_login, info.scope)), at);
            log_flow_step(bff_callback_step(config_->redirect_uri, std::nullopt), at);
            log_flow_step(helper_token_step(request), at);
        } else {
            bff_log_token_request(request, now);
        }
    }
    if (!arrived) return;
    client_.use_helper();
    bff_signing_in_ = false;
    if (requested_scopes_.empty()) requested_scopes_ = info.scope;
    last_error_.reset();
    notice_ = "Signed in through roomkey-helper: it holds the tokens, this page holds none.";
    dashboard_.load(now);
}

void App::bff_ended(const std::string& why, Instant now) {
    drop_all_calls("signed out", now);
    perform(client_.sign_out(), now);  // nobody holds credentials any more
    reset_account_data();
    bff_.signed_out();
    bff_signing_in_ = false;
    bff_refreshing_ = false;
    UserError error;
    error.title = "Signed out by roomkey-helper";
    error.message = why;
    error.remedy = "Sign in again.";
    set_error(std::move(error));
    notice_ = "Signed out: " + why;
}

// ===========================================================================
// [SECTION] The helper's own token requests
// ===========================================================================

void App::bff_log_token_request(const HelperTokenRequest& request, Instant now) {
    (void)now;
    if (!bff_.first_report(request)) return;
    log_flow_step(helper_token_step(request), instant_from_unix_seconds(request.at));
}

// Any answer through the helper: one during which the helper made a token
// request says so in a header; the log tells it, and /bff/session is read
// again for the new lifetimes (and the scope, after a refresh).
void App::bff_note_response(const HttpResponse& response, Instant now) {
    if (!bff_config()) return;
    auto request = token_request_header(response);
    if (!request) return;
    bff_log_token_request(*request, now);
    if (holder() == CredentialHolder::helper) bff_ask_session(now);
}

}  // namespace roomkey::app
