// helper_loopback_server_test.cpp: what helper/common/loopback_server gives
// every roomkey server (the helper and the sandbox), on real sockets: the
// request-framing guard against cpp-httplib (0.11.4, and still 0.18.7)
// parsing leftover bytes as the next request: an unread body, and the
// bodies it may frame otherwise than a front would (a GET's, a chunked one).
#include <gtest/gtest.h>

#include <atomic>

#include "common/loopback_server.hpp"
#include "common/tls.hpp"
#include "support/helper_fixture.hpp"

namespace roomkey::helper {
namespace {

// A hardened SSLServer on 127.0.0.1 whose GET /inner counts its calls, with
// its own pre-routing handler (when given) behind harden_server's guard.
class GuardedServer {
public:
    explicit GuardedServer(const native::TlsMaterial& tls,
                           std::function<httplib::Server::HandlerResponse(const httplib::Request&, httplib::Response&)>
                               pre_routing = nullptr)
        : server_(tls.server_cert_path.c_str(), tls.server_key_path.c_str()) {
        native::harden_server(server_, {}, std::move(pre_routing));
        server_.Get("/inner", [this](const httplib::Request&, httplib::Response& res) {
            ++inner_calls;
            res.set_content("inner", "text/plain");
        });
        server_.Post("/x", [](const httplib::Request&, httplib::Response& res) { res.set_content("x", "text/plain"); });
        if (auto port = native::bind_loopback(server_, "127.0.0.1", 0)) port_ = *port;
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~GuardedServer() {
        server_.stop();
        thread_.join();
    }
    int port() const { return port_; }
    std::atomic<int> inner_calls{0};

private:
    httplib::SSLServer server_;
    int port_ = 0;
    std::thread thread_;
};

const std::string kInner = "GET /inner HTTP/1.1\r\nHost: x\r\n\r\n";

TEST(HelperLoopbackServer, UnreadBodyEndsTheConnectionWhateverAnsweredIt) {
    // The generic guard in common/loopback_server: a server whose own
    // pre-routing handler answers without reading the body (as the helper's
    // did) still never parses that body as a request. The sandbox gets it too.
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    GuardedServer server(*tls, [](const httplib::Request& req, httplib::Response& res) {
        if (req.method != "POST") return httplib::Server::HandlerResponse::Unhandled;
        res.status = 403;
        return httplib::Server::HandlerResponse::Handled;
    });
    RawTls conn(server.port());
    ASSERT_TRUE(conn.ok()) << "no TLS connection (connect or handshake failed)";
    ASSERT_TRUE(conn.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(kInner.size()) +
                          "\r\n\r\n" + kInner)) << "the connection closed before the request was sent";
    auto res = conn.read_response(3000);
    ASSERT_TRUE(res) << "no complete answer before the read timeout";
    EXPECT_EQ(res->status, 403);
    EXPECT_TRUE(res->has_header("Connection", "close")) << res->head;
    conn.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n");  // makes httplib read on
    EXPECT_FALSE(conn.read_response(1500)) << "the unread body was answered as a request";
    EXPECT_EQ(server.inner_calls.load(), 0);
}

TEST(HelperLoopbackServer, HardenedServerRefusesBodiesHttplibWouldMisread) {
    // harden_server's own pre-routing handler (what the sandbox runs on).
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    GuardedServer server(*tls);
    const std::string n = std::to_string(kInner.size());
    const std::vector<std::pair<std::string, int>> cases = {
        {"GET /inner HTTP/1.1\r\nHost: x\r\nContent-Length: " + n + "\r\n\r\n" + kInner, 400},
        {"POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + kInner, 411},
        {"POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 0, " + n + "\r\n\r\n" + kInner, 400},
        {"POST /x HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: " + n + "\r\n\r\n" + kInner, 415},
    };
    for (const auto& [request, status] : cases) {
        RawTls conn(server.port());
        ASSERT_TRUE(conn.ok()) << "no TLS connection (connect or handshake failed)";
        ASSERT_TRUE(conn.send(request)) << "the connection closed before the request was sent";
        auto res = conn.read_response(3000);
        ASSERT_TRUE(res) << request;
        EXPECT_EQ(res->status, status) << request;
        EXPECT_TRUE(res->has_header("Connection", "close")) << res->head;
        conn.send(kInner);
        EXPECT_FALSE(conn.read_response(1500)) << "answered after: " << request;
    }
    EXPECT_EQ(server.inner_calls.load(), 0);

    // A body-less POST without Content-Length is answered at once (RFC 9112
    // 6.3), not after httplib waited for the peer to close.
    RawTls conn(server.port());
    ASSERT_TRUE(conn.ok()) << "no TLS connection (connect or handshake failed)";
    ASSERT_TRUE(conn.send("POST /x HTTP/1.1\r\nHost: x\r\n\r\n"))
        << "the connection closed before the request was sent";
    auto res = conn.read_response(800);
    ASSERT_TRUE(res) << "no complete answer before the read timeout";
    EXPECT_EQ(res->status, 200);
    // And the connection stays usable.
    ASSERT_TRUE(conn.send(kInner)) << "the connection closed before the request was sent";
    auto next = conn.read_response(3000);
    ASSERT_TRUE(next) << "no complete answer before the read timeout";
    EXPECT_EQ(next->body, "inner");
}

}  // namespace
}  // namespace roomkey::helper
