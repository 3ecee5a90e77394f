// Whole flows against the in-memory FakeService, through the real shared/
// builders and readers and the REST client the browser app ships
// (rest_client.hpp: the session table, the pacer, the queue): sign-in (spec 4.2, 4.3, 5.4.1), an expiry with automatic
// refresh (spec 2.3, 5.2.3), a 401 invalid_token -> one refresh + one retry
// (spec 5.2.2), API calls (spec 4.4, 4.5, 5.2.1) and the rate-limit headers
// feeding the pacing scheduler (spec 8.1).
#include "fake_service.hpp"

#include "roomkey/authorization.hpp"
#include "roomkey/callback.hpp"
#include "roomkey/pacing.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/rest_client.hpp"
#include "roomkey/session.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <deque>

namespace roomkey {
// Its own namespace: unity batches put this file beside session_test.cpp,
// whose helpers have the same names.
namespace sign_in_flow_test {
namespace {

using testing::FakeService;
namespace fx = session_effect;

const Instant t0 = instant_from_unix_seconds(1'700'000'000);
const std::string kRedirectUri = "https://127.0.0.1:8443/callback";
const ScopeSet kScopes{"users.profile.me:read", "users.status.me:read"};

// Deterministic bytes: tests need repeatable states and verifiers, not secrecy.
RandomSource counting_random() {
    auto next = std::make_shared<unsigned>(0);
    return [next](unsigned char* out, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>((*next)++ * 37u + 11u);
    };
}

ClientConfig public_client() { return ClientConfig{"client-1", ClientType::public_client, {kRedirectUri}, kScopes}; }

// A synchronous stand-in for the browser app's adapter: performs the effects,
// sends requests to the fake in rounds (everything sent in one round is in
// flight together; answers are then handled in order), and records outcomes.
class Harness {
public:
    explicit Harness(ClientConfig client = public_client(), std::string secret = {})
        : client_(std::move(client)),
          fake(
              client_, [this] { return now; }, secret),
          config(make_config(client_, secret)),
          rest(config),
          session(rest.session()) {}

    Instant now = t0;
    ClientConfig client_;
    FakeService fake;
    SessionConfig config;
    RestClient rest;
    const Session& session;  // the client's own session table

    std::string navigated_to;
    std::optional<Instant> refresh_timer;
    int tokens_forgotten = 0;
    std::vector<rest::Completed> completed;
    std::vector<rest::Failed> failed;
    std::vector<HttpRequest> token_requests_sent;
    std::vector<HttpRequest> api_requests_sent;

    static SessionConfig make_config(const ClientConfig& client, const std::string& secret) {
        SessionConfig c;
        c.token_url = std::string(FakeService::kTokenUrl);
        if (client.type == ClientType::public_client)
            c.credentials = PublicClient{client.client_id};
        else
            c.credentials = ConfidentialClient{client.client_id, secret};
        return c;
    }

    // The session's own events, each followed by whatever they set off.
    void sign_in_started(const std::string& url) { step(rest.sign_in(config, url, "pending record")); }
    void callback(ValidatedCallback callback) { step(rest.callback(config, std::move(callback), now, now)); }
    void callback_rejected(const CallbackError& error) { step(rest.callback_rejected(error)); }
    void tick() { step(rest.tick(now)); }
    void sign_out() { step(rest.sign_out()); }

    RequestTag submit(HttpRequest request) {
        const RequestTag tag = next_tag_++;
        step(rest.submit(tag, std::move(request)));
        return tag;
    }
    RequestTag new_tag() { return next_tag_++; }

    // Sends requests until nothing is in flight.
    void run() {
        for (int round = 0; !outbox_.empty(); ++round) {
            if (round == 20) {
                ADD_FAILURE() << "requests keep coming after 20 rounds: a refresh or retry loop";
                outbox_.clear();
                return;
            }
            std::vector<std::pair<Outgoing, HttpResponse>> answered;
            for (Outgoing& o : outbox_) {
                const HttpResponse response = fake.handle(o.request);
                answered.emplace_back(std::move(o), response);
            }
            outbox_.clear();
            for (auto& [o, response] : answered) {
                if (o.is_token) {
                    RestStep next = rest.token_answer(o.token_id, response, "", now);
                    ASSERT_FALSE(next.refused_event) << describe(*next.refused_event);
                    perform(std::move(next));
                } else {
                    auto next = rest.on_response(o.api_id, response, now);
                    ASSERT_TRUE(next) << describe(next.error());
                    perform(std::move(next).value());
                }
                perform(rest.pump(now));
            }
        }
    }

    // The full sign-in of spec 4.2 / 4.3 up to the callback URL.
    std::string consent_redirect() {
        RandomSource random = counting_random();
        AuthorizationRequest request{kRedirectUri, kScopes, make_state(random), make_pkce(random)};
        auto url = build_authorization_url(FakeService::kConsentUrl, client_, request);
        EXPECT_TRUE(url) << "authorization URL: " << (url ? "" : url.error().message);
        pending = make_pending(client_, request, now);
        sign_in_started(url.value_or(""));
        auto redirect = fake.consent(navigated_to);
        EXPECT_TRUE(redirect) << "consent refused: " << (redirect ? "" : redirect.error().description);
        return redirect.value_or("");
    }

    void sign_in() {
        const std::string redirect = consent_redirect();
        auto validated = validate_callback(redirect, pending);
        ASSERT_TRUE(validated) << to_string(validated.error().kind);
        callback(std::move(validated).value());
        ASSERT_EQ(session.state(), SessionState::signed_in);
    }

    std::optional<PendingAuthorization> pending;

private:
    struct Outgoing {
        bool is_token = false;
        TokenRequestId token_id = 0;
        RequestTag api_id = 0;
        HttpRequest request;
    };

    void step(RestStep first) {
        EXPECT_FALSE(first.refused_event) << describe(*first.refused_event);
        perform(std::move(first));
        perform(rest.pump(now));
        run();
    }

    void perform(RestStep step) {
        for (auto& effect : step.session_effects) {
            if (auto* nav = std::get_if<fx::NavigateToConsent>(&effect)) navigated_to = nav->url;
            if (auto* ex = std::get_if<fx::SendCodeExchange>(&effect)) send_token(ex->id, ex->request);
            if (auto* rf = std::get_if<fx::SendRefresh>(&effect)) send_token(rf->id, rf->request);
            if (auto* at = std::get_if<fx::ScheduleRefreshAt>(&effect)) refresh_timer = at->at;
            if (std::holds_alternative<fx::ForgetTokens>(effect)) ++tokens_forgotten;
        }
        for (auto& out : step.send) {
            api_requests_sent.push_back(out.request);
            outbox_.push_back(Outgoing{false, 0, out.tag, std::move(out.request)});
        }
        for (auto& c : step.completed) completed.push_back(std::move(c));
        for (auto& f : step.failed) failed.push_back(f);
    }

    void send_token(TokenRequestId id, HttpRequest request) {
        token_requests_sent.push_back(request);
        outbox_.push_back(Outgoing{true, id, 0, std::move(request)});
    }

    std::vector<Outgoing> outbox_;
    RequestTag next_tag_ = 1;
};

HttpRequest api_get(const std::string& path) {
    return HttpRequest{Method::Get, std::string(FakeService::kBaseUrl) + path, {}, ""};
}

long json_int(const std::string& body, const char* field) {
    auto j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains(field) || !j[field].is_number_integer()) return -1;
    return j[field].get<long>();
}

// spec 4.2, 4.3, 5.4.1, 4.4, 2.6, 5.2.1: consent with PKCE and state, code exchange, GET /me.
TEST(SignInFlow, PublicClientSignsInAndCallsMe) {
    Harness h;
    h.sign_in();
    EXPECT_FALSE(h.pending) << "the pending authorization is single use";
    ASSERT_EQ(h.token_requests_sent.size(), 1u);
    EXPECT_EQ(h.token_requests_sent[0].url, FakeService::kTokenUrl) << "no code or verifier in the URL";
    EXPECT_FALSE(h.token_requests_sent[0].headers.has("authorization")) << "public client: no Basic (spec 4.3)";
    EXPECT_EQ(h.fake.code_exchanges, 1);
    ASSERT_TRUE(h.session.tokens()) << "signed in without tokens";
    EXPECT_EQ(h.session.tokens()->access_expires_at, t0 + Seconds(30 * 60)) << "spec 2.3: 30 minutes";

    const RequestTag id = h.submit(api_get("/me"));
    ASSERT_EQ(h.completed.size(), 1u);
    EXPECT_EQ(h.completed[0].tag, id);
    EXPECT_EQ(h.completed[0].response.status, 200);
    EXPECT_EQ(json_int(h.completed[0].response.body, "account_id"), FakeService::kAccountId);
    ASSERT_EQ(h.api_requests_sent.size(), 1u);
    EXPECT_EQ(h.api_requests_sent[0].headers.get("Authorization"), "Bearer " + h.session.tokens()->access_token);
}

// spec 4.3 / 5.3 / 5.4.3: a confidential client authenticates with Basic;
// with offline_access its refresh token has no expiry.
TEST(SignInFlow, ConfidentialClientWithOfflineAccess) {
    ClientConfig client{"conf-1", ClientType::confidential, {kRedirectUri}, {}};
    client.scopes = kScopes;
    client.scopes.insert("offline_access");
    Harness h(client, "s3cret");
    const std::string redirect = [&] {
        RandomSource random = counting_random();
        ScopeSet requested = client.scopes;
        AuthorizationRequest request{kRedirectUri, requested, make_state(random), make_pkce(random)};
        auto url = build_authorization_url(FakeService::kConsentUrl, client, request);
        EXPECT_TRUE(url);
        h.pending = make_pending(client, request, h.now);
        h.sign_in_started(url.value_or(""));
        return h.fake.consent(h.navigated_to).value_or("");
    }();
    auto callback = validate_callback(redirect, h.pending);
    ASSERT_TRUE(callback) << to_string(callback.error().kind);
    h.callback(std::move(callback).value());
    ASSERT_EQ(h.session.state(), SessionState::signed_in) << (h.session.ended() ? describe(*h.session.ended()) : "");
    ASSERT_EQ(h.token_requests_sent.size(), 1u);
    EXPECT_TRUE(h.token_requests_sent[0].headers.has("authorization")) << "confidential client: Basic (spec 4.3)";
    EXPECT_FALSE(h.session.tokens()->refresh_expires_at) << "offline_access: no expiry (spec 5.4.3)";
}

// spec 2.3 / 4.3 / 5.2.3: the refresh is scheduled ahead of the 30-minute
// expiry, happens on the tick, and rotates the refresh token.
TEST(SignInFlow, AccessTokenIsRefreshedAheadOfExpiry) {
    Harness h;
    h.sign_in();
    ASSERT_TRUE(h.refresh_timer) << "no refresh timer after sign-in";
    EXPECT_EQ(*h.refresh_timer, t0 + Seconds(29 * 60));
    const std::string old_refresh = h.session.tokens()->refresh_token;
    const std::string old_access = h.session.tokens()->access_token;

    h.now = *h.refresh_timer;
    h.tick();
    EXPECT_EQ(h.session.state(), SessionState::signed_in);
    EXPECT_EQ(h.fake.refreshes, 1);
    EXPECT_NE(h.session.tokens()->access_token, old_access);
    EXPECT_FALSE(h.fake.refresh_token_valid(old_refresh)) << "the fake rotated the refresh token";
    EXPECT_EQ(*h.refresh_timer, h.now + Seconds(29 * 60)) << "the next refresh is scheduled";

    // Past the first token's 30 minutes, calls go through with the new one
    // (spec 4.5 / 2.5: GET /my/status and its counters).
    h.now = t0 + Seconds(31 * 60);
    h.submit(api_get("/my/status"));
    ASSERT_EQ(h.completed.size(), 1u);
    EXPECT_EQ(h.completed[0].response.status, 200);
    EXPECT_EQ(json_int(h.completed[0].response.body, "unread_num"), 12);
}

// A tab that slept through its refresh: the call refreshes first, no 401.
TEST(SignInFlow, MissedRefreshIsDoneBeforeTheNextCall) {
    Harness h;
    h.sign_in();
    h.now = t0 + Seconds(45 * 60);
    h.submit(api_get("/me"));
    EXPECT_EQ(h.fake.refreshes, 1);
    EXPECT_EQ(h.fake.api_calls, 1) << "the expired token was never sent";
    ASSERT_EQ(h.completed.size(), 1u);
    EXPECT_EQ(h.completed[0].response.status, 200);
}

// spec 5.2.2: 401 invalid_token -> exactly one refresh and one retry.
TEST(SignInFlow, InvalidTokenLeadsToOneRefreshAndOneRetry) {
    Harness h;
    h.sign_in();
    h.fake.expire_access_tokens();
    h.now += Seconds(60);
    h.submit(api_get("/my/status"));
    EXPECT_EQ(h.fake.refreshes, 1);
    EXPECT_EQ(h.fake.api_calls, 2) << "first try + one retry";
    ASSERT_EQ(h.completed.size(), 1u);
    EXPECT_EQ(h.completed[0].response.status, 200);
    EXPECT_TRUE(h.failed.empty());
}

// spec 5.2.2: the retry is refused too: the request fails, no refresh loop.
TEST(SignInFlow, SecondInvalidTokenFailsTheRequestWithoutLooping) {
    Harness h;
    h.sign_in();
    h.fake.reject_every_access_token = true;
    h.submit(api_get("/me"));
    EXPECT_EQ(h.fake.refreshes, 1);
    EXPECT_EQ(h.fake.api_calls, 2);
    ASSERT_EQ(h.failed.size(), 1u);
    EXPECT_EQ(h.failed[0].refused, RequestFailure::unauthorized_after_retry);
    EXPECT_EQ(h.session.state(), SessionState::signed_in);
}

// Two requests in flight both get 401: they share one refresh and are both retried.
TEST(SignInFlow, ConcurrentInvalidTokensShareOneRefresh) {
    Harness h;
    h.sign_in();
    h.fake.expire_access_tokens();
    // Submit both before any answer arrives.
    const RequestTag a_tag = h.new_tag();
    const RequestTag b_tag = h.new_tag();
    h.rest.submit(a_tag, api_get("/me"));
    h.rest.submit(b_tag, api_get("/my/status"));
    RestStep both = h.rest.pump(h.now);
    ASSERT_EQ(both.send.size(), 2u);
    // Deliver both 401s, then let the harness finish.
    std::vector<std::pair<RequestTag, HttpResponse>> answers;
    for (const auto& out : both.send) answers.emplace_back(out.tag, h.fake.handle(out.request));
    std::vector<RestStep> steps;
    for (auto& [id, response] : answers) {
        auto step = h.rest.on_response(id, response, h.now);
        ASSERT_TRUE(step) << describe(step.error());
        steps.push_back(std::move(step).value());
    }
    std::size_t refreshes_asked = 0;
    for (const auto& s : steps)
        for (const auto& e : s.session_effects) refreshes_asked += std::holds_alternative<fx::SendRefresh>(e) ? 1 : 0;
    EXPECT_EQ(refreshes_asked, 1u) << "one refresh for both";
    // Perform the refresh the first step asked for.
    const auto& refresh = std::get<fx::SendRefresh>(steps[0].session_effects[0]);
    RestStep after = h.rest.token_answer(refresh.id, h.fake.handle(refresh.request), "", h.now);
    ASSERT_FALSE(after.refused_event) << "the refresh's answer was refused";
    ASSERT_EQ(after.send.size(), 2u) << "both requests are retried";
    for (const auto& out : after.send) EXPECT_EQ(h.fake.handle(out.request).status, 200);
    EXPECT_EQ(h.fake.refreshes, 1);
}

// spec 2.2 / 8.3: a code is valid for 1 minute; a late exchange fails the sign-in.
TEST(SignInFlow, CodeOlderThanOneMinuteIsRefused) {
    Harness h;
    const std::string redirect = h.consent_redirect();
    h.now += Seconds(61);
    auto callback = validate_callback(redirect, h.pending);
    ASSERT_TRUE(callback) << to_string(callback.error().kind);
    h.callback(std::move(callback).value());
    EXPECT_EQ(h.session.state(), SessionState::failed);
    ASSERT_TRUE(h.session.ended()) << "the rejected code exchange did not end the session";
    EXPECT_EQ(h.session.ended()->kind, SessionEndKind::code_exchange_rejected);
    EXPECT_NE(h.session.ended()->detail.find("invalid_grant"), std::string::npos);
}

// spec 4.2 (CSRF): a callback whose state differs is rejected before any exchange.
TEST(SignInFlow, ForgedStateIsRejectedBeforeAnyExchange) {
    Harness h;
    const std::string redirect = h.consent_redirect();
    const std::string forged = redirect.substr(0, redirect.find("state=")) + "state=forged";
    auto callback = validate_callback(forged, h.pending);
    ASSERT_FALSE(callback) << "a forged state was accepted";
    h.callback_rejected(callback.error());
    EXPECT_EQ(h.session.state(), SessionState::failed);
    EXPECT_EQ(h.fake.code_exchanges, 0);
}

// spec 5.4.2 / 7.2: a revoked authorization: invalid_grant ends the session.
TEST(SignInFlow, RevokedRefreshTokenEndsTheSession) {
    Harness h;
    h.sign_in();
    h.fake.revoke_refresh_tokens();
    h.now = *h.refresh_timer;
    h.tick();
    EXPECT_EQ(h.session.state(), SessionState::failed);
    EXPECT_EQ(h.session.ended()->kind, SessionEndKind::refresh_rejected);
    EXPECT_FALSE(h.session.tokens());
    EXPECT_EQ(h.tokens_forgotten, 1);
    h.submit(api_get("/me"));
    ASSERT_EQ(h.failed.size(), 1u);
    EXPECT_EQ(h.failed[0].refused, RequestFailure::not_signed_in);
}

// spec 5.4.2: past 14 days the session is expired; the dead token is not even sent.
TEST(SignInFlow, SessionExpiresAfter14DaysWithoutRefresh) {
    Harness h;
    h.sign_in();
    h.now = t0 + Seconds(14 * 24 * 3600);
    h.tick();
    EXPECT_EQ(h.session.state(), SessionState::expired);
    EXPECT_EQ(h.fake.refreshes, 0);
}

// Sign-out forgets the tokens; later calls fail without reaching the service.
TEST(SignInFlow, SignOutForgetsTokens) {
    Harness h;
    h.sign_in();
    h.sign_out();
    EXPECT_EQ(h.tokens_forgotten, 1);
    EXPECT_FALSE(h.session.tokens());
    h.submit(api_get("/me"));
    EXPECT_EQ(h.fake.api_calls, 0);
    ASSERT_EQ(h.failed.size(), 1u);
}

// spec 8.1: every API response carries x-ratelimit-*; the scheduler follows them.
TEST(SignInFlow, RateLimitHeadersFeedThePacingScheduler) {
    Harness h;
    h.sign_in();
    for (int i = 0; i < 3; ++i) h.submit(api_get("/me"));
    const OverallBudget b = h.rest.scheduler().overall(h.now);
    EXPECT_TRUE(b.from_headers);
    EXPECT_EQ(b.limit, 300);
    EXPECT_EQ(b.remaining, 297);
}

}  // namespace
}  // namespace sign_in_flow_test
}  // namespace roomkey
