// app_rest.cpp: the App's side of the one REST client (shared/rest_client.hpp):
// what a step says is done here (token requests, sends with their log
// labels, answers to their owners), and every REST answer feeds the rate
// plot and the counters.
#include <algorithm>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/i18n.hpp"
#include "roomkey/rate_limit_headers.hpp"

namespace roomkey::app {

using namespace detail;

ApiConfig App::api_config() const {
    ApiConfig config;
    if (config_load_.value) {
        config.base_url = config_load_.value->api_base;
        config.token_header = config_load_.value->token_header;
    } else {
        config.base_url = "/api";
    }
    return config;
}

void App::pump(Instant now) {
    // roomkey-helper gave no answer at all: nothing goes until it answers a
    // probe (a post that was never handed to the browser was certainly not sent).
    if (helper_.down()) return;
    perform(client_.pump(now), now);
}

// The REST client let request `id` go, with its credentials.
void App::on_sent(RequestId id, HttpRequest request, bool retry, Instant now) {
    const auto route = wire_.routes.find(id);
    if (route == wire_.routes.end()) return;
    std::string label = route->second.label;
    if (retry) {
        label = tr("log.purpose.retry_after_refresh", {{"purpose", label}});
        ++stats_.counters.retries_after_401;
    }
    route->second.failure.reset();
    ++stats_.counters.requests_sent;
    route->second.owner->on_sent(id, now);
    const bool upload = route->second.upload_progress;
    send(RestCall{id}, std::move(label), std::move(request), now);
    if (upload) std::get<effect::Send>(effects_.back()).upload_progress = true;
}

void App::perform(RestStep step, Instant now) {
    // The table has no row for this: a bug in this adapter, shown, not hidden.
    if (step.refused_event) feedback_.notice = tr("notice.internal", {{"what", describe(*step.refused_event)}});
    if (step.keep_pending) effects_.push_back(effect::StorePending{std::move(*step.keep_pending)});
    for (const SessionEffect& effect : step.session_effects) {
        if (const auto* go = std::get_if<session_effect::NavigateToConsent>(&effect)) {
            effects_.push_back(effect::Navigate{go->url});
        } else if (const auto* exchange = std::get_if<session_effect::SendCodeExchange>(&effect)) {
            send(TokenCall{exchange->id}, tr("log.purpose.code_exchange"), exchange->request, now);
        } else if (const auto* refresh = std::get_if<session_effect::SendRefresh>(&effect)) {
            send(TokenCall{refresh->id}, tr("log.purpose.token_refresh"), refresh->request, now);
        } else if (const auto* at = std::get_if<session_effect::ScheduleRefreshAt>(&effect)) {
            sign_in_.schedule_refresh(at->at);
        } else if (std::holds_alternative<session_effect::ForgetTokens>(effect)) {
            trace_.log().forget_secrets(redaction());
        }
    }
    for (rest::Send& out : step.send) on_sent(out.tag, std::move(out.request), out.is_retry, now);
    for (const rest::RateLimited& waiting : step.rate_limited) {
        const auto route = wire_.routes.find(waiting.tag);
        if (route != wire_.routes.end()) route->second.owner->on_rate_limited(waiting, now);
    }
    for (const rest::Completed& done : step.completed) {
        if (holder() == CredentialHolder::helper) {
            // The helper refreshed and retried already; a 401 it marks as "no
            // session" means signed out (expired, refused refresh, logged out).
            if (auto why = bff_session_ended(done.response)) {
                bff_.ended(*why, now);
                continue;
            }
        }
        deliver(done.tag, Answer{done.response, {}, std::nullopt}, now);
    }
    for (const rest::Failed& failed : step.failed)
        deliver(failed.tag, Answer{std::nullopt, failed.reason, std::nullopt}, now);
}

void App::record_rate(const HttpResponse& response, Instant now) {
    auto read = read_rate_limit(response.headers);
    if (!read || !*read) return;
    stats_.rate_samples.push_back(RateSample{now, (*read)->remaining, (*read)->limit});
    if (stats_.rate_samples.size() > kMaxRateSamples) {
        stats_.rate_samples.erase(stats_.rate_samples.begin(),
                                  stats_.rate_samples.end() - static_cast<std::ptrdiff_t>(kMaxRateSamples));
    }
}

void App::on_api_answer(RequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                        Instant now) {
    if (!response) {
        perform(client_.on_no_answer(id, reason, now), now);
        return;
    }
    record_rate(*response, now);
    if (response->status == 429) ++stats_.counters.responses_429;
    // An unknown tag was dropped (signed out) while in flight: nobody waits for it.
    if (auto step = client_.on_response(id, *response, now)) perform(std::move(*step), now);
}

void App::drop_all_calls(const std::string& reason, Instant now) {
    (void)now;
    client_.drop_all();
    wire_.routes.clear();
    features_.drop_all(reason);
}

}  // namespace roomkey::app
