// snippets_curl_test.cpp: "Copy as curl (service)" really works: the command
// shared/request_snippets.hpp writes for a call, run by the shell with the
// real curl against roomkey-sandbox, gets the same status and body as the
// app's own request (api_request, sent by an HTTPS client), with an API
// token and with a Bearer token, for reads, a Unicode post with quotes and
// newlines, and a post the service refuses.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "roomkey/api.hpp"
#include "roomkey/request_snippets.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/temp_dir.hpp"

namespace roomkey::sandbox::testing {
namespace {

struct Answer {
    int status = 0;
    std::string body;
};

class SnippetsCurl : public SandboxTest {
protected:
    ApiConfig service() { return ApiConfig{"https://127.0.0.1:" + std::to_string(sandbox().port()) + "/v2", "x-servicetoken"}; }

    // The app's own request, as the REST client sends it.
    Answer by_app(const HttpRequest& request) {
        httplib::Headers headers;
        for (const auto& [name, value] : request.headers.fields()) headers.emplace(name, value);
        const std::string path = request.url.substr(request.url.find("/v2"));
        auto res = request.method == Method::Get
                       ? client()->Get(path.c_str(), headers)
                       : client()->Post(path.c_str(), headers, request.body, "application/x-www-form-urlencoded");
        EXPECT_TRUE(res) << why_no_answer(res);
        return res ? Answer{res->status, res->body} : Answer{};
    }

    // The snippet, run by sh: curl trusts the sandbox's CA through the
    // environment, as a user would with their own CA bundle.
    Answer by_curl(const HttpRequest& request) {
        const std::string command = write_snippet(SnippetFormat::curl_service, request);
        const std::string script = dir_.path() + "/snippet.sh";
        const std::string body_file = dir_.path() + "/body";
        std::ofstream(script) << command << " -sS -o " << shell_quote(body_file) << " -w '%{http_code}'\n";
        FILE* pipe = ::popen(("CURL_CA_BUNDLE=" + shell_quote(sandbox().ca_cert_path()) + " sh " + shell_quote(script) + " 2>&1").c_str(), "r");
        EXPECT_NE(pipe, nullptr);
        if (!pipe) return {};
        std::string out;
        char buf[256];
        while (std::fgets(buf, sizeof buf, pipe)) out += buf;
        EXPECT_EQ(::pclose(pipe), 0) << command << "\n" << out;
        std::stringstream body;
        body << std::ifstream(body_file).rdbuf();
        return Answer{std::atoi(out.c_str()), body.str()};
    }

    HttpRequest call(const Credentials& credentials, Method method, const std::string& path, const FormFields& params = {}) {
        auto request = api_request(service(), credentials, method, path, params);
        EXPECT_TRUE(request) << path;
        return request ? *request : HttpRequest{};
    }

    std::string last_body(const Credentials& credentials) {
        const Answer messages = by_app(call(credentials, Method::Get, "/rooms/2100/messages", {{"force", "1"}}));
        const auto j = nlohmann::json::parse(messages.body, nullptr, false);
        return j.is_array() && !j.empty() ? json_string(j.back(), "body") : std::string();
    }

    void same_answers(const Credentials& credentials) {
        for (const auto& [path, params] : std::vector<std::pair<std::string, FormFields>>{
                 {"/me", {}}, {"/rooms", {}}, {"/rooms/2100/members", {}}, {"/rooms/2100/messages", {{"force", "1"}}}}) {
            const HttpRequest request = call(credentials, Method::Get, path, params);
            const Answer app = by_app(request);
            const Answer curl = by_curl(request);
            EXPECT_EQ(app.status, 200) << path << ": " << app.body;
            EXPECT_EQ(curl.status, app.status) << path;
            EXPECT_EQ(curl.body, app.body) << path;
        }
        // A post: the same text arrives, byte for byte, either way.
        const std::string text = "こんにちは 'single' \"double\" $HOME `date` \\ + & = %20\nsecond line 🎉";
        const HttpRequest post = call(credentials, Method::Post, "/rooms/2100/messages", {{"body", text}});
        const Answer app = by_app(post);
        ASSERT_EQ(app.status, 200) << app.body;
        EXPECT_EQ(last_body(credentials), text);
        const Answer curl = by_curl(post);
        ASSERT_EQ(curl.status, 200) << curl.body;
        EXPECT_TRUE(nlohmann::json::parse(curl.body, nullptr, false).contains("message_id")) << curl.body;
        EXPECT_EQ(last_body(credentials), text) << "curl posted other bytes than the app";
        // What the service refuses, it refuses alike.
        const HttpRequest empty = call(credentials, Method::Post, "/rooms/2100/messages");
        const Answer refused = by_app(empty);
        EXPECT_EQ(refused.status, 400) << refused.body;
        const Answer curl_refused = by_curl(empty);
        EXPECT_EQ(curl_refused.status, refused.status);
        EXPECT_EQ(curl_refused.body, refused.body);
    }

    integration::TempDir dir_;
};

TEST_F(SnippetsCurl, WithAnApiTokenCurlGetsWhatTheAppGets) { same_answers(ApiToken{kAliceToken}); }

TEST_F(SnippetsCurl, WithABearerTokenCurlGetsWhatTheAppGets) {
    const auto tokens = sign_in_web("users.all:read rooms.all:read_write");
    const std::string access = json_string(tokens, "access_token");
    ASSERT_FALSE(access.empty());
    same_answers(BearerToken{access});
}

}  // namespace
}  // namespace roomkey::sandbox::testing
