// app_http.cpp: the answers to what the App sent through the helper, each to
// the owner of its purpose (wire.hpp): the configuration, token answers to
// the sign-in, REST answers to the REST client, BFF routes to the BFF panel.
#include <type_traits>

#include "app/app.hpp"

namespace roomkey::app {

std::uint64_t App::send(HttpPurpose purpose, std::string label, HttpRequest request, Instant now,
                       bool upload_progress) {
    return wire_.send(std::move(purpose), std::move(label), std::move(request), config_.request_header(), now,
                      upload_progress);
}

void App::on_config(const HttpResponse& response, Instant now) {
    if (config_.on_response(response)) {
        requests_.client().set_api_config(api_config());
        features_.previews.set_served(config()->file_previews);
        bff_.on_config(now);      // the BFF mode asks the helper for its session
        sign_in_.on_config(now);  // the flow's earlier steps, told in the log
    }
    sign_in_.after_config(config_.error(), now);
}

void App::on_response(std::uint64_t id, const HttpResponse& response, Instant now) {
    const auto purpose = wire_.take(id);
    if (!purpose) return;
    trace_.log().complete(id, response, now);
    // Any HTTP answer, whatever its status, means roomkey-helper is there.
    if (auto told = helper_.on_answer()) feedback_.set_notice(std::move(*told));
    bff_.note_response(response, now);  // a token request the helper made meanwhile
    deliver(*purpose, response, std::nullopt, {}, now);
}

void App::on_transport_error(std::uint64_t id, TransportFailure failure, const std::string& reason, Instant now) {
    const auto purpose = wire_.take(id);
    if (!purpose) return;
    trace_.log().fail(id, reason, now);
    // No connection at all: hold REST calls and probe the helper with
    // backoff (a timeout says the helper is there but slow: no probe).
    const bool probe = std::holds_alternative<purpose::HelperProbe>(*purpose);
    if (failure == TransportFailure::network_error || probe) on_helper_unreachable(now, probe);
    deliver(*purpose, std::nullopt, failure, reason, now);  // HelperProbe: on_helper_unreachable set the next probe
}

// An answer (`response`) or why there is none, to the owner of its purpose.
void App::deliver(const HttpPurpose& purpose, const std::optional<HttpResponse>& response,
                  std::optional<TransportFailure> failure, const std::string& reason, Instant now) {
    std::visit(
        [&](const auto& p) {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, purpose::ConfigFetch>) {
                if (response) return on_config(*response, now);
                config_.on_no_answer(reason);
                sign_in_.after_config(reason, now);
            } else if constexpr (std::is_same_v<T, purpose::TokenCall>) {
                sign_in_.on_token_answer(p.id, response, reason, now);
            } else if constexpr (std::is_same_v<T, purpose::RestCall>) {
                requests_.on_answer(p.tag, response, failure, reason, now);
            } else if constexpr (std::is_same_v<T, purpose::BffCall>) {
                bff_.on_answer(p.route, response, reason, now);
            }
        },
        purpose);
    pump(now);
}

}  // namespace roomkey::app
