// request_snippets_test.cpp: "Copy as ..." (shared/request_snippets.hpp and
// the app's snippet_of in web/app/trace.hpp): every endpoint of the catalog,
// both credential kinds, in every language; shell words that give back any
// byte; secrets masked unless revealed.
#include "roomkey/request_snippets.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/trace.hpp"
#include "roomkey/api.hpp"
#include "roomkey/endpoint_catalog.hpp"

namespace roomkey {
// A namespace of its own: unity batches compile test files together.
namespace request_snippets_test {
namespace {

// The words a POSIX shell makes of a command built from single-quoted words,
// bare words and backslash-newline continuations (what write_snippet emits).
// A quote left open is an error (nullopt).
std::optional<std::vector<std::string>> shell_words(std::string_view command) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == '\'') {
            const auto close = command.find('\'', i + 1);
            if (close == std::string_view::npos) return std::nullopt;
            word.append(command.substr(i + 1, close - i - 1));
            in_word = true;
            i = close;
        } else if (c == '\\' && i + 1 < command.size()) {
            if (command[i + 1] != '\n') {
                word += command[i + 1];
                in_word = true;
            }
            ++i;
        } else if (c == ' ' || c == '\n') {
            if (in_word) words.push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (in_word) words.push_back(word);
    return words;
}

std::string literal(std::string_view text) { return nlohmann::json(std::string(text)).dump(); }

const std::string kText = "こんにちは 'single' \"double\" $HOME `date` \\ back\nsecond line\ttab 🎉";

std::string sample(const EndpointParam& p) {
    switch (p.type) {
        case ParamType::id: return "2100";
        case ParamType::id_list: return "101,102";
        case ParamType::text: return kText;
        case ParamType::choice: return std::string(p.allowed.substr(0, p.allowed.find('|')));
        case ParamType::unix_time: return "1700000000";
        case ParamType::url_code: return "abc_-1";
        case ParamType::file: return {};
    }
    return {};
}

struct Call {
    HttpRequest request;
    FormFields params;  // the non-path parameters, as given
};

Call call_of(const EndpointInfo& info, const Credentials& credentials) {
    Call call;
    const std::string path = fill_path_template(info.path, [](std::string_view) { return std::string("2100"); });
    for (const EndpointParam& p : info.params) {
        if (p.where != ParamWhere::path && p.type != ParamType::file) call.params.emplace_back(p.name, sample(p));
    }
    ApiConfig service{"https://api.example.com/v2", "x-chatworktoken"};
    auto built = api_request(service, credentials, info.method, path, call.params);
    EXPECT_TRUE(built) << info.path;
    if (built) call.request = *built;
    return call;
}

TEST(RequestSnippets, FormatNamesAreThePageApis) {
    for (SnippetFormat format : kSnippetFormats) {
        EXPECT_EQ(parse_snippet_format(to_string(format)), format);
        EXPECT_FALSE(snippet_label(format).empty());
    }
    EXPECT_EQ(to_string(SnippetFormat::curl_service), "curl_service");
    EXPECT_EQ(to_string(SnippetFormat::python), "python");
    EXPECT_FALSE(parse_snippet_format("wget"));
}

// The shell gives every argument back byte for byte: the URL, each header,
// each form field decoded (Unicode, quotes, newlines, $ and backquotes).
TEST(RequestSnippets, CurlOfEveryEndpointGivesBackEachWordForBothCredentials) {
    const Credentials kinds[] = {BearerToken{"AT-123"}, ApiToken{"API-456"}};
    for (const EndpointInfo& info : endpoint_catalog()) {
        for (const Credentials& credentials : kinds) {
            const Call call = call_of(info, credentials);
            const std::string text = write_snippet(SnippetFormat::curl_service, call.request);
            const auto words = shell_words(text);
            ASSERT_TRUE(words) << text;
            ASSERT_GE(words->size(), 4u) << text;
            EXPECT_EQ((*words)[0], "curl");
            EXPECT_EQ((*words)[2], std::string(to_string(info.method)));
            EXPECT_EQ((*words)[3], call.request.url) << info.path;
            std::vector<std::string> expected;
            for (const auto& [name, value] : call.request.headers.fields()) {
                expected.push_back("-H");
                expected.push_back(name + ": " + value);
            }
            if (info.method != Method::Get) {
                for (const auto& [name, value] : call.params) {
                    expected.push_back("--data-urlencode");
                    expected.push_back(name + "=" + value);
                }
            }
            EXPECT_EQ(std::vector<std::string>(words->begin() + 4, words->end()), expected) << text;
            const bool bearer = std::holds_alternative<BearerToken>(credentials);
            EXPECT_NE(text.find(bearer ? "'authorization: Bearer AT-123'" : "'x-chatworktoken: API-456'"),
                      std::string::npos)
                << text;
        }
    }
}

TEST(RequestSnippets, FetchAndPythonOfEveryEndpointQuoteEveryValue) {
    const Credentials kinds[] = {BearerToken{"AT-123"}, ApiToken{"API-456"}};
    for (const EndpointInfo& info : endpoint_catalog()) {
        for (const Credentials& credentials : kinds) {
            const Call call = call_of(info, credentials);
            const std::string js = write_snippet(SnippetFormat::fetch, call.request);
            const std::string py = write_snippet(SnippetFormat::python, call.request);
            for (const std::string& text : {js, py}) {
                EXPECT_NE(text.find(literal(call.request.url)), std::string::npos) << text;
                EXPECT_NE(text.find(literal(to_string(info.method))), std::string::npos) << text;
                for (const auto& [name, value] : call.request.headers.fields()) {
                    EXPECT_NE(text.find(literal(name) + ": " + literal(value)), std::string::npos) << text;
                }
            }
            if (info.method == Method::Get) continue;
            for (const auto& [name, value] : call.params) {
                EXPECT_NE(js.find("[" + literal(name) + ", " + literal(value) + "]"), std::string::npos) << js;
                EXPECT_NE(py.find("(" + literal(name) + ", " + literal(value) + ")"), std::string::npos) << py;
            }
        }
    }
}

TEST(RequestSnippets, ALiteralKeepsUnicodeAndEscapesWhatMust) {
    HttpRequest r;
    r.method = Method::Post;
    r.url = "https://api.example.com/v2/rooms/1/messages";
    r.headers.set("content-type", "application/x-www-form-urlencoded");
    r.body = form_encode({{"body", "a\"b\\c\nd こんにちは"}});
    const std::string js = write_snippet(SnippetFormat::fetch, r);
    EXPECT_NE(js.find(R"(["body", "a\"b\\c\nd こんにちは"])"), std::string::npos) << js;
    EXPECT_NE(js.find("body: new URLSearchParams(["), std::string::npos) << js;
    const std::string py = write_snippet(SnippetFormat::python, r);
    EXPECT_EQ(py.rfind("import requests\n", 0), 0u) << py;
    EXPECT_NE(py.find(R"(("body", "a\"b\\c\nd こんにちは"))"), std::string::npos) << py;
}

// A field no shell word can carry goes as the bytes sent (percent-encoded).
TEST(RequestSnippets, AFieldWithANulOrInvalidUtf8GoesRaw) {
    HttpRequest r;
    r.method = Method::Post;
    r.url = "https://h/v2/rooms/1/messages";
    r.headers.set("content-type", "application/x-www-form-urlencoded");
    for (const std::string& value : {std::string("a\0b", 3), std::string("\xff\xfe")}) {
        r.body = form_encode({{"body", value}});
        const auto words = shell_words(write_snippet(SnippetFormat::curl_service, r));
        ASSERT_TRUE(words) << "the curl snippet does not read back as shell words";
        EXPECT_EQ(words->back(), r.body);
        EXPECT_EQ((*words)[words->size() - 2], "--data-raw");
    }
}

TEST(RequestSnippets, ShellQuoteGivesBackEveryByteButNul) {
    std::string all;
    for (int c = 1; c < 256; ++c) all += static_cast<char>(c);
    const auto words = shell_words("x " + shell_quote(all));
    ASSERT_TRUE(words) << "bytes 1-255 quoted do not read back as shell words";
    ASSERT_EQ(words->size(), 2u);
    EXPECT_EQ((*words)[1], all);
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

// ---- the app's "Copy as ...": the helper's request to the service's ----

app::SnippetTarget target() {
    app::SnippetTarget t;
    t.origin = "https://127.0.0.1:8443";
    t.api_base = "/api";
    t.request_header = "X-Roomkey-Request";
    t.service = ApiConfig{"https://api.example.com/v2", "x-chatworktoken"};
    return t;
}

HttpRequest sent_to_helper(const std::string& header, const std::string& value) {
    HttpRequest r;
    r.method = Method::Post;
    r.url = "/api/rooms/2100/messages";
    r.headers.set(header, value);
    r.headers.set("X-Roomkey-Request", "1");
    r.headers.set("content-type", "application/x-www-form-urlencoded");
    r.body = form_encode({{"body", "こんにちは"}});
    return r;
}

TEST(CopyAs, TheServicesSnippetUsesItsAddressAndHeaderNamesMaskedUnlessRevealed) {
    app::RedactionRules rules;
    rules.api_token_header = "x-chatworktoken";
    rules.known_secrets = {"AT-secret-1", "API-secret-2"};
    const struct {
        std::string header, value, service_line;
    } cases[] = {{"authorization", "Bearer AT-secret-1", "authorization: Bearer "},
                 {"x-chatworktoken", "API-secret-2", "x-chatworktoken: "}};
    for (const auto& c : cases) {
        const HttpRequest sent = sent_to_helper(c.header, c.value);
        for (SnippetFormat format : {SnippetFormat::curl_service, SnippetFormat::fetch, SnippetFormat::python}) {
            const auto masked = app::snippet_of(sent, format, target(), rules, false);
            ASSERT_TRUE(masked) << masked.error().text();
            EXPECT_NE(masked->find("https://api.example.com/v2/rooms/2100/messages"), std::string::npos) << *masked;
            EXPECT_EQ(masked->find("secret"), std::string::npos) << *masked;
            EXPECT_EQ(masked->find("X-Roomkey-Request"), std::string::npos) << "the helper's header is not the service's";
            EXPECT_EQ(masked->find("/api/"), std::string::npos) << *masked;
            EXPECT_NE(masked->find("こんにちは"), std::string::npos) << "the form body reads as typed";
            const auto revealed = app::snippet_of(sent, format, target(), rules, true);
            ASSERT_TRUE(revealed) << "no revealed snippet";
            EXPECT_NE(revealed->find(c.value.substr(c.value.find('-') - 2)), std::string::npos) << *revealed;
        }
        const auto curl = app::snippet_of(sent, SnippetFormat::curl_service, target(), rules, false);
        EXPECT_NE(curl->find("'" + c.service_line + std::string(app::kMask) + "'"), std::string::npos) << *curl;
        const auto helper = app::snippet_of(sent, SnippetFormat::curl_helper, target(), rules, false);
        ASSERT_TRUE(helper) << "no curl snippet for the helper";
        EXPECT_EQ(helper->rfind("curl -X POST 'https://127.0.0.1:8443/api/rooms/2100/messages'", 0), 0u) << *helper;
        EXPECT_EQ(helper->find("secret"), std::string::npos) << *helper;
    }
}

TEST(CopyAs, TheHelpersOwnCredentialIsNeverShownAndOtherRequestsStayTheHelpers) {
    HttpRequest sent = sent_to_helper("X-Roomkey-Request", "1");  // the BFF mode: the helper attaches the token
    const auto revealed = app::snippet_of(sent, SnippetFormat::curl_service, target(), {}, true);
    ASSERT_TRUE(revealed) << revealed.error().text();
    EXPECT_NE(revealed->find("'authorization: Bearer " + std::string(app::kMask) + "'"), std::string::npos) << *revealed;
    sent.url = "/oauth/token";
    const auto token = app::snippet_of(sent, SnippetFormat::python, target(), {}, false);
    ASSERT_FALSE(token);
    EXPECT_NE(token.error().text().find("curl (via helper)"), std::string::npos) << token.error().text();
    app::SnippetTarget unknown = target();
    unknown.service.base_url.clear();
    EXPECT_FALSE(app::snippet_of(sent_to_helper("authorization", "Bearer x"), SnippetFormat::fetch, unknown, {}, false));
}

// The console's call, sent or not, goes with the credential the log last saw sent.
TEST(CopyAs, TheConsolesCallTakesTheLastCredentialSent) {
    app::Trace trace;
    trace.log().begin(1, "GET /me", sent_to_helper("authorization", "Bearer AT-last"), Instant{});
    trace.set_reveal(true);
    const app::PlannedCall planned{Method::Get, "/rooms/2100/messages", {{"force", "1"}}};
    const auto text = trace.text_as(std::nullopt, planned, SnippetFormat::curl_service, true, target(), {});
    ASSERT_TRUE(text) << text.error().text();
    const auto words = shell_words(*text);
    ASSERT_TRUE(words) << "the trace's curl does not read back as shell words: " << *text;
    EXPECT_EQ((*words)[3], "https://api.example.com/v2/rooms/2100/messages?force=1");
    EXPECT_NE(text->find("'authorization: Bearer AT-last'"), std::string::npos) << *text;
    const auto helper = trace.text_as(std::nullopt, planned, SnippetFormat::curl_helper, true, target(), {});
    ASSERT_TRUE(helper) << "no curl snippet for the helper from the trace";
    EXPECT_NE(helper->find("'X-Roomkey-Request: 1'"), std::string::npos) << *helper;
    EXPECT_FALSE(trace.text_as(std::nullopt, {}, SnippetFormat::fetch, true, target(), {}));
    EXPECT_FALSE(trace.text_as(9, planned, SnippetFormat::fetch, true, target(), {})) << "no entry 9";
}

}  // namespace
}  // namespace request_snippets_test
}  // namespace roomkey
