// Tests of the API call coordinator: the bearer token on every REST request
// (spec 5.2.1), one refresh + one retry on 401 invalid_token (spec 5.2.2),
// and other 401s (spec 5.1.4) left to the caller.
#include "roomkey/api_calls.hpp"

#include "roomkey/www_authenticate.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches put test files together, and
// several define helpers of the same names (t0, ...).
namespace api_calls_test {
namespace {

namespace ev = session_event;
namespace fx = session_effect;

const Instant t0 = instant_from_unix_seconds(1'700'000'000);
const ScopeSet kScopes{"users.profile.me:read"};

Session signed_in_session() {
    SessionConfig c;
    c.token_url = "https://auth.example.test/token";
    c.credentials = PublicClient{"client-1"};
    Session s(c);
    EXPECT_TRUE(s.handle(ev::SignInStarted{"https://consent.example.test/"}));
    std::optional<PendingAuthorization> pending =
        PendingAuthorization{"st", std::string(43, 'v'), "", "client-1", kScopes, t0};
    auto cb = validate_callback("https://app.example.test/callback?code=c&state=st", pending);
    EXPECT_TRUE(cb);
    auto sent = s.handle(ev::CallbackValidated{std::move(cb).value()});
    EXPECT_TRUE(sent && sent->size() == 1u);
    const auto id = std::get<fx::SendCodeExchange>(sent.value()[0]).id;
    EXPECT_TRUE(s.handle(ev::TokenResponse{id, make_token_response("at-1", "rt-1", 1800, kScopes), t0}));
    return s;
}

HttpRequest get_me() { return HttpRequest{Method::Get, "https://api.example.test/v2/me", {}, ""}; }

HttpResponse invalid_token_401() {
    HttpResponse r;
    r.status = 401;
    r.headers.set("WWW-Authenticate", format_bearer_challenge("invalid_token", "The access token expired"));
    return r;
}

TokenRequestId refresh_id(const ApiStep& step) {
    for (const auto& e : step.session_effects)
        if (const auto* r = std::get_if<fx::SendRefresh>(&e)) return r->id;
    ADD_FAILURE() << "no refresh requested";
    return 0;
}

// spec 5.2.1 / 4.1.2: every REST request carries Authorization: Bearer <token>,
// never the token in the URL.
TEST(ApiCalls, AttachesTheBearerToken) {
    Session s = signed_in_session();
    ApiCalls calls;
    auto sub = calls.submit(s, get_me(), t0);
    ASSERT_TRUE(sub) << describe(sub.error());
    ASSERT_EQ(sub->step.send.size(), 1u);
    const HttpRequest& out = sub->step.send[0].request;
    EXPECT_EQ(out.headers.get("authorization"), "Bearer at-1");
    EXPECT_EQ(out.url.find("at-1"), std::string::npos) << "the token never goes in a URL";
    EXPECT_FALSE(sub->step.send[0].is_retry);
}

TEST(ApiCalls, OrdinaryAnswerCompletesTheRequest) {
    Session s = signed_in_session();
    ApiCalls calls;
    auto sub = calls.submit(s, get_me(), t0);
    ASSERT_TRUE(sub);
    auto step = calls.on_response(s, sub->id, HttpResponse{200, {}, R"({"account_id":1})"}, t0);
    ASSERT_TRUE(step);
    ASSERT_EQ(step->completed.size(), 1u);
    EXPECT_EQ(step->completed[0].response.status, 200);
    EXPECT_EQ(calls.pending(), 0u);
}

// spec 5.2.2: 401 invalid_token -> one refresh -> one retry with the new token;
// a second 401 fails the request.
TEST(ApiCalls, InvalidTokenIsRefreshedAndRetriedOnce) {
    Session s = signed_in_session();
    ApiCalls calls;
    auto sub = calls.submit(s, get_me(), t0);
    ASSERT_TRUE(sub);
    auto step = calls.on_response(s, sub->id, invalid_token_401(), t0);
    ASSERT_TRUE(step);
    EXPECT_TRUE(step->send.empty()) << "the request waits for the refresh";
    const TokenRequestId rid = refresh_id(*step);
    auto after = calls.handle(s, ev::TokenResponse{rid, make_token_response("at-2", "rt-2", 1800, kScopes), t0});
    ASSERT_TRUE(after);
    ASSERT_EQ(after->send.size(), 1u);
    EXPECT_TRUE(after->send[0].is_retry);
    EXPECT_EQ(after->send[0].request.headers.get("Authorization"), "Bearer at-2") << "retried with the new token";
    auto again = calls.on_response(s, sub->id, invalid_token_401(), t0);
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->session_effects.empty()) << "no second refresh";
    EXPECT_TRUE(again->send.empty()) << "no second retry";
    ASSERT_EQ(again->failed.size(), 1u);
    EXPECT_EQ(again->failed[0].reason, RequestFailure::unauthorized_after_retry);
    EXPECT_EQ(calls.pending(), 0u);
}

// spec 5.1.4 / 7.3: a 401 without the Bearer invalid_token challenge is not a
// reason to refresh: it goes back to the caller.
TEST(ApiCalls, Other401IsNotRefreshed) {
    Session s = signed_in_session();
    ApiCalls calls;
    auto sub = calls.submit(s, get_me(), t0);
    ASSERT_TRUE(sub);
    auto step = calls.on_response(s, sub->id, HttpResponse{401, {}, R"({"errors":["Invalid API token"]})"}, t0);
    ASSERT_TRUE(step);
    EXPECT_TRUE(step->session_effects.empty());
    ASSERT_EQ(step->completed.size(), 1u);
    EXPECT_EQ(s.state(), SessionState::signed_in);
}

TEST(ApiCalls, SubmitWhileSignedOutFails) {
    Session s(SessionConfig{});
    ApiCalls calls;
    auto sub = calls.submit(s, get_me(), t0);
    ASSERT_TRUE(sub);
    ASSERT_EQ(sub->step.failed.size(), 1u);
    EXPECT_EQ(sub->step.failed[0].reason, RequestFailure::not_signed_in);
    EXPECT_TRUE(sub->step.send.empty());
    EXPECT_EQ(calls.pending(), 0u);
}

TEST(ApiCalls, UnknownRequestIdIsAnError) {
    Session s = signed_in_session();
    ApiCalls calls;
    auto step = calls.on_response(s, 42, HttpResponse{200, {}, ""}, t0);
    ASSERT_FALSE(step);
    EXPECT_EQ(step.error().kind, SessionErrorKind::unknown_request);
}

}  // namespace
}  // namespace api_calls_test
}  // namespace roomkey
