// What a user relies on in the HTTP log's disclosure (web/app/trace.hpp): a
// secret the session saw never leaves masked unless the user revealed it
// and the copy may show it; signing out forgets the secrets, turns the
// reveal off and says whether the clipboard holds a copy; a copy "as the
// service" names the service, not the helper, and only for API calls.
#include "app/trace.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together.
namespace app_trace_test {
namespace {

constexpr std::string_view kOrigin = "https://127.0.0.1:8443";
constexpr std::string_view kToken = "at-7f3c9e21b0d84a6f";

HttpRequest sent(std::string url, std::string_view header, std::string value) {
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::move(url);
    request.headers.set(std::string(header), std::move(value));
    return request;
}

bool holds(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

// One logged API call sent with the session's bearer token, which the session saw.
Trace logged_call() {
    Trace trace;
    trace.add_secret(std::string(kToken));
    trace.log().begin(1, "GET /me", sent("/api/me", "authorization", "Bearer " + std::string(kToken)), Instant{});
    return trace;
}

TEST(Trace, ACopyShowsTheTokenOnlyWhenRevealedAndTheCopyMayShowIt) {
    Trace trace = logged_call();
    const RedactionRules rules = trace.redaction("x-servicetoken");

    auto copy = trace.copy_curl(1, true, kOrigin, rules);
    ASSERT_TRUE(copy.has_value()) << "entry 1 is in the log";
    EXPECT_FALSE(holds(copy->text, kToken)) << "not revealed: " << copy->text;
    EXPECT_TRUE(holds(copy->text, std::string(kOrigin) + "/api/me")) << "a relative URL made absolute: " << copy->text;

    trace.set_reveal(true);
    copy = trace.copy_curl(1, false, kOrigin, rules);
    ASSERT_TRUE(copy.has_value());
    EXPECT_FALSE(holds(copy->text, kToken)) << "revealed, but this copy may not show it: " << copy->text;
    EXPECT_NE(copy->notice.text(), trace.copy_curl(1, true, kOrigin, rules)->notice.text())
        << "the notice says whether the secrets went with the copy";

    copy = trace.copy_curl(1, true, kOrigin, rules);
    ASSERT_TRUE(copy.has_value());
    EXPECT_TRUE(holds(copy->text, kToken)) << "revealed and allowed: " << copy->text;
}

TEST(Trace, SigningOutForgetsTheSecretsAndTheRevealAndSaysTheClipboardHoldsACopy) {
    Trace trace = logged_call();
    const RedactionRules rules = trace.redaction("x-servicetoken");
    EXPECT_FALSE(Trace(trace).forget_session(rules)) << "nothing was copied yet";

    trace.set_reveal(true);
    ASSERT_TRUE(trace.copy_curl(1, true, kOrigin, rules).has_value());
    EXPECT_TRUE(trace.forget_session(rules)) << "the copy is on the clipboard: it is to be overwritten";
    EXPECT_FALSE(trace.reveal()) << "the reveal switch belongs to the session";
    EXPECT_TRUE(trace.redaction("x-servicetoken").known_secrets.empty());

    const LogEntry* entry = trace.log().find(1);
    ASSERT_NE(entry, nullptr) << "the log keeps its entries";
    const auto header = entry->request.headers.get("authorization");
    ASSERT_TRUE(header.has_value());
    EXPECT_FALSE(holds(*header, kToken)) << "rewritten masked: " << *header;
    EXPECT_FALSE(trace.forget_session(rules)) << "told once";
}

TEST(Trace, AnEntryNoLongerLoggedCopiesNothing) {
    Trace trace = logged_call();
    const RedactionRules rules = trace.redaction("x-servicetoken");
    EXPECT_FALSE(trace.copy_curl(99, true, kOrigin, rules).has_value());
    SnippetTarget target;
    target.origin = std::string(kOrigin);
    EXPECT_FALSE(trace.copy_as(99, {}, SnippetFormat::fetch, true, target, rules))
        << "an error saying why, not a copy";
    EXPECT_FALSE(trace.forget_session(rules)) << "nothing went to the clipboard";
}

TEST(Trace, ARefusedClipboardClearIsToldUntilTheNextCopy) {
    Trace trace = logged_call();
    EXPECT_TRUE(trace.clipboard_notice().empty());
    trace.clipboard_cleared(false);
    EXPECT_FALSE(trace.clipboard_notice().empty()) << "the clear waits for a click or key press: the user is told";
    ASSERT_TRUE(trace.copy_curl(1, true, kOrigin, trace.redaction("x-servicetoken")).has_value());
    EXPECT_TRUE(trace.clipboard_notice().empty()) << "a new copy is the user's: no clear waits for it";
    trace.clipboard_cleared(false);
    trace.clipboard_cleared(true);
    EXPECT_TRUE(trace.clipboard_notice().empty());
}

TEST(Trace, ACopyAsTheServiceNamesTheServiceAndItsTokenHeaderForApiCallsOnly) {
    Trace trace;
    trace.add_secret(std::string(kToken));
    trace.log().begin(1, "GET /rooms", sent("/api/rooms", "x-servicetoken", std::string(kToken)), Instant{});
    HttpRequest token_call = sent("/oauth/token", "content-type", "application/x-www-form-urlencoded");
    token_call.method = Method::Post;
    token_call.body = "grant_type=refresh_token&refresh_token=rt-1";
    trace.log().begin(2, "token refresh", token_call, Instant{});
    SnippetTarget target;
    target.origin = std::string(kOrigin);
    target.api_base = "/api";
    target.service.base_url = "https://api.example.test/v2";
    target.service.token_header = "x-servicetoken";
    const RedactionRules rules = trace.redaction("x-servicetoken");

    auto copy = trace.copy_as(1, {}, SnippetFormat::curl_service, true, target, rules);
    ASSERT_TRUE(copy) << copy.error().text();
    EXPECT_TRUE(holds(copy->text, "https://api.example.test/v2/rooms")) << copy->text;
    EXPECT_FALSE(holds(copy->text, "/api/rooms")) << "not the helper's proxy: " << copy->text;
    EXPECT_TRUE(holds(copy->text, "x-servicetoken")) << copy->text;
    EXPECT_FALSE(holds(copy->text, kToken)) << "masked: " << copy->text;

    EXPECT_FALSE(trace.copy_as(2, {}, SnippetFormat::curl_service, true, target, rules))
        << "the token endpoint is the helper's: only curl via the helper copies it";
    EXPECT_TRUE(trace.copy_as(2, {}, SnippetFormat::curl_helper, true, target, rules));

    target.service.base_url.clear();
    EXPECT_FALSE(trace.copy_as(1, {}, SnippetFormat::python, true, target, rules))
        << "the helper did not say the service's address";
}

}  // namespace
}  // namespace app_trace_test
}  // namespace roomkey::app
