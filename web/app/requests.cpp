// requests.cpp: the features' requests through the one REST client (requests.hpp).
#include "app/requests.hpp"

#include "app/app_detail.hpp"
#include "app/i18n.hpp"

namespace roomkey::app {

Requests::Requests(RequestsHost& host, Wire& wire, const ConfigLoad& config, Feedback& feedback,
                   const HelperWatch& helper, std::vector<Effect>& effects)
    : host_(host),
      wire_(wire),
      config_(config),
      feedback_(feedback),
      helper_(helper),
      effects_(effects),
      // The spec's limits and shared/'s margins (pacing.hpp).
      client_(detail::default_session_config(), PacingConfig{}) {}

RequestTag Requests::submit(Feature& owner, Outgoing outgoing, Instant now, RequestTag tag) {
    if (tag == 0) tag = new_tag();
    if (!outgoing.request) {
        owner.on_answer(tag, Answer{std::nullopt, outgoing.request.error(), {}}, now);
        return tag;
    }
    wire_.add(tag, Wire::Route{&owner, std::move(outgoing.label), outgoing.upload_progress, std::nullopt});
    perform(client_.submit(tag, std::move(*outgoing.request), std::move(outgoing.options)), now);
    return tag;
}

bool Requests::cancel(RequestTag tag) {
    if (!client_.cancel(tag)) return false;
    wire_.drop(tag);
    return true;
}

void Requests::pump(Instant now) {
    if (!helper_.down()) perform(client_.pump(now), now);
}

void Requests::perform(RestStep step, Instant now) {
    host_.session_step(step, now);
    for (rest::Send& out : step.send) on_sent(out.tag, std::move(out.request), out.is_retry, now);
    for (const rest::RateLimited& waiting : step.rate_limited) {
        if (Wire::Route* route = wire_.route(waiting.tag)) route->owner->on_rate_limited(waiting, now);
    }
    for (const rest::Completed& done : step.completed) {
        if (!host_.session_ended(done.response, now)) deliver(done.tag, Answer{done.response, {}, std::nullopt}, now);
    }
    for (const rest::Failed& failed : step.failed)
        deliver(failed.tag, Answer{std::nullopt, failed.reason, std::nullopt}, now);
}

// The REST client let request `tag` go, with its credentials.
void Requests::on_sent(RequestTag tag, HttpRequest request, bool retry, Instant now) {
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
    wire_.send(purpose::RestCall{tag}, std::move(label), std::move(request), config_.request_header(), now, upload);
}

void Requests::on_answer(RequestTag tag, const std::optional<HttpResponse>& response,
                         std::optional<TransportFailure> failure, const std::string& reason, Instant now) {
    if (!response) {
        if (Wire::Route* route = wire_.route(tag)) route->failure = failure;
        return perform(client_.on_no_answer(tag, reason, now), now);
    }
    stats_.on_answer(*response, now);
    // An unknown tag was dropped (signed out) while in flight: nobody waits for it.
    if (auto step = client_.on_response(tag, *response, now)) perform(std::move(*step), now);
}

// A request's end goes to its owner; one the client keeps (its room's turn)
// keeps its route until released.
void Requests::deliver(RequestTag tag, Answer answer, Instant now) {
    if (Feature* owner = wire_.owner_of_end(tag, answer, client_.pending(tag))) owner->on_answer(tag, answer, now);
}

}  // namespace roomkey::app
