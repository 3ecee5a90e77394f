// bff_panel.cpp: the helper's BFF session as the page asks, refreshes and
// ends it (bff_panel.hpp says what the page does and does not do).
#include "app/bff_panel.hpp"

#include "app/app_detail.hpp"
#include "app/bff_flow_steps.hpp"
#include "app/i18n.hpp"

namespace roomkey::app {

using namespace detail;

namespace {

UserError bff_callback_user_error(const BffCallbackError& error) {
    UserError out;
    out.code = error.code;
    out.offers_try_again = true;
    out.remedy = tr("errors.sign_in_again");
    if (error.code == "access_denied") {
        out.title = tr("errors.sign_in_denied.title");
        out.message = tr("errors.bff_denied.message");
    } else {
        out.title = tr("errors.bff_failed.title");
        out.message = error.description.empty() ? tr("errors.bff_refused.message")
                                                : tr("errors.bff_refused.message_why", {{"why", error.description}});
    }
    return out;
}

}  // namespace

// ===========================================================================
// [SECTION] Sign-in, session, refresh, sign-out
// ===========================================================================

void BffPanel::on_config(Instant now) {
    if (callback_error_) {
        const BffCallbackError error = std::move(*callback_error_);
        callback_error_.reset();
        host_.log_flow_step(bff_callback_step(host_.config()->redirect_uri, error), now);
        host_.set_error(bff_callback_user_error(error), ErrorSource::other);
    }
    if (bff_mode()) ask_session(now);
}

void BffPanel::ask_session(Instant now) {
    if (session_asked_) return;
    session_asked_ = true;
    host_.send_bff(BffRoute::session, tr("bff.session_purpose"), bff_session_request(host_.config()->bff_session),
                   now);
}

void BffPanel::sign_in(const ScopeSet& scopes, Instant now) {
    const std::string url = bff_login_url(host_.config()->bff_login, scopes);
    // Told now, so a page shown again from the back/forward cache has it;
    // the page that comes back from the callback tells it again from the
    // helper's report of its token request.
    host_.log_flow_step(bff_login_step(url), now);
    sign_in_.set_requested(scopes);
    phase_ = Phase::signing_in;
    host_.reset_error();
    host_.notice_words({"bff.opening"});
    host_.navigate(url);
}

void BffPanel::sign_out(Instant now) {
    if (client_.holder() == CredentialHolder::helper) {
        host_.send_bff(BffRoute::logout, tr("bff.sign_out_purpose"),
                       bff_logout_request(host_.config()->bff_logout), now);
    }
    view_.signed_out();
    if (phase_ == Phase::signing_in) phase_ = Phase::idle;
}

bool BffPanel::page_restored() {
    if (phase_ != Phase::signing_in) return false;
    phase_ = Phase::idle;
    sign_in_.set_requested({});
    host_.notice_words({"bff.not_completed"});
    return true;
}

void BffPanel::refresh(std::optional<ScopeSet> scopes, Instant now) {
    ScopeRefresh& narrowing = sign_in_.scope_refresh();
    if (phase_ == Phase::refreshing) {
        if (scopes) narrowing.refuse(tr("bff.refresh_busy"));
        return;
    }
    if (scopes) {
        const ScopeSet granted = view_.scope();
        if (auto why = ScopeRefresh::refusal(*scopes, granted, false)) {
            narrowing.refuse(std::move(*why));
            return;
        }
        narrowing.start(*scopes, granted);
    }
    phase_ = Phase::refreshing;
    host_.send_bff(BffRoute::refresh,
                   tr(scopes ? "bff.refresh_fewer_purpose" : "bff.refresh_purpose"),
                   bff_refresh_request(host_.config()->bff_refresh, scopes), now);
}

void BffPanel::on_answer(BffRoute route, const std::optional<HttpResponse>& response, const std::string& reason,
                         Instant now) {
    if (route == BffRoute::session) session_asked_ = false;
    if (route == BffRoute::refresh && phase_ == Phase::refreshing) phase_ = Phase::idle;
    if (route == BffRoute::logout) {
        // Signed out here already (sign_out); this says what the helper did.
        if (response && is_success(response->status)) {
            host_.notice_words({"bff.signed_out", "note", bff_logout_note(*response)});
        } else {
            host_.notice_words(
                {"bff.sign_out_unconfirmed", "why", response ? "HTTP " + std::to_string(response->status) : reason});
        }
        return;
    }
    ScopeRefresh& narrowing = sign_in_.scope_refresh();
    if (!response) {
        if (route == BffRoute::refresh && narrowing.pending()) {
            narrowing.failed(tr("bff.refresh_not_through", {{"why", reason}}));
        }
        host_.set_error(transport_error(tr(route == BffRoute::session ? "bff.reading_session" : "bff.refreshing"), reason),
                        ErrorSource::other);
        return;
    }
    if (auto why = bff_session_ended(*response)) {
        if (narrowing.pending()) narrowing.failed(tr("bff.refresh_ended"));
        ended(*why, now);
        return;
    }
    if (!is_success(response->status)) {
        const std::string why = bff_refusal(*response);
        if (route == BffRoute::refresh && narrowing.pending()) {
            narrowing.failed(tr("bff.refresh_refused", {{"why", why}}));
            return;
        }
        UserError error;
        error.title = tr(route == BffRoute::session ? "errors.bff_session_unreadable.title" : "errors.bff_refresh_failed.title");
        error.message = why;
        error.code = "HTTP " + std::to_string(response->status);
        error.remedy = tr("errors.bff_try_again.remedy");
        error.offers_try_again = true;
        host_.set_error(std::move(error), ErrorSource::other);
        return;
    }
    auto info = read_bff_session(response->body);
    if (!info) {
        host_.set_error(
            unreadable_answer_error(tr(route == BffRoute::session ? "bff.reading_session" : "bff.refreshing"), info.error()),
            ErrorSource::other);
        return;
    }
    if (route == BffRoute::refresh) {
        if (narrowing.pending()) {
            sign_in_.set_requested(narrowing.requested());
            narrowing.granted(info->scope);
        }
        if (info->signed_in) {
            host_.token_refreshed();
            host_.notice_words({"bff.refreshed"});
        }
    }
    take_session(*info, now);
}

void BffPanel::take_session(const BffSessionInfo& info, Instant now) {
    if (!info.signed_in) {
        if (client_.holder() == CredentialHolder::helper)
            ended(tr("bff.no_session"), now);
        return;
    }
    const bool arrived = client_.holder() != CredentialHolder::helper;
    // An API token or a page-held grant gives way.
    if (arrived && client_.holder() != CredentialHolder::none) host_.end_session(now);
    view_.on_session(info, now);
    // How this session was made, told again from the helper's report: the
    // page that navigated to /bff/login is gone, and its log with it.
    for (const BffTokenRequestReport& request : info.token_requests) {
        if (request.grant_type == GrantType::authorization_code && arrived && view_.first_report(request)) {
            const Instant at = instant_from_unix_seconds(request.at);
            host_.log_flow_step(bff_login_step(bff_login_url(host_.config()->bff_login, info.scope)), at);
            host_.log_flow_step(bff_callback_step(host_.config()->redirect_uri, std::nullopt), at);
            host_.log_flow_step(helper_token_step(request), at);
        } else {
            log_token_request(request);
        }
    }
    if (!arrived) return;
    client_.use_helper();
    if (phase_ == Phase::signing_in) phase_ = Phase::idle;
    if (sign_in_.requested_scopes().empty()) sign_in_.set_requested(info.scope);
    host_.reset_error();
    host_.notice_words({"bff.signed_in"});
    host_.signed_in(now);
}

void BffPanel::ended(const std::string& why, Instant now) {
    host_.drop_calls("signed out", now);  // i18n: not shown (the reason features are told, as app_session.cpp tells it)
    host_.perform(client_.sign_out(), now);  // nobody holds credentials any more
    host_.reset_account_data();
    view_.signed_out();
    phase_ = Phase::idle;
    UserError error;
    error.title = tr("errors.bff_signed_out.title");
    error.message = why;
    error.remedy = tr("errors.sign_in_again");
    host_.set_error(std::move(error), ErrorSource::other);
    host_.notice_words({"bff.signed_out", "note", why});
}

// ===========================================================================
// [SECTION] The helper's own token requests
// ===========================================================================

void BffPanel::log_token_request(const BffTokenRequestReport& request) {
    if (!view_.first_report(request)) return;
    host_.log_flow_step(helper_token_step(request), instant_from_unix_seconds(request.at));
}

// An answer during which the helper made a token request says so in a
// header; the log tells it, and /bff/session is read again for the new
// lifetimes (and the scope, after a refresh).
void BffPanel::note_response(const HttpResponse& response, Instant now) {
    if (!bff_mode()) return;
    auto request = token_request_header(response);
    if (!request) return;
    log_token_request(*request);
    if (client_.holder() == CredentialHolder::helper) ask_session(now);
}

}  // namespace roomkey::app
