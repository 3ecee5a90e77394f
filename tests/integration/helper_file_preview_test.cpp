// helper_file_preview_test.cpp: POST /file-preview (Proxy::file_preview), in
// memory against a recording transport: only an https URL on the configured
// service's origin is fetched, without credentials (never an open proxy),
// and only a raster image of at most kMaxPreviewBytes goes back, typed by
// its bytes.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace roomkey::helper
