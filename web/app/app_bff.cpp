// app_bff.cpp: the page side of roomkey-helper's BFF mode
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
    if (holder() == CredentialHolder::helper) return &bff_.view.scope();
    if (holder() == CredentialHolder::page_session && session().tokens()) return &session().tokens()->scope;
    return nullptr;
}

std::string App::tokens_held_by() const {
    if (holder() == CredentialHolder::helper) return "held by roomkey-helper (BFF), never in this page";
    if (holder() == CredentialHolder::page_session && session().tokens())
        return "in this page's memory (public client)";
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
    if (bff_.callback_error) {
        const BffCallbackError error = std::move(*bff_.callback_error);
        bff_.callback_error.reset();
        log_flow_step(bff_callback_step(config_load_.value->redirect_uri, error), now);
        set_error(bff_callback_user_error(error));
    }
    if (bff_config()) bff_ask_session(now);
}

void App::bff_ask_session(Instant now) {
    if (bff_.session_asked) return;
    bff_.session_asked = true;
    send(BffCall{BffRoute::session}, "session (roomkey-helper BFF)",
         bff_session_request(config_load_.value->bff_session), now);
}

void App::bff_sign_in(const ScopeSet& scopes, Instant now) {
    const std::string url = bff_login_url(config_load_.value->bff_login, scopes);
    // Told now, so a page shown again from the back/forward cache has it;
    // the page that comes back from the callback tells it again from the
    // helper's report of its token request.
    log_flow_step(bff_login_step(url), now);
    sign_in_.set_requested(scopes);
    bff_.signing_in = true;
    feedback_.error.reset();
    feedback_.notice = "Opening the consent screen through roomkey-helper...";
    effects_.push_back(effect::Navigate{url});
}

void App::bff_sign_out(Instant now) {
    send(BffCall{BffRoute::logout}, "sign-out (roomkey-helper BFF)", bff_logout_request(config_load_.value->bff_logout),
         now);
}

void App::bff_refresh(std::optional<ScopeSet> scopes, Instant now) {
    if (bff_.refreshing) {
        if (scopes) sign_in_.scope_refresh().refuse("A refresh is already under way: wait for it, then try again.");
        return;
    }
    if (scopes) {
        const ScopeSet granted = bff_.view.scope();
        if (auto why = ScopeRefresh::refusal(*scopes, granted, false)) {
            sign_in_.scope_refresh().refuse(std::move(*why));
            return;
        }
        sign_in_.scope_refresh().start(*scopes, granted);
    }
    bff_.refreshing = true;
    send(BffCall{BffRoute::refresh},
         scopes ? "refresh with fewer scopes (roomkey-helper BFF)" : "refresh (roomkey-helper BFF)",
         bff_refresh_request(config_load_.value->bff_refresh, scopes), now);
}

void App::on_bff_answer(BffRoute route, const std::optional<HttpResponse>& response, const std::string& reason,
                        Instant now) {
    if (route == BffRoute::session) bff_.session_asked = false;
    if (route == BffRoute::refresh) bff_.refreshing = false;
    if (route == BffRoute::logout) {
        // Signed out here already (sign_out); this says what the helper did.
        if (response && is_success(response->status)) {
            feedback_.notice = "Signed out: " + bff_logout_note(*response);
        } else {
            feedback_.notice = "Signed out here, but roomkey-helper did not confirm it (" +
                               (response ? "HTTP " + std::to_string(response->status) : reason) +
                               "): its session cookie may remain until it expires.";
        }
        return;
    }
    if (!response) {
        if (route == BffRoute::refresh && sign_in_.scope_refresh().pending()) {
            sign_in_.scope_refresh().failed("The refresh did not go through (" + reason +
                                          "): the scopes granted before still apply.");
        }
        set_error(transport_error(route == BffRoute::session ? "Reading the session" : "Refreshing", reason));
        return;
    }
    if (auto why = bff_session_ended(*response)) {
        if (sign_in_.scope_refresh().pending())
            sign_in_.scope_refresh().failed("The refresh was refused and the session ended: sign in again.");
        bff_ended(*why, now);
        return;
    }
    if (!is_success(response->status)) {
        const std::string why = bff_refusal(*response);
        if (route == BffRoute::refresh && sign_in_.scope_refresh().pending()) {
            sign_in_.scope_refresh().failed(why + ": the scopes granted before still apply.");
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
        set_error(
            unreadable_answer_error(route == BffRoute::session ? "Reading the session" : "Refreshing", info.error()));
        return;
    }
    if (route == BffRoute::refresh) {
        if (sign_in_.scope_refresh().pending()) {
            sign_in_.set_requested(sign_in_.scope_refresh().requested());
            sign_in_.scope_refresh().granted(info->scope);
        }
        if (info->signed_in) {
            ++stats_.counters.token_refreshes;
            feedback_.notice = "roomkey-helper refreshed the access token.";
        }
    }
    bff_take_session(*info, now);
}

void App::bff_take_session(const BffSessionInfo& info, Instant now) {
    if (!info.signed_in) {
        if (holder() == CredentialHolder::helper)
            bff_ended("roomkey-helper holds no session for this browser any more", now);
        return;
    }
    const bool arrived = holder() != CredentialHolder::helper;
    if (arrived && holder() != CredentialHolder::none) sign_out(now);  // an API token or a page-held grant gives way
    bff_.view.on_session(info, now);
    // How this session was made, told again from the helper's report: the
    // page that navigated to /bff/login is gone, and its log with it.
    for (const BffTokenRequestReport& request : info.token_requests) {
        if (request.grant_type == "authorization_code" && arrived && bff_.view.first_report(request)) {
            const Instant at = instant_from_unix_seconds(request.at);
            log_flow_step(bff_login_step(bff_login_url(config_load_.value->bff_login, info.scope)), at);
            log_flow_step(bff_callback_step(config_load_.value->redirect_uri, std::nullopt), at);
            log_flow_step(helper_token_step(request), at);
        } else {
            bff_log_token_request(request, now);
        }
    }
    if (!arrived) return;
    client_.use_helper();
    bff_.signing_in = false;
    if (sign_in_.requested_scopes().empty()) sign_in_.set_requested(info.scope);
    feedback_.error.reset();
    feedback_.notice = "Signed in through roomkey-helper: it holds the tokens, this page holds none.";
    features_.dashboard.load(now);
}

void App::bff_ended(const std::string& why, Instant now) {
    drop_all_calls("signed out", now);
    perform(client_.sign_out(), now);  // nobody holds credentials any more
    reset_account_data();
    bff_.view.signed_out();
    bff_.signing_in = false;
    bff_.refreshing = false;
    UserError error;
    error.title = "Signed out by roomkey-helper";
    error.message = why;
    error.remedy = "Sign in again.";
    set_error(std::move(error));
    feedback_.notice = "Signed out: " + why;
}

// ===========================================================================
// [SECTION] The helper's own token requests
// ===========================================================================

void App::bff_log_token_request(const BffTokenRequestReport& request, Instant now) {
    (void)now;
    if (!bff_.view.first_report(request)) return;
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
