// app_http.cpp: HTTP through the helper: every request the App sends gets a
// purpose, a log entry and an id; answers are routed back by that purpose
// (token answers to the sign-in). Also the helper's configuration
// (/config.json) and the text "copy as curl" would copy.
#include <type_traits>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/i18n.hpp"

namespace roomkey::app {

using namespace detail;

void App::fetch_config(Instant now) {
    config_load_.loading = true;
    config_load_.error.clear();
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::string(kConfigPath);
    send(ConfigFetch{}, tr("log.purpose.config"), std::move(request), now);
}

void App::on_config(const HttpResponse& response, Instant now) {
    config_load_.loading = false;
    if (!is_success(response.status)) {
        config_load_.error = tr("config.helper_answered", {{"status", std::to_string(response.status)}});
    } else if (auto parsed = parse_public_config(response.body)) {
        config_load_.value = std::move(*parsed);
        client_.set_api_config(api_config());
        if (!config_load_.value->configured) config_load_.error = tr("config.no_upstream");
        bff_.on_config(now);      // the BFF mode asks the helper for its session
        sign_in_.on_config(now);  // the flow's earlier steps, told in the log
    } else {
        config_load_.error = parsed.error();
    }
}

void App::log_flow_step(FlowStep step, Instant at) {
    trace_.log().add_step(wire_.next_http_id++, std::move(step.purpose), step.request, std::move(step.note), at,
                          std::move(step.parameters));
}

std::optional<std::string> App::curl_text(std::uint64_t entry_id, bool may_reveal) const {
    return trace_.curl_text(entry_id, may_reveal, origin_, redaction());
}

SnippetTarget App::snippet_target() const {
    SnippetTarget target;
    target.origin = origin_;
    const ApiConfig helper = api_config();
    target.api_base = helper.base_url;
    target.service.token_header = helper.token_header;
    if (config_load_.value) {
        target.service.base_url = config_load_.value->upstream_base_url;
        target.request_header = config_load_.value->request_header;
    }
    return target;
}

PlannedCall App::planned_console_call() const {
    const ConsolePending& asked = features_.console.console().asked();
    return PlannedCall{asked.method, asked.path, asked.params};
}

std::string App::text_as(std::optional<std::uint64_t> entry_id, SnippetFormat format, bool may_reveal) const {
    auto text = trace_.text_as(entry_id, planned_console_call(), format, may_reveal, snippet_target(), redaction());
    return text ? std::move(*text) : std::string();
}

// ===========================================================================
// [SECTION] HTTP through the helper
// ===========================================================================

std::uint64_t App::send(HttpPurpose purpose, std::string label, HttpRequest request, Instant now) {
    const std::uint64_t id = wire_.next_http_id++;
    // The helper refuses state-changing requests without its custom header
    // (or a same-origin Origin): a cross-site page cannot add it.
    request.headers.set(config_load_.value ? config_load_.value->request_header : std::string(kHelperRequestHeader),
                        "1");
    wire_.http[id] = std::move(purpose);
    const auto type = request.headers.get("content-type");
    if (type && type->rfind("multipart/", 0) == 0) {
        // A file upload: the log keeps what was sent, not megabytes of it.
        HttpRequest shown = request;
        shown.body = tr("log.multipart_body", {{"bytes", std::to_string(request.body.size())}});
        trace_.log().begin(id, std::move(label), shown, now);
    } else {
        trace_.log().begin(id, std::move(label), request, now);
    }
    effects_.push_back(effect::Send{id, std::move(request)});
    return id;
}

void App::on_response(std::uint64_t id, const HttpResponse& response, Instant now) {
    auto it = wire_.http.find(id);
    if (it == wire_.http.end()) return;
    const HttpPurpose purpose = it->second;
    wire_.http.erase(it);
    trace_.log().complete(id, response, now);
    // Any HTTP answer, whatever its status, means roomkey-helper is there.
    on_helper_answer(now);
    bff_.note_response(response, now);  // a token request the helper made meanwhile
    std::visit(
        [&](const auto& p) {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, ConfigFetch>) {
                on_config(response, now);
                sign_in_.after_config(config_load_.error, now);
            } else if constexpr (std::is_same_v<T, TokenCall>) {
                sign_in_.on_token_answer(p.id, response, {}, now);
            } else if constexpr (std::is_same_v<T, RestCall>) {
                on_api_answer(p.id, response, {}, now);
            } else if constexpr (std::is_same_v<T, BffCall>) {
                bff_.on_answer(p.route, response, {}, now);
            }
        },
        purpose);
    pump(now);
}

void App::on_transport_error(std::uint64_t id, const std::string& reason, Instant now) {
    on_transport_error(id, TransportFailure::network_error, reason, now);
}

void App::on_transport_error(std::uint64_t id, TransportFailure failure, const std::string& reason, Instant now) {
    auto it = wire_.http.find(id);
    if (it == wire_.http.end()) return;
    const HttpPurpose purpose = it->second;
    wire_.http.erase(it);
    trace_.log().fail(id, reason, now);
    // No connection at all: hold REST calls and probe the helper with
    // backoff (a timeout says the helper is there but slow: no probe).
    if (failure == TransportFailure::network_error || std::holds_alternative<HelperProbe>(purpose)) {
        on_helper_unreachable(now, std::holds_alternative<HelperProbe>(purpose));
    }
    std::visit(
        [&](const auto& p) {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, ConfigFetch>) {
                config_load_.loading = false;
                config_load_.error = tr("config.no_answer", {{"reason", reason}});
                sign_in_.after_config(reason, now);
            } else if constexpr (std::is_same_v<T, TokenCall>) {
                sign_in_.on_token_answer(p.id, std::nullopt, reason, now);
            } else if constexpr (std::is_same_v<T, RestCall>) {
                if (auto route = wire_.routes.find(p.id); route != wire_.routes.end()) route->second.failure = failure;
                on_api_answer(p.id, std::nullopt, reason, now);
            } else if constexpr (std::is_same_v<T, BffCall>) {
                bff_.on_answer(p.route, std::nullopt, reason, now);
            }  // HelperProbe: on_helper_unreachable set the next probe
        },
        purpose);
    pump(now);
}

}  // namespace roomkey::app
