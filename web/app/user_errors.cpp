// user_errors.cpp: plain-words errors from shared/'s catalogs.
#include "app/user_errors.hpp"

#include "app/i18n.hpp"

#include "roomkey/api.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/proxy_outcome.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/token.hpp"

namespace roomkey::app {

namespace {

// The words of a spec 7.1 code: its message (the argument filled in) and
// its remedy, by the code's identifier; the identifier itself stays as it is.
std::string auth_error_words(AuthorizationErrorCode code, const char* part, std::string_view argument = {}) {
    return tr("auth_error." + std::string(to_string(code)) + "." + part, {{"argument", std::string(argument)}});
}

// What the session's end means, in words (shared/'s describe(SessionEnd)).
std::string session_end_words(const SessionEnd& end) {
    std::string what = tr("session_end." + std::string(to_string(end.kind)));
    if (end.kind == SessionEndKind::signed_out) return what;
    if (!end.detail.empty()) what += " (" + end.detail + ")";
    return tr("session_end.sign_in_again", {{"what", what}});
}

}  // namespace

std::string UserError::said() const {
    return title + ". " + shown() + (remedy.empty() ? "" : " " + remedy);
}

std::string code_label(AuthorizationErrorCode code) {
    return std::to_string(to_number(code)) + " " + std::string(to_string(code));
}

UserError callback_error(const CallbackError& error) {
    UserError out;
    out.offers_try_again = true;
    if (error.code) {
        out.code = code_label(*error.code);
        out.remedy = auth_error_words(*error.code, "remedy");
    } else if (!error.error.empty()) {
        out.code = error.error;
    }
    const std::string no_exchange = tr("errors.no_token_request");
    switch (error.kind) {
        case CallbackErrorKind::access_denied:
            out.title = tr("errors.sign_in_denied.title");
            out.message = tr("errors.sign_in_denied.message") + no_exchange;
            break;
        case CallbackErrorKind::authorization_error:
            out.title = tr("errors.consent_error.title");
            out.message = error.code ? auth_error_words(*error.code, "message") : tr("errors.consent_error.generic");
            if (!error.description.empty()) out.message += " (" + error.description + ")";
            out.message += no_exchange;
            break;
        case CallbackErrorKind::state_mismatch:
            out.title = tr("errors.state_mismatch.title");
            out.message = tr("errors.state_mismatch.message") + no_exchange;
            out.remedy = tr("errors.start_again");
            break;
        case CallbackErrorKind::no_pending_authorization:
            out.title = tr("errors.no_pending.title");
            out.message = tr("errors.no_pending.message") + no_exchange;
            out.remedy = tr("errors.start_again");
            break;
        case CallbackErrorKind::state_missing:
        case CallbackErrorKind::code_missing:
        case CallbackErrorKind::malformed_url:
        case CallbackErrorKind::redirect_mismatch:
        case CallbackErrorKind::repeated_parameter:
            out.title = tr("errors.malformed_callback.title");
            out.message =
                tr("errors.malformed_callback.message", {{"reason", std::string(to_string(error.kind))}}) + no_exchange;
            if (out.remedy.empty()) out.remedy = tr("errors.start_again");
            break;
    }
    return out;
}

UserError authorization_request_error(const AuthorizationRequestError& error) {
    UserError out;
    out.title = tr("errors.cannot_start.title");
    out.message = error.message;
    out.code = error.code ? code_label(*error.code) : std::string(to_string(error.kind));
    if (error.code) out.remedy = auth_error_words(*error.code, "remedy");
    return out;
}

std::string token_error_remedy(std::string_view identifier) {
    const std::string key = "token_error." + std::string(identifier) + ".remedy";
    return token_error_info(identifier) ? std::string(tr(key)) : std::string(tr("token_error.unknown.remedy"));
}

UserError session_end_error(const SessionEnd& end, const std::optional<HttpResponse>& token_answer) {
    UserError out;
    out.offers_try_again = true;
    out.message = session_end_words(end);
    switch (end.kind) {
        case SessionEndKind::code_exchange_rejected:
        case SessionEndKind::code_exchange_failed: out.title = tr("errors.sign_in_failed.title"); break;
        case SessionEndKind::refresh_rejected:
        case SessionEndKind::refresh_failed:
        case SessionEndKind::refresh_token_expired: out.title = tr("errors.session_ended.title"); break;
        case SessionEndKind::callback_rejected: out.title = tr("errors.not_completed.title"); break;
        case SessionEndKind::signed_out: out.title = tr("errors.signed_out.title"); break;
    }
    if (token_answer) {
        if (auto body = read_token_error(token_answer->body)) {
            out.code = body->error;
            out.remedy = token_error_remedy(body->error);
        } else {
            out.code = "HTTP " + std::to_string(token_answer->status);
        }
    }
    if (out.remedy.empty()) out.remedy = tr("errors.sign_in_again");
    return out;
}

UserError api_error(std::string_view what, const HttpResponse& response, std::optional<Endpoint> endpoint) {
    UserError out;
    out.title = tr("errors.failed.title", {{"what", std::string(what)}});
    out.code = "HTTP " + std::to_string(response.status);
    if (auto body = read_api_error(response)) {
        for (const std::string& message : body->errors) {
            if (!out.message.empty()) out.message += " ";
            out.message += message;
        }
    }
    if (is_invalid_api_token(response)) {
        out.title = tr("errors.api_token_refused.title");
        out.message = tr("errors.api_token_refused.message") + (out.message.empty() ? "" : " " + out.message);
        out.remedy = tr("errors.api_token_refused.remedy");
        out.offers_try_again = true;
    } else if (response.status == 403) {
        out.remedy = tr("errors.forbidden.remedy");
        if (endpoint) {
            if (auto scope = required_scope(*endpoint)) {
                out.remedy += " " + tr("errors.forbidden.grant", {{"scope", std::string(*scope)}});
            }
        }
    } else if (response.status == 401) {
        out.remedy = tr("errors.sign_in_again");
        out.offers_try_again = true;
    } else if (response.status == 429) {
        out.remedy = tr("errors.rate_limited.remedy");
    } else if (response.status >= 500) {
        out.remedy = tr("errors.server.remedy");
    }
    if (out.message.empty()) {
        out.message = tr("errors.status.message", {{"status", std::to_string(response.status)}});
        out.plain = tr("errors.status.plain");
    }
    // The helper's own 502/504 says in its words (and its error's name)
    // whether the request left: the screen says it in the language shown.
    if (const auto outcome = read_upstream_outcome(response)) {
        out.plain = tr(*outcome == UpstreamOutcome::not_sent ? "errors.unreachable.not_sent" : "errors.unreachable.no_answer");
    }
    return out;
}

UserError code_expired_error(Millis waited) {
    UserError out;
    out.title = tr("errors.code_expired.title");
    out.code = "code expired";  // i18n: not shown (an identifier, shown as it is beside the words)
    out.message = tr("errors.code_expired.message",
                     {{"seconds", std::to_string(std::chrono::duration_cast<Seconds>(waited).count())}}) +
                  tr("errors.no_token_request");
    out.remedy = tr("errors.sign_in_again");
    out.offers_try_again = true;
    return out;
}

UserError transport_error(std::string_view what, std::string_view reason) {
    UserError out;
    out.title = tr("errors.failed.title", {{"what", std::string(what)}});
    out.message = tr("errors.no_helper.message", {{"reason", std::string(reason)}});
    out.remedy = tr("errors.no_helper.remedy");
    out.offers_try_again = true;
    return out;
}

UserError unreadable_answer_error(std::string_view what, std::string_view detail) {
    UserError out;
    out.title = tr("errors.failed.title", {{"what", std::string(what)}});
    out.code = "unreadable answer";  // i18n: not shown (an identifier, shown as it is beside the words)
    out.message = tr("errors.unreadable.message", {{"detail", std::string(detail)}});
    out.remedy = tr("errors.unreadable.remedy");
    out.offers_try_again = true;
    return out;
}

}  // namespace roomkey::app
