// app_test.cpp: web/app's App (the browser app's state and intents) driven
// like the browser drives it, natively and under Node: sign-in start, the
// callback, no token request after a rejected callback, refresh, API-token
// mode, the paced posting queue and what the log and page API show.
//
// The harness drives App like the browser does, without a
// browser: it performs the App's effects (sends, sessionStorage, navigation,
// clipboard) against an in-memory service (tests/support/fake_service.hpp for
// the consent screen, token endpoint, /me and /my/status; canned rooms and a
// strict per-room posting limiter here), with a clock the test moves.

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
    // Issue 11: the next request whose URL contains `match` gets this fault
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

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

std::optional<std::string> query_value(std::string_view url, std::string_view name) {
    auto parsed = parse_url(url);
    if (!parsed || !parsed->query) return std::nullopt;
    auto fields = form_decode(*parsed->query);
    if (!fields) return std::nullopt;
    return form_get(*fields, name);
}

std::optional<std::string> form_value(std::string_view body, std::string_view name) {
    auto fields = form_decode(body);
    if (!fields) return std::nullopt;
    return form_get(*fields, name);
}

// ---------------------------------------------------------------------------
// Sign-in start (spec 4.2, 5.4)
// ---------------------------------------------------------------------------

// spec 4.2 / 5.4.1: Sign in makes a PKCE pair and a state through shared/,
// keeps them single-use for the callback and goes to the consent screen.
TEST(App, SignInStartKeepsPendingAuthorizationAndNavigatesToConsent) {
    AppHarness h;
    h.start();
    ASSERT_TRUE(h.app->config()) << "the helper's /config.json is read at start: " << h.app->config_error();
    h.apply(intent::SignIn{kScopes});

    ASSERT_EQ(h.stored.size(), 1u) << "the pending authorization goes to sessionStorage";
    ASSERT_EQ(h.navigations.size(), 1u) << "the browser is sent to the consent screen";
    auto pending = parse_pending(h.stored[0]);
    ASSERT_TRUE(pending) << to_string(pending.error());
    const std::string& url = h.navigations[0];
    EXPECT_EQ(url.rfind(std::string(roomkey::testing::FakeService::kConsentUrl), 0), 0u);
    EXPECT_EQ(query_value(url, "state"), pending->state) << "the state sent is the state kept";
    EXPECT_EQ(query_value(url, "code_challenge"), s256_challenge(pending->code_verifier))
        << "S256 challenge of the kept verifier (spec 4.2)";
    EXPECT_EQ(query_value(url, "code_challenge_method"), std::string("S256"));
    EXPECT_EQ(query_value(url, "client_id"), std::string(kClientId));
    EXPECT_EQ(query_value(url, "redirect_uri"), std::string(kRedirectUri));
    EXPECT_FALSE(contains(url, pending->code_verifier)) << "the verifier never goes in a URL";
    EXPECT_EQ(h.app->session_label(), "signing in");
    EXPECT_TRUE(h.sent_to("/oauth/token").empty()) << "no token request before the callback";
}

// spec 5.4.3 / 2.1: a public client's sign-in with offline_access is refused
// by shared/ before the browser leaves the page.
TEST(App, SignInWithOfflineAccessAsPublicClientIsRefusedLocally) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{ScopeSet{"offline_access", "users.all:read"}});
    EXPECT_TRUE(h.navigations.empty()) << "no navigation for a request the service would refuse";
    EXPECT_TRUE(h.stored.empty());
    ASSERT_TRUE(h.app->last_error());
    EXPECT_TRUE(contains(h.app->last_error()->code, "5003")) << h.app->last_error()->code;
}

TEST(App, SignInWithoutHelperConfigExplainsWhy) {
    AppHarness h;
    h.answer_config = false;
    h.start();
    h.apply(intent::SignIn{kScopes});
    EXPECT_TRUE(h.navigations.empty());
    ASSERT_TRUE(h.app->last_error());
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    EXPECT_FALSE(h.app->config_error().empty());
}

// ---------------------------------------------------------------------------
// The callback (spec 4.2, 4.3, 7.1)
// ---------------------------------------------------------------------------

// spec 4.2 -> 4.3: the validated callback is exchanged once, through the
// helper's token route, then /me and /my/status are read (spec 4.4, 4.5).
// issue 30 item 3: every step of the flow in the HTTP log: the navigation
// to the consent screen (told again on the page the callback loads, from the
// record it consumed) and the callback, before the token exchange.
TEST(App, TheLogShowsTheAuthorizationRequestAndTheCallbackAsSteps) {
    AppHarness h;
    const std::string redirect = h.sign_in();
    ASSERT_FALSE(redirect.empty());
    std::vector<std::string> titles;
    for (const LogEntry& entry : h.app->log().entries()) titles.push_back(entry_title(entry));
    ASSERT_GE(titles.size(), 3u);
    auto index_of = [&](std::string_view needle) {
        for (std::size_t i = 0; i < titles.size(); ++i) {
            if (titles[i].find(needle) != std::string::npos) return static_cast<long>(i);
        }
        return -1L;
    };
    const long request = index_of("authorization request");
    const long callback = index_of("callback (spec 4.2)");
    const long exchange = index_of("/oauth/token");
    std::string all;
    for (const auto& t : titles) all += t + "\n";
    ASSERT_GE(request, 0) << all;
    ASSERT_GE(callback, 0);
    ASSERT_GE(exchange, 0);
    EXPECT_LT(request, callback);
    EXPECT_LT(callback, exchange);
    const std::string code = query_value(redirect, "code").value_or("");
    ASSERT_FALSE(code.empty());
    for (const LogEntry& entry : h.app->log().entries()) {
        const RenderedExchange shown = render(entry, h.app->redaction(), false);
        EXPECT_EQ(shown.request_line.find(code), std::string::npos) << "the code is masked: " << shown.request_line;
    }
}

TEST(App, FullSignInExchangesTheCodeAndLoadsTheDashboard) {
    AppHarness h;
    const std::string redirect = h.sign_in();
    ASSERT_FALSE(redirect.empty());

    const auto token_requests = h.sent_to("/oauth/token");
    ASSERT_EQ(token_requests.size(), 1u) << "exactly one code exchange";
    const HttpRequest& exchange = token_requests[0];
    EXPECT_EQ(exchange.method, Method::Post);
    EXPECT_EQ(exchange.headers.get("X-Roomkey-Request"), std::string("1")) << "the helper's anti-CSRF header";
    EXPECT_EQ(form_value(exchange.body, "grant_type"), std::string("authorization_code"));
    EXPECT_EQ(form_value(exchange.body, "code"), query_value(redirect, "code"));
    EXPECT_TRUE(form_value(exchange.body, "code_verifier")) << "PKCE verifier sent (spec 4.3)";
    EXPECT_EQ(form_value(exchange.body, "client_id"), std::string(kClientId)) << "public client (spec 4.3)";
    EXPECT_FALSE(exchange.headers.has("authorization")) << "no Basic for a public client";

    EXPECT_EQ(h.app->session_label(), "signed in");
    ASSERT_TRUE(h.app->account().value) << h.app->account().error;
    EXPECT_EQ(h.app->account().value->account_id, "4242");
    ASSERT_TRUE(h.app->status().value) << h.app->status().error;
    EXPECT_EQ(h.app->status().value->unread_num, 12);
    ASSERT_TRUE(h.app->rooms().value);
    EXPECT_EQ(h.app->selected_room(), "7") << "the first room is chosen";
    EXPECT_FALSE(h.app->last_error());

    for (const HttpRequest& api : h.sent_to("/api/")) {
        const auto auth = api.headers.get("authorization");
        ASSERT_TRUE(auth) << api.url;
        EXPECT_EQ(auth->rfind("Bearer ", 0), 0u) << "spec 5.2.1: Bearer in the header";
        EXPECT_FALSE(contains(api.url, auth->substr(7))) << "the token never goes in the URL (spec 5.1.2)";
    }
}

TEST(App, ReloadAfterSignInAsksToSignInAgain) {
    AppHarness h;
    h.sign_in();
    ASSERT_EQ(h.app->session_label(), "signed in");
    h.reload();
    h.start("https://127.0.0.1:8443/callback", std::nullopt);
    EXPECT_EQ(h.app->session_label(), "signed out") << "tokens lived in memory only";
    EXPECT_FALSE(h.app->account().value);
}

// spec 4.2: a state that is not ours ends in a clear error and no token request.
TEST(App, TamperedStateMakesNoTokenRequest) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto redirect = h.service.consent(h.navigations.at(0));
    ASSERT_TRUE(redirect);
    const std::string code = *query_value(*redirect, "code");
    h.reload();
    h.start(std::string(kRedirectUri) + "?code=" + code + "&state=forged-state-value", h.stored.at(0));

    EXPECT_TRUE(h.sent_to("/oauth/token").empty()) << "no token request after a rejected callback";
    EXPECT_EQ(h.app->session_label(), "failed");
    ASSERT_TRUE(h.app->last_error());
    EXPECT_TRUE(contains(h.app->last_error()->title, "state")) << h.app->last_error()->title;
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    h.apply(intent::TryAgain{});
    EXPECT_EQ(h.app->session_label(), "signed out");
    EXPECT_FALSE(h.app->last_error());
}

// spec 4.2 / 7.1 3001: Deny -> error=access_denied.
TEST(App, DeniedConsentShows3001AndMakesNoTokenRequest) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto pending = parse_pending(h.stored.at(0));
    ASSERT_TRUE(pending);
    h.reload();
    h.start(std::string(kRedirectUri) + "?error=access_denied&state=" + pending->state, h.stored.at(0));
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "3001 access_denied");
    EXPECT_FALSE(h.app->last_error()->remedy.empty()) << "the remedy comes from shared/'s catalog";
}

// spec 7.1: an error code on the redirect is shown with its number.
TEST(App, ConsentScreenErrorShowsTheSpecCode) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto pending = parse_pending(h.stored.at(0));
    ASSERT_TRUE(pending);
    h.reload();
    h.start(std::string(kRedirectUri) + "?error=invalid_scope&error_code=5003&state=" + pending->state, h.stored.at(0));
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "5003 scope_unregistered");
}

// The pending record is single use: a replayed callback URL has nothing to match.
TEST(App, CallbackWithoutPendingAuthorizationMakesNoTokenRequest) {
    AppHarness h;
    h.start(std::string(kRedirectUri) + "?code=abc&state=xyz", std::nullopt);
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
    ASSERT_TRUE(h.app->last_error());
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
}

// spec 2.2 / 8.3: a code older than 1 minute is refused (invalid_grant).
TEST(App, ExpiredCodeEndsInInvalidGrantWithTryAgain) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto redirect = h.service.consent(h.navigations.at(0));
    ASSERT_TRUE(redirect);
    h.now += Seconds(61);
    h.reload();
    h.start(*redirect, h.stored.at(0));
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 1u) << "the exchange was tried once, never retried";
    EXPECT_EQ(h.app->session_label(), "failed");
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "invalid_grant");
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    EXPECT_FALSE(h.app->account().value);
}

// spec 2.2 / 8.3: the code lives 1 minute. A validated callback that waited
// longer than that for the helper's /config.json is not exchanged at all.
TEST(App, CallbackThatWaitedOverAMinuteForTheConfigIsNotExchanged) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto redirect = h.service.consent(h.navigations.at(0));
    ASSERT_TRUE(redirect);
    h.reload();
    h.app->start(*redirect, h.stored.at(0), h.now);
    h.drain();
    ASSERT_EQ(h.outstanding.size(), 1u) << "only /config.json is asked for";
    EXPECT_EQ(h.app->session_label(), "exchanging") << "validated, waiting for the token route";
    h.now += Seconds(61);  // the helper's configuration was slow to come
    h.settle();

    EXPECT_TRUE(h.sent_to("/oauth/token").empty()) << "no token request with an expired code";
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "code expired");
    EXPECT_TRUE(contains(h.app->last_error()->message, "61 s")) << h.app->last_error()->message;
    EXPECT_TRUE(contains(h.app->last_error()->message, "1 minute")) << h.app->last_error()->message;
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    EXPECT_FALSE(h.app->session().tokens());
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), "code expired"));
    h.apply(intent::TryAgain{});
    EXPECT_EQ(h.app->session_label(), "signed out");
    EXPECT_FALSE(h.app->last_error());
}

TEST(App, CallbackThatWaitedUnderAMinuteIsExchanged) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto redirect = h.service.consent(h.navigations.at(0));
    ASSERT_TRUE(redirect);
    h.reload();
    h.app->start(*redirect, h.stored.at(0), h.now);
    h.drain();
    h.now += Seconds(50);
    h.settle();
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 1u);
    EXPECT_EQ(h.app->session_label(), "signed in");
}

// spec 7.1: every one of the 16 authorization error codes on the redirect
// ends in a message that names the code, offers try again, and no token request.
// The parameter is the spec's number; shared/ holds the rest of the row.
class AppAuthorizationErrorTest : public ::testing::TestWithParam<int> {};

TEST_P(AppAuthorizationErrorTest, ShowsTheCodeOffersTryAgainAndMakesNoTokenRequest) {
    const auto code = authorization_error_from_number(GetParam());
    ASSERT_TRUE(code) << GetParam() << " is in shared/'s spec 7.1 table";
    const AuthorizationErrorInfo& error = info(*code);
    const std::string number = std::to_string(GetParam());
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto pending = parse_pending(h.stored.at(0));
    ASSERT_TRUE(pending);
    h.reload();
    h.start(std::string(kRedirectUri) + "?error=" + std::string(error.oauth_error) + "&error_code=" + number +
                "&state=" + pending->state,
            h.stored.at(0));

    EXPECT_TRUE(h.sent_to("/oauth/token").empty()) << number << ": no token request";
    ASSERT_TRUE(h.app->last_error()) << number;
    EXPECT_EQ(h.app->last_error()->code, number + " " + std::string(error.identifier));
    EXPECT_TRUE(h.app->last_error()->offers_try_again) << number;
    EXPECT_FALSE(h.app->last_error()->remedy.empty()) << number << ": the remedy from shared/'s catalog";
    EXPECT_EQ(h.app->session_label(), "failed");
    // What the page API and the text mirror show.
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), "\"code\":\"" + number + " ")) << number;
    h.apply(intent::TryAgain{});
    EXPECT_EQ(h.app->session_label(), "signed out");
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
}

// Spec 7.1, all 16 rows.
const std::vector<int> kSpec71Codes = {1001,  3001,  4001,  4002,  5001,  5002,  5003,  11000,
                                       12000, 13000, 14000, 15000, 16000, 18000, 19000, 20000};

INSTANTIATE_TEST_SUITE_P(Spec71, AppAuthorizationErrorTest, ::testing::ValuesIn(kSpec71Codes),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                             const auto code = authorization_error_from_number(param_info.param);
                             return "E" + std::to_string(param_info.param) + "_" +
                                    std::string(code ? to_string(*code) : "unknown");
                         });

TEST(App, EverySpec71CodeIsTested) {
    std::vector<int> shared_table;
    for (const auto& error : all_authorization_errors()) shared_table.push_back(to_number(error.code));
    EXPECT_EQ(shared_table, kSpec71Codes) << "shared/'s table and this test list the same 16 codes";
}

// ---------------------------------------------------------------------------
// Session: refresh (spec 5.2.2, 5.2.3, 4.3)
// ---------------------------------------------------------------------------

// spec 5.2.2: 401 invalid_token -> one refresh, one retry, the call succeeds.
TEST(App, ExpiredAccessTokenIsRefreshedAndTheCallRetried) {
    AppHarness h;
    h.sign_in();
    h.service.expire_access_tokens();  // the service's clock moved on; ours did not
    h.apply(intent::ReloadAccount{});
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "the code exchange, then one refresh";
    EXPECT_EQ(form_value(h.sent_to("/oauth/token").back().body, "grant_type"), std::string("refresh_token"));
    EXPECT_EQ(h.app->counters().token_refreshes, 1);
    EXPECT_GE(h.app->counters().retries_after_401, 1);
    EXPECT_EQ(h.app->session_label(), "signed in");
    EXPECT_TRUE(h.app->account().error.empty()) << h.app->account().error;
    EXPECT_FALSE(h.app->last_error());
}

// chatwork-ruby issue #42 (PR #43): the live service's 401 for an expired
// token has an empty body; the error is only in WWW-Authenticate. The app
// refreshes once and retries once, reading the header alone.
TEST(App, EmptyBodied401IsRefreshedAndRetriedOnce_ruby42) {
    ASSERT_EQ(roomkey::testing::FakeService::invalid_token(kAccessTokenExpiredDescription).body, "")
        << "the fake answers as the service";
    AppHarness h;
    h.sign_in();
    h.service.expire_access_tokens();
    const std::size_t before = h.sent_to("/api/me").size();
    h.apply(intent::ReloadAccount{});
    EXPECT_EQ(h.app->counters().token_refreshes, 1);
    EXPECT_EQ(h.sent_to("/api/me").size() - before, 2u) << "the refused call and its one retry";
    EXPECT_TRUE(h.app->account().error.empty()) << h.app->account().error;
    EXPECT_FALSE(h.app->last_error());
}

// spec 5.2.2: exactly one refresh and one retry; a second 401 gives up plainly.
TEST(App, StillUnauthorizedAfterTheRetryGivesUp) {
    AppHarness h;
    h.sign_in();
    h.service.reject_every_access_token = true;
    const std::size_t before = h.sent_to("/api/me").size();
    h.apply(intent::ReloadAccount{});
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "one refresh, not a loop";
    ASSERT_TRUE(h.app->last_error());
    EXPECT_TRUE(contains(h.app->last_error()->message, "unauthorized_after_retry")) << h.app->last_error()->message;
    EXPECT_EQ(h.sent_to("/api/me").size() - before, 2u) << "the first try and its one retry";
}

TEST(App, NoAnswerFromTheHelperIsShownPlainly) {
    AppHarness h;
    h.start();
    h.app->apply(intent::UseApiToken{std::string(AppHarness::kApiToken)}, h.now);
    h.drain();
    ASSERT_FALSE(h.outstanding.empty());
    while (!h.outstanding.empty()) {
        h.app->on_transport_error(h.outstanding.front().id, "network error", h.now);
        h.outstanding.pop_front();
        h.drain();
    }
    ASSERT_TRUE(h.app->last_error());
    EXPECT_TRUE(contains(h.app->last_error()->message, "No answer from roomkey-helper (network error)"))
        << h.app->last_error()->message;
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
}

// spec 5.2.3: refreshed ahead of the 30-minute expiry when auto refresh is on.
TEST(App, AutoRefreshHappensBeforeExpiry) {
    AppHarness h;
    h.sign_in();
    const auto expires = h.app->access_expires_at();
    ASSERT_TRUE(expires);
    h.now = *expires - Seconds(10);
    h.app->tick(h.now);
    h.settle();
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "refreshed before the access token expired";
    EXPECT_GT(*h.app->access_expires_at(), *expires);
}

TEST(App, AutoRefreshOffWaitsForTheNextCall) {
    AppHarness h;
    h.sign_in();
    h.apply(intent::SetAutoRefresh{false});
    const auto expires = h.app->access_expires_at();
    ASSERT_TRUE(expires);
    h.now = *expires + Seconds(5);
    h.app->tick(h.now);
    h.settle();
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 1u) << "no background refresh while switched off";
    h.apply(intent::RefreshNow{});
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "refresh now still works";
    EXPECT_EQ(h.app->counters().token_refreshes, 1);
}

// spec 5.4.2: invalid_grant on refresh ends the session with a clear reason.
TEST(App, RevokedRefreshTokenEndsTheSession) {
    AppHarness h;
    h.sign_in();
    h.service.revoke_refresh_tokens();
    h.apply(intent::RefreshNow{});
    EXPECT_EQ(h.app->session_label(), "failed");
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "invalid_grant");
    EXPECT_FALSE(h.app->account().value) << "nothing of the ended session is shown as current";
}

TEST(App, SignOutForgetsTokensAndMasksTheLogForGood) {
    AppHarness h;
    h.sign_in();
    const auto& tokens = h.app->session().tokens();
    ASSERT_TRUE(tokens);
    const std::string access = tokens->access_token;
    const std::string refresh = tokens->refresh_token;
    h.apply(intent::SignOut{});
    EXPECT_EQ(h.app->session_label(), "signed out");
    EXPECT_FALSE(h.app->session().tokens());
    EXPECT_FALSE(h.app->account().value);
    ASSERT_FALSE(h.app->log().entries().empty()) << "the log keeps its entries";
    for (const LogEntry& entry : h.app->log().entries()) {
        const RenderedExchange shown = render(entry, h.app->redaction(), /*reveal=*/true);
        for (const auto& [name, value] : shown.request_headers) EXPECT_FALSE(contains(value, access)) << name;
        EXPECT_FALSE(contains(shown.request_body, refresh)) << "even revealed, the old secrets are gone";
        EXPECT_FALSE(contains(shown.response_body, access));
        EXPECT_FALSE(contains(shown.response_body, refresh));
    }
}

// Granted scopes beside requested ones, with a warning when they differ.
TEST(App, ScopesDifferWhenTheGrantIsNarrower) {
    AppHarness h;
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    EXPECT_FALSE(h.app->scopes_differ()) << "the fake grants what was asked";
    h.apply(intent::SignOut{});
    h.navigations.clear();
    h.stored.clear();
    // A narrower grant: the token answer names fewer scopes than requested.
    h.app->apply(intent::SignIn{ScopeSet{"users.all:read", "rooms.all:read_write", "contacts.all:read"}}, h.now);
    h.drain();
    ASSERT_FALSE(h.stored.empty());
    auto pending = parse_pending(h.stored.back());
    ASSERT_TRUE(pending);
    h.reload();
    h.app->start(std::string(kRedirectUri) + "?code=narrow&state=" + pending->state, h.stored.back(), h.now);
    h.drain();
    ASSERT_EQ(h.outstanding.size(), 1u);  // /config.json
    h.app->on_response(h.outstanding.front().id, h.answer(h.outstanding.front().request), h.now);
    h.outstanding.pop_front();
    h.drain();
    ASSERT_EQ(h.outstanding.size(), 1u) << "the code exchange";
    h.app->on_response(h.outstanding.front().id,
                       make_token_response("at-narrow-0001", "rt-narrow-0001", 1800, ScopeSet{"users.all:read"}),
                       h.now);
    h.outstanding.clear();
    h.drain();
    EXPECT_EQ(h.app->session_label(), "signed in");
    EXPECT_TRUE(h.app->scopes_differ()) << "granted is narrower than requested";
}

// ---------------------------------------------------------------------------
// API-token mode (spec 5.1)
// ---------------------------------------------------------------------------

TEST(App, ApiTokenIsSentOnlyInItsHeaderAndMasked) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{"  " + std::string(AppHarness::kApiToken) + "\n"});
    EXPECT_EQ(h.app->session_label(), "api token");
    ASSERT_TRUE(h.app->account().value) << h.app->account().error;
    EXPECT_EQ(h.app->account().value->name, std::string("Demo User"));
    const auto api = h.sent_to("/api/");
    ASSERT_GE(api.size(), 3u);
    for (const HttpRequest& r : api) {
        EXPECT_EQ(r.headers.get("x-servicetoken"), std::string(AppHarness::kApiToken)) << "spec 5.1.1";
        EXPECT_FALSE(r.headers.has("authorization")) << "no Bearer in API-token mode";
        EXPECT_FALSE(contains(r.url, AppHarness::kApiToken)) << "spec 5.1.2: never in the URL";
    }
    EXPECT_FALSE(contains(h.app->masked_api_token(), AppHarness::kApiToken));
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
}

TEST(App, WrongApiTokenIsReportedPlainly) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{"not-the-token-0000"});
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "HTTP 401");
    EXPECT_TRUE(contains(h.app->last_error()->title, "API token")) << h.app->last_error()->title;
}

TEST(App, ApiTokenWithControlCharactersIsRefusedBeforeSending) {
    AppHarness h;
    h.start();
    const std::size_t before = h.sent.size();
    h.apply(
        intent::UseApiToken{"abc\x01"
                            "def"});
    EXPECT_EQ(h.sent.size(), before) << "shared/'s builder refuses it: nothing is sent";
    EXPECT_EQ(h.app->mode(), Mode::none);
    ASSERT_TRUE(h.app->last_error());
}

// ---------------------------------------------------------------------------
// Posting queue (spec 4.6, 4.7, 8.2, 7.3)
// ---------------------------------------------------------------------------

// spec 8.2: a burst of 30 posts to one room goes at the speed the limit
// allows (10 per 10 s) and never gets a 429.
TEST(App, ThirtyPostsToOneRoomArePacedWithoutA429) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{std::string(AppHarness::kRoomId), "hello", 30});
    h.run_for(Seconds(25));

    EXPECT_EQ(h.app->batch().delivered, 30) << "every post delivered";
    EXPECT_EQ(h.app->batch().total, 30);
    EXPECT_EQ(h.per_room_429, 0) << "the pacing kept inside the per-room limit";
    EXPECT_EQ(h.app->counters().responses_429, 0);
    ASSERT_EQ(h.post_arrivals.size(), 30u);
    const Millis total = h.post_arrivals.back() - h.post_arrivals.front();
    EXPECT_GE(total, Seconds(20)) << "30 posts need two more 10-second windows";
    EXPECT_LE(total, Seconds(22)) << "within 10% of what the limit allows";
    // Order is kept: bodies numbered 1..30 arrive in order.
    std::vector<std::string> bodies;
    for (const HttpRequest& r : h.sent_to("/api/rooms/7/messages")) bodies.push_back(*form_value(r.body, "body"));
    ASSERT_EQ(bodies.size(), 30u);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        EXPECT_EQ(bodies[i], "hello (" + std::to_string(i + 1) + "/30)");
    }
}

// spec 7.3: a 429 that still happens waits about 10 s and is retried.
TEST(App, PerRoom429WaitsAboutTenSecondsAndRetries) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    // Another client filled the room's window just now.
    for (int i = 0; i < 10; ++i) h.room_posts["7"].push_back(h.now);
    h.apply(intent::QueueMessage{"7", "late", 1});
    EXPECT_EQ(h.per_room_429, 1);
    ASSERT_FALSE(h.app->posts().empty());
    EXPECT_EQ(h.app->posts().back().stage, PostStage::waiting);
    EXPECT_TRUE(contains(h.app->posts().back().note, "429")) << h.app->posts().back().note;
    h.run_for(Seconds(9));
    EXPECT_EQ(h.app->posts().back().stage, PostStage::waiting) << "still waiting within the 10 s";
    h.run_for(Seconds(2));
    EXPECT_EQ(h.app->posts().back().stage, PostStage::delivered) << h.app->posts().back().note;
    EXPECT_EQ(h.app->counters().responses_429, 1);
}

// spec 8.1 / 7.3: a GET that gets 429 waits until x-ratelimit-reset, is
// retried once, and the wait is shown.
TEST(App, RateLimitedGetWaitsForTheResetAndIsRetriedOnce) {
    AppHarness h;
    h.start();
    h.me_429 = 1;
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    ASSERT_EQ(h.sent_to("/api/me").size(), 1u);
    EXPECT_EQ(h.app->counters().responses_429, 1);
    EXPECT_FALSE(h.app->last_error()) << "not a failure yet: " << h.app->last_error()->message;
    EXPECT_TRUE(h.app->account().loading);
    EXPECT_TRUE(contains(h.app->account().note, "429")) << h.app->account().note;
    // x-ratelimit-reset is whole seconds; shared/'s scheduler waits its
    // reset margin (1 s) past it, in case the server rounded its window down.
    EXPECT_TRUE(contains(h.app->account().note, "retrying once in 0:31")) << h.app->account().note;
    EXPECT_TRUE(contains(h.app->notice(), "x-ratelimit-reset")) << h.app->notice();
    const auto wake = h.app->next_wake_at(h.now);
    ASSERT_TRUE(wake);
    EXPECT_EQ(*wake, t0 + Seconds(31)) << "the platform's timer is set for the reset (+ 1 s margin)";

    h.run_for(Seconds(30));
    EXPECT_EQ(h.sent_to("/api/me").size(), 1u) << "nothing before the reset";
    h.run_for(Seconds(2));
    EXPECT_EQ(h.sent_to("/api/me").size(), 2u) << "one retry after the reset";
    ASSERT_TRUE(h.app->account().value) << h.app->account().error;
    EXPECT_TRUE(h.app->account().note.empty());
    EXPECT_FALSE(h.app->last_error());
}

TEST(App, RateLimitedGetGivesUpAfterItsOneRetry) {
    AppHarness h;
    h.start();
    h.me_429 = 2;
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.run_for(Seconds(35));
    EXPECT_EQ(h.sent_to("/api/me").size(), 2u) << "the first try and one retry";
    EXPECT_FALSE(h.app->account().loading);
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "HTTP 429");
    EXPECT_TRUE(h.app->status().value) << "the other calls were not held back for good";
}

// A background tab draws no frames: the platform only calls tick() when
// next_wake_at() says so, and the paced posts still all go out.
TEST(App, PostsGoOutWhenTickedOnlyAtTheWakeTimes) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    EXPECT_FALSE(h.app->next_wake_at(h.now)) << "nothing waits for time";
    h.apply(intent::QueueMessage{std::string(AppHarness::kRoomId), "background", 25});
    ASSERT_EQ(h.app->batch().delivered, 10);
    int wakes = 0;
    while (auto wake = h.app->next_wake_at(h.now)) {
        ASSERT_GT(*wake, h.now) << "a wake time in the future, or the timer would spin";
        h.now = *wake;
        h.app->tick(h.now);
        h.settle();
        ASSERT_LT(++wakes, 100);
    }
    EXPECT_EQ(h.app->batch().delivered, 25);
    EXPECT_EQ(h.per_room_429, 0);
    EXPECT_LE(h.post_arrivals.back() - h.post_arrivals.front(), Seconds(22));
}

TEST(App, WakeTimeIncludesTheAutomaticRefresh) {
    AppHarness h;
    h.sign_in();
    const auto wake = h.app->next_wake_at(h.now);
    const auto due = h.app->session().refresh_due_at();
    ASSERT_TRUE(wake);
    ASSERT_TRUE(due);
    EXPECT_LE(*wake, *due);
    EXPECT_LT(*wake, *h.app->access_expires_at());
    h.now = *wake;
    h.app->tick(h.now);
    h.settle();
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "the refresh went out at the wake time";
    h.apply(intent::SetAutoRefresh{false});
    EXPECT_FALSE(h.app->next_wake_at(h.now)) << "no timer for a refresh that is switched off";
}

TEST(App, TaskIsPostedWithAssigneesAndDueDate) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    intent::QueueTask task{"7", "Review", {"11", "12"}, 1'700'100'000, TaskLimitType::date};
    h.apply(task);
    const auto tasks = h.sent_to("/api/rooms/7/tasks");
    ASSERT_EQ(tasks.size(), 1u);
    EXPECT_EQ(form_value(tasks[0].body, "to_ids"), std::string("11,12"));
    EXPECT_EQ(form_value(tasks[0].body, "limit"), std::string("1700100000"));
    EXPECT_EQ(form_value(tasks[0].body, "limit_type"), std::string("date"));
    EXPECT_EQ(h.app->posts().back().stage, PostStage::delivered);
}

TEST(App, EmptyMessageIsRefusedBeforeQueueing) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "", 1});
    EXPECT_TRUE(h.app->posts().empty());
    EXPECT_TRUE(h.app->last_error());
}

TEST(App, CancelQueuedDropsWaitingPostsOnly) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "burst", 15});
    EXPECT_EQ(h.app->batch().delivered, 10) << "the first window's ten went at once";
    h.apply(intent::CancelQueued{});
    h.run_for(Seconds(15));
    EXPECT_EQ(h.post_arrivals.size(), 10u) << "cancelled posts are never sent";
    EXPECT_EQ(h.app->batch().total, 10);
}

// Issue 11: signing out with posts still queued asks first; only the
// user's "discard them" drops them.
TEST(App, SignOutWithWaitingPostsAsksThenCancelsThem) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "burst", 12});
    h.apply(intent::SignOut{});
    ASSERT_TRUE(h.app->sign_out_confirm()) << "two posts still wait: the user is asked";
    EXPECT_EQ(*h.app->sign_out_confirm(), 2);
    EXPECT_EQ(h.app->mode(), Mode::api_token) << "still signed in until the user confirms";
    h.apply(intent::CancelSignOut{});
    EXPECT_FALSE(h.app->sign_out_confirm());
    h.apply(intent::SignOut{});
    h.apply(intent::SignOut{true});
    h.run_for(Seconds(12));
    EXPECT_EQ(h.post_arrivals.size(), 10u);
    EXPECT_EQ(h.app->mode(), Mode::none);
    EXPECT_FALSE(h.app->sign_out_confirm());
}

// ---------------------------------------------------------------------------
// Issue 11: posts survive faults; every error reaches state()
// ---------------------------------------------------------------------------

AppHarness& signed_in_with_api_token(AppHarness& h) {
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    return h;
}

const PostJob& only_post(const AppHarness& h) {
    EXPECT_EQ(h.app->posts().size(), 1u);
    return h.app->posts().back();
}

std::size_t posts_sent(const AppHarness& h) {
    std::size_t n = 0;
    for (const HttpRequest& r : h.sent_to("/api/rooms/7/messages")) n += r.method == Method::Post ? 1 : 0;
    return n;
}

// 503: the service did not act. Again by itself after 1 s, then 2 s.
TEST(App, PostAfter503GoesAgainByItselfWithBackoff) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 503, R"({"errors":["maintenance"]})"));
    h.faults.push_back(AppHarness::status_fault("/messages", 503, R"({"errors":["maintenance"]})"));
    h.apply(intent::QueueMessage{"7", "hello", 1});
    EXPECT_EQ(only_post(h).stage, PostStage::retrying);
    EXPECT_TRUE(contains(only_post(h).note, "503")) << only_post(h).note;
    ASSERT_TRUE(h.app->next_wake_at(h.now)) << "the platform's timer wakes the app for the retry";
    EXPECT_EQ(*h.app->next_wake_at(h.now), h.now + Seconds(1));
    h.run_for(Millis(900));
    EXPECT_EQ(posts_sent(h), 1u) << "not before the backoff";
    h.run_for(Millis(200));
    EXPECT_EQ(posts_sent(h), 2u) << "again after 1 s";
    EXPECT_EQ(only_post(h).stage, PostStage::retrying);
    h.run_for(Millis(1800));
    EXPECT_EQ(posts_sent(h), 2u) << "the second wait is 2 s";
    h.run_for(Millis(300));
    EXPECT_EQ(posts_sent(h), 3u);
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"hello"});
}

// The helper's 502 "could not reach the service" is not sent either.
TEST(App, PostTheHelperCouldNotForwardGoesAgainByItself) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::helper_gateway_fault("/messages", UpstreamOutcome::not_sent));
    h.apply(intent::QueueMessage{"7", "hello", 1});
    EXPECT_EQ(only_post(h).stage, PostStage::retrying);
    h.run_for(Millis(1100));
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
}

// Retries keep the room's order: the next post waits behind the retrying one.
TEST(App, ARetryingPostKeepsItsPlaceInTheRoom) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 503, "{}"));
    h.apply(intent::QueueMessage{"7", "first", 1});
    h.apply(intent::QueueMessage{"7", "second", 1});
    EXPECT_TRUE(h.room_bodies["7"].empty()) << "the second does not overtake the first";
    h.run_for(Millis(1100));
    EXPECT_EQ(h.room_bodies["7"], (std::vector<std::string>{"first", "second"}));
}

// The answer was lost after the service stored the post: it is found in the
// room and counted delivered, never sent twice.
TEST(App, UnknownPostFoundInTheRoomIsDeliveredNotResent) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::no_answer("/messages", TransportFailure::network_error, true));
    h.apply(intent::QueueMessage{"7", "stored, answer lost", 1});
    EXPECT_EQ(only_post(h).stage, PostStage::checking);
    h.run_for(Seconds(3));
    EXPECT_EQ(only_post(h).stage, PostStage::delivered) << only_post(h).note;
    EXPECT_EQ(posts_sent(h), 1u) << "never resent by itself";
    EXPECT_EQ(h.room_bodies["7"].size(), 1u);
}

// A 500: maybe acted on. Looked up, not there: the user decides, with why.
TEST(App, UnknownPostNotFoundWaitsForTheUserThenRetries) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 500, R"({"errors":["boom"]})"));
    h.apply(intent::QueueMessage{"7", "maybe", 1});
    h.run_for(Seconds(60));
    const PostJob& job = only_post(h);
    EXPECT_EQ(job.stage, PostStage::unknown);
    EXPECT_TRUE(contains(job.note, "not among the room's latest messages")) << job.note;
    EXPECT_EQ(posts_sent(h), 1u) << "a minute later: still never resent by itself";
    ASSERT_TRUE(h.app->last_error()) << "the user is told";
    EXPECT_FALSE(h.app->posting_error().empty());
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), R"("stage":"unknown")"));
    h.apply(intent::RetryPost{job.id});
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"maybe"});
    EXPECT_FALSE(h.app->last_error()) << "the error clears once the post went through";
    EXPECT_TRUE(h.app->posting_error().empty());
}

// A timeout is unknown too; a task cannot be looked up: the user decides at once.
TEST(App, TaskWithUnknownOutcomeIsLeftToTheUser) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::no_answer("/tasks", TransportFailure::timeout));
    h.apply(intent::QueueTask{"7", "do it", {"4242"}, std::nullopt, TaskLimitType::none});
    EXPECT_EQ(only_post(h).stage, PostStage::unknown);
    h.run_for(Seconds(40));
    EXPECT_EQ(h.sent_to("/api/rooms/7/tasks").size(), 1u);
    h.apply(intent::DiscardPost{only_post(h).id});
    EXPECT_EQ(only_post(h).stage, PostStage::cancelled);
    EXPECT_FALSE(h.app->last_error());
}

// A 4xx keeps the text; the user can change it and send it again, or drop it.
TEST(App, RefusedPostKeepsItsTextForEditRetryOrDiscard) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 400, R"({"errors":["body is too long."]})"));
    h.apply(intent::QueueMessage{"7", "a very long text", 1});
    const PostJob& job = only_post(h);
    EXPECT_EQ(job.stage, PostStage::refused);
    EXPECT_EQ(job.body, "a very long text");
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "HTTP 400");
    EXPECT_TRUE(contains(job.note, "body is too long.")) << job.note;
    h.apply(intent::EditPost{job.id, "short"});
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"short"});
    EXPECT_FALSE(h.app->last_error());
}

// No answer at all from the helper: requests wait while it is probed; posts
// queued meanwhile go by themselves once it answers.
TEST(App, HelperUnreachableHoldsRequestsAndProbesUntilItAnswers) {
    AppHarness h;
    signed_in_with_api_token(h);
    // The helper is gone: both reads of the account get no connection.
    h.faults.push_back(AppHarness::no_answer("/api/me", TransportFailure::network_error));
    h.faults.push_back(AppHarness::no_answer("/api/my/status", TransportFailure::network_error));
    h.apply(intent::ReloadAccount{});
    EXPECT_TRUE(h.app->helper_unreachable());
    ASSERT_TRUE(h.app->last_error());
    EXPECT_TRUE(contains(h.app->last_error()->message, "roomkey-helper")) << h.app->last_error()->message;
    EXPECT_FALSE(h.app->account().error.empty());
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), R"("helper":"unreachable")"));
    h.faults.push_back(AppHarness::no_answer("/config.json", TransportFailure::network_error));
    h.apply(intent::QueueMessage{"7", "while away", 1});
    EXPECT_EQ(posts_sent(h), 0u) << "nothing is handed to a helper that does not answer";
    h.run_for(Millis(1100));
    EXPECT_TRUE(h.app->helper_unreachable()) << "the first probe failed too";
    EXPECT_EQ(posts_sent(h), 0u);
    h.run_for(Millis(2100));
    EXPECT_FALSE(h.app->helper_unreachable()) << "the second probe (after 2 s) got an answer";
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
    h.apply(intent::ReloadAccount{});
    EXPECT_FALSE(h.app->last_error()) << "the account error clears once the account is read";
    EXPECT_TRUE(h.app->account().error.empty());
}

// A 2xx whose JSON is cut off is an error on screen, in state() and the
// mirror's source, with the old value kept; the next good read clears it.
TEST(App, UnreadableAnswerIsReportedAndClearedByTheNextSuccess) {
    AppHarness h;
    signed_in_with_api_token(h);
    ASSERT_TRUE(h.app->account().value);
    h.faults.push_back(AppHarness::status_fault("/api/me", 200, R"({"account_id": 42)"));
    h.apply(intent::ReloadAccount{});
    ASSERT_TRUE(h.app->last_error());
    EXPECT_EQ(h.app->last_error()->code, "unreadable answer");
    EXPECT_FALSE(h.app->account().error.empty());
    EXPECT_EQ(h.app->account().value->account_id, "4242") << "the last good account stays";
    const std::string state = page_state_json(*h.app, h.now);
    EXPECT_TRUE(contains(state, R"("code":"unreadable answer")")) << state;
    EXPECT_TRUE(contains(state, R"("account":"The answer could not be read)")) << state;
    h.apply(intent::ReloadAccount{});
    EXPECT_FALSE(h.app->last_error());
    EXPECT_TRUE(h.app->account().error.empty());
}

// Another view's success does not clear an error it did not cause.
TEST(App, AnErrorClearsOnlyWhenTheSameActionSucceeds) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/api/me", 500, R"({"errors":["boom"]})"));
    h.apply(intent::ReloadAccount{});  // /me fails, /my/status succeeds
    ASSERT_TRUE(h.app->last_error());
    h.apply(intent::ReloadRooms{});
    EXPECT_TRUE(h.app->last_error()) << "the room list's success says nothing about the account";
    h.apply(intent::ReloadAccount{});
    EXPECT_FALSE(h.app->last_error());
}

TEST(App, FormErrorsAreInTheState) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.apply(intent::FormError{"Due date: a real date as YYYY-MM-DD."});
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), R"("form":"Due date: a real date as YYYY-MM-DD.")"));
    h.apply(intent::FormError{""});
    EXPECT_TRUE(h.app->form_error().empty());
}

// ---------------------------------------------------------------------------
// HTTP log and copy as curl
// ---------------------------------------------------------------------------

TEST(App, LogMasksSecretsUnlessRevealed) {
    AppHarness h;
    const std::string redirect = h.sign_in();
    const std::string code = *query_value(redirect, "code");
    const std::string access = h.app->session().tokens()->access_token;
    const LogEntry* exchange = nullptr;
    for (const LogEntry& entry : h.app->log().entries()) {
        if (entry.request.url == "/oauth/token") exchange = &entry;
    }
    ASSERT_NE(exchange, nullptr) << "the token exchange is logged";
    const RenderedExchange masked = render(*exchange, h.app->redaction(), false);
    EXPECT_FALSE(contains(masked.request_body, code)) << masked.request_body;
    EXPECT_TRUE(contains(masked.request_body, "code=" + std::string(kMask)));
    EXPECT_FALSE(contains(masked.response_body, access)) << masked.response_body;
    const RenderedExchange revealed = render(*exchange, h.app->redaction(), true);
    EXPECT_TRUE(contains(revealed.request_body, code)) << "reveal shows it on screen";
    EXPECT_TRUE(contains(revealed.response_body, access));

    h.apply(intent::CopyCurl{exchange->id});
    ASSERT_EQ(h.copied.size(), 1u);
    EXPECT_FALSE(contains(h.copied[0], code)) << "copy as curl is masked unless revealed";
    EXPECT_TRUE(contains(h.copied[0], "https://127.0.0.1:8443/oauth/token"));
    h.apply(intent::SetReveal{true});
    h.apply(intent::CopyCurl{exchange->id, /*may_reveal=*/true});  // the UI's button
    ASSERT_EQ(h.copied.size(), 2u);
    EXPECT_TRUE(contains(h.copied[1], code));
}

// The page API can neither switch reveal on nor get a revealed copy: only the
// UI's own intents can, and what the page API reads stays masked.
TEST(App, PageApiCannotObtainAnUnmaskedToken) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    const LogEntry* me = nullptr;
    for (const LogEntry& entry : h.app->log().entries()) {
        if (entry.request.url == "/api/me") me = &entry;
    }
    ASSERT_NE(me, nullptr);
    const std::string entry = std::to_string(me->id);

    auto run_page_actions = [&](const std::string& json) {
        std::vector<std::string> errors;
        for (const Intent& intent : parse_actions(json, errors)) h.apply(intent);
        return errors;
    };
    // A script tries to reveal and copy.
    auto errors = run_page_actions(R"([{"type":"set_reveal","on":true},{"type":"copy_curl","entry":)" + entry + "}]");
    EXPECT_EQ(errors.size(), 1u) << "set_reveal refused";
    EXPECT_FALSE(h.app->reveal());
    ASSERT_EQ(h.copied.size(), 1u);
    EXPECT_FALSE(contains(h.copied[0], AppHarness::kApiToken)) << h.copied[0];

    // The user reveals on screen; a script's copy is still masked.
    h.apply(intent::SetReveal{true});
    run_page_actions(R"([{"type":"copy_curl","entry":)" + entry + "}]");
    ASSERT_EQ(h.copied.size(), 2u);
    EXPECT_FALSE(contains(h.copied[1], AppHarness::kApiToken)) << "page API copies are masked even when revealed";
    EXPECT_FALSE(contains(page_state_json(*h.app, h.now), AppHarness::kApiToken));

    // Only the UI's own copy button reveals.
    h.apply(intent::CopyCurl{me->id, true});
    ASSERT_EQ(h.copied.size(), 3u);
    EXPECT_TRUE(contains(h.copied[2], AppHarness::kApiToken));
    EXPECT_FALSE(contains(page_state_json(*h.app, h.now), AppHarness::kApiToken));
}

// Sign-out resets everything that belonged to the session: reveal, the
// clipboard (the system's too when the session copied to it), posts, counters.
TEST(App, SignOutResetsRevealClipboardPostsAndCounters) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "private text", 3});
    h.apply(intent::SetReveal{true});
    h.apply(intent::CopyCurl{h.app->log().entries().back().id, true});
    ASSERT_TRUE(contains(h.copied.back(), AppHarness::kApiToken));
    ASSERT_GT(h.app->counters().requests_sent, 0);
    h.apply(intent::SignOut{});

    EXPECT_FALSE(h.app->reveal()) << "reveal does not outlive the session";
    ASSERT_EQ(h.forgot_clipboard.size(), 1u) << "the paste buffer is emptied";
    EXPECT_TRUE(h.forgot_clipboard[0].system) << "the copy is overwritten on the system clipboard";
    EXPECT_TRUE(h.app->posts().empty()) << "the session's post texts are gone";
    EXPECT_EQ(h.app->batch().total, 0);
    EXPECT_EQ(h.app->counters().requests_sent, 0);
    EXPECT_EQ(h.app->counters().responses_429, 0);
    EXPECT_TRUE(h.app->masked_api_token().empty());
    EXPECT_FALSE(h.app->account().value);
    EXPECT_TRUE(h.app->selected_room().empty());

    // Issue 28: a masked copy is overwritten too: it holds the session's
    // URLs and bodies (a message's text).
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::CopyCurl{h.app->log().entries().back().id, true});
    h.apply(intent::SignOut{});
    ASSERT_EQ(h.forgot_clipboard.size(), 2u);
    EXPECT_TRUE(h.forgot_clipboard.back().system);

    // A session that copied nothing leaves the system clipboard alone.
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::SignOut{});
    ASSERT_EQ(h.forgot_clipboard.size(), 3u);
    EXPECT_FALSE(h.forgot_clipboard.back().system);
}

// Issue 28: Firefox and WebKit refuse a clipboard write without a recent
// click or key press. The platform says so (ClipboardCleared{false}), the
// app tells the user, and the platform clears at the next gesture.
TEST(App, AClipboardClearTheBrowserRefusedIsShownUntilItIsDone) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::CopyCurl{h.app->log().entries().back().id, false});
    h.apply(intent::SignOut{});
    ASSERT_TRUE(h.forgot_clipboard.back().system);
    EXPECT_EQ(h.app->clipboard_notice(), "");

    h.apply(intent::ClipboardCleared{false});
    EXPECT_NE(h.app->clipboard_notice().find("next click or key press"), std::string::npos)
        << h.app->clipboard_notice();
    EXPECT_NE(page_state_json(*h.app, h.now).find(R"("clipboard_notice":"The clipboard still holds)"),
              std::string::npos);
    h.apply(intent::ClipboardCleared{true});
    EXPECT_EQ(h.app->clipboard_notice(), "");
    EXPECT_NE(page_state_json(*h.app, h.now).find(R"("clipboard_notice":null)"), std::string::npos);

    // A new copy while a clear waits is the user's: the wait ends.
    h.apply(intent::ClipboardCleared{false});
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::CopyCurl{h.app->log().entries().back().id, false});
    EXPECT_EQ(h.app->clipboard_notice(), "");
}

// Issue 28: Back from the consent screen restores the page from the
// back/forward cache as it was, "signing in". The sign-in is abandoned:
// signed out, Sign in usable, the pending authorization removed from
// storage, so a callback with its state is refused afterwards.
TEST(App, APageRestoredWhileSigningInAbandonsTheSignIn) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    ASSERT_EQ(h.app->session_label(), "signing in");
    ASSERT_EQ(h.stored.size(), 1u);
    const std::string abandoned = h.navigations.back();

    h.apply(intent::PageRestored{});
    EXPECT_EQ(h.app->session_label(), "signed out");
    EXPECT_EQ(h.app->mode(), Mode::none);
    EXPECT_EQ(h.forgot_pending, 1) << "the pending authorization leaves sessionStorage";
    EXPECT_NE(h.app->notice().find("came back from the consent screen"), std::string::npos) << h.app->notice();
    EXPECT_FALSE(h.app->last_error());

    // The consent screen reached again (Forward) and allowed: the callback
    // loads a new page, and storage holds no record for it any more.
    auto redirect = h.service.consent(abandoned);
    ASSERT_TRUE(redirect);
    AppHarness callback_page;
    callback_page.start(*redirect, std::nullopt);
    EXPECT_NE(callback_page.app->session_label(), "exchanging");
    EXPECT_TRUE(callback_page.app->last_error()) << "a callback for an abandoned sign-in is refused";
    EXPECT_TRUE(callback_page.sent_to("/oauth/token").empty()) << "its code is never exchanged";

    // The restored page signs in again, with a new state; the abandoned
    // callback does not match the record that sign-in keeps either.
    h.apply(intent::SignIn{kScopes});
    EXPECT_EQ(h.app->session_label(), "signing in");
    ASSERT_EQ(h.stored.size(), 2u);
    EXPECT_NE(query_value(h.navigations.back(), "state"), query_value(abandoned, "state"));
    AppHarness mismatched;
    mismatched.start(*redirect, h.stored.back());
    EXPECT_TRUE(mismatched.app->last_error());
    EXPECT_TRUE(mismatched.sent_to("/oauth/token").empty());
}

TEST(App, APageRestoredInAnyOtherStateIsLeftAsItWas) {
    AppHarness h;
    h.sign_in();
    ASSERT_EQ(h.app->session_label(), "signed in");
    h.apply(intent::PageRestored{});
    EXPECT_EQ(h.app->session_label(), "signed in");
    EXPECT_EQ(h.forgot_pending, 0);

    AppHarness signed_out;
    signed_out.start();
    signed_out.apply(intent::PageRestored{});
    EXPECT_EQ(signed_out.app->session_label(), "signed out");
    EXPECT_EQ(signed_out.forgot_pending, 0);
    EXPECT_EQ(signed_out.app->notice(), "");
}

// ---------------------------------------------------------------------------
// The page API snapshot (app/page_state.hpp)
// ---------------------------------------------------------------------------

// The page's state() and text mirror never carry a token, code or verifier.
TEST(AppPageState, SnapshotHoldsNoSecretAndNamesTheAccount) {
    AppHarness h;
    const std::string redirect = h.sign_in();
    const std::string code = *query_value(redirect, "code");
    const auto tokens = *h.app->session().tokens();
    const std::string json = page_state_json(*h.app, h.now);
    EXPECT_FALSE(contains(json, tokens.access_token));
    EXPECT_FALSE(contains(json, tokens.refresh_token));
    EXPECT_FALSE(contains(json, code));
    EXPECT_TRUE(contains(json, R"("session":"signed in")")) << json;
    EXPECT_TRUE(contains(json, R"("account_id":"4242")")) << json;
    EXPECT_TRUE(contains(json, R"("unread_num":12)")) << json;
    EXPECT_TRUE(contains(json, R"("responses_429":0)")) << json;
}

// Issue 10 item 6: `catalog` lists every endpoint with the page API's field names.
TEST(AppPageState, CatalogListsEveryEndpointWithItsScope) {
    AppHarness h;
    const auto state = nlohmann::json::parse(page_state_json(*h.app, h.now));
    ASSERT_TRUE(state["catalog"].is_array());
    EXPECT_EQ(state["catalog"].size(), endpoint_catalog().size());
    bool saw_task_status = false;
    for (const auto& entry : state["catalog"]) {
        for (const char* field : {"method", "path", "scope", "room_post", "destructive"}) {
            EXPECT_TRUE(entry.contains(field)) << entry.dump();
        }
        if (entry["path"] == "/rooms/{room_id}/tasks/{task_id}/status") {
            saw_task_status = true;
            EXPECT_EQ(entry["method"], "PUT");
            EXPECT_EQ(entry["scope"], "rooms.tasks:write");
            EXPECT_EQ(entry["room_post"], false);
        }
        if (entry["path"] == "/rooms/{room_id}/messages" && entry["method"] == "POST") {
            EXPECT_EQ(entry["room_post"], true);
        }
    }
    EXPECT_TRUE(saw_task_status);
}

TEST(AppPageState, FreshAppIsSignedOut) {
    AppHarness h;
    h.start();
    const std::string json = page_state_json(*h.app, h.now);
    EXPECT_TRUE(contains(json, R"("session":"signed out")")) << json;
    EXPECT_TRUE(contains(json, R"("last_error":null)")) << json;
}

// ---------------------------------------------------------------------------
// Refresh with fewer scopes (spec 4.3, issue 13)
// ---------------------------------------------------------------------------

TEST(App, RefreshWithFewerScopesSendsThemAndShowsTheNarrowerGrant) {
    AppHarness h;
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    ASSERT_EQ(h.app->session_label(), "signed in");
    const std::size_t before = h.sent_to("/oauth/token").size();
    h.apply(intent::RefreshScopes{ScopeSet{"users.all:read"}});
    const auto token_requests = h.sent_to("/oauth/token");
    ASSERT_EQ(token_requests.size(), before + 1) << "one refresh";
    EXPECT_EQ(form_value(token_requests.back().body, "grant_type"), "refresh_token");
    EXPECT_EQ(form_value(token_requests.back().body, "scope"), "users.all:read");
    ASSERT_TRUE(h.app->session().tokens());
    EXPECT_EQ(h.app->session().tokens()->scope, ScopeSet{"users.all:read"}) << "the fake service granted the subset";
    const ScopeRefresh& narrow = h.app->scope_refresh();
    EXPECT_FALSE(narrow.pending());
    ASSERT_TRUE(narrow.granted_after());
    EXPECT_EQ(*narrow.granted_after(), ScopeSet{"users.all:read"});
    EXPECT_EQ(narrow.granted_before(), (ScopeSet{"users.all:read", "rooms.all:read_write"}));
    EXPECT_FALSE(h.app->scopes_differ()) << "what was asked last is what was granted: no warning";
    EXPECT_EQ(h.app->counters().token_refreshes, 1);
}

TEST(App, RefreshWithMoreScopesIsRefusedBeforeAnythingIsSent) {
    AppHarness h;
    h.sign_in(ScopeSet{"users.all:read"});
    const std::size_t before = h.sent.size();
    h.apply(intent::RefreshScopes{ScopeSet{"users.all:read", "rooms.all:read"}});
    EXPECT_EQ(h.sent.size(), before) << "nothing sent: the service would refuse a wider scope";
    EXPECT_NE(h.app->scope_refresh().error().find("only narrow"), std::string::npos) << h.app->scope_refresh().error();
    EXPECT_EQ(h.app->session_label(), "signed in") << "the session is untouched";
    h.apply(intent::SignOut{});
    EXPECT_EQ(h.app->scope_refresh().error(), "") << "sign-out forgets it";
}

}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
