// app_http.cpp: the answers to what the App sent through the helper, each to
// the owner of its purpose (wire.hpp): the configuration, REST answers to
// the REST client, token and BFF answers to the session.
#include <type_traits>

#include "app/app.hpp"

namespace roomkey::app {

void App::send(HttpPurpose purpose, std::string label, HttpRequest request, Instant now) {
    wire_.send(std::move(purpose), std::move(label), std::move(request), config_.request_header(), now);
}

void App::on_config(const HttpResponse& response, Instant now) {
    const bool read = config_.on_response(response);
    if (read) {
        requests_.client().set_api_config(config_.api_config());
        features_.previews.set_served(config()->file_previews);
    }
    session_.on_config(read, config_.error(), now);
}

void App::on_response(std::uint64_t id, const HttpResponse& response, Instant now) {
    const auto purpose = wire_.take(id);
    if (!purpose) return;
    trace_.log().complete(id, response, now);
    // Any HTTP answer, whatever its status, means roomkey-helper is there.
    helper_.on_answer();
    session_.note_response(response, now);  // a token request the helper made meanwhile
    deliver(*purpose, response, std::nullopt, {}, now);
}

void App::on_transport_error(std::uint64_t id, TransportFailure failure, const std::string& reason, Instant now) {
    const auto purpose = wire_.take(id);
    if (!purpose) return;
    trace_.log().fail(id, reason, now);
    helper_.on_no_answer(failure, std::holds_alternative<purpose::HelperProbe>(*purpose), now);
    deliver(*purpose, std::nullopt, failure, reason, now);  // HelperProbe: the watch set the next probe
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
                session_.on_config(false, reason, now);
            } else if constexpr (std::is_same_v<T, purpose::RestCall>) {
                requests_.on_answer(p.tag, response, failure, reason, now);
            } else if constexpr (!std::is_same_v<T, purpose::HelperProbe>) {
                session_.on_answer(p, response, reason, now);  // token and BFF calls
            }
        },
        purpose);
    requests_.pump(now);
}

}  // namespace roomkey::app
