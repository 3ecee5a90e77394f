// sandbox_controls_test.cpp: roomkey-sandbox's test controls: off
// unless enabled, guarded by a header, moving the clock and injecting faults
// (5xx, 429, invalid_token, malformed JSON, delay, an answer dropped after
// the request was acted on) on the next N requests.
#include <chrono>

#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxControls : public SandboxTest {};

TEST_F(SandboxControls, OffUnlessEnabled) {
    SandboxOptions o = test_options();
    o.test_controls = false;
    start(o);
    auto res = client()->Post("/_sandbox/clock/advance?seconds=60", httplib::Headers{{"X-Roomkey-Sandbox-Control", "1"}},
                              "", "text/plain");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 404);
}

// A custom header a cross-site form cannot send guards the controls.
TEST_F(SandboxControls, NeedTheControlHeader) {
    auto res = client()->Post("/_sandbox/clock/advance?seconds=60", "", "text/plain");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 403);
}

TEST_F(SandboxControls, ClockAdvanceMovesSandboxTime) {
    const auto before = unix_seconds(sandbox().clock().now());
    advance_clock(3600);
    const auto after = unix_seconds(sandbox().clock().now());
    EXPECT_GE(after - before, 3600);
    EXPECT_LT(after - before, 3660);
    auto scale = client()->Post("/_sandbox/clock/scale?factor=0", httplib::Headers{{"X-Roomkey-Sandbox-Control", "1"}},
                                "", "text/plain");
    ASSERT_TRUE(scale) << why_no_answer(scale);
    EXPECT_EQ(scale->status, 200);
    EXPECT_EQ(sandbox().clock().scale(), 0.0);
}

TEST_F(SandboxControls, StatusFaultHitsTheNextNRequests) {
    inject_fault(R"({"kind":"status5xx","count":2,"status":502})");
    EXPECT_EQ(api_get("/me")->status, 502);
    EXPECT_EQ(api_get("/me")->status, 502);
    EXPECT_EQ(api_get("/me")->status, 200) << "only the next 2 requests fail";
}

TEST_F(SandboxControls, RateLimitFaultIs429WithRemainingZero) {
    inject_fault(R"({"kind":"429"})");
    auto res = api_get("/me");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 429);
    EXPECT_EQ(res->get_header_value("x-ratelimit-remaining"), "0");
}

TEST_F(SandboxControls, InvalidTokenFaultIs401Challenge) {
    inject_fault(R"({"kind":"invalid_token"})");
    auto res = api_get("/me");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 401);
    EXPECT_NE(res->get_header_value("WWW-Authenticate").find("invalid_token"), std::string::npos);
}

TEST_F(SandboxControls, MalformedJsonFault) {
    inject_fault(R"({"kind":"malformed_json"})");
    auto res = api_get("/my/status");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_TRUE(nlohmann::json::parse(res->body, nullptr, false).is_discarded());
}

TEST_F(SandboxControls, DelayFault) {
    inject_fault(R"({"kind":"delay","delay_ms":300})");
    const auto start_time = std::chrono::steady_clock::now();
    auto res = api_get("/me");
    const auto elapsed = std::chrono::steady_clock::now() - start_time;
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_GE(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 300);
}

// The "sent, no answer" case (outcome unknown: never resent blindly): the post is stored, the caller
// gets a cut-off answer and cannot know it.
TEST_F(SandboxControls, DropAnswerFaultActsThenCutsTheConnection) {
    inject_fault(R"({"kind":"drop_answer"})");
    const std::string body = "dropped answer, stored message";
    auto res = post_form("/v2/rooms/2100/messages", {{"body", body}}, {{"x-servicetoken", std::string(kAliceToken)}});
    EXPECT_FALSE(res) << "no complete answer may arrive; got HTTP " << (res ? res->status : 0);
    auto list = api_get("/rooms/2100/messages?force=1");
    ASSERT_TRUE(list) << why_no_answer(list);
    ASSERT_EQ(list->status, 200);
    EXPECT_NE(list->body.find(body), std::string::npos) << "the request was acted on before the answer was cut";
    EXPECT_EQ(api_get("/me")->status, 200) << "only one request is hit";
}

TEST_F(SandboxControls, TokenEndpointFaultsAreTargeted) {
    inject_fault(R"({"kind":"status5xx","target":"token"})");
    EXPECT_EQ(api_get("/me")->status, 200) << "an API call does not take a token fault";
    auto res = post_form("/oauth/token", {{"grant_type", "refresh_token"}, {"refresh_token", "x"}, {"client_id", "roomkey-web"}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 503);
    EXPECT_EQ(res->get_header_value("Cache-Control"), "no-store");
}

// A test aims a fault at the request it means: the app's own reads (a
// poll, a room's reads as it opens) pass untouched and leave it queued.
TEST_F(SandboxControls, AnAimedFaultWaitsForItsMethodAndPath) {
    inject_fault(R"({"kind":"status5xx","status":500,"method":"POST","path":"/v2/rooms/2100/messages"})");
    EXPECT_EQ(api_get("/me")->status, 200) << "another path passes";
    EXPECT_EQ(api_get("/rooms/2100/messages?force=1")->status, 200) << "the same path with another method passes";
    auto post = post_form("/v2/rooms/2100/messages", {{"body", "aimed"}}, {{"x-servicetoken", std::string(kAliceToken)}});
    ASSERT_TRUE(post) << why_no_answer(post);
    EXPECT_EQ(post->status, 500) << "the aimed request takes it";
    auto again = post_form("/v2/rooms/2100/messages", {{"body", "aimed"}}, {{"x-servicetoken", std::string(kAliceToken)}});
    ASSERT_TRUE(again) << why_no_answer(again);
    EXPECT_EQ(again->status, 200) << "once";
}

TEST_F(SandboxControls, BadFaultRequestsAreRefused) {
    for (const char* body : {"{}", R"({"kind":"meteor"})", R"({"kind":"delay","delay_ms":999999})", "nope",
                             R"({"kind":"status5xx","status":404})", R"({"kind":"delay","method":"PATCH"})",
                             R"({"kind":"delay","path":"v2/me"})", R"({"kind":"delay","path":"/v2/me?x=1"})"}) {
        auto res = client()->Post("/_sandbox/faults", httplib::Headers{{"X-Roomkey-Sandbox-Control", "1"}}, body,
                                  "application/json");
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_EQ(res->status, 400) << body;
    }
}

}  // namespace
}  // namespace roomkey::sandbox::testing
