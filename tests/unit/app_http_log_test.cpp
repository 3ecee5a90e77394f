// app_http_log_test.cpp: the HTTP log's redaction (tokens, codes, verifiers,
// secrets masked unless revealed) and "copy as curl" (web/app/http_log.hpp).
// ARCHITECTURE invariant: secrets never appear in a log line.
#include "app/http_log.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
// A namespace of its own: unity batches put test files together, and
// several define helpers of the same names (t0, ...).
namespace app_http_log_test {
namespace {

const Instant t0 = instant_from_unix_seconds(1'700'000'000);

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

HttpRequest token_exchange() {
    HttpRequest r;
    r.method = Method::Post;
    r.url = "/oauth/token";
    r.headers.set("Content-Type", "application/x-www-form-urlencoded");
    r.headers.set("X-Roomkey-Request", "1");
    r.body = "grant_type=authorization_code&code=SECRETCODE123&redirect_uri=https%3A%2F%2F127.0.0.1%3A8443%2Fcallback"
             "&code_verifier=VERIFIER0123456789abcdefghijklmnopqrstuvwxyzAB&client_id=roomkey-web";
    return r;
}

HttpResponse token_answer() {
    HttpResponse r;
    r.status = 200;
    r.headers.set("content-type", "application/json");
    r.body = R"({"access_token":"ACCESS-abcdef","refresh_token":"REFRESH-abcdef","token_type":"Bearer",)"
             R"("expires_in":1800,"scope":"users.all:read"})";
    return r;
}

TEST(AppHttpLog, FormSecretsAreMaskedAndOthersKept) {
    const RedactionRules rules;
    const std::string masked = mask_form(token_exchange().body, rules);
    EXPECT_FALSE(contains(masked, "SECRETCODE123"));
    EXPECT_FALSE(contains(masked, "VERIFIER0123"));
    EXPECT_TRUE(contains(masked, "code=" + std::string(kMask)));
    EXPECT_TRUE(contains(masked, "grant_type=authorization_code")) << "non-secret fields stay readable";
    EXPECT_TRUE(contains(masked, "client_id=roomkey-web"));
}

// spec 5.2.1 / 5.1.1: the Bearer token and the API-token header are secrets.
TEST(AppHttpLog, CredentialHeadersKeepOnlyTheScheme) {
    RedactionRules rules;
    rules.api_token_header = "x-servicetoken";
    EXPECT_EQ(mask_header_value("Authorization", "Bearer abc.def", rules), "Bearer " + std::string(kMask));
    EXPECT_EQ(mask_header_value("authorization", "Basic dXNlcjpwYXNz", rules), "Basic " + std::string(kMask));
    EXPECT_EQ(mask_header_value("X-ServiceToken", "tok-123", rules), std::string(kMask));
    EXPECT_EQ(mask_header_value("Content-Type", "application/json", rules), "application/json");
}

TEST(AppHttpLog, JsonTokensAreMaskedAtAnyDepth) {
    const auto masked = pretty_json(R"({"a":{"access_token":"AT-1","list":[{"refresh_token":"RT-1"}]},"n":1})", true);
    ASSERT_TRUE(masked) << "pretty_json refused valid JSON";
    EXPECT_FALSE(contains(*masked, "AT-1"));
    EXPECT_FALSE(contains(*masked, "RT-1"));
    EXPECT_TRUE(contains(*masked, "\"n\": 1"));
    EXPECT_FALSE(pretty_json("not json", true)) << "only JSON is pretty-printed";
}

TEST(AppHttpLog, InvalidUtf8InABodyDoesNotAbort) {
    const auto shown = pretty_json("{\"x\":\"\xff\xfe\"}", true);
    // Either refused by the parser or replaced on output: never an abort.
    if (shown) {
        EXPECT_FALSE(shown->empty());
    }
}

TEST(AppHttpLog, KnownSecretsAreMaskedEverywhereEvenEncoded) {
    RedactionRules rules;
    rules.known_secrets = {"tok/with+chars"};
    EXPECT_EQ(mask_known_secrets("x tok/with+chars y", rules), "x " + std::string(kMask) + " y");
    EXPECT_EQ(mask_known_secrets("a=tok%2Fwith%2Bchars", rules), "a=" + std::string(kMask));
    rules.known_secrets = {"ab"};
    EXPECT_EQ(mask_known_secrets("abc", rules), "abc") << "too short to mask without mangling text";
}

TEST(AppHttpLog, RenderMasksUnlessRevealed) {
    HttpLog log;
    log.begin(1, "code exchange", token_exchange(), t0);
    log.complete(1, token_answer(), t0 + Millis(12));
    const LogEntry* entry = log.find(1);
    ASSERT_NE(entry, nullptr);
    const RenderedExchange masked = render(*entry, RedactionRules{}, false);
    EXPECT_FALSE(contains(masked.request_body, "SECRETCODE123"));
    EXPECT_FALSE(contains(masked.response_body, "ACCESS-abcdef"));
    EXPECT_FALSE(contains(masked.response_body, "REFRESH-abcdef"));
    EXPECT_TRUE(contains(masked.response_body, "Bearer")) << "token_type is not a secret";
    EXPECT_EQ(masked.title, "POST /oauth/token -> 200 (12 ms)  code exchange");
    const RenderedExchange revealed = render(*entry, RedactionRules{}, true);
    EXPECT_TRUE(contains(revealed.request_body, "SECRETCODE123"));
    EXPECT_TRUE(contains(revealed.response_body, "ACCESS-abcdef"));
}

TEST(AppHttpLog, CurlIsMaskedUnlessRevealedAndQuotedForTheShell) {
    HttpRequest r = token_exchange();
    const std::string masked = copy_as_curl(r, "https://127.0.0.1:8443", RedactionRules{}, false);
    EXPECT_EQ(masked.rfind("curl -X POST 'https://127.0.0.1:8443/oauth/token'", 0), 0u) << masked;
    EXPECT_FALSE(contains(masked, "SECRETCODE123"));
    EXPECT_FALSE(contains(masked, "VERIFIER0123"));
    EXPECT_TRUE(contains(masked, "-H 'X-Roomkey-Request: 1'"));
    const std::string revealed = copy_as_curl(r, "https://127.0.0.1:8443", RedactionRules{}, true);
    EXPECT_TRUE(contains(revealed, "code=SECRETCODE123"));

    HttpRequest bearer;
    bearer.url = "/api/me";
    bearer.headers.set("Authorization", "Bearer AT-xyz");
    const std::string get = copy_as_curl(bearer, "https://h", RedactionRules{}, false);
    EXPECT_TRUE(contains(get, "-H 'Authorization: Bearer " + std::string(kMask) + "'")) << get;
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

TEST(AppHttpLog, ForgetSecretsRewritesEntriesForGood) {
    HttpLog log;
    HttpRequest api;
    api.url = "/api/me";
    api.headers.set("Authorization", "Bearer AT-forget-me");
    log.begin(1, "", token_exchange(), t0);
    log.complete(1, token_answer(), t0);
    log.begin(2, "", api, t0);
    RedactionRules rules;
    rules.known_secrets = {"AT-forget-me"};
    log.forget_secrets(rules);
    for (const LogEntry& entry : log.entries()) {
        const RenderedExchange shown = render(entry, RedactionRules{}, /*reveal=*/true);
        for (const auto& [name, value] : shown.request_headers) EXPECT_FALSE(contains(value, "AT-forget-me"));
        EXPECT_FALSE(contains(shown.request_body, "SECRETCODE123"));
        EXPECT_FALSE(contains(shown.response_body, "ACCESS-abcdef"));
    }
}

TEST(AppHttpLog, CapacityBoundsMemory) {
    HttpLog log(3);
    for (std::uint64_t i = 1; i <= 5; ++i) log.begin(i, "", HttpRequest{}, t0);
    ASSERT_EQ(log.entries().size(), 3u);
    EXPECT_EQ(log.entries().front().id, 3u) << "the oldest entries go first";
    EXPECT_EQ(log.find(1), nullptr);
}

TEST(AppHttpLog, TransportFailureIsShown) {
    HttpLog log;
    log.begin(1, "", HttpRequest{}, t0);
    EXPECT_TRUE(contains(entry_title(*log.find(1)), "pending"));
    log.fail(1, "network error", t0 + Millis(3));
    const RenderedExchange shown = render(*log.find(1), RedactionRules{}, false);
    EXPECT_EQ(shown.status_line, "(no response: network error)");
    EXPECT_TRUE(contains(shown.title, "failed"));
}

}  // namespace
}  // namespace app_http_log_test
}  // namespace roomkey::app
