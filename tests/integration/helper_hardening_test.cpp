// helper_hardening_test.cpp: issue 5 item 6, one test per hardening point, on
// real sockets: loopback-only bind without SO_REUSEPORT, Host check (DNS
// rebinding), Origin/custom-header check for the proxies (CSRF), no CORS,
// size limits 413/431/414, timeouts, and the security headers.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>

#include "support/helper_fixture.hpp"

namespace roomkey::helper {
namespace {

using testing::RunningHelper;
using testing::TempDir;

class HelperHardening : public ::testing::Test {
protected:
    void SetUp() override {
        HelperConfig config = testing::test_config(dir_);
        config.limits.max_body_bytes = 4096;
        config.limits.read_timeout_seconds = 1;
        config.limits.keep_alive_timeout_seconds = 1;
        helper_ = std::make_unique<RunningHelper>(config);
        ASSERT_TRUE(helper_->ok()) << helper_->error();
        client_ = helper_->client();
    }
    std::string self_origin() const { return "https://127.0.0.1:" + std::to_string(helper_->port()); }

    TempDir dir_;
    std::unique_ptr<RunningHelper> helper_;
    std::unique_ptr<httplib::SSLClient> client_;
};

std::string lower_name(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

int bind_raw(const char* ip, int port, bool reuse_port) {
    const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (reuse_port) ::setsockopt(sock, SOL_SOCKET, SO_REUSEPORT, &yes, sizeof yes);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, ip, &addr.sin_addr);
    const int rc = ::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    const int err = rc == 0 ? 0 : errno;
    ::close(sock);
    return err;
}

TEST_F(HelperHardening, SecondProcessCannotBindThePortEvenWithSoReuseport) {
    // With SO_REUSEPORT on the helper's socket (httplib's default), this
    // bind would succeed and the kernel would hand it half the connections,
    // OAuth redirects included.
    EXPECT_EQ(bind_raw("127.0.0.1", helper_->port(), true), EADDRINUSE);
    EXPECT_EQ(bind_raw("127.0.0.1", helper_->port(), false), EADDRINUSE);
}

TEST_F(HelperHardening, SecondHelperOnTheSamePortFailsWithPortInUse) {
    TempDir other;
    HelperConfig config = testing::test_config(other);
    config.port = helper_->port();
    auto second = HelperServer::start(config, nullptr);
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().code, StartError::port_in_use);
    EXPECT_NE(second.error().message.find("already in use"), std::string::npos) << second.error().message;
    EXPECT_NE(second.error().message.find("--port"), std::string::npos) << "the message names the fix";
}

TEST_F(HelperHardening, ListensOnLoopbackOnly) {
    ifaddrs* list = nullptr;
    ASSERT_EQ(::getifaddrs(&list), 0);
    std::string external;
    for (ifaddrs* it = list; it != nullptr; it = it->ifa_next) {
        if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != AF_INET) continue;
        char buf[INET_ADDRSTRLEN];
        ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(it->ifa_addr)->sin_addr, buf, sizeof buf);
        if (std::string(buf).rfind("127.", 0) != 0) external = buf;
    }
    ::freeifaddrs(list);
    if (external.empty()) GTEST_SKIP() << "no non-loopback IPv4 address on this machine";
    const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(helper_->port()));
    ::inet_pton(AF_INET, external.c_str(), &addr.sin_addr);
    const int rc = ::connect(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::close(sock);
    EXPECT_NE(rc, 0) << "the helper must not be reachable on " << external;
}

TEST(HelperHardeningOptions, OnlyLoopbackHostsAreAccepted) {
    auto env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
    for (const char* host : {"0.0.0.0", "::", "192.168.1.2", "localhost"}) {
        auto cmd = parse_command_line({"serve", "--host", host, "--web-root", "/tmp"}, env);
        EXPECT_FALSE(cmd) << host << " must be refused";
    }
    EXPECT_TRUE(parse_command_line({"serve", "--host", "::1", "--web-root", "/tmp"}, env));
}

TEST_F(HelperHardening, ForeignHostHeaderIs403) {
    // DNS rebinding: evil.example resolves to 127.0.0.1; the browser sends its name.
    for (const std::string& host : {"evil.example:" + std::to_string(helper_->port()), std::string("evil.example"),
                                   "127.0.0.1:" + std::to_string(helper_->port() + 1), std::string("127.0.0.1")}) {
        auto res = client_->Get("/", {{"Host", host}});
        ASSERT_TRUE(res);
        EXPECT_EQ(res->status, 403) << "Host: " << host;
        EXPECT_EQ(res->body.find("<!doctype"), std::string::npos);
    }
    for (const std::string& host : {"127.0.0.1:" + std::to_string(helper_->port()),
                                   "localhost:" + std::to_string(helper_->port()),
                                   "LOCALHOST:" + std::to_string(helper_->port())}) {
        auto res = client_->Get("/", {{"Host", host}});
        ASSERT_TRUE(res);
        EXPECT_EQ(res->status, 200) << "Host: " << host;
    }
}

TEST_F(HelperHardening, ProxiesRefuseRequestsWithoutOriginOrAppHeader) {
    const std::string form = "grant_type=authorization_code&code=x";
    auto bare = client_->Post("/oauth/token", form, "application/x-www-form-urlencoded");
    ASSERT_TRUE(bare);
    EXPECT_EQ(bare->status, 403) << "a plain form post from any page must not reach the token proxy";

    auto evil = client_->Post("/oauth/token", {{"Origin", "https://evil.example"}, {"X-Roomkey-Request", "1"}}, form,
                              "application/x-www-form-urlencoded");
    ASSERT_TRUE(evil);
    EXPECT_EQ(evil->status, 403) << "a foreign Origin wins over the custom header";

    auto null_origin = client_->Post("/oauth/token", {{"Origin", "null"}}, form, "application/x-www-form-urlencoded");
    ASSERT_TRUE(null_origin);
    EXPECT_EQ(null_origin->status, 403);

    auto cross_site = client_->Get("/api/me", {{"X-Roomkey-Request", "1"}, {"Sec-Fetch-Site", "cross-site"}});
    ASSERT_TRUE(cross_site);
    EXPECT_EQ(cross_site->status, 403);

    auto api_bare = client_->Get("/api/me");
    ASSERT_TRUE(api_bare);
    EXPECT_EQ(api_bare->status, 403);

    // The app's own requests pass the policy (and then meet "no upstream": 503).
    auto same = client_->Post("/oauth/token", {{"Origin", self_origin()}}, form, "application/x-www-form-urlencoded");
    ASSERT_TRUE(same);
    EXPECT_EQ(same->status, 503);
    auto with_header = client_->Get("/api/me", helper_->app_headers());
    ASSERT_TRUE(with_header);
    EXPECT_EQ(with_header->status, 503);
}

TEST_F(HelperHardening, NoCorsAnywhere) {
    auto preflight = client_->Options("/oauth/token");
    ASSERT_TRUE(preflight);
    EXPECT_NE(preflight->status / 100, 2) << "a preflight must never succeed";
    for (const char* path : {"/", "/config.json", "/roomkey.wasm"}) {
        auto res = client_->Get(path, {{"Origin", "https://evil.example"}});
        ASSERT_TRUE(res);
        for (const auto& [name, value] : res->headers) {
            EXPECT_NE(lower_name(name).rfind("access-control-", 0), 0u) << path << " sent " << name;
        }
    }
    for (const auto& [name, value] : preflight->headers) {
        EXPECT_NE(lower_name(name).rfind("access-control-", 0), 0u) << "preflight sent " << name;
    }
}

TEST_F(HelperHardening, OversizedBodyIs413) {
    const std::string big(5000, 'a');
    auto res = client_->Post("/oauth/token", helper_->app_headers(), "x=" + big, "application/x-www-form-urlencoded");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 413);
}

TEST_F(HelperHardening, OversizedHeaderSectionIs431) {
    httplib::Headers headers;
    for (int i = 0; i < 10; ++i) headers.emplace("X-Filler-" + std::to_string(i), std::string(2000, 'h'));
    auto res = client_->Get("/", headers);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 431);
}

TEST_F(HelperHardening, OversizedUriIs414) {
    auto res = client_->Get(("/?q=" + std::string(5000, 'u')).c_str());
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 414);
}

TEST_F(HelperHardening, SilentConnectionIsClosedAfterTheReadTimeout) {
    const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(helper_->port()));
    ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    ASSERT_EQ(::connect(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    // Send nothing (slowloris). The server must give up, not hold a thread forever.
    pollfd p{sock, POLLIN, 0};
    const int ready = ::poll(&p, 1, 8000);
    char byte = 0;
    const ssize_t n = ready > 0 ? ::recv(sock, &byte, 1, 0) : -1;
    ::close(sock);
    EXPECT_EQ(ready, 1) << "no close within 8 s";
    EXPECT_LE(n, 0) << "the server closes the idle connection";
}

TEST_F(HelperHardening, PageCarriesTheSecurityHeaders) {
    auto res = client_->Get("/");
    ASSERT_TRUE(res);
    const std::string csp = res->get_header_value("Content-Security-Policy");
    EXPECT_NE(csp.find("script-src 'self' 'wasm-unsafe-eval'"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("'unsafe-eval'"), std::string::npos) << "no JS eval: " << csp;
    EXPECT_EQ(csp.find("'unsafe-inline'"), std::string::npos) << "no inline script: " << csp;
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("connect-src 'self'"), std::string::npos) << csp;
    EXPECT_EQ(res->get_header_value("Referrer-Policy"), "no-referrer");
    EXPECT_EQ(res->get_header_value("X-Frame-Options"), "DENY");
    EXPECT_EQ(res->get_header_value("X-Content-Type-Options"), "nosniff");
    EXPECT_EQ(res->get_header_value_count("Content-Security-Policy"), 1u);

    // Error answers carry them too.
    auto missing = client_->Get("/missing");
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->get_header_value("X-Content-Type-Options"), "nosniff");
}

TEST_F(HelperHardening, LogShowsMethodPathStatusAndHidesTheQuery) {
    ASSERT_TRUE(client_->Get("/callback?code=SECRET-CODE-123&state=STATE-456"));
    const std::string log = helper_->wait_for_log("GET /callback");
    EXPECT_NE(log.find("GET /callback?[redacted] 200"), std::string::npos) << log;
    EXPECT_EQ(log.find("SECRET-CODE-123"), std::string::npos) << "codes must never reach the log";
    EXPECT_EQ(log.find("STATE-456"), std::string::npos);
}

}  // namespace
}  // namespace roomkey::helper
