// app_rest.cpp: the App's part of the one REST client's steps
// (shared/rest_client.hpp): what a step says about the session (token
// requests with their log labels, the refresh time, the pending record,
// tokens forgotten) and a BFF session's end. The features' requests and
// their ends are requests.cpp's.
#include "app/app.hpp"

namespace roomkey::app {

void App::session_step(RestStep& step, Instant now) {
    // The table has no row for this: a bug in this adapter, shown, not hidden.
    if (step.refused_event) feedback_.set_notice(tr("notice.internal", {{"what", describe(*step.refused_event)}}));
    if (step.keep_pending) effects_.push_back(effect::StorePending{std::move(*step.keep_pending)});
    for (const SessionEffect& effect : step.session_effects) {
        if (const auto* go = std::get_if<session_effect::NavigateToConsent>(&effect)) {
            effects_.push_back(effect::Navigate{go->url});
        } else if (const auto* exchange = std::get_if<session_effect::SendCodeExchange>(&effect)) {
            send(purpose::TokenCall{exchange->id}, tr("log.purpose.code_exchange"), exchange->request, now);
        } else if (const auto* refresh = std::get_if<session_effect::SendRefresh>(&effect)) {
            send(purpose::TokenCall{refresh->id}, tr("log.purpose.token_refresh"), refresh->request, now);
        } else if (const auto* at = std::get_if<session_effect::ScheduleRefreshAt>(&effect)) {
            sign_in_.schedule_refresh(at->at);
        } else if (std::holds_alternative<session_effect::ForgetTokens>(effect)) {
            trace_.log().forget_secrets(redaction());
        }
    }
}

// The helper refreshed and retried already; a 401 it marks as "no session"
// means signed out (expired, refused refresh, logged out).
bool App::session_ended(const HttpResponse& response, Instant now) {
    auto ended = holder() == CredentialHolder::helper ? bff_session_ended(response) : std::nullopt;
    if (ended) bff_.ended(*ended, now);
    return ended.has_value();
}

void App::drop_calls(const std::string& reason, Instant now) {
    (void)now;
    requests_.drop_all();
    features_.drop_all(reason);
}

}  // namespace roomkey::app
