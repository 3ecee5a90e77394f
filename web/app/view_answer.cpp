// view_answer.cpp: how a view's request ends in words (see view_answer.hpp).
#include "app/view_answer.hpp"

#include <algorithm>

#include "app/app_detail.hpp"
#include "app/format.hpp"
#include "app/i18n.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/www_authenticate.hpp"

namespace roomkey::app {

using detail::kNoAnswer;

RestOptions view_options() {
    RestOptions options;
    options.rate_limit_retries = kMaxRateLimitedGetRetries;
    return options;
}

UserError given_up_error(std::string_view what, const std::string& reason) {
    UserError error;
    error.title = tr("errors.failed.title", {{"what", std::string(what)}});
    error.message = tr("views.not_completed", {{"reason", reason}});
    error.plain = tr("views.not_completed_plain");  // the reason's words are the wire's ("session_ended")
    error.remedy = tr("errors.sign_in_again");
    return error;
}

std::string view_failure(FeatureHost& host, const std::string& what, const Answer& answer, bool ok, Method method,
                         const std::string& path, ErrorSource source) {
    std::string failure;
    if (!answer.response) {
        if (answer.reason.rfind(kNoAnswer, 0) == 0) {
            UserError error = transport_error(what, answer.reason.substr(kNoAnswer.size()));
            failure = error.message;
            host.set_error(std::move(error), source);
        } else {
            // The session gave the request up (e.g. still 401 after the one
            // refresh and retry, spec 5.2.2).
            failure = tr("errors.request_not_completed.reason", {{"reason", answer.reason}});
            host.set_error(given_up_error(what, answer.reason), source);
        }
    } else if (!ok) {
        const auto match = match_endpoint(method, path);
        UserError error =
            api_error(what, *answer.response, match ? std::optional<Endpoint>(match->endpoint) : std::nullopt);
        failure = error.code.empty() ? error.message : error.code + ": " + error.message;
        // Spec 5.2.2: a 403 insufficient_scope names the scope the call
        // needed; the view says it, and "sign in again adding" it is offered.
        const auto challenge = find_bearer_challenge(answer.response->headers);
        if (answer.response->status == 403 && challenge && challenge->error == "insufficient_scope" &&
            challenge->scope) {
            failure += tr("errors.needs_scope", {{"scope", *challenge->scope}});
            host.offer_scope(*challenge->scope);
        }
        host.set_error(std::move(error), source);
    }
    return failure;
}

std::string unreadable_failure(FeatureHost& host, const std::string& what, std::string_view detail,
                               ErrorSource source) {
    UserError error = unreadable_answer_error(what, detail);
    std::string failure = error.message;
    host.set_error(std::move(error), source);
    return failure;
}

Piece rate_limit_piece(const FeatureHost& host, Instant now) {
    // The scheduler now holds every request until x-ratelimit-reset; the
    // request goes again then, once, and says so.
    const Millis wait = std::chrono::duration_cast<Millis>(host.scheduler().earliest_send(now, std::nullopt) - now);
    return Piece{"rate.retrying_once", "time", format_countdown(std::max(wait, Millis(0)))};
}

std::string rate_limit_note(const FeatureHost& host, Instant now) {
    return rate_limit_piece(host, now).text();
}

Words rate_limited(Words what, const FeatureHost& host, Instant now) {
    return std::move(what).then(rate_limit_piece(host, now));
}

}  // namespace roomkey::app
