// sandbox_transport_test.cpp: roomkey-sandbox's transport rules on real
// sockets: HTTPS only (spec 4.1.1), the local CA, the ready line, the page
// headers of the consent screen, no CORS, Host checking and size limits.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <regex>

#include "support/sandbox_fixture.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxTransport : public SandboxTest {};

// Sends raw bytes over plain TCP and returns what comes back within 2 s.
std::string plain_tcp_exchange(int port, const std::string& bytes) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return "<socket failed>";
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return "<connect failed>";
    }
    timeval tv{2, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    (void)::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    std::string received;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        received.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return received;
}

// spec 4.1.1: "Plain HTTP ends in a connection error" - no HTTP answer at all.
TEST_F(SandboxTransport, PlainHttpGetsNoHttpAnswer_spec4_1_1) {
    const std::string got = plain_tcp_exchange(
        sandbox().port(), "GET /v2/me HTTP/1.1\r\nHost: 127.0.0.1\r\nx-servicetoken: " + kAliceToken + "\r\n\r\n");
    EXPECT_EQ(got.find("HTTP/"), std::string::npos) << "plain HTTP must not be answered with HTTP: " << got;
    EXPECT_EQ(got.find("account_id"), std::string::npos);
}

// spec 4.1.1 / issue 1: HTTPS with a certificate from the local CA in the state directory.
TEST_F(SandboxTransport, HttpsVerifiesAgainstTheLocalCa_spec4_1_1) {
    auto res = api_get("/me");
    ASSERT_TRUE(res) << "TLS handshake verified by the local CA failed: " << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);

    // A client that trusts nothing in particular (the system store) refuses the certificate.
    httplib::SSLClient strict("127.0.0.1", sandbox().port());
    strict.enable_server_certificate_verification(true);
    strict.set_ca_cert_path("/nonexistent-ca.pem");
    auto refused = strict.Get("/v2/me", httplib::Headers{{"x-servicetoken", kAliceToken}});
    EXPECT_FALSE(refused) << "an unknown CA must not verify";
}

// issue 1: one machine-readable ready line naming the three base addresses.
TEST_F(SandboxTransport, ReadyLineNamesTheThreeAddresses) {
    const std::string line = sandbox().ready_line();
    const std::string port = std::to_string(sandbox().port());
    EXPECT_EQ(line, "roomkey-sandbox: ready base_url=https://127.0.0.1:" + port +
                        "/v2 auth_url=https://127.0.0.1:" + port +
                        "/oauth consent_url=https://127.0.0.1:" + port + "/consent");
    EXPECT_EQ(line.find('\n'), std::string::npos);
}

// issue 4: the consent screen cannot be framed and sends no CORS headers.
TEST_F(SandboxTransport, PagesForbidFramingAndSendNoCors_spec4_2) {
    const PkcePair pkce = make_pkce(kRandom);
    Browser browser;
    auto page = open_consent(browser, web_request(pkce));
    ASSERT_TRUE(page);
    ASSERT_EQ(page->status, 200) << page->body;
    EXPECT_EQ(page->get_header_value("X-Frame-Options"), "DENY");
    EXPECT_NE(page->get_header_value("Content-Security-Policy").find("frame-ancestors 'none'"), std::string::npos);
    EXPECT_NE(page->get_header_value("Content-Type").find("text/html"), std::string::npos);

    for (const char* path : {"/consent", "/v2/me", "/oauth/token", "/"}) {
        auto res = get(path, {{"Origin", "https://evil.example"}, {"x-servicetoken", kAliceToken}});
        ASSERT_TRUE(res);
        EXPECT_FALSE(res->has_header("Access-Control-Allow-Origin")) << path << " must not send CORS headers";
        EXPECT_FALSE(res->has_header("Access-Control-Allow-Credentials")) << path;
    }
    // A CORS preflight is never granted.
    auto preflight = client()->Options("/oauth/token", httplib::Headers{{"Origin", "https://evil.example"},
                                                                         {"Access-Control-Request-Method", "POST"}});
    ASSERT_TRUE(preflight);
    EXPECT_EQ(preflight->status, 405);
    EXPECT_FALSE(preflight->has_header("Access-Control-Allow-Origin"));
    EXPECT_EQ(preflight->get_header_value("X-Frame-Options"), "DENY");
}

// A browser tricked by DNS rebinding sends its own host name: refused.
TEST_F(SandboxTransport, ForeignHostHeaderIsRefused) {
    auto res = get("/v2/me", {{"Host", "evil.example:" + std::to_string(sandbox().port())},
                              {"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 403);
    auto ok = get("/v2/me", {{"Host", "localhost:" + std::to_string(sandbox().port())},
                             {"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(ok->status, 200);
}

// issue 10: bounded request sizes.
TEST_F(SandboxTransport, OversizedBodyIsRefused) {
    const std::string big(200 * 1024, 'a');
    auto res = client()->Post("/v2/rooms/2100/messages", httplib::Headers{{"x-servicetoken", kAliceToken}},
                              "body=" + big, "application/x-www-form-urlencoded");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 413);
}

// issue 10: no crash on junk: odd methods, bad escapes, unknown paths.
TEST_F(SandboxTransport, JunkRequestsGetErrorsNotCrashes) {
    auto c = client();
    auto patch = c->Patch("/v2/me", "x", "text/plain");
    ASSERT_TRUE(patch);
    EXPECT_EQ(patch->status, 405);
    auto bad_escape = get("/consent?client_id=%zz");
    ASSERT_TRUE(bad_escape);
    EXPECT_EQ(bad_escape->status, 400);
    auto unknown = api_get("/rooms/0123/messages");
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->status, 404) << "IDs with a leading zero are not an endpoint";
    auto utf8 = client()->Post("/v2/rooms/2100/messages", httplib::Headers{{"x-servicetoken", kAliceToken}},
                               "body=%FF%FE%80", "application/x-www-form-urlencoded");
    ASSERT_TRUE(utf8);
    EXPECT_EQ(utf8->status, 200);
    auto read = api_get("/rooms/2100/messages");
    ASSERT_TRUE(read) << "invalid UTF-8 in stored data must not break the JSON writer";
    EXPECT_EQ(read->status, 200);
}

}  // namespace
}  // namespace roomkey::sandbox::testing
