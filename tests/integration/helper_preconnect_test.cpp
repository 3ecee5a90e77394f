// helper_preconnect_test.cpp: the helper opens its upstream connections
// before a sign-in's requests need them (UpstreamClient::preconnect,
// Proxy::callback_arrived), on real sockets against an upstream that counts
// its TLS handshakes: the connections opened ahead are the ones the requests
// then use, no more are opened than asked for, an upstream that fails the
// certificate check gets none, and only a redirect that carries a code
// opens any.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <iterator>
#include <thread>
#include <vector>

#include "common/tls.hpp"
#include "helper/route_policy.hpp"
#include "helper/upstream_client.hpp"
#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/endpoints.hpp"
#include "support/free_port.hpp"
#include "support/helper_fixture.hpp"
#include "support/why_no_answer.hpp"

// A namespace of its own: the fixture's name, UpstreamPreconnect, is also
// helper/proxy.hpp's callback type, and the test files build as one unit.
namespace roomkey::helper::preconnect_tests {
namespace {

// testing::StubUpstream (200 to everything) that also counts the TLS
// connections begun and completed, and the client's closes.
class CountingUpstream {
public:
    // `keep_alive_seconds`: how long it keeps a connection with no request on it.
    // `handshake_delay`: how long each TLS handshake waits before this server answers it.
    CountingUpstream(const std::string& cert, const std::string& key, time_t keep_alive_seconds = 5,
                     std::chrono::milliseconds handshake_delay = {})
        : handshake_delay_(handshake_delay),
          stub_(cert, key, {}, "127.0.0.1", [this, keep_alive_seconds](httplib::SSLServer& server) {
              server.set_keep_alive_timeout(keep_alive_seconds);
              SSL_CTX_set_app_data(server.ssl_context(), this);
              SSL_CTX_set_info_callback(server.ssl_context(), &CountingUpstream::on_tls_event);
          }) {}

    bool ok() const { return stub_.ok(); }
    std::string origin() const { return stub_.origin(); }
    int port() const { return stub_.port(); }
    // TLS connections that began a handshake, and that completed one.
    std::size_t attempts() const { return attempts_.load(); }
    std::size_t handshakes() const { return handshakes_.load(); }
    std::size_t closed_by_client() const { return closed_by_client_.load(); }
    std::size_t requests() const { return stub_.targets().size(); }

private:
    // Each connection counts once per stage, marked on its SSL object
    // (OpenSSL may report a TLS 1.3 handshake's start and end again around
    // its session tickets).
    static void on_tls_event(const SSL* ssl, int where, int value) {
        auto* self = static_cast<CountingUpstream*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
        void* stage = SSL_get_app_data(ssl);
        if ((where & SSL_CB_HANDSHAKE_START) != 0 && stage == nullptr) {
            SSL_set_app_data(const_cast<SSL*>(ssl), &self->attempts_);
            ++self->attempts_;
            std::this_thread::sleep_for(self->handshake_delay_);  // a far-away service
        }
        if ((where & SSL_CB_HANDSHAKE_DONE) != 0 && stage != &self->handshakes_) {
            SSL_set_app_data(const_cast<SSL*>(ssl), &self->handshakes_);
            ++self->handshakes_;
        }
        // The client's close_notify: it closed the connection.
        if ((where & SSL_CB_READ_ALERT) != 0 && (value & 0xff) == SSL_AD_CLOSE_NOTIFY) ++self->closed_by_client_;
    }

    // Before the server: its threads use these until it has stopped.
    std::chrono::milliseconds handshake_delay_;
    std::atomic<std::size_t> attempts_{0};
    std::atomic<std::size_t> handshakes_{0};
    std::atomic<std::size_t> closed_by_client_{0};
    testing::StubUpstream stub_;
};

// Waits up to 5 s for `done`.
bool eventually(const std::function<bool()>& done) {
    for (int i = 0; i < 500; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
}

// How many TCP connections to `port` the server has closed and this
// process has not (CLOSE_WAIT).
std::size_t closing_connections_to(int port) {
    const auto rows = testing::tcp_rows();
    return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [port](const testing::TcpRow& row) {
        return row.state == "08" && testing::tcp_row_port(row.remote) == port;
    }));
}

HttpRequest get(const std::string& url) {
    HttpRequest request;
    request.method = Method::Get;
    request.url = url;
    return request;
}

// The dashboard's reads (shared/'s kDashboardReads) sent at once, as the app
// sends them (`status_of` the API path, e.g. "/me"); their statuses, in order.
std::vector<int> dashboard_reads_at_once(const std::function<int(const std::string& path)>& status_of) {
    std::vector<int> statuses(std::size(kDashboardReads), 0);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < statuses.size(); ++i) {
        const std::string path(endpoint_info(kDashboardReads[i]).path);
        threads.emplace_back([&statuses, &status_of, i, path] { statuses[i] = status_of(path); });
    }
    for (auto& t : threads) t.join();
    return statuses;
}

// A state dir with the local CA and its server certificate, which the
// upstream serves and the helper trusts (as with the sandbox).
class UpstreamPreconnect : public ::testing::Test {
protected:
    void SetUp() override {
        auto made = native::ensure_tls_material(dir / "state");
        ASSERT_TRUE(made) << made.error().detail;
        tls = *made;
    }
    // A helper in this dir with `up` as its upstream.
    HelperConfig helper_config(const CountingUpstream& up) const {
        HelperConfig config = testing::test_config(dir);
        testing::use_upstream_origin(config, up.origin());
        return config;
    }

    TempDir dir;
    std::optional<native::TlsMaterial> tls;
};
// The same, through a running helper.
class HelperPreconnect : public UpstreamPreconnect {};

// Asks `client` for `connections` to the origin of `url` and waits until
// they are open or have failed.
void open_ahead(UpstreamClient& client, const std::string& url, std::size_t connections) {
    client.preconnect(url, connections);
    client.wait_for_preconnects();
}

TEST_F(UpstreamPreconnect, ConnectionsOpenedAheadAreTheOnesTheNextRequestsUse) {
    CountingUpstream up(tls->server_cert_path, tls->server_key_path);
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    UpstreamClient client({tls->ca_cert_path});

    open_ahead(client, up.origin() + "/v2", 3);
    EXPECT_EQ(client.idle_connections(up.origin()), 3u);
    // The server counts a handshake when it reads the client's last message,
    // a moment after the client is done with it.
    EXPECT_TRUE(eventually([&] { return up.handshakes() == 3; })) << up.handshakes();
    EXPECT_EQ(up.requests(), 0u) << "opening a connection sends no request";

    const auto statuses = dashboard_reads_at_once([&](const std::string& path) {
        auto answer = client.send(get(up.origin() + "/v2" + path));
        return answer ? answer->status : -1;
    });
    EXPECT_EQ(statuses, (std::vector<int>{200, 200, 200}));
    EXPECT_EQ(up.handshakes(), 3u) << "the three requests went over the connections opened ahead";
    EXPECT_EQ(up.requests(), 3u);
}

TEST_F(UpstreamPreconnect, OpensOnlyWhatIsMissing) {
    CountingUpstream up(tls->server_cert_path, tls->server_key_path);
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    UpstreamClient client({tls->ca_cert_path});

    ASSERT_TRUE(client.send(get(up.origin() + "/v2/me")))
        << "GET /v2/me through the upstream client failed";  // leaves one idle connection
    client.preconnect(up.origin() + "/oauth", 1);           // already there: nothing
    client.preconnect(up.origin() + "/v2", 3);              // two more
    client.preconnect(up.origin() + "/v2", 2);              // open or opening already: nothing
    client.wait_for_preconnects();
    EXPECT_EQ(client.idle_connections(up.origin()), 3u);
    EXPECT_TRUE(eventually([&] { return up.handshakes() == 3; })) << up.handshakes();
    EXPECT_EQ(up.attempts(), 3u);
}

// A request that comes while the connection opened for it is still
// handshaking (a far-away service, a page that loaded fast) waits for that
// one rather than starting a handshake of its own.
TEST_F(UpstreamPreconnect, ARequestWaitsForTheConnectionBeingOpenedForIt) {
    CountingUpstream up(tls->server_cert_path, tls->server_key_path, 5, std::chrono::milliseconds(300));
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    UpstreamClient client({tls->ca_cert_path});
    client.preconnect(up.origin() + "/v2", 1);
    ASSERT_TRUE(eventually([&] { return up.attempts() == 1; }))
        << "the preconnect never reached the upstream: " << up.attempts() << " attempts";  // under way
    auto answer = client.send(get(up.origin() + "/v2/me"));
    ASSERT_TRUE(answer) << to_string(answer.error());
    EXPECT_EQ(answer->status, 200);
    EXPECT_EQ(up.attempts(), 1u) << "the request took the connection being opened";
    EXPECT_EQ(up.requests(), 1u);
}

// A connection opened ahead has the service's TLS 1.3 session tickets
// waiting unread; httplib's check before reuse takes them for a sign of life
// even when the service has closed the connection behind them. Sent there, a
// POST (a single-use code) would fail after it was sent: no answer, and no
// safe way to resend it.
TEST_F(UpstreamPreconnect, AConnectionTheServiceClosedBeforeItsFirstRequestIsNotUsed) {
    CountingUpstream up(tls->server_cert_path, tls->server_key_path, /*keep_alive_seconds=*/1);
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    // The helper keeps idle ones 2 s, the service here 1 s: under load the
    // close was seen only after the helper had already dropped it (the
    // test then failed on the pool, not on the property). Kept 60 s here.
    UpstreamTimeouts timeouts;
    timeouts.idle = std::chrono::seconds(60);
    UpstreamClient client({tls->ca_cert_path}, timeouts);
    open_ahead(client, up.origin() + "/oauth", 1);
    ASSERT_EQ(client.idle_connections(up.origin()), 1u);
    // The service gives up on it after 1 s (it closes without a TLS
    // close_notify: the helper's end sees only the FIN).
    ASSERT_TRUE(eventually([&] { return closing_connections_to(up.port()) == 1; }))
        << "the upstream never closed the idle connection";
    ASSERT_EQ(client.idle_connections(up.origin()), 1u) << "still in the pool, as the service's close arrives";

    HttpRequest post;
    post.method = Method::Post;
    post.url = up.origin() + "/oauth/token";
    post.headers.set("Content-Type", "application/x-www-form-urlencoded");
    post.body = "grant_type=authorization_code&code=c0de";
    auto answer = client.send(post);
    ASSERT_TRUE(answer) << "the closed connection was used: " << to_string(answer.error());
    EXPECT_EQ(answer->status, 200);
    EXPECT_EQ(up.requests(), 1u);
    EXPECT_EQ(up.handshakes(), 2u) << "a new connection carried it";
}

// Unused, they are closed when they expire, with no request to that origin
// to prune them: each holds one of the service's worker threads.
TEST_F(UpstreamPreconnect, UnusedConnectionsAreClosedWhenTheyExpire) {
    CountingUpstream up(tls->server_cert_path, tls->server_key_path);
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    UpstreamClient client({tls->ca_cert_path});
    open_ahead(client, up.origin() + "/v2", 3);
    EXPECT_TRUE(eventually([&] { return up.handshakes() == 3; }));
    EXPECT_EQ(up.closed_by_client(), 0u);
    std::this_thread::sleep_for(std::chrono::seconds(kUpstreamIdleSeconds));
    EXPECT_TRUE(eventually([&] { return up.closed_by_client() == 3; })) << up.closed_by_client();
}

TEST_F(UpstreamPreconnect, AnUpstreamWhoseCertificateFailsGetsNoConnection) {
    auto foreign = native::ensure_tls_material(dir / "foreign");  // another CA, not trusted
    ASSERT_TRUE(foreign) << foreign.error().detail;
    CountingUpstream up(foreign->server_cert_path, foreign->server_key_path);
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    UpstreamClient client({tls->ca_cert_path});

    open_ahead(client, up.origin() + "/v2", 3);
    EXPECT_EQ(client.idle_connections(up.origin()), 0u);
    EXPECT_TRUE(eventually([&] { return up.attempts() == 3; })) << "all three were tried: " << up.attempts();
    EXPECT_EQ(up.handshakes(), 0u) << "the client refuses the certificate before the handshake is done";
    auto answer = client.send(get(up.origin() + "/v2/me"));
    ASSERT_FALSE(answer) << "answered " << answer->status << " through an untrusted certificate";
    EXPECT_EQ(answer.error(), UpstreamError::tls_failed) << "the request still reports its own failure";
    EXPECT_EQ(up.requests(), 0u);
}

TEST_F(UpstreamPreconnect, NothingListeningAndBadUrlsAreIgnored) {
    UpstreamClient client({tls->ca_cert_path});
    const std::string closed = "https://127.0.0.1:" + std::to_string(integration::free_port()) + "/v2";
    client.preconnect(closed, 3);
    client.preconnect("http://127.0.0.1:1/v2", 3);  // not https: send() refuses it too
    client.preconnect("not a url", 3);
    client.wait_for_preconnects();
    EXPECT_EQ(client.idle_connections(closed), 0u);
    auto answer = client.send(get(closed + "/me"));
    ASSERT_FALSE(answer) << "answered " << answer->status << " from a closed port";
    EXPECT_EQ(answer.error(), UpstreamError::connect_failed);
}

// The helper: a sign-in that comes back to /callback with a code opens the
// token request's connection and the dashboard reads' ones; the exchange and
// the reads then open none.
TEST_F(HelperPreconnect, ACallbackWithACodeOpensTheConnectionsOfTheTokenRequestAndTheDashboard) {
    CountingUpstream up(tls->server_cert_path, tls->server_key_path);
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    RunningHelper helper(helper_config(up));
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto browser = helper.client();

    auto page = browser->Get("/callback?code=c0de&state=st4te");
    ASSERT_TRUE(page) << why_no_answer(page);
    EXPECT_EQ(page->status, 200);
    // The token endpoint and the API share this upstream's origin: one
    // connection for the exchange, which it hands back for the reads.
    ASSERT_TRUE(eventually([&] { return up.handshakes() == std::size(kDashboardReads); }))
        << "handshakes: " << up.handshakes();
    EXPECT_EQ(up.requests(), 0u);

    auto token =
        browser->Post("/oauth/token", helper.app_headers(),
                      "grant_type=authorization_code&code=c0de&redirect_uri=x&code_verifier=v&client_id=web-client",
                      "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 200);
    const auto statuses = dashboard_reads_at_once([&](const std::string& path) {
        auto own = helper.client();  // a connection of its own, as the page's three fetches
        auto answer = own->Get(("/api" + path).c_str(), {{"X-Roomkey-Request", "1"}, {"Authorization", "Bearer AT"}});
        return answer ? answer->status : -1;
    });
    EXPECT_EQ(statuses, (std::vector<int>{200, 200, 200}));
    EXPECT_EQ(up.handshakes(), std::size(kDashboardReads)) << "the exchange and the reads used the open connections";
}

TEST_F(HelperPreconnect, OnlyANavigationWithACodeOpensConnectionsAndNotWithNoPreconnect) {
    CountingUpstream up(tls->server_cert_path, tls->server_key_path);
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    HelperConfig config = helper_config(up);
    {
        RunningHelper helper(config);
        ASSERT_TRUE(helper.ok()) << helper.error();
        auto browser = helper.client();
        auto denied = browser->Get("/callback?error=access_denied&state=st4te");
        ASSERT_TRUE(denied) << why_no_answer(denied);
        EXPECT_EQ(denied->status, 200) << "the app page still shows the error";
        auto plain = browser->Get("/callback");
        ASSERT_TRUE(plain) << why_no_answer(plain);
        EXPECT_EQ(plain->status, 200);
        // Another page loading the redirect URI as an image, and a HEAD.
        auto image = browser->Get("/callback?code=c0de&state=st4te", {{"Sec-Fetch-Dest", "image"}});
        ASSERT_TRUE(image) << why_no_answer(image);
        auto head = browser->Head("/callback?code=c0de&state=st4te");
        ASSERT_TRUE(head) << why_no_answer(head);
        helper.server().upstream().wait_for_preconnects();
        EXPECT_EQ(helper.server().upstream().idle_connections(up.origin()), 0u);

        // The control: the browser's navigation (Sec-Fetch-Dest: document).
        auto page = browser->Get("/callback?code=c0de&state=st4te", {{"Sec-Fetch-Dest", "document"}});
        ASSERT_TRUE(page) << why_no_answer(page);
        helper.server().upstream().wait_for_preconnects();
        EXPECT_EQ(helper.server().upstream().idle_connections(up.origin()), std::size(kDashboardReads));
    }
    const std::size_t opened = up.attempts();
    config.preconnect = false;
    {
        RunningHelper helper(config);
        ASSERT_TRUE(helper.ok()) << helper.error();
        auto page = helper.client()->Get("/callback?code=c0de&state=st4te");
        ASSERT_TRUE(page) << why_no_answer(page);
        EXPECT_EQ(page->status, 200);
        helper.server().upstream().wait_for_preconnects();
        EXPECT_EQ(helper.server().upstream().idle_connections(up.origin()), 0u);
    }
    EXPECT_EQ(up.attempts(), opened) << "--no-preconnect: no connection was opened";
}

// A handshake the service never answers ends at the connect timeout, and a
// helper stopping meanwhile waits for no more than that.
TEST_F(UpstreamPreconnect, AStalledHandshakeGivesUpAtTheConnectTimeout) {
    // Accepts TCP connections (the kernel does, into the backlog) and never speaks TLS.
    const int silent = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(silent, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ASSERT_EQ(bind(silent, reinterpret_cast<sockaddr*>(&address), length), 0);
    ASSERT_EQ(listen(silent, 8), 0);
    ASSERT_EQ(getsockname(silent, reinterpret_cast<sockaddr*>(&address), &length), 0);
    const std::string origin = "https://127.0.0.1:" + std::to_string(ntohs(address.sin_port));

    UpstreamTimeouts timeouts;
    timeouts.connect = std::chrono::milliseconds(300);
    const auto started = std::chrono::steady_clock::now();
    {
        UpstreamClient client({tls->ca_cert_path}, timeouts);
        client.preconnect(origin + "/v2", 3);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the handshakes are under way
    }
    const auto waited = std::chrono::steady_clock::now() - started;
    close(silent);
    // Unbounded, it would wait for the read timeout (30 s) or forever.
    EXPECT_LT(waited, std::chrono::seconds(5));
}

}  // namespace
}  // namespace roomkey::helper::preconnect_tests
