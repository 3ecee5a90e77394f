// app_instruments_test.cpp: the developer's instruments through the App as
// the page API drives them: "Copy as ..." of a log entry and of the console's
// call (the service's address and header names, masked), and the console's
// "Send anyway" (checked first, then sent as it is, marked in the log).
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

Intent action(std::string_view text) {
    auto parsed = parse_action(text);
    EXPECT_TRUE(parsed) << parsed.error();
    return parsed ? *parsed : Intent{intent::ClearLog{}};
}

const LogEntry* entry_for(const App& app, std::string_view url) {
    for (const LogEntry& entry : app.log().entries()) {
        if (entry.request.url == url) return &entry;
    }
    return nullptr;
}

TEST(AppInstruments, CopyAsTheServiceFromAnEntryIsMaskedAndNamesTheServicesHeader) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    const LogEntry* me = entry_for(*h.app, "/api/me");
    ASSERT_NE(me, nullptr);
    for (const char* format : {"curl_service", "fetch", "python"}) {
        h.apply(action(R"({"type":"copy_as","entry":)" + std::to_string(me->id) + R"(,"format":")" + format + "\"}"));
        ASSERT_FALSE(h.copied.empty()) << format << ": " << h.app->notice();
        const std::string& text = h.copied.back();
        EXPECT_TRUE(contains(text, "https://api.example.test/v2/me")) << text;
        EXPECT_TRUE(contains(text, "x-servicetoken")) << text;
        EXPECT_FALSE(contains(text, AppHarness::kApiToken)) << "masked: the page API never reveals";
        EXPECT_FALSE(contains(text, "X-Roomkey-Request")) << text;
    }
    h.apply(action(R"({"type":"copy_as","entry":)" + std::to_string(me->id) + R"(,"format":"curl_helper"})"));
    EXPECT_EQ(h.copied.back().rfind("curl -X GET 'https://127.0.0.1:8443/api/me'", 0), 0u) << h.copied.back();
}

TEST(AppInstruments, CopyAsOfTheConsolesCallAndClearErrors) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    const std::size_t before = h.copied.size();
    h.apply(action(R"({"type":"copy_as","format":"python"})"));
    EXPECT_EQ(h.copied.size(), before) << "no console call yet";
    EXPECT_TRUE(contains(h.app->notice(), "no call yet")) << h.app->notice();
    h.apply(action(R"({"type":"api_call","method":"GET","path":"/rooms/{room_id}/messages","params":{"room_id":"7","force":"1"}})"));
    h.apply(action(R"({"type":"copy_as","format":"python"})"));
    ASSERT_EQ(h.copied.size(), before + 1);
    EXPECT_TRUE(contains(h.copied.back(), "\"https://api.example.test/v2/rooms/7/messages?force=1\"")) << h.copied.back();
    EXPECT_FALSE(contains(h.copied.back(), AppHarness::kApiToken));

    std::vector<std::string> errors;
    (void)parse_actions(R"([{"type":"copy_as","format":"wget"},{"type":"copy_as","entry":-1,"format":"fetch"}])", errors);
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_TRUE(contains(errors[0], "curl_service, curl_helper, fetch, python")) << errors[0];
}

TEST(AppInstruments, SendAnywayChecksFirstThenSendsAsItIsAndTheLogSaysSo) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(action(R"({"type":"api_call","method":"POST","path":"/rooms/{room_id}/messages","params":{"room_id":"7"}})"));
    EXPECT_EQ(h.sent_to("/api/rooms/7/messages").size(), 0u) << "the console's own check stops it";
    h.apply(action(
        R"({"type":"api_call","method":"POST","path":"/rooms/{room_id}/messages","params":{"room_id":"7"},"anyway":true})"));
    const auto posts = h.sent_to("/api/rooms/7/messages");
    ASSERT_EQ(posts.size(), 1u) << "sent anyway";
    EXPECT_EQ(posts[0].body, "") << "as it is: no body parameter";
    const auto& last = h.app->api_console().console().last();
    ASSERT_TRUE(last) << "the console keeps no last call";
    EXPECT_TRUE(last->anyway);
    EXPECT_TRUE(contains(last->check, "body is required")) << last->check;
    const LogEntry* entry = entry_for(*h.app, "/api/rooms/7/messages");
    ASSERT_NE(entry, nullptr);
    EXPECT_TRUE(contains(entry->purpose, "sent anyway against its own check")) << entry->purpose;
    const auto state = nlohmann::json::parse(console_json(h.app->api_console().console()));
    EXPECT_EQ(state["last"]["anyway"], true);

    // Not an endpoint of the catalog: nothing to send, anyway or not.
    h.apply(action(R"({"type":"api_call","method":"GET","path":"/nowhere","anyway":true})"));
    EXPECT_FALSE(h.app->api_console().console().last()->anyway);
    EXPECT_EQ(h.sent_to("/api/nowhere").size(), 0u);
}

TEST(AppInstruments, TheLogFilterByMethodStatusClassAndPathText) {
    HttpLog log;
    HttpRequest me;
    me.url = "/api/me";
    log.begin(1, "", me, t0);
    log.complete(1, HttpResponse{200, {}, ""}, t0);
    HttpRequest post;
    post.method = Method::Post;
    post.url = "/api/rooms/7/Messages";
    log.begin(2, "", post, t0);
    log.complete(2, HttpResponse{400, {}, ""}, t0);
    log.begin(3, "", me, t0);  // pending
    const auto shown = [&](const LogFilter& f) {
        std::vector<std::uint64_t> ids;
        for (const LogEntry& e : log.entries()) {
            if (matches(e, f)) ids.push_back(e.id);
        }
        return ids;
    };
    EXPECT_EQ(shown({}), (std::vector<std::uint64_t>{1, 2, 3}));
    EXPECT_EQ(shown({"", "POST", ""}), (std::vector<std::uint64_t>{2}));
    EXPECT_EQ(shown({"", "", "4xx"}), (std::vector<std::uint64_t>{2}));
    EXPECT_EQ(shown({"", "", "none"}), (std::vector<std::uint64_t>{3}));
    EXPECT_EQ(shown({"messages", "", ""}), (std::vector<std::uint64_t>{2})) << "any case";
    EXPECT_EQ(shown({"/me", "GET", "2xx"}), (std::vector<std::uint64_t>{1}));
    EXPECT_NE(log_filter_problem({"", "PATCH", ""}), "");
    EXPECT_NE(log_filter_problem({"", "", "404"}), "");

    AppHarness h;
    h.start();
    h.apply(action(R"({"type":"set_log_filter","text":"rooms","method":"GET","status":"2xx"})"));
    auto state = nlohmann::json::parse(page_state_json(*h.app, h.now));
    EXPECT_EQ(state["log_filter"], nlohmann::json::parse(R"({"text":"rooms","method":"GET","status":"2xx"})"));
    EXPECT_TRUE(state["last_export"].is_null());
    h.apply(action(R"({"type":"set_log_filter","status":"teapot"})"));
    EXPECT_TRUE(contains(h.app->notice(), "2xx, 3xx, 4xx, 5xx")) << h.app->notice();
    state = nlohmann::json::parse(page_state_json(*h.app, h.now));
    EXPECT_EQ(state["log_filter"]["text"], "rooms") << "a refused filter changes nothing";
    h.apply(action(R"({"type":"export_har"})"));
    state = nlohmann::json::parse(page_state_json(*h.app, h.now));
    ASSERT_TRUE(state["last_export"].is_object());
    EXPECT_GT(state["last_export"]["bytes"].get<long>(), 100);
}

// The console shows the rate-limit reset in the user's zone: the instant, beside the raw header.
TEST(AppInstruments, TheConsoleKeepsTheResetAsAnInstantBesideTheRawHeaders) {
    Console console;
    (void)console.prepare(Method::Get, "/me", {}, std::nullopt, false);
    HttpResponse answer{200, {}, "{}"};
    write_rate_limit(answer.headers, RateLimit{300, 287, instant_from_unix_seconds(1795758060)});
    console.on_answer(answer);
    ASSERT_TRUE(console.last()->rate_reset);
    EXPECT_EQ(unix_seconds(*console.last()->rate_reset), 1795758060);
    EXPECT_TRUE(contains(console.last()->rate, "reset 1795758060")) << "the raw value stays";
}

}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
