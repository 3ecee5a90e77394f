// user_errors.cpp: plain-words errors from shared/'s catalogs.
#include "app/user_errors.hpp"

#include "roomkey/api.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/token.hpp"

namespace roomkey::app {

std::string code_label(AuthorizationErrorCode code) {
    return std::to_string(to_number(code)) + " " + std::string(to_string(code));
}

UserError callback_error(const CallbackError& error) {
    UserError out;
    out.offers_try_again = true;
    if (error.code) {
        out.code = code_label(*error.code);
        out.remedy = std::string(info(*error.code).remedy);
    } else if (!error.error.empty()) {
        out.code = error.error;
    }
    const std::string no_exchange = " No token request was made.";
    switch (error.kind) {
        case CallbackErrorKind::access_denied:
            out.title = "Sign-in denied";
            out.message = "Access was denied at the consent screen, so roomkey received no authorization." +
                          no_exchange;
            break;
        case CallbackErrorKind::authorization_error:
            out.title = "The consent screen reported an error";
            out.message = error.code ? describe(*error.code) : std::string("The service reported an error.");
            if (!error.description.empty()) out.message += " (" + error.description + ")";
            out.message += no_exchange;
            break;
        case CallbackErrorKind::state_mismatch:
            out.title = "Sign-in rejected: the state does not match";
            out.message =
                "The answer from the consent screen does not belong to the sign-in this tab started "
                "(a forged or stale link: possible CSRF)." + no_exchange;
            out.remedy = "Start signing in again from this page.";
            break;
        case CallbackErrorKind::no_pending_authorization:
            out.title = "No sign-in was waiting for this answer";
            out.message =
                "This answer from the consent screen was already used, or the sign-in was started in another "
                "tab or before a reload." + no_exchange;
            out.remedy = "Start signing in again from this page.";
            break;
        case CallbackErrorKind::state_missing:
        case CallbackErrorKind::code_missing:
        case CallbackErrorKind::malformed_url:
        case CallbackErrorKind::redirect_mismatch:
        case CallbackErrorKind::repeated_parameter:
            out.title = "The consent screen's answer is malformed";
            out.message = "The redirect back to roomkey could not be used (" + std::string(to_string(error.kind)) +
                          ")." + no_exchange;
            if (out.remedy.empty()) out.remedy = "Start signing in again from this page.";
            break;
    }
    return out;
}

UserError authorization_request_error(const AuthorizationRequestError& error) {
    UserError out;
    out.title = "Sign-in cannot start";
    out.message = error.message;
    out.code = error.code ? code_label(*error.code) : std::string(to_string(error.kind));
    if (error.code) out.remedy = std::string(info(*error.code).remedy);
    return out;
}

UserError session_end_error(const SessionEnd& end, const std::optional<HttpResponse>& token_answer) {
    UserError out;
    out.offers_try_again = true;
    out.message = describe(end);
    switch (end.kind) {
        case SessionEndKind::code_exchange_rejected:
        case SessionEndKind::code_exchange_failed: out.title = "Sign-in failed"; break;
        case SessionEndKind::refresh_rejected:
        case SessionEndKind::refresh_failed:
        case SessionEndKind::refresh_token_expired: out.title = "Your session ended"; break;
        case SessionEndKind::callback_rejected: out.title = "Sign-in was not completed"; break;
        case SessionEndKind::signed_out: out.title = "Signed out"; break;
    }
    if (token_answer) {
        if (auto body = read_token_error(token_answer->body)) {
            out.code = body->error;
            out.remedy = std::string(remedy(*body));
        } else {
            out.code = "HTTP " + std::to_string(token_answer->status);
        }
    }
    if (out.remedy.empty()) out.remedy = "Sign in again.";
    return out;
}

UserError api_error(std::string_view what, const HttpResponse& response, std::optional<Endpoint> endpoint) {
    UserError out;
    out.title = std::string(what) + " failed";
    out.code = "HTTP " + std::to_string(response.status);
    if (auto body = read_api_error(response)) {
        for (const std::string& message : body->errors) {
            if (!out.message.empty()) out.message += " ";
            out.message += message;
        }
    }
    if (is_invalid_api_token(response)) {
        out.title = "The API token was refused";
        out.message = "The service answered 401: the API token is wrong (spec 5.1.4). " + out.message;
        out.remedy = "Paste the API token again, or sign in with OAuth instead.";
        out.offers_try_again = true;
    } else if (response.status == 403) {
        out.remedy = "The granted scopes do not allow this call.";
        if (endpoint) {
            if (auto scope = required_scope(*endpoint)) {
                out.remedy += " Sign in again and grant " + std::string(*scope) + " (spec 5.5).";
            }
        }
    } else if (response.status == 401) {
        out.remedy = "Sign in again.";
        out.offers_try_again = true;
    } else if (response.status == 429) {
        out.remedy = "The rate limit was reached (spec 8); roomkey waits and retries posts.";
    } else if (response.status >= 500) {
        out.remedy = "The service or the helper failed; try again in a moment.";
    }
    if (out.message.empty()) out.message = "The service answered with status " + std::to_string(response.status) + ".";
    return out;
}

UserError code_expired_error(Millis waited) {
    UserError out;
    out.title = "Sign-in expired: the authorization code is too old";
    out.code = "code expired";
    out.message = "The answer from the consent screen arrived " +
                  std::to_string(std::chrono::duration_cast<Seconds>(waited).count()) +
                  " s ago; an authorization code is valid for 1 minute (spec 2.2), so it was not exchanged. "
                  "No token request was made.";
    out.remedy = "Sign in again.";
    out.offers_try_again = true;
    return out;
}

UserError transport_error(std::string_view what, std::string_view reason) {
    UserError out;
    out.title = std::string(what) + " failed";
    out.message = "No answer from roomkey-helper (" + std::string(reason) + ").";
    out.remedy = "Check that ./scripts/run.sh is still running, then try again.";
    out.offers_try_again = true;
    return out;
}

UserError unreadable_answer_error(std::string_view what, std::string_view detail) {
    UserError out;
    out.title = std::string(what) + " failed";
    out.code = "unreadable answer";
    out.message = "The answer could not be read: it was cut off or is not what the service sends (" +
                  std::string(detail) + "). What is shown may be out of date.";
    out.remedy = "Try again; if it keeps happening, the service or roomkey-helper is misbehaving.";
    out.offers_try_again = true;
    return out;
}

}  // namespace roomkey::app
