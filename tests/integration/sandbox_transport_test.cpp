// sandbox_transport_test.cpp: roomkey-sandbox's transport rules on real
// sockets: HTTPS only (spec 4.1.1), the local CA, the ready line, the page
// headers of the consent screen, no CORS, Host checking, size limits, the
// same headers on cpp-httplib's own answers, request framing (no smuggled
// second request) and enough worker threads for idle connections.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <regex>

#include "roomkey/upload_limits.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

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

// spec 4.1.1: HTTPS with a certificate from the local CA in the state directory.
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

// Scripts read one machine-readable ready line naming the three base addresses.
TEST_F(SandboxTransport, ReadyLineNamesTheThreeAddresses) {
    const std::string line = sandbox().ready_line();
    const std::string port = std::to_string(sandbox().port());
    EXPECT_EQ(line, "roomkey-sandbox: ready base_url=https://127.0.0.1:" + port +
                        "/v2 auth_url=https://127.0.0.1:" + port +
                        "/oauth consent_url=https://127.0.0.1:" + port + "/consent");
    EXPECT_EQ(line.find('\n'), std::string::npos);
}

// No clickjacking, no cross-origin reads: the consent screen cannot be framed and sends no CORS headers.
TEST_F(SandboxTransport, PagesForbidFramingAndSendNoCors_spec4_2) {
    const PkcePair pkce = make_pkce(kRandom);
    Browser browser;
    auto page = open_consent(browser, web_request(pkce));
    ASSERT_TRUE(page) << why_no_answer(page);
    ASSERT_EQ(page->status, 200) << page->body;
    EXPECT_EQ(page->get_header_value("X-Frame-Options"), "DENY");
    EXPECT_NE(page->get_header_value("Content-Security-Policy").find("frame-ancestors 'none'"), std::string::npos);
    EXPECT_NE(page->get_header_value("Content-Type").find("text/html"), std::string::npos);

    for (const char* path : {"/consent", "/v2/me", "/oauth/token", "/"}) {
        auto res = get(path, {{"Origin", "https://evil.example"}, {"x-servicetoken", kAliceToken}});
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_FALSE(res->has_header("Access-Control-Allow-Origin")) << path << " must not send CORS headers";
        EXPECT_FALSE(res->has_header("Access-Control-Allow-Credentials")) << path;
    }
    // A CORS preflight is never granted.
    auto preflight = client()->Options("/oauth/token", httplib::Headers{{"Origin", "https://evil.example"},
                                                                         {"Access-Control-Request-Method", "POST"}});
    ASSERT_TRUE(preflight) << why_no_answer(preflight);
    EXPECT_EQ(preflight->status, 405);
    EXPECT_FALSE(preflight->has_header("Access-Control-Allow-Origin"));
    EXPECT_EQ(preflight->get_header_value("X-Frame-Options"), "DENY");
}

// A browser tricked by DNS rebinding sends its own host name: refused.
TEST_F(SandboxTransport, ForeignHostHeaderIsRefused) {
    auto res = get("/v2/me", {{"Host", "evil.example:" + std::to_string(sandbox().port())},
                              {"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 403);
    auto ok = get("/v2/me", {{"Host", "localhost:" + std::to_string(sandbox().port())},
                             {"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(ok) << why_no_answer(ok);
    EXPECT_EQ(ok->status, 200);
    // The sandbox listens on 127.0.0.1 only: a [::1] name is not its own.
    auto v6 = get("/v2/me", {{"Host", "[::1]:" + std::to_string(sandbox().port())}, {"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(v6) << why_no_answer(v6);
    EXPECT_EQ(v6->status, 403);
}

// Bounded request sizes: no request can exhaust the sandbox's memory.
TEST_F(SandboxTransport, OversizedBodyIsRefused) {
    const std::string big(kMaxRequestBodyBytes, 'a');
    auto res = client()->Post("/v2/rooms/2100/messages", httplib::Headers{{"x-servicetoken", kAliceToken}},
                              "body=" + big, "application/x-www-form-urlencoded");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 413);
}

// spec 4.2: answers cpp-httplib makes itself (413 for a body over
// the limit, 414 for a long target) carry the same security headers as the
// app's: no framing, no CORS, and a spec 2.7 error body.
TEST_F(SandboxTransport, HttpLayerErrorsCarryTheSecurityHeaders_spec4_2) {
    auto too_large = client()->Post("/consent", httplib::Headers{{"Origin", "https://evil.example"}},
                                    "request=" + std::string(kMaxRequestBodyBytes, 'a'), "application/x-www-form-urlencoded");
    auto too_long = get("/v2/" + std::string(10000, 'a'), {{"Origin", "https://evil.example"}});
    for (const auto* res : {&too_large, &too_long}) {
        ASSERT_TRUE(*res) << why_no_answer(*res);
        const httplib::Response& r = **res;
        EXPECT_TRUE(r.status == 413 || r.status == 414) << r.status;
        EXPECT_EQ(r.get_header_value("X-Frame-Options"), "DENY") << r.status;
        EXPECT_NE(r.get_header_value("Content-Security-Policy").find("frame-ancestors 'none'"), std::string::npos)
            << r.status;
        EXPECT_EQ(r.get_header_value("X-Content-Type-Options"), "nosniff") << r.status;
        EXPECT_FALSE(r.has_header("Access-Control-Allow-Origin")) << r.status;
        EXPECT_EQ(r.get_header_value("Cache-Control"), "no-store") << r.status;
        EXPECT_NE(r.body.find("\"errors\""), std::string::npos) << r.status << ": " << r.body;
    }
    EXPECT_EQ(too_large->status, 413);
    EXPECT_EQ(too_long->status, 414);
}

// Security (request smuggling): a refused request's body must never be
// parsed as a second request on the same connection. POST bodies are read
// before the Host check; bodies httplib does not read (GET, HEAD, OPTIONS,
// DELETE without Content-Length) end the connection.
TEST_F(SandboxTransport, RefusedRequestBodyIsNeverASecondRequest) {
    const std::string port = std::to_string(sandbox().port());
    const std::string form = "body=smuggled";
    const std::string inner =
        "POST /v2/rooms/2101/messages HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nx-servicetoken: " + kAliceToken +
        "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + std::to_string(form.size()) +
        "\r\n\r\n" + form;
    auto outer = [&](const std::string& method, const std::string& host, const std::string& framing) {
        return method + " /v2/rooms/2100/messages HTTP/1.1\r\nHost: " + host +
               "\r\nContent-Type: application/x-www-form-urlencoded\r\n" + framing + "\r\n";
    };
    const std::string length = "Content-Length: " + std::to_string(inner.size()) + "\r\n";
    char hex[32];
    std::snprintf(hex, sizeof hex, "%zx", inner.size());
    const std::string chunked_body = std::string(hex) + "\r\n" + inner + "\r\n0\r\n\r\n";

    // The outer headers go first; the body follows in its own TLS record once
    // the server has answered them, as a large body would.
    struct Case {
        std::string what;
        std::string head;
        std::string body;
        int status;
    };
    const std::vector<Case> cases{
        {"POST, foreign Host", outer("POST", "evil.example:" + port, length), inner, 403},
        {"GET with a body", outer("GET", "evil.example:" + port, length), inner, 400},
        {"OPTIONS with a body", outer("OPTIONS", "127.0.0.1:" + port, length), inner, 400},
        {"HEAD with a body", outer("HEAD", "127.0.0.1:" + port, length), inner, 400},
        // Chunked bodies are refused outright (httplib reads them without a size limit).
        {"DELETE chunked", outer("DELETE", "evil.example:" + port, "Transfer-Encoding: chunked\r\n"), chunked_body,
         411},
    };
    for (const auto& c : cases) {
        const RawExchange got = raw_tls_exchange(sandbox().port(), sandbox().ca_cert_path(), {c.head, c.body});
        EXPECT_EQ(got.responses(), 1u) << c.what << ": the body was answered as a request:\n" << got.received;
        EXPECT_EQ(got.received.rfind("HTTP/1.1 " + std::to_string(c.status), 0), 0u) << c.what << ":\n" << got.received;
        if (c.status != 403) {
            EXPECT_TRUE(got.closed_by_server) << c.what << ": the connection must end";
        }
    }
    auto messages = api_get("/rooms/2101/messages?force=1");
    ASSERT_TRUE(messages) << why_no_answer(messages);
    EXPECT_EQ(messages->body.find("smuggled"), std::string::npos) << "the smuggled request was executed";
}

// Keep-alive still works for requests without that problem.
TEST_F(SandboxTransport, KeepAliveServesSequentialRequests) {
    const std::string request = "GET /v2/me HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(sandbox().port()) +
                                "\r\nx-servicetoken: " + kAliceToken + "\r\n\r\n";
    const RawExchange got = raw_tls_exchange(sandbox().port(), sandbox().ca_cert_path(), {request, request});
    EXPECT_EQ(got.responses(), 2u) << got.received;
    EXPECT_FALSE(got.closed_by_server);
}

// Each idle connection holds a worker thread until its read
// timeout (10 s); 24 of them must not stall the sandbox (16 threads did).
TEST_F(SandboxTransport, IdleConnectionsDoNotBlockRequests) {
    std::vector<int> idle;
    for (int i = 0; i < 24; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        ASSERT_GE(fd, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(sandbox().port()));
        ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
        ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        idle.push_back(fd);  // no TLS handshake: the server's thread waits in SSL_accept
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto started = std::chrono::steady_clock::now();
    auto res = api_get("/me");
    const auto waited = std::chrono::steady_clock::now() - started;
    for (int fd : idle) ::close(fd);
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count(), 3000)
        << "the request waited for a worker thread";
}

// No crash on junk: odd methods, bad escapes, unknown paths.
TEST_F(SandboxTransport, JunkRequestsGetErrorsNotCrashes) {
    auto c = client();
    auto patch = c->Patch("/v2/me", "x", "text/plain");
    ASSERT_TRUE(patch) << why_no_answer(patch);
    EXPECT_EQ(patch->status, 400) << "the service's answer to a method it lacks (hubot-chatwork #6)";
    auto bad_escape = get("/consent?client_id=%zz");
    ASSERT_TRUE(bad_escape) << why_no_answer(bad_escape);
    EXPECT_EQ(bad_escape->status, 400);
    auto unknown = api_get("/rooms/0123/messages");
    ASSERT_TRUE(unknown) << why_no_answer(unknown);
    EXPECT_EQ(unknown->status, 400) << "IDs with a leading zero are not an endpoint";
    auto utf8 = client()->Post("/v2/rooms/2100/messages", httplib::Headers{{"x-servicetoken", kAliceToken}},
                               "body=%FF%FE%80", "application/x-www-form-urlencoded");
    ASSERT_TRUE(utf8) << why_no_answer(utf8);
    EXPECT_EQ(utf8->status, 200);
    auto read = api_get("/rooms/2100/messages");
    ASSERT_TRUE(read) << "invalid UTF-8 in stored data must not break the JSON writer";
    EXPECT_EQ(read->status, 200);
}

}  // namespace
}  // namespace roomkey::sandbox::testing
