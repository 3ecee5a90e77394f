// har_test.cpp: the HTTP log as HAR 1.2 (web/app/har.hpp): every required
// field of the HAR 1.2 schema with its type, every entry (flow steps, pending
// and failed ones with comments), timings, and no secret unless revealed.
#include "app/har.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "app/trace.hpp"

namespace roomkey::app {
namespace har_test {
namespace {

using json = nlohmann::json;
enum class T { string, number, object, array };

// The HAR 1.2 schema's required members (softwareishard.com/blog/har-12-spec),
// by object, with their JSON types.
struct Required {
    const char* name;
    T type;
};
const std::vector<Required> kLog = {{"version", T::string}, {"creator", T::object}, {"entries", T::array}};
const std::vector<Required> kCreator = {{"name", T::string}, {"version", T::string}};
const std::vector<Required> kEntry = {{"startedDateTime", T::string}, {"time", T::number}, {"request", T::object},
                                      {"response", T::object},        {"cache", T::object}, {"timings", T::object}};
const std::vector<Required> kRequest = {{"method", T::string},      {"url", T::string},        {"httpVersion", T::string},
                                        {"cookies", T::array},      {"headers", T::array},     {"queryString", T::array},
                                        {"headersSize", T::number}, {"bodySize", T::number}};
const std::vector<Required> kResponse = {{"status", T::number},     {"statusText", T::string}, {"httpVersion", T::string},
                                         {"cookies", T::array},     {"headers", T::array},     {"content", T::object},
                                         {"redirectURL", T::string}, {"headersSize", T::number}, {"bodySize", T::number}};
const std::vector<Required> kContent = {{"size", T::number}, {"mimeType", T::string}};
const std::vector<Required> kTimings = {{"send", T::number}, {"wait", T::number}, {"receive", T::number}};
const std::vector<Required> kPostData = {{"mimeType", T::string}, {"text", T::string}};
const std::vector<Required> kPair = {{"name", T::string}, {"value", T::string}};

::testing::AssertionResult has(const json& object, const std::vector<Required>& required, const std::string& where) {
    if (!object.is_object()) return ::testing::AssertionFailure() << where << " is not an object";
    for (const Required& r : required) {
        if (!object.contains(r.name)) return ::testing::AssertionFailure() << where << " lacks " << r.name;
        const json& v = object[r.name];
        const bool ok = r.type == T::string ? v.is_string() : r.type == T::number ? v.is_number()
                        : r.type == T::object ? v.is_object() : v.is_array();
        if (!ok) return ::testing::AssertionFailure() << where << "." << r.name << " has the wrong type: " << v.dump();
    }
    return ::testing::AssertionSuccess();
}

void valid_har(const json& har, std::size_t entries) {
    ASSERT_TRUE(har.is_object() && har.contains("log"));
    const json& log = har["log"];
    ASSERT_TRUE(has(log, kLog, "log"));
    EXPECT_EQ(log["version"], "1.2");
    EXPECT_TRUE(has(log["creator"], kCreator, "creator"));
    ASSERT_EQ(log["entries"].size(), entries);
    for (const json& e : log["entries"]) {
        ASSERT_TRUE(has(e, kEntry, "entry"));
        EXPECT_TRUE(has(e["request"], kRequest, "request"));
        EXPECT_TRUE(has(e["response"], kResponse, "response"));
        EXPECT_TRUE(has(e["response"]["content"], kContent, "content"));
        EXPECT_TRUE(has(e["timings"], kTimings, "timings"));
        for (const char* list : {"headers", "queryString", "cookies"}) {
            for (const json& pair : e["request"][list]) EXPECT_TRUE(has(pair, kPair, list));
        }
        if (e["request"].contains("postData")) {
            EXPECT_TRUE(has(e["request"]["postData"], kPostData, "postData"));
        }
        // ISO 8601 with milliseconds and a zone, as DevTools reads it.
        EXPECT_EQ(e["startedDateTime"].get<std::string>().size(), 24u) << e["startedDateTime"];
        EXPECT_GE(e["time"].get<double>(), 0);
        EXPECT_GE(e["timings"]["wait"].get<double>(), 0);
        EXPECT_EQ(e["request"]["url"].get<std::string>().rfind("https://", 0), 0u) << "absolute URLs only";
    }
}

const Instant t0 = instant_from_unix_ms(1'795'758'060'123);

HttpLog sample_log() {
    HttpLog log;
    HttpRequest step;
    step.url = "https://auth.example/consent?client_id=roomkey-web&code_challenge=abc";
    log.add_step(1, "the consent screen", step, "the browser went to the consent screen", t0,
                 {{"code_challenge", "abc", "S256 of the code_verifier"}});
    HttpRequest token;
    token.method = Method::Post;
    token.url = "/oauth/token";
    token.headers.set("content-type", "application/x-www-form-urlencoded");
    token.body = "grant_type=authorization_code&code=CODE-SECRET-1&code_verifier=VERIFIER-SECRET-2";
    log.begin(2, "code exchange", token, t0 + Millis(5));
    log.complete(2, HttpResponse{200, {{"content-type", "application/json"}},
                                 R"({"access_token":"AT-SECRET-3","refresh_token":"RT-SECRET-4","token_type":"Bearer"})"},
                 t0 + Millis(47));
    HttpRequest post;
    post.method = Method::Post;
    post.url = "/api/rooms/2100/messages?x=1";
    post.headers.set("authorization", "Bearer AT-SECRET-3");
    post.headers.set("content-type", "application/x-www-form-urlencoded");
    post.body = "body=%E3%81%93";
    log.begin(3, "post", post, t0 + Millis(60));
    log.complete(3, HttpResponse{200, {{"content-type", "application/json"}}, R"({"message_id":"5"})"}, t0 + Millis(90));
    HttpRequest me;
    me.url = "/api/me";
    me.headers.set("x-servicetoken", "API-SECRET-5");
    log.begin(4, "GET /me", me, t0 + Millis(100));
    log.fail(4, "timed out", t0 + Millis(200));
    log.begin(5, "GET /rooms", me, t0 + Millis(300));
    return log;
}

RedactionRules rules() {
    RedactionRules r;
    r.known_secrets = {"AT-SECRET-3", "RT-SECRET-4"};
    return r;
}

TEST(Har, EveryEntryWithEveryRequiredFieldAndNoSecretWhenMasked) {
    const HttpLog log = sample_log();
    const std::string text = write_har(log.entries(), rules(), false, "https://127.0.0.1:8443");
    const json har = json::parse(text, nullptr, false);
    ASSERT_FALSE(har.is_discarded()) << text;
    valid_har(har, 5);
    EXPECT_EQ(text.find("SECRET"), std::string::npos) << text;
    const json& e = har["log"]["entries"];
    EXPECT_EQ(e[0]["startedDateTime"], "2026-11-27T05:41:00.123Z");
    EXPECT_NE(e[0]["comment"].get<std::string>().find("flow step"), std::string::npos) << e[0]["comment"];
    EXPECT_NE(e[0]["comment"].get<std::string>().find("S256 of the code_verifier"), std::string::npos);
    EXPECT_EQ(e[1]["request"]["url"], "https://127.0.0.1:8443/oauth/token");
    EXPECT_EQ(e[1]["time"], 42);
    EXPECT_EQ(e[1]["timings"]["wait"], 42);
    EXPECT_EQ(e[1]["response"]["status"], 200);
    EXPECT_EQ(e[1]["request"]["postData"]["params"][0]["value"], "authorization_code");
    EXPECT_EQ(e[2]["request"]["queryString"], json::parse(R"([{"name":"x","value":"1"}])"));
    EXPECT_EQ(e[2]["request"]["postData"]["params"][0]["value"], "こ") << "form fields decoded";
    EXPECT_NE(e[3]["comment"].get<std::string>().find("no response: timed out"), std::string::npos);
    EXPECT_EQ(e[3]["response"]["status"], 0);
    EXPECT_NE(e[4]["comment"].get<std::string>().find("pending"), std::string::npos);
}

TEST(Har, RevealedKeepsTheBytesSent) {
    const HttpLog log = sample_log();
    const std::string text = write_har(log.entries(), rules(), true, "https://127.0.0.1:8443");
    const json har = json::parse(text, nullptr, false);
    valid_har(har, 5);
    for (const char* secret : {"CODE-SECRET-1", "VERIFIER-SECRET-2", "AT-SECRET-3", "API-SECRET-5"}) {
        EXPECT_NE(text.find(secret), std::string::npos) << secret;
    }
    EXPECT_EQ(har["log"]["entries"][1]["request"]["postData"]["text"],
              "grant_type=authorization_code&code=CODE-SECRET-1&code_verifier=VERIFIER-SECRET-2");
}

TEST(Har, TheTraceExportsAFileNamedByTheTimeAndRemembersIt) {
    Trace trace;
    trace.log() = sample_log();
    trace.set_reveal(true);
    const auto file = trace.export_har(false, "https://127.0.0.1:8443", rules(), t0);
    EXPECT_EQ(file.name, "roomkey-2026-11-27T05-41-00Z.har");
    EXPECT_EQ(file.text.find("SECRET"), std::string::npos) << "the page API's export is masked even when revealed";
    ASSERT_TRUE(trace.last_export());
    EXPECT_EQ(trace.last_export()->name, file.name);
    EXPECT_EQ(trace.last_export()->bytes, file.text.size());
}

}  // namespace
}  // namespace har_test
}  // namespace roomkey::app
