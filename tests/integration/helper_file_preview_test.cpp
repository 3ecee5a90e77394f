// helper_file_preview_test.cpp: POST /file-preview (Proxy::file_preview), in
// memory against a recording transport: only an https URL on the configured
// service's origin is fetched, without credentials (never an open proxy),
// and only a raster image of at most kMaxPreviewBytes goes back, typed by
// its bytes.
#include <gtest/gtest.h>

#include "helper/issued_links.hpp"
#include "helper/proxy.hpp"
#include "roomkey/public_config.hpp"
#include "roomkey/url.hpp"

namespace roomkey::helper {
namespace {

struct Upstream {
    std::vector<HttpRequest> seen;
    HttpResponse answer{200, {{"Content-Type", "application/octet-stream"}}, std::string("\x89PNG\r\n\x1a\n", 8) + "rest"};
    UpstreamTransport transport() {
        return [this](const HttpRequest& r) -> Result<HttpResponse, UpstreamError> {
            seen.push_back(r);
            return answer;
        };
    }
};

Proxy proxy_of(Upstream& up) {
    UpstreamConfig u;
    u.base_url = "https://127.0.0.1:8444/v2";
    u.auth_url = "https://127.0.0.1:8444/oauth";
    u.consent_url = "https://127.0.0.1:8444/consent";
    u.client_id = "web-client";
    return Proxy(u, up.transport());
}

HttpRequest asking(const std::string& url) {
    HttpRequest r;
    r.method = Method::Post;
    r.url = std::string(kHelperFilePreviewPath);
    r.headers.set("Content-Type", "application/x-www-form-urlencoded");
    r.headers.set("x-servicetoken", "api-token-0123456789abcdef");
    r.body = form_encode({{"url", url}});
    return r;
}

TEST(HelperFilePreview, AnImageOnTheServicesOriginComesBackTypedByItsBytesWithoutCredentials) {
    Upstream up;
    const HttpResponse out = proxy_of(up).file_preview(asking("https://127.0.0.1:8444/downloads/9100?expires=1&signature=ab"));
    ASSERT_EQ(out.status, 200) << out.body;
    EXPECT_EQ(out.headers.get("content-type"), std::optional<std::string>("image/png"));
    EXPECT_EQ(out.body, up.answer.body);
    EXPECT_EQ(out.headers.get("cache-control").value_or("").find("no-store") != std::string::npos, true);
    ASSERT_EQ(up.seen.size(), 1u);
    EXPECT_EQ(up.seen[0].url, "https://127.0.0.1:8444/downloads/9100?expires=1&signature=ab");
    EXPECT_EQ(up.seen[0].method, Method::Get);
    EXPECT_FALSE(up.seen[0].headers.get("x-servicetoken")) << "a download_url is signed: no token goes with it";
    EXPECT_FALSE(up.seen[0].headers.get("authorization"));
}

TEST(HelperFilePreview, NeverAnOpenProxy) {
    Upstream up;
    Proxy proxy = proxy_of(up);
    for (const char* url : {"https://evil.example/x.png", "http://127.0.0.1:8444/downloads/1", "https://127.0.0.1:9999/d",
                            "https://127.0.0.1/d", "not a url", ""}) {
        const HttpResponse out = proxy.file_preview(asking(url));
        EXPECT_EQ(out.status, 403) << url;
        EXPECT_NE(out.body.find("https://127.0.0.1:8444"), std::string::npos) << "says which origin is allowed: " << out.body;
    }
    EXPECT_TRUE(up.seen.empty()) << "nothing was fetched";
}

TEST(HelperFilePreview, OnlyARasterImageWithinTheLimitGoesBack) {
    Upstream up;
    Proxy proxy = proxy_of(up);
    const std::string url = "https://127.0.0.1:8444/downloads/9100?expires=1&signature=ab";
    up.answer.body = "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>";
    EXPECT_EQ(proxy.file_preview(asking(url)).status, 502) << "a document is never served from the app's origin";
    up.answer.body = "RIFF";
    EXPECT_EQ(proxy.file_preview(asking(url)).status, 502) << "a short body is read safely";
    up.answer.body = std::string("\xFF\xD8\xFF", 3) + std::string(static_cast<std::size_t>(kMaxPreviewBytes), 'x');
    EXPECT_EQ(proxy.file_preview(asking(url)).status, 502) << "over kMaxPreviewBytes";
    up.answer.body = std::string("\xFF\xD8\xFF", 3) + "jpeg";
    const HttpResponse jpeg = proxy.file_preview(asking(url));
    EXPECT_EQ(jpeg.status, 200);
    EXPECT_EQ(jpeg.headers.get("content-type"), std::optional<std::string>("image/jpeg"));
    up.answer.status = 403;
    EXPECT_EQ(proxy.file_preview(asking(url)).status, 502) << "an expired link";
}

// The live service's links are on its file host, not on {base_url}'s origin.
// A link the service itself issued through the API proxy is fetched, exactly
// that URL and only within the link's 30 s (the service's RAML,
// create_download_url: 「30秒間だけダウンロード可能なURLを生成します」).
TEST(HelperFilePreview, ALinkTheServiceIssuedOnItsFileHostIsFetchedWithinItsThirtySeconds) {
    const std::string link = "https://files.example.test/dl/9100?expires=30&signature=ab";
    std::vector<std::string> fetched;
    Upstream up;
    UpstreamConfig u;
    u.base_url = "https://127.0.0.1:8444/v2";
    u.auth_url = "https://127.0.0.1:8444/oauth";
    u.consent_url = "https://127.0.0.1:8444/consent";
    u.client_id = "web-client";
    Proxy proxy(u, [&](const HttpRequest& r) -> Result<HttpResponse, UpstreamError> {
        fetched.push_back(r.url);
        if (r.url.find("/v2/rooms/") != std::string::npos) {
            return HttpResponse{200, {{"Content-Type", "application/json"}},
                                R"({"file_id":9100,"filename":"a.png","filesize":12,"download_url":")" + link + "\"}"};
        }
        return up.answer;
    });
    const Instant t0 = instant_from_unix_seconds(1'800'000'000);
    EXPECT_EQ(proxy.file_preview(asking(link), t0).status, 403) << "not issued yet";

    HttpRequest get;
    get.method = Method::Get;
    get.url = "/api/rooms/2100/files/9100?create_download_url=1";
    get.headers.set("x-servicetoken", "api-token-0123456789abcdef");
    ASSERT_EQ(proxy.api(get, t0).status, 200);

    const HttpResponse out = proxy.file_preview(asking(link), t0 + std::chrono::seconds(5));
    ASSERT_EQ(out.status, 200) << out.body;
    EXPECT_EQ(out.headers.get("content-type"), std::optional<std::string>("image/png"));
    EXPECT_EQ(fetched.back(), link);
    EXPECT_EQ(proxy.file_preview(asking("https://files.example.test/dl/9101?expires=30&signature=ab"),
                                 t0 + std::chrono::seconds(5)).status, 403)
        << "another URL on the same host was not issued";
    EXPECT_EQ(proxy.file_preview(asking(link), t0 + std::chrono::seconds(30)).status, 403) << "the link has expired";
    const HttpResponse refused = proxy.file_preview(asking(link), t0 + std::chrono::seconds(30));
    EXPECT_NE(refused.body.find("issued"), std::string::npos) << "says what is allowed: " << refused.body;
}

TEST(HelperFilePreview, OnlyAnHttpsLinkIsRememberedAndTheListIsBounded) {
    IssuedLinks links;
    const Instant t0 = instant_from_unix_seconds(1'800'000'000);
    links.remember_from(R"({"download_url":"http://files.example.test/dl/1"})", t0);
    EXPECT_FALSE(links.issued("http://files.example.test/dl/1", t0)) << "never a link without TLS";
    links.remember_from("not json", t0);
    links.remember_from(R"({"download_url":42})", t0);
    for (std::size_t i = 0; i <= kMaxIssuedLinks; ++i) {
        links.remember_from(R"({"download_url":"https://files.example.test/dl/)" + std::to_string(i) + "\"}", t0);
    }
    EXPECT_FALSE(links.issued("https://files.example.test/dl/0", t0)) << "the oldest goes when the list is full";
    EXPECT_TRUE(links.issued("https://files.example.test/dl/" + std::to_string(kMaxIssuedLinks), t0));
}

}  // namespace
}  // namespace roomkey::helper
