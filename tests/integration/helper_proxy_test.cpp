// helper_proxy_test.cpp: the token proxy and the API proxy,
// first in memory against a recording transport, then on real sockets against
// a stand-in upstream: what is forwarded, added, relayed and refused.
#include <gtest/gtest.h>

#include <atomic>
#include <iterator>

#include <nlohmann/json.hpp>

#include "helper/proxy.hpp"
#include "roomkey/encoding.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/url.hpp"
#include "support/helper_fixture.hpp"

namespace roomkey::helper {
namespace {

// Records what the proxy sends and answers with a canned response.
struct RecordingUpstream {
    std::vector<HttpRequest> seen;
    HttpResponse answer{200, {{"Content-Type", "application/json"}}, "{}"};
    std::optional<UpstreamError> fail;

    UpstreamTransport transport() {
        return [this](const HttpRequest& r) -> Result<HttpResponse, UpstreamError> {
            seen.push_back(r);
            if (fail) return Err{*fail};
            return answer;
        };
    }
};

UpstreamConfig public_upstream() {
    UpstreamConfig u;
    u.base_url = "https://api.example/v2";
    u.auth_url = "https://auth.example/oauth";
    u.consent_url = "https://auth.example/consent";
    u.client_id = "web-client";
    return u;
}

HttpRequest form_post(std::string url, std::string body) {
    HttpRequest r;
    r.method = Method::Post;
    r.url = std::move(url);
    r.headers.set("Content-Type", "application/x-www-form-urlencoded");
    r.body = std::move(body);
    return r;
}

const char* const kCodeForm =
    "grant_type=authorization_code&code=AUTHCODE&redirect_uri=https%3A%2F%2F127.0.0.1%3A8443%2Fcallback"
    "&code_verifier=VERIFIER-0123456789-0123456789-0123456789-abc&client_id=web-client";

// Proxy::callback_arrived: which connections a return to /callback asks for.
TEST(HelperCallbackPreconnect, ACodeOpensTheTokenRequestsAndTheDashboardReadsConnections) {
    RecordingUpstream up;
    std::vector<std::pair<std::string, std::size_t>> asked;
    Proxy proxy(public_upstream(), up.transport(),
                [&](const std::string& url, std::size_t n) { asked.emplace_back(url, n); });
    proxy.callback_arrived("code=c0de&state=st4te");
    const std::vector<std::pair<std::string, std::size_t>> expected = {
        {"https://auth.example/oauth", 1}, {"https://api.example/v2", std::size(kDashboardReads)}};
    EXPECT_EQ(asked, expected);
    EXPECT_EQ(std::size(kDashboardReads), 3u) << "/me, /my/status and /rooms";
    EXPECT_TRUE(up.seen.empty()) << "no request is sent";
}

TEST(HelperCallbackPreconnect, NoCodeNoUpstreamOrABadQueryOpensNothing) {
    RecordingUpstream up;
    std::size_t calls = 0;
    auto count = [&](const std::string&, std::size_t) { ++calls; };
    Proxy proxy(public_upstream(), up.transport(), count);
    proxy.callback_arrived("error=access_denied&state=st4te");  // a denial (spec 4.2)
    proxy.callback_arrived("");
    proxy.callback_arrived("state=st4te&codes=x&xcode=y");
    proxy.callback_arrived("code=%zz");  // not a valid form
    Proxy unconfigured(UpstreamConfig{}, up.transport(), count);
    unconfigured.callback_arrived("code=c0de&state=st4te");
    Proxy without(public_upstream(), up.transport());  // --no-preconnect: none given
    without.callback_arrived("code=c0de&state=st4te");
    EXPECT_EQ(calls, 0u);
}

TEST(HelperTokenProxy, PublicClientFormIsForwardedUnchangedToAuthUrlToken) {
    // spec 4.3: a public client sends client_id and no Basic authentication.
    RecordingUpstream up;
    up.answer = {200, {{"Content-Type", "application/json"}}, R"({"access_token":"AT","token_type":"Bearer"})"};
    Proxy proxy(public_upstream(), up.transport());
    HttpRequest in = form_post("/oauth/token", kCodeForm);
    in.headers.set("Authorization", "Basic c3RvbGVu");  // anything the page sends is not forwarded
    in.headers.set("Cookie", "a=b");
    const HttpResponse out = proxy.token(in);

    ASSERT_EQ(up.seen.size(), 1u) << "exactly one upstream call, never a retry";
    const HttpRequest& sent = up.seen[0];
    EXPECT_EQ(sent.method, Method::Post);
    EXPECT_EQ(sent.url, "https://auth.example/oauth/token");
    EXPECT_EQ(sent.body, kCodeForm);
    EXPECT_EQ(sent.headers.get("content-type").value_or(""), "application/x-www-form-urlencoded");
    EXPECT_FALSE(sent.headers.has("authorization")) << "public client: the proxy adds nothing";
    EXPECT_FALSE(sent.headers.has("cookie"));

    EXPECT_EQ(out.status, 200);
    EXPECT_EQ(out.body, up.answer.body);
    EXPECT_EQ(out.headers.get("cache-control").value_or(""), "no-store") << "spec 2.3";
    EXPECT_EQ(out.headers.get("pragma").value_or(""), "no-cache") << "spec 2.3";
    EXPECT_EQ(out.headers.get("content-type").value_or(""), "application/json");
}

TEST(HelperTokenProxy, ConfidentialClientGetsBasicAuthenticationAddedByTheHelper) {
    // spec 4.3: username = client ID, password = secret, colon, Base64.
    RecordingUpstream up;
    UpstreamConfig cfg = public_upstream();
    cfg.client_type = ClientType::confidential;
    cfg.client_secret = "s3cr3t-value";
    Proxy proxy(cfg, up.transport());
    (void)proxy.token(form_post("/oauth/token", "grant_type=refresh_token&refresh_token=RT&scope=users.all%3Aread"));
    ASSERT_EQ(up.seen.size(), 1u);
    EXPECT_EQ(up.seen[0].headers.get("authorization").value_or(""),
              "Basic " + base64_encode("web-client:s3cr3t-value"));
    const std::string public_json = proxy.public_config_json("https://127.0.0.1:8443");
    EXPECT_EQ(public_json.find("s3cr3t-value"), std::string::npos) << "the page never sees the secret";
    EXPECT_NE(public_json.find("\"client_type\":\"confidential\""), std::string::npos);
}

TEST(HelperTokenProxy, BffModeReplacesThePagesClientIdWithBasicAuthentication) {
    // spec 4.3: Basic for a confidential client, client_id for a public one,
    // never both: the page's client_id (body or query) is taken out.
    RecordingUpstream up;
    UpstreamConfig cfg = public_upstream();
    cfg.client_type = ClientType::confidential;
    cfg.client_secret = "s3cr3t-value";
    Proxy proxy(cfg, up.transport());
    const HttpResponse out = proxy.token(form_post("/oauth/token?client_id=web-client", kCodeForm));
    EXPECT_EQ(out.status, 200) << out.body;
    ASSERT_EQ(up.seen.size(), 1u);
    EXPECT_EQ(up.seen[0].url, "https://auth.example/oauth/token") << "no client_id in the query either";
    auto sent = form_decode(up.seen[0].body);
    ASSERT_TRUE(sent) << to_string(sent.error()) << " in " << up.seen[0].body;
    EXPECT_EQ(form_count(*sent, "client_id"), 0u) << up.seen[0].body;
    EXPECT_EQ(form_get(*sent, "code").value_or(""), "AUTHCODE") << "the rest of the form is kept";
    EXPECT_EQ(form_get(*sent, "code_verifier").value_or(""), "VERIFIER-0123456789-0123456789-0123456789-abc");
    EXPECT_TRUE(up.seen[0].headers.has("authorization"));
}

TEST(HelperTokenProxy, BffModeRefusesAPageConfiguredForAnotherClient) {
    RecordingUpstream up;
    UpstreamConfig cfg = public_upstream();
    cfg.client_type = ClientType::confidential;
    cfg.client_secret = "s3cr3t-value";
    Proxy proxy(cfg, up.transport());
    const HttpResponse out =
        proxy.token(form_post("/oauth/token", "grant_type=refresh_token&refresh_token=RT&client_id=other-client"));
    EXPECT_EQ(out.status, 400);
    EXPECT_NE(out.body.find("other-client"), std::string::npos) << "the error names the wrong client: " << out.body;
    EXPECT_TRUE(up.seen.empty()) << "the secret is never sent on behalf of another client";
}

TEST(HelperTokenProxy, ErrorStatusAndBodyAreRelayedWithNoStore) {
    RecordingUpstream up;
    up.answer = {400,
                 {{"Content-Type", "application/json"}},
                 R"({"error":"invalid_grant","error_description":"used","error_uri":null})"};
    Proxy proxy(public_upstream(), up.transport());
    const HttpResponse out = proxy.token(form_post("/oauth/token", kCodeForm));
    EXPECT_EQ(out.status, 400);
    EXPECT_EQ(out.body, up.answer.body);
    EXPECT_EQ(out.headers.get("cache-control").value_or(""), "no-store");
}

TEST(HelperTokenProxy, OnlyClientIdMayTravelInTheQuery) {
    RecordingUpstream up;
    Proxy proxy(public_upstream(), up.transport());
    const HttpResponse ok = proxy.token(form_post("/oauth/token?client_id=web-client", kCodeForm));
    EXPECT_EQ(ok.status, 200);
    ASSERT_EQ(up.seen.size(), 1u);
    EXPECT_EQ(up.seen[0].url, "https://auth.example/oauth/token?client_id=web-client");

    const HttpResponse refused = proxy.token(form_post("/oauth/token?code=AUTHCODE", kCodeForm));
    EXPECT_EQ(refused.status, 400) << "codes never go into a URL";
    EXPECT_EQ(up.seen.size(), 1u) << "a refused request is not forwarded";
}

TEST(HelperTokenProxy, NonFormBodyIs415AndNotForwarded) {
    RecordingUpstream up;
    Proxy proxy(public_upstream(), up.transport());
    HttpRequest in = form_post("/oauth/token", R"({"grant_type":"authorization_code"})");
    in.headers.set("Content-Type", "application/json");
    EXPECT_EQ(proxy.token(in).status, 415);
    EXPECT_TRUE(up.seen.empty()) << "forwarded to " << up.seen[0].url;
}

TEST(HelperTokenProxy, UnreachableUpstreamIs502AndNotRetried) {
    RecordingUpstream up;
    up.fail = UpstreamError::connect_failed;
    Proxy proxy(public_upstream(), up.transport());
    const HttpResponse out = proxy.token(form_post("/oauth/token", kCodeForm));
    EXPECT_EQ(out.status, 502);
    EXPECT_EQ(up.seen.size(), 1u) << "a code is single use: no automatic retry";
    EXPECT_NE(out.body.find("\"error\":\"upstream_unavailable\""), std::string::npos) << out.body;
    EXPECT_EQ(out.headers.get("cache-control").value_or(""), "no-store");
}

HttpRequest api_request(Method method, std::string url) {
    HttpRequest r;
    r.method = method;
    r.url = std::move(url);
    return r;
}

TEST(HelperApiProxy, AllowlistedEndpointIsForwardedWithBearerAndRelayed) {
    RecordingUpstream up;
    up.answer = {200,
                 {{"Content-Type", "application/json"},
                  {"x-ratelimit-limit", "300"},
                  {"x-ratelimit-remaining", "299"},
                  {"x-ratelimit-reset", "1700000000"},
                  {"Set-Cookie", "tracking=1"},
                  {"Server", "upstream/1.0"}},
                 R"({"unread_num":1})"};
    Proxy proxy(public_upstream(), up.transport());
    HttpRequest in = api_request(Method::Get, "/api/my/status");
    in.headers.set("Authorization", "Bearer AT-123");
    in.headers.set("Cookie", "session=1");
    const HttpResponse out = proxy.api(in);

    ASSERT_EQ(up.seen.size(), 1u);
    EXPECT_EQ(up.seen[0].url, "https://api.example/v2/my/status") << "spec 4.1.5: {base_url} + path";
    EXPECT_EQ(up.seen[0].headers.get("authorization").value_or(""), "Bearer AT-123");
    EXPECT_FALSE(up.seen[0].headers.has("cookie"));

    EXPECT_EQ(out.status, 200);
    EXPECT_EQ(out.body, R"({"unread_num":1})");
    EXPECT_EQ(out.headers.get("x-ratelimit-limit").value_or(""), "300") << "spec 8.1 headers reach the app";
    EXPECT_EQ(out.headers.get("x-ratelimit-remaining").value_or(""), "299");
    EXPECT_EQ(out.headers.get("x-ratelimit-reset").value_or(""), "1700000000");
    EXPECT_FALSE(out.headers.has("set-cookie")) << "only the listed headers are relayed";
    EXPECT_FALSE(out.headers.has("server"));
}

TEST(HelperApiProxy, ApiTokenHeaderIsCopiedUnderItsConfiguredName) {
    // spec 5.1: the API token travels in x-servicetoken (the name is a setting).
    RecordingUpstream up;
    UpstreamConfig cfg = public_upstream();
    cfg.token_header = "x-othertoken";
    Proxy proxy(cfg, up.transport());
    HttpRequest in = api_request(Method::Get, "/api/me");
    in.headers.set("X-OtherToken", "API-TOKEN-1");
    in.headers.set("x-servicetoken", "not-this-one");
    (void)proxy.api(in);
    ASSERT_EQ(up.seen.size(), 1u);
    EXPECT_EQ(up.seen[0].headers.get("x-othertoken").value_or(""), "API-TOKEN-1");
    EXPECT_FALSE(up.seen[0].headers.has("x-servicetoken"));
    EXPECT_FALSE(up.seen[0].headers.has("authorization"));
}

TEST(HelperApiProxy, PostBodyAndContentTypeAreForwarded) {
    RecordingUpstream up;
    Proxy proxy(public_upstream(), up.transport());
    HttpRequest in = form_post("/api/rooms/42/messages", "body=hello");
    in.headers.set("Authorization", "Bearer AT");
    (void)proxy.api(in);
    ASSERT_EQ(up.seen.size(), 1u);
    EXPECT_EQ(up.seen[0].method, Method::Post);
    EXPECT_EQ(up.seen[0].url, "https://api.example/v2/rooms/42/messages");
    EXPECT_EQ(up.seen[0].body, "body=hello");
    EXPECT_EQ(up.seen[0].headers.get("content-type").value_or(""), "application/x-www-form-urlencoded");
}

TEST(HelperApiProxy, UnauthorizedAnswerKeepsWwwAuthenticate) {
    // spec 5.2: the error of an expired token is in WWW-Authenticate.
    RecordingUpstream up;
    up.answer = {401,
                 {{"WWW-Authenticate", R"(Bearer error="invalid_token", error_description="expired")"}},
                 ""};
    Proxy proxy(public_upstream(), up.transport());
    const HttpResponse out = proxy.api(api_request(Method::Get, "/api/me"));
    EXPECT_EQ(out.status, 401);
    EXPECT_EQ(out.headers.get("www-authenticate").value_or(""), R"(Bearer error="invalid_token", error_description="expired")");
}

TEST(HelperApiProxy, PathsOutsideTheAllowlistAreRefusedWithoutContactingTheUpstream) {
    // No open proxy, no SSRF: only what shared/'s match_endpoint knows.
    RecordingUpstream up;
    Proxy proxy(public_upstream(), up.transport());
    const std::vector<std::pair<Method, std::string>> refused = {
        {Method::Get, "/api/admin"},
        {Method::Get, "/api/../oauth/token"},
        {Method::Get, "/api/me/../../secret"},
        {Method::Get, "/api/rooms/0123"},
        {Method::Get, "/api/%2e%2e/x"},
        {Method::Delete, "/api/me"},
        {Method::Post, "/api/my/status"},
        {Method::Get, "/api//me"},
        {Method::Get, "/api/https://evil.example/"},
        {Method::Get, "/apime"},
    };
    for (const auto& [method, url] : refused) {
        const HttpResponse out = proxy.api(api_request(method, url));
        EXPECT_EQ(out.status, 404) << to_string(method) << " " << url;
    }
    EXPECT_TRUE(up.seen.empty()) << "nothing outside the allowlist may reach the upstream";
}

// An error text quoting a path that is not UTF-8 made nlohmann::json's
// dump() throw, which under JSON_NOEXCEPTION aborted the helper: one raw
// request ("GET /api/\xff") stopped it for everyone.
TEST(HelperApiProxy, AnApiPathThatIsNotUtf8IsRefusedWithoutAborting) {
    RecordingUpstream up;
    Proxy proxy(public_upstream(), up.transport());
    HttpRequest in;
    in.method = Method::Get;
    in.url = "/api/\xff\xfe";
    const HttpResponse out = proxy.api(in);
    EXPECT_EQ(out.status, 404);
    const auto j = nlohmann::json::parse(out.body, nullptr, false);
    ASSERT_TRUE(j.is_object()) << out.body;
    EXPECT_NE(j["errors"][0].get<std::string>().find("\xef\xbf\xbd"), std::string::npos) << out.body;
    EXPECT_TRUE(up.seen.empty()) << "forwarded to " << up.seen[0].url;
}

TEST(HelperApiProxy, CredentialsInTheQueryAreRefused) {
    // spec 5.1.2: the API token is never sent in the URL.
    RecordingUpstream up;
    Proxy proxy(public_upstream(), up.transport());
    EXPECT_EQ(proxy.api(api_request(Method::Get, "/api/me?x-servicetoken=abc")).status, 400);
    EXPECT_EQ(proxy.api(api_request(Method::Get, "/api/me?access_token=abc")).status, 400);
    EXPECT_TRUE(up.seen.empty()) << "forwarded to " << up.seen[0].url;
    EXPECT_EQ(proxy.api(api_request(Method::Get, "/api/rooms/1/messages?force=1")).status, 200);
    ASSERT_EQ(up.seen.size(), 1u);
    EXPECT_EQ(up.seen[0].url, "https://api.example/v2/rooms/1/messages?force=1");
}

TEST(HelperApiProxy, WithoutUpstreamBothProxiesAnswer503) {
    RecordingUpstream up;
    Proxy proxy(UpstreamConfig{}, up.transport());
    EXPECT_EQ(proxy.api(api_request(Method::Get, "/api/me")).status, 503);
    EXPECT_EQ(proxy.token(form_post("/oauth/token", kCodeForm)).status, 503);
    EXPECT_TRUE(up.seen.empty()) << "forwarded to " << up.seen[0].url;
}

TEST(HelperConfigJson, PublicConfigNamesTheProxyEndpointsAndTheRedirectUri) {
    RecordingUpstream up;
    UpstreamConfig cfg = public_upstream();
    cfg.scope = "users.all:read";
    Proxy proxy(cfg, up.transport());
    const auto j = nlohmann::json::parse(proxy.public_config_json("https://127.0.0.1:8443"), nullptr, false);
    ASSERT_TRUE(j.is_object()) << "not a JSON object: " << proxy.public_config_json("https://127.0.0.1:8443");
    EXPECT_EQ(j.value("redirect_uri", ""), "https://127.0.0.1:8443/callback");
    EXPECT_EQ(j.value("token_endpoint", ""), "/oauth/token");
    EXPECT_EQ(j.value("api_base", ""), "/api");
    EXPECT_EQ(j.value("client_id", ""), "web-client");
    EXPECT_EQ(j.value("client_type", ""), "public");
    EXPECT_EQ(j.value("consent_url", ""), "https://auth.example/consent");
    EXPECT_EQ(j.value("token_header", ""), "x-servicetoken");
    EXPECT_EQ(j.value("request_header", ""), "X-Roomkey-Request");
    EXPECT_EQ(j.value("scope", ""), "users.all:read");
    EXPECT_FALSE(j.contains("client_secret"));
}

}  // namespace
}  // namespace roomkey::helper
