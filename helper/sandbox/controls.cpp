// controls.cpp: the test controls (only with --enable-test-controls, and
// only with the X-Roomkey-Sandbox-Control: 1 header): move the sandbox clock,
// change its speed, queue faults, list the token values it issued; and
// applying a queued fault to a request.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "roomkey/errors.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/token.hpp"
#include "roomkey/www_authenticate.hpp"
#include "sandbox/app.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

namespace {

nlohmann::ordered_json clock_json(const SandboxClock& clock) {
    const Instant now = clock.now();
    return {{"now_ms", unix_ms(now)}, {"now", unix_seconds(now)}, {"scale", clock.scale()}};
}

std::optional<double> parse_number(const std::optional<std::string>& text) {
    if (!text || text->empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text->c_str(), &end);
    if (end != text->c_str() + text->size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

// Query first, then a form body: both are easy from curl and from tests.
std::optional<std::string> param(const RequestContext& ctx, std::string_view name) {
    if (auto v = form_get(ctx.query, name)) return v;
    if (has_form_content_type(ctx.request.headers)) {
        if (auto form = decode_form(ctx.request.body)) return form_get(*form, name);
    }
    return std::nullopt;
}

// Handlers run synchronously on one cpp-httplib worker thread, so the flag
// set while handling a request is read by the same thread before it writes
// the answer (server.cpp).
thread_local bool t_drop_answer = false;

}  // namespace

bool SandboxApp::take_dropped_answer() {
    const bool drop = t_drop_answer;
    t_drop_answer = false;
    return drop;
}

HttpResponse SandboxApp::control_clock_get(const RequestContext&) { return json_response(200, clock_json(clock_)); }

HttpResponse SandboxApp::control_clock_advance(const RequestContext& ctx) {
    const auto seconds = parse_number(param(ctx, "seconds"));
    const auto ms = parse_number(param(ctx, "ms"));
    double total_ms = 0;
    if (seconds) total_ms += *seconds * 1000.0;
    if (ms) total_ms += *ms;
    // Up to ten years at once; time never goes backwards.
    if ((!seconds && !ms) || total_ms < 0 || total_ms > 10.0 * 366 * 86400 * 1000) {
        return api_error(400, "Give seconds=N and/or ms=N (non-negative, at most ten years).");
    }
    clock_.advance(Millis(static_cast<Millis::rep>(std::llround(total_ms))));
    return json_response(200, clock_json(clock_));
}

HttpResponse SandboxApp::control_clock_scale(const RequestContext& ctx) {
    const auto factor = parse_number(param(ctx, "factor"));
    if (!factor || !clock_.set_scale(*factor)) {
        return api_error(400, "Give factor=F with 0 <= F <= 1000000 (1 = real time, 0 = frozen).");
    }
    return json_response(200, clock_json(clock_));
}

HttpResponse SandboxApp::control_faults_post(const RequestContext& ctx) {
    auto request = parse_fault_request(ctx.request.body);
    if (!request) return api_error(400, request.error());
    if (!faults_.add(request.value())) return api_error(400, "Too many queued faults.");
    return json_response(200, nlohmann::ordered_json{{"pending", faults_.pending()}});
}

HttpResponse SandboxApp::control_faults_delete(const RequestContext&) {
    faults_.clear();
    return json_response(200, nlohmann::ordered_json{{"pending", 0}});
}

namespace {
// Enough for any test run; a long-lived sandbox with controls keeps the newest.
constexpr std::size_t kMaxRememberedTokens = 10000;

void remember(std::deque<std::string>& values, const std::string& value) {
    values.push_back(value);
    if (values.size() > kMaxRememberedTokens) values.pop_front();
}
}  // namespace

void SandboxApp::remember_issued(const IssuedTokens& tokens) {
    remember(issued_access_tokens_, tokens.access_token);
    remember(issued_refresh_tokens_, tokens.refresh_token);
}

HttpResponse SandboxApp::control_tokens_get(const RequestContext&) {
    std::lock_guard<std::mutex> lock(mutex_);
    nlohmann::ordered_json body = {{"access_tokens", issued_access_tokens_},
                                   {"refresh_tokens", issued_refresh_tokens_}};
    return json_response(200, body);
}

std::optional<HttpResponse> SandboxApp::injected_fault(FaultTarget target, const RequestContext& ctx) {
    if (!options_.test_controls) return std::nullopt;
    const auto fault = faults_.take(target, ctx.request.method, ctx.path);
    if (!fault) return std::nullopt;
    const bool token = target == FaultTarget::token;
    switch (fault->kind) {
        case FaultKind::drop_answer:
            // The request goes on and is acted on; only its answer is lost.
            t_drop_answer = true;
            return std::nullopt;
        case FaultKind::delay:
            // Outside every lock: a slow answer must not stall other requests.
            std::this_thread::sleep_for(fault->delay);
            return std::nullopt;
        case FaultKind::status5xx: {
            HttpResponse r = token ? make_token_error_response(TokenError{std::string(token_error::server_error),
                                                                          "Injected fault: server error."})
                                   : api_error(fault->status, "Injected fault: server error.");
            r.status = fault->status;
            return r;
        }
        case FaultKind::rate_limited: {
            HttpResponse r = api_error(429, "Rate limit exceeded. Retry after x-ratelimit-reset.");
            const Instant now = clock_.now();
            write_rate_limit(r.headers, RateLimit{static_cast<long>(options_.rate_limit), 0,
                                                  now + std::chrono::duration_cast<Millis>(options_.rate_window)});
            return r;
        }
        case FaultKind::invalid_token: {
            if (token) {
                return make_token_error_response(
                    TokenError{std::string(token_error::invalid_grant), "Injected fault: the grant is invalid."});
            }
            // As the service answers it: the error only in WWW-Authenticate,
            // the body empty (api.cpp, invalid_access_token).
            HttpResponse r;
            r.status = 401;
            r.headers.set("WWW-Authenticate", format_bearer_challenge("invalid_token", kAccessTokenInvalidDescription));
            return r;
        }
        case FaultKind::malformed_json: {
            HttpResponse r;
            r.status = 200;
            r.headers.set("Content-Type", "application/json; charset=utf-8");
            r.body = "{\"injected_fault\": \"malformed_json\", ";
            return r;
        }
    }
    return std::nullopt;
}

}  // namespace roomkey::sandbox
