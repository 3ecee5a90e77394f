// app_rest.cpp: the App between the features and the one REST client
// (shared/rest_client.hpp): a feature's request goes to the client under a
// tag, what a client step says is done (token requests, sends with their
// log labels), and each end goes back to its owner by the tag (wire.hpp).
#include "app/app.hpp"

namespace roomkey::app {

RequestTag App::submit(Feature& owner, Outgoing outgoing, Instant now, RequestTag tag) {
    if (tag == 0) tag = new_tag();
    if (!outgoing.request) {
        owner.on_answer(tag, Answer{std::nullopt, outgoing.request.error(), {}}, now);
        return tag;
    }
    wire_.add(tag, Wire::Route{&owner, std::move(outgoing.label), outgoing.upload_progress, std::nullopt});
    perform(client_.submit(tag, std::move(*outgoing.request), std::move(outgoing.options)), now);
    return tag;
}

void App::pump(Instant now) {
    // roomkey-helper gave no answer at all: nothing goes until it answers a
    // probe (a post never handed to the browser was certainly not sent).
    if (!helper_.down()) perform(client_.pump(now), now);
}

// The REST client let request `tag` go, with its credentials.
void App::on_sent(RequestTag tag, HttpRequest request, bool retry, Instant now) {
    Wire::Route* route = wire_.route(tag);
    if (!route) return;
    std::string label = route->label;
    if (retry) {
        label = tr("log.purpose.retry_after_refresh", {{"purpose", label}});
        ++stats_.counters.retries_after_401;
    }
    route->failure.reset();
    ++stats_.counters.requests_sent;
    const bool upload = route->upload_progress;
    route->owner->on_sent(tag, now);
    send(purpose::RestCall{tag}, std::move(label), std::move(request), now, upload);
}

void App::perform(RestStep step, Instant now) {
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
    for (rest::Send& out : step.send) on_sent(out.tag, std::move(out.request), out.is_retry, now);
    for (const rest::RateLimited& waiting : step.rate_limited) {
        if (Wire::Route* route = wire_.route(waiting.tag)) route->owner->on_rate_limited(waiting, now);
    }
    for (const rest::Completed& done : step.completed) {
        // The helper refreshed and retried already; a 401 it marks as "no
        // session" means signed out (expired, refused refresh, logged out).
        auto ended = holder() == CredentialHolder::helper ? bff_session_ended(done.response) : std::nullopt;
        if (ended) {
            bff_.ended(*ended, now);
            continue;
        }
        deliver(done.tag, Answer{done.response, {}, std::nullopt}, now);
    }
    for (const rest::Failed& failed : step.failed)
        deliver(failed.tag, Answer{std::nullopt, failed.reason, std::nullopt}, now);
}

void App::on_api_answer(RequestTag tag, const std::optional<HttpResponse>& response, const std::string& reason,
                        Instant now) {
    if (!response) return perform(client_.on_no_answer(tag, reason, now), now);
    stats_.on_answer(*response, now);
    // An unknown tag was dropped (signed out) while in flight: nobody waits for it.
    if (auto step = client_.on_response(tag, *response, now)) perform(std::move(*step), now);
}

// A request's end goes to its owner; one the client keeps (its room's turn)
// keeps its route until released.
void App::deliver(RequestTag tag, Answer answer, Instant now) {
    if (Feature* owner = wire_.owner_of_end(tag, answer, client_.pending(tag))) owner->on_answer(tag, answer, now);
}

void App::drop_calls(const std::string& reason, Instant now) {
    (void)now;
    client_.drop_all();
    wire_.drop_all();
    features_.drop_all(reason);
}

}  // namespace roomkey::app
