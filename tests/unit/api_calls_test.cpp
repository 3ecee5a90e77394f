// Tests of the REST client's calls (shared/rest_client.hpp, what the browser
// app ships): the bearer token on every REST request (spec 5.2.1), one
// refresh + one retry on 401 invalid_token (spec 5.2.2), other 401s (spec
// 5.1.4) left to the caller, the code's one minute (spec 2.2), the other
// credential holders, and each room's posts one at a time.
#include "roomkey/rest_client.hpp"

#include "roomkey/errors.hpp"
#include "roomkey/token.hpp"
#include "roomkey/www_authenticate.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches put test files together, and
// several define helpers of the same names (t0, ...).
namespace api_calls_test {
namespace {

namespace fx = session_effect;

const Instant t0 = instant_from_unix_seconds(1'700'000'000);
const ScopeSet kScopes{"users.profile.me:read"};

SessionConfig session_config() {
    SessionConfig c;
    c.token_url = "https://auth.example.test/token";
    c.credentials = PublicClient{"client-1"};
    return c;
}

ValidatedCallback valid_callback() {
    std::optional<PendingAuthorization> pending =
        PendingAuthorization{"st", std::string(43, 'v'), "", "client-1", kScopes, t0};
    auto cb = validate_callback("https://app.example.test/callback?code=c&state=st", pending);
    EXPECT_TRUE(cb) << "the callback should validate";
    return std::move(cb).value();
}

RestClient signed_in_client() {
    RestClient client(session_config());
    client.sign_in(session_config(), "https://consent.example.test/", "record");
    RestStep sent = client.callback(session_config(), valid_callback(), t0, t0);
    EXPECT_EQ(sent.session_effects.size(), 1u) << "one code exchange";
    const auto* exchange =
        sent.session_effects.empty() ? nullptr : std::get_if<fx::SendCodeExchange>(&sent.session_effects[0]);
    EXPECT_NE(exchange, nullptr) << "the effect should be the code exchange";
    if (exchange) {
        RestStep in = client.token_answer(exchange->id, make_token_response("at-1", "rt-1", 1800, kScopes), "", t0);
        EXPECT_EQ(in.lifecycle.size(), 1u) << "signed in";
    }
    return client;
}

// Submits and lets the pacer send what may go now: one step of both.
RestStep submit(RestClient& client, RequestTag tag, HttpRequest request, RestOptions options = {}) {
    RestStep step = client.submit(tag, std::move(request), std::move(options));
    RestStep sent = client.pump(t0);
    for (auto& s : sent.send) step.send.push_back(std::move(s));
    for (auto& f : sent.failed) step.failed.push_back(std::move(f));
    for (auto& e : sent.session_effects) step.session_effects.push_back(std::move(e));
    return step;
}

HttpRequest get_me() {
    return HttpRequest{Method::Get, "https://api.example.test/v2/me", {}, ""};
}
HttpRequest post_to(const std::string& room) {
    return HttpRequest{Method::Post, "https://api.example.test/v2/rooms/" + room + "/messages", {}, "body=hi"};
}

HttpResponse invalid_token_401() {
    HttpResponse r;
    r.status = 401;
    r.headers.set("WWW-Authenticate", format_bearer_challenge("invalid_token", "The access token expired"));
    return r;
}

TokenRequestId refresh_id(const RestStep& step) {
    for (const auto& e : step.session_effects)
        if (const auto* r = std::get_if<fx::SendRefresh>(&e)) return r->id;
    ADD_FAILURE() << "no refresh requested";
    return 0;
}

// spec 5.2.1 / 4.1.2: every REST request carries Authorization: Bearer <token>,
// never the token in the URL.
TEST(ApiCalls, AttachesTheBearerToken) {
    RestClient client = signed_in_client();
    RestStep sub = submit(client, 1, get_me());
    ASSERT_EQ(sub.send.size(), 1u);
    const HttpRequest& out = sub.send[0].request;
    EXPECT_EQ(out.headers.get("authorization"), "Bearer at-1");
    EXPECT_EQ(out.url.find("at-1"), std::string::npos) << "the token never goes in a URL";
    EXPECT_FALSE(sub.send[0].is_retry);
}

TEST(ApiCalls, OrdinaryAnswerCompletesTheRequest) {
    RestClient client = signed_in_client();
    submit(client, 1, get_me());
    auto step = client.on_response(1, HttpResponse{200, {}, R"({"account_id":1})"}, t0);
    ASSERT_TRUE(step) << describe(step.error());
    ASSERT_EQ(step->completed.size(), 1u);
    EXPECT_EQ(step->completed[0].response.status, 200);
    EXPECT_EQ(client.pending_count(), 0u);
}

// Signing out while a refresh is on its way: its late answer, tokens or an
// error, neither signs the user back in nor is shown to them as a fault.
TEST(ApiCalls, ARefreshAnsweredAfterSignOutChangesNothing) {
    for (const bool tokens : {true, false}) {
        RestClient client = signed_in_client();
        submit(client, 1, get_me());
        auto step = client.on_response(1, invalid_token_401(), t0);
        ASSERT_TRUE(step) << describe(step.error());
        const TokenRequestId rid = refresh_id(*step);
        client.sign_out();
        RestStep late = tokens ? client.token_answer(rid, make_token_response("at-2", "rt-2", 1800, kScopes), "", t0)
                               : client.token_answer(rid, std::nullopt, "connection reset", t0);
        EXPECT_FALSE(late.refused_event) << describe(*late.refused_event);
        EXPECT_TRUE(late.send.empty()) << "nothing is sent for the signed-out user";
        EXPECT_TRUE(late.lifecycle.empty()) << "no sign-in, refresh or end follows";
        EXPECT_EQ(client.session().state(), SessionState::signed_out);
        EXPECT_FALSE(client.session().tokens());
    }
}

// spec 5.2.2: 401 invalid_token -> one refresh -> one retry with the new token;
// a second 401 fails the request.
TEST(ApiCalls, InvalidTokenIsRefreshedAndRetriedOnce) {
    RestClient client = signed_in_client();
    submit(client, 1, get_me());
    auto step = client.on_response(1, invalid_token_401(), t0);
    ASSERT_TRUE(step) << describe(step.error());
    EXPECT_TRUE(step->send.empty()) << "the request waits for the refresh";
    const TokenRequestId rid = refresh_id(*step);
    RestStep after = client.token_answer(rid, make_token_response("at-2", "rt-2", 1800, kScopes), "", t0);
    ASSERT_FALSE(after.refused_event) << describe(*after.refused_event);
    ASSERT_EQ(after.send.size(), 1u);
    EXPECT_TRUE(after.send[0].is_retry);
    EXPECT_EQ(after.send[0].request.headers.get("Authorization"), "Bearer at-2") << "retried with the new token";
    auto again = client.on_response(1, invalid_token_401(), t0);
    ASSERT_TRUE(again) << describe(again.error());
    EXPECT_TRUE(again->session_effects.empty()) << "no second refresh";
    EXPECT_TRUE(again->send.empty()) << "no second retry";
    ASSERT_EQ(again->failed.size(), 1u);
    EXPECT_EQ(again->failed[0].refused, RequestFailure::unauthorized_after_retry);
    EXPECT_EQ(client.pending_count(), 0u);
}

// spec 5.1.4 / 7.3: a 401 without the Bearer invalid_token challenge is not a
// reason to refresh: it goes back to the caller.
TEST(ApiCalls, Other401IsNotRefreshed) {
    RestClient client = signed_in_client();
    submit(client, 1, get_me());
    auto step = client.on_response(1, HttpResponse{401, {}, R"({"errors":["Invalid API token"]})"}, t0);
    ASSERT_TRUE(step) << describe(step.error());
    EXPECT_TRUE(step->session_effects.empty());
    ASSERT_EQ(step->completed.size(), 1u);
    EXPECT_EQ(client.session().state(), SessionState::signed_in);
}

TEST(ApiCalls, SubmitWhileSignedOutFails) {
    RestClient client(SessionConfig{});
    RestStep sub = submit(client, 1, get_me());
    ASSERT_EQ(sub.failed.size(), 1u);
    EXPECT_EQ(sub.failed[0].refused, RequestFailure::not_signed_in);
    EXPECT_TRUE(sub.send.empty());
    EXPECT_EQ(client.pending_count(), 0u);
}

TEST(ApiCalls, UnknownRequestIdIsAnError) {
    RestClient client = signed_in_client();
    auto step = client.on_response(42, HttpResponse{200, {}, ""}, t0);
    ASSERT_FALSE(step) << "an answer to an unknown request id was accepted";
    EXPECT_EQ(step.error().kind, SessionErrorKind::unknown_request);
}

// spec 2.2 / 8.3: a callback read later than the code's one minute (the
// helper's configuration was slow) is not exchanged: it could only fail.
TEST(ApiCalls, CodeOlderThanOneMinuteIsNotExchanged) {
    RestClient client(session_config());
    RestStep step = client.callback(session_config(), valid_callback(), t0, t0 + Seconds(61));
    EXPECT_TRUE(step.session_effects.empty()) << "no code exchange was sent";
    ASSERT_EQ(step.lifecycle.size(), 1u);
    const auto* expired = std::get_if<lifecycle::CodeExpired>(&step.lifecycle[0]);
    ASSERT_NE(expired, nullptr) << "the lifecycle effect should say the code expired";
    EXPECT_EQ(expired->waited, Millis(61000));
    EXPECT_EQ(client.holder(), CredentialHolder::none);
}

// The consent screen is reached only after the pending record is kept.
TEST(ApiCalls, SignInKeepsThePendingRecordBeforeNavigating) {
    RestClient client(session_config());
    RestStep step = client.sign_in(session_config(), "https://consent.example.test/?x=1", "the record");
    ASSERT_TRUE(step.keep_pending) << "the pending record should be kept";
    EXPECT_EQ(*step.keep_pending, "the record");
    ASSERT_EQ(step.session_effects.size(), 1u);
    const auto* go = std::get_if<fx::NavigateToConsent>(&step.session_effects[0]);
    ASSERT_NE(go, nullptr) << "the effect should be the navigation";
    EXPECT_EQ(go->url, "https://consent.example.test/?x=1");
    EXPECT_EQ(client.holder(), CredentialHolder::page_session);
}

// spec 5.1.1: an API token goes in its header; with roomkey-helper holding
// the tokens (BFF) the page's request carries none.
TEST(ApiCalls, ApiTokenAndHelperHoldersAttachTheirOwnCredential) {
    RestClient client(session_config());
    ApiConfig config;
    config.token_header = "x-servicetoken";
    client.set_api_config(config);
    client.use_api_token("tok-1");
    RestStep with_token = submit(client, 1, get_me());
    ASSERT_EQ(with_token.send.size(), 1u);
    EXPECT_EQ(with_token.send[0].request.headers.get("x-servicetoken"), "tok-1");
    EXPECT_FALSE(with_token.send[0].request.headers.has("authorization"));
    client.sign_out();
    client.use_helper();
    RestStep held = submit(client, 2, get_me());
    ASSERT_EQ(held.send.size(), 1u);
    EXPECT_FALSE(held.send[0].request.headers.has("authorization"));
    EXPECT_FALSE(held.send[0].request.headers.has("x-servicetoken"));
}

// A room's posts go one at a time, in order: the next waits until the
// caller releases the one before (whose answer may still be unknown).
TEST(ApiCalls, RoomPostsGoOneAtATimeUntilReleased) {
    RestClient client = signed_in_client();
    RestOptions in_order;
    in_order.room_for_post = "7";
    in_order.in_room_order = true;
    RestStep first = submit(client, 1, post_to("7"), in_order);
    RestStep second = submit(client, 2, post_to("7"), in_order);
    RestStep other_room = submit(client, 3, post_to("8"), [] {
        RestOptions o;
        o.room_for_post = "8";
        o.in_room_order = true;
        return o;
    }());
    ASSERT_EQ(first.send.size(), 1u);
    EXPECT_TRUE(second.send.empty()) << "the room's second post waits for the first";
    EXPECT_EQ(other_room.send.size(), 1u) << "another room does not wait";
    auto answered = client.on_response(1, HttpResponse{500, {}, ""}, t0);
    ASSERT_TRUE(answered) << describe(answered.error());
    ASSERT_EQ(answered->completed.size(), 1u);
    EXPECT_TRUE(client.pump(t0 + Seconds(20)).send.empty()) << "the answered post still holds its room";
    client.release(1);
    RestStep next = client.pump(t0 + Seconds(20));
    ASSERT_EQ(next.send.size(), 1u);
    EXPECT_EQ(next.send[0].tag, 2u);
}

// spec 7.3: a 429 is waited out and the request goes again, as often as
// the caller allows; then the 429 completes it.
TEST(ApiCalls, RateLimitedRequestGoesAgainThenCompletes) {
    RestClient client = signed_in_client();
    submit(client, 1, get_me());
    HttpResponse limited{429, {}, ""};
    auto first = client.on_response(1, limited, t0);
    ASSERT_TRUE(first) << describe(first.error());
    ASSERT_EQ(first->rate_limited.size(), 1u);
    EXPECT_EQ(first->rate_limited[0].count, 1);
    EXPECT_TRUE(first->completed.empty());
    RestStep again = client.pump(t0 + Seconds(60));
    ASSERT_EQ(again.send.size(), 1u);
    auto second = client.on_response(1, limited, t0 + Seconds(60));
    ASSERT_TRUE(second) << describe(second.error());
    ASSERT_EQ(second->completed.size(), 1u) << "one retry by default, then the 429 is the answer";
    EXPECT_EQ(second->completed[0].response.status, 429);
}

// spec 5.4.2: a refresh the service refuses (invalid_grant) ends the session:
// the lifecycle says why, and the request that waited for it fails.
TEST(ApiCalls, RefusedRefreshEndsTheSessionWithItsReason) {
    RestClient client = signed_in_client();
    submit(client, 1, get_me());
    auto step = client.on_response(1, invalid_token_401(), t0);
    ASSERT_TRUE(step) << describe(step.error());
    const TokenRequestId rid = refresh_id(*step);
    RestStep ended =
        client.token_answer(rid, make_token_error_response(TokenError{"invalid_grant", "revoked"}), "", t0);
    ASSERT_EQ(ended.lifecycle.size(), 1u);
    const auto* end = std::get_if<lifecycle::Ended>(&ended.lifecycle[0]);
    ASSERT_NE(end, nullptr) << "the lifecycle effect should be the end of the session";
    EXPECT_EQ(end->end.kind, SessionEndKind::refresh_rejected);
    ASSERT_EQ(ended.failed.size(), 1u) << "the request that waited for the refresh fails";
    EXPECT_EQ(ended.failed[0].tag, 1u);
    EXPECT_TRUE(ended.send.empty());
}

// A refresh gives new tokens: the lifecycle says so, with the granted scope.
TEST(ApiCalls, RefreshIsReportedWithTheNewScope) {
    RestClient client = signed_in_client();
    RestStep asked = client.refresh(t0);
    const TokenRequestId rid = refresh_id(asked);
    RestStep done = client.token_answer(rid, make_token_response("at-2", "rt-2", 1800, kScopes), "", t0);
    ASSERT_EQ(done.lifecycle.size(), 1u);
    const auto* refreshed = std::get_if<lifecycle::Refreshed>(&done.lifecycle[0]);
    ASSERT_NE(refreshed, nullptr) << "the lifecycle effect should be the refresh";
    EXPECT_EQ(refreshed->scope, kScopes);
}

}  // namespace
}  // namespace api_calls_test
}  // namespace roomkey
