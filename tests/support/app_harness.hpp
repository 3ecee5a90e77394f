// app_harness.hpp: the App driven like the browser drives it, for the App's
// unit tests (tests/unit/app_<feature>_test.cpp). The harness performs the
// App's effects (sends, sessionStorage, navigation, clipboard) against an
// in-memory service (fake_service.hpp for the consent screen, token
// endpoint, /me and /my/status; canned rooms and a strict per-room posting
// limiter here), with a clock the test moves.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include "app/app.hpp"
#include "app/page_state.hpp"
#include "fake_service.hpp"
#include "roomkey/proxy_outcome.hpp"

#include "roomkey/authorization.hpp"
#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/token.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {
// A namespace of its own: unity batches put test files together, and
// several define helpers of the same names (t0, ...).
namespace app_test {
namespace {

inline const Instant t0 = instant_from_unix_seconds(1'700'000'000);
inline constexpr std::string_view kOrigin = "https://127.0.0.1:8443";
inline constexpr std::string_view kRedirectUri = "https://127.0.0.1:8443/callback";
inline constexpr std::string_view kClientId = "roomkey-web";
inline const ScopeSet kScopes{"users.all:read", "rooms.all:read_write"};

inline ClientConfig registered_client() {
    ClientConfig client;
    client.client_id = std::string(kClientId);
    client.type = ClientType::public_client;
    client.redirect_uris = {std::string(kRedirectUri)};
    client.scopes = kScopes;
    return client;
}

// The helper's /config.json for the fake service.
inline std::string config_json() {
    return std::string(R"({"configured":true,"client_id":"roomkey-web","client_type":"public",)") +
           R"("consent_url":")" + std::string(roomkey::testing::FakeService::kConsentUrl) + R"(",)" +
           R"("redirect_uri":"https://127.0.0.1:8443/callback","token_endpoint":"/oauth/token",)" +
           R"("api_base":"/api","token_header":"x-servicetoken","request_header":"X-Roomkey-Request",)" +
           R"("scope":"","upstream_base_url":"https://api.example.test/v2","upstream_auth_url":"https://auth.example.test"})";
}

// Deterministic bytes: tests need repeatable states and verifiers.
inline RandomSource counting_random() {
    auto counter = std::make_shared<unsigned char>(0);
    return [counter](unsigned char* out, std::size_t size) {
        for (std::size_t i = 0; i < size; ++i) out[i] = (*counter)++;
    };
}

class AppHarness {
public:
    static constexpr std::string_view kApiToken = "api-token-0123456789abcdef";
    static constexpr std::string_view kRoomId = "7";

    Instant now = t0;
    roomkey::testing::FakeService service{registered_client(), [this] { return now; }};
    std::unique_ptr<App> app;

    // What the App asked the platform to do.
    std::vector<HttpRequest> sent;  // every request, in order
    std::vector<std::string> stored;
    std::vector<std::string> navigations;
    std::vector<std::string> copied;
    std::vector<effect::ForgetClipboard> forgot_clipboard;
    int forgot_pending = 0;  // effect::ForgetPending
    std::deque<effect::Send> outstanding;

    // The fake posting side (spec 8.2): per-room sliding window of 10 s.
    std::map<std::string, std::deque<Instant>> room_posts;
    std::vector<Instant> post_arrivals;
    long per_room_429 = 0;
    long next_message_id = 1000;
    bool answer_config = true;
    // The next request whose URL contains `match` gets this fault
    // instead of its answer: a status (with `body`), or no answer at all;
    // with `act_first` the fake service acts on it before the answer is lost.
    struct Fault {
        std::string match;
        int status = 0;
        std::string body;
        std::optional<TransportFailure> failure;
        bool act_first = false;
        std::string upstream_outcome;  // X-Roomkey-Upstream of a helper 502/504 ("" = none)
    };
    std::deque<Fault> faults;
    static Fault status_fault(std::string match, int status, std::string body) {
        return Fault{std::move(match), status, std::move(body), std::nullopt, false, {}};
    }
    // The helper's own 502 (shared/'s proxy_outcome.hpp), header and body.
    static Fault helper_gateway_fault(std::string match, UpstreamOutcome outcome) {
        const std::string token(to_string(outcome));
        return Fault{std::move(match),
                     502,
                     R"({"errors":["the API could not be reached"],"roomkey_upstream":")" + token + "\"}",
                     std::nullopt,
                     false,
                     token};
    }
    static Fault no_answer(std::string match, TransportFailure failure, bool act_first = false) {
        return Fault{std::move(match), 0, {}, failure, act_first, {}};
    }
    // What each room holds, for GET /rooms/{id}/messages.
    std::map<std::string, std::vector<std::string>> room_bodies;
    bool reject_api_token = false;
    // The next this-many GET /me answers are 429 with the overall limit used
    // up until `reset_after` from now (spec 8.1, 7.3).
    int me_429 = 0;
    Seconds reset_after{30};

    AppHarness() { reload(); }

    // A new page load: a fresh App (tokens in memory are gone).
    void reload() {
        app = std::make_unique<App>(counting_random(), std::string(kOrigin));
        outstanding.clear();
    }

    void start(std::string_view url = "https://127.0.0.1:8443/", std::optional<std::string> pending = std::nullopt) {
        app->start(url, pending, now);
        settle();
    }

    // Collects the effects; sends wait in `outstanding`.
    void drain() {
        for (Effect& e : app->take_effects()) {
            if (auto* send = std::get_if<effect::Send>(&e)) {
                sent.push_back(send->request);
                outstanding.push_back(*send);
            } else if (auto* store = std::get_if<effect::StorePending>(&e)) {
                stored.push_back(store->record);
            } else if (auto* nav = std::get_if<effect::Navigate>(&e)) {
                navigations.push_back(nav->url);
            } else if (auto* copy = std::get_if<effect::CopyText>(&e)) {
                copied.push_back(copy->text);
            } else if (auto* forget = std::get_if<effect::ForgetClipboard>(&e)) {
                forgot_clipboard.push_back(*forget);
            } else if (std::holds_alternative<effect::ForgetPending>(e)) {
                ++forgot_pending;
            }
        }
    }

    // Answers every request in order until nothing is outstanding.
    void settle() {
        drain();
        while (!outstanding.empty()) {
            const effect::Send send = outstanding.front();
            outstanding.pop_front();
            auto fault = std::find_if(faults.begin(), faults.end(),
                                      [&](const Fault& f) { return contains_text(send.request.url, f.match); });
            if (fault == faults.end()) {
                app->on_response(send.id, answer(send.request), now);
            } else {
                const Fault f = *fault;
                faults.erase(fault);
                if (f.act_first) (void)answer(send.request);
                if (f.failure) {
                    app->on_transport_error(send.id, *f.failure, "injected", now);
                } else {
                    HttpResponse response = json(f.status, f.body);
                    if (!f.upstream_outcome.empty()) {
                        response.headers.set(std::string(kUpstreamOutcomeHeader), f.upstream_outcome);
                    }
                    app->on_response(send.id, response, now);
                }
            }
            drain();
        }
    }

    void apply(const Intent& intent) {
        app->apply(intent, now);
        settle();
    }

    // Moves the clock in steps, ticking and answering like the frame loop.
    void run_for(Millis duration, Millis step = Millis(50)) {
        const Instant end = now + duration;
        while (now < end) {
            now += step;
            app->tick(now);
            settle();
        }
    }

    // Signs in through the fake consent screen; returns the redirect URL.
    std::string sign_in(const ScopeSet& scopes = kScopes) {
        start();
        apply(intent::SignIn{scopes});
        EXPECT_EQ(navigations.size(), 1u) << "sign-in navigates to the consent screen";
        EXPECT_EQ(stored.size(), 1u) << "sign-in keeps the pending authorization";
        if (navigations.empty() || stored.empty()) return {};
        auto redirect = service.consent(navigations.back());
        EXPECT_TRUE(redirect) << "the fake consent screen accepts the request";
        if (!redirect) return {};
        // The browser comes back to /callback: a new page load.
        reload();
        start(*redirect, stored.back());
        return *redirect;
    }

    std::vector<HttpRequest> sent_to(std::string_view url_prefix) const {
        std::vector<HttpRequest> out;
        for (const HttpRequest& r : sent) {
            if (r.url.rfind(url_prefix, 0) == 0) out.push_back(r);
        }
        return out;
    }

    HttpResponse answer(const HttpRequest& request) {
        if (request.url == "/config.json") {
            if (!answer_config) return HttpResponse{503, {}, "no"};
            return HttpResponse{200, {{"content-type", "application/json"}}, config_json()};
        }
        if (request.url == "/oauth/token") {
            HttpRequest upstream = request;
            upstream.url = std::string(roomkey::testing::FakeService::kTokenUrl);
            return service.handle(upstream);
        }
        if (request.url.rfind("/api/", 0) == 0) {
            const std::string path = request.url.substr(4);
            if (request.headers.has("x-servicetoken")) return api_token_answer(request, path);
            if (path == "/rooms" || path.find("/messages") != std::string::npos ||
                path.find("/tasks") != std::string::npos) {
                return rooms_answer(request, path);
            }
            HttpRequest upstream = request;
            upstream.url = std::string(roomkey::testing::FakeService::kBaseUrl) + path;
            return service.handle(upstream);
        }
        return HttpResponse{404, {}, ""};
    }

    static HttpResponse json(int status, std::string body) {
        HttpResponse r{status, {{"content-type", "application/json"}}, std::move(body)};
        write_rate_limit(r.headers, RateLimit{300, 250, t0 + Seconds(300)});
        return r;
    }

private:
    HttpResponse api_token_answer(const HttpRequest& request, const std::string& path) {
        if (reject_api_token || request.headers.get("x-servicetoken") != std::string(kApiToken)) {
            return json(401, R"({"errors":["Invalid API token"]})");
        }
        if (path == "/me" && me_429 > 0) {
            --me_429;
            HttpResponse r{429, {{"content-type", "application/json"}}, R"({"errors":["Rate limit exceeded"]})"};
            write_rate_limit(r.headers, RateLimit{300, 0, now + reset_after});
            return r;
        }
        if (path == "/me") return json(200, R"({"account_id":4242,"name":"Demo User"})");
        if (path == "/my/status") {
            return json(200, R"({"unread_room_num":1,"mention_room_num":0,"mytask_room_num":0,)"
                             R"("unread_num":3,"mention_num":0,"mytask_num":0})");
        }
        return rooms_answer(request, path);
    }

    static bool contains_text(std::string_view haystack, std::string_view needle) {
        return haystack.find(needle) != std::string_view::npos;
    }

    HttpResponse rooms_answer(const HttpRequest& request, const std::string& path) {
        if (path == "/rooms") return json(200, R"([{"room_id":7,"name":"Team"},{"room_id":8,"name":"Ops"}])");
        const auto second_slash = path.find('/', 7);
        const std::string room = path.substr(7, second_slash - 7);
        if (request.method == Method::Get && contains_text(path, "/messages")) {
            // The latest messages (spec 4.8), all from this harness's account.
            std::string list = "[";
            for (const std::string& body : room_bodies[room]) {
                if (list.size() > 1) list += ",";
                list += R"({"message_id":"1","account":{"account_id":4242,"name":"Demo User"},"body":")" + body +
                        R"(","send_time":)" + std::to_string(unix_seconds(now)) + "}";
            }
            return json(200, list + "]");
        }
        auto& window = room_posts[room];
        while (!window.empty() && window.front() <= now - Seconds(10)) window.pop_front();
        post_arrivals.push_back(now);
        if (window.size() >= 10) {
            ++per_room_429;
            return json(429, "{\"errors\":[\"" + std::string(kPerRoomRateLimitMessage) + "\"]}");
        }
        window.push_back(now);
        if (request.method != Method::Post) return json(405, R"({"errors":["POST only"]})");
        if (path.find("/tasks") != std::string::npos) return json(200, R"({"task_ids":[55]})");
        if (auto fields = form_decode(request.body)) {
            if (auto body = form_get(*fields, "body")) room_bodies[room].push_back(*body);
        }
        return json(200, "{\"message_id\":\"" + std::to_string(next_message_id++) + "\"}");
    }
};

inline bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

inline std::optional<std::string> query_value(std::string_view url, std::string_view name) {
    auto parsed = parse_url(url);
    if (!parsed || !parsed->query) return std::nullopt;
    auto fields = form_decode(*parsed->query);
    if (!fields) return std::nullopt;
    return form_get(*fields, name);
}

inline std::optional<std::string> form_value(std::string_view body, std::string_view name) {
    auto fields = form_decode(body);
    if (!fields) return std::nullopt;
    return form_get(*fields, name);
}


}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
