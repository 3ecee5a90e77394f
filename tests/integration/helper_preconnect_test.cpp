// helper_preconnect_test.cpp: the helper opens its upstream connections
// before a sign-in's requests need them (UpstreamClient::preconnect,
// Proxy::callback_arrived), on real sockets against an upstream that counts
// its TLS handshakes: the connections opened ahead are the ones the requests
// then use, no more are opened than asked for, an upstream that fails the
// certificate check gets none, and only a redirect that carries a code
// opens any.
#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <iterator>
#include <thread>
#include <vector>

#include "common/loopback_server.hpp"
#include "common/tls.hpp"
#include "helper/upstream_client.hpp"
#include "roomkey/endpoints.hpp"
#include "support/free_port.hpp"
#include "support/helper_fixture.hpp"

namespace roomkey::helper {
namespace {

using testing::RunningHelper;
using testing::TempDir;

// An HTTPS upstream that answers every GET and POST with 200 and counts the
// TLS connections it completed.
class CountingUpstream {
public:
    CountingUpstream(const std::string& cert, const std::string& key) : server_(cert.c_str(), key.c_str()) {
        native::harden_server(server_);
        SSL_CTX_set_app_data(server_.ssl_context(), this);
        SSL_CTX_set_info_callback(server_.ssl_context(), &CountingUpstream::on_tls_event);
        auto answer = [this](const httplib::Request& req, httplib::Response& res) {
            ++requests_;
            (void)req;
            res.set_content(R"({"access_token":"AT","token_type":"Bearer","expires_in":1800})", "application/json");
        };
        server_.Get(".*", answer);
        server_.Post(".*", answer);
        if (auto port = native::bind_loopback(server_, "127.0.0.1", 0)) port_ = *port;
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~CountingUpstream() {
        server_.stop();
        thread_.join();
    }
    CountingUpstream(const CountingUpstream&) = delete;
    CountingUpstream& operator=(const CountingUpstream&) = delete;

    std::string origin() const { return "https://127.0.0.1:" + std::to_string(port_); }
    std::size_t handshakes() const { return handshakes_.load(); }
    int requests() const { return requests_.load(); }

private:
    // Each connection is counted once, when its handshake is done (marked on
    // the SSL object: OpenSSL may report a TLS 1.3 handshake done again
    // around its session tickets).
    static void on_tls_event(const SSL* ssl, int where, int) {
        if ((where & SSL_CB_HANDSHAKE_DONE) == 0 || SSL_get_app_data(ssl) != nullptr) return;
        auto* self = static_cast<CountingUpstream*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
        SSL_set_app_data(const_cast<SSL*>(ssl), self);
        ++self->handshakes_;
    }

    httplib::SSLServer server_;
    int port_ = 0;
    std::thread thread_;
    std::atomic<std::size_t> handshakes_{0};
    std::atomic<int> requests_{0};
};

// Waits up to 5 s for `done`.
bool eventually(const std::function<bool()>& done) {
    for (int i = 0; i < 500; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
}

HttpRequest get(const std::string& url) {
    HttpRequest request;
    request.method = Method::Get;
    request.url = url;
    return request;
}

// Three GETs at once, as the app sends its dashboard reads; their statuses.
std::vector<int> three_at_once(UpstreamClient& client, const std::string& base) {
    std::vector<int> statuses(3, 0);
    std::vector<std::thread> threads;
    const char* const paths[] = {"/me", "/my/status", "/rooms"};
    for (int i = 0; i < 3; ++i) {
        threads.emplace_back([&, i] {
            auto answer = client.send(get(base + paths[i]));
            statuses[static_cast<std::size_t>(i)] = answer ? answer->status : -1;
        });
    }
    for (auto& t : threads) t.join();
    return statuses;
}

struct Fixture {
    TempDir dir;
    std::optional<native::TlsMaterial> tls;
    Fixture() {
        auto made = native::ensure_tls_material(dir / "state");
        if (made) tls = *made;
    }
};

TEST(UpstreamPreconnect, ConnectionsOpenedAheadAreTheOnesTheNextRequestsUse) {
    Fixture f;
    ASSERT_TRUE(f.tls);
    CountingUpstream up(f.tls->server_cert_path, f.tls->server_key_path);
    UpstreamClient client({f.tls->ca_cert_path});

    client.preconnect(up.origin() + "/v2", 3);
    ASSERT_TRUE(eventually([&] { return client.idle_connections(up.origin()) == 3; }))
        << "idle: " << client.idle_connections(up.origin());
    EXPECT_EQ(up.handshakes(), 3u);
    EXPECT_EQ(up.requests(), 0) << "opening a connection sends no request";

    EXPECT_EQ(three_at_once(client, up.origin() + "/v2"), (std::vector<int>{200, 200, 200}));
    EXPECT_EQ(up.handshakes(), 3u) << "the three requests went over the connections opened ahead";
    EXPECT_EQ(up.requests(), 3);
}

TEST(UpstreamPreconnect, OpensOnlyWhatIsMissing) {
    Fixture f;
    ASSERT_TRUE(f.tls);
    CountingUpstream up(f.tls->server_cert_path, f.tls->server_key_path);
    UpstreamClient client({f.tls->ca_cert_path});

    ASSERT_TRUE(client.send(get(up.origin() + "/v2/me")));  // leaves one idle connection
    client.preconnect(up.origin() + "/oauth", 1);           // already there: nothing
    client.preconnect(up.origin() + "/v2", 3);              // two more
    client.preconnect(up.origin() + "/v2", 2);              // asked for while they open: nothing
    ASSERT_TRUE(eventually([&] { return client.idle_connections(up.origin()) == 3; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(up.handshakes(), 3u);
    EXPECT_EQ(client.idle_connections(up.origin()), 3u);
}

TEST(UpstreamPreconnect, AnUpstreamWhoseCertificateFailsGetsNoConnection) {
    Fixture f;
    ASSERT_TRUE(f.tls);
    auto foreign = native::ensure_tls_material(f.dir / "foreign");  // another CA, not trusted
    ASSERT_TRUE(foreign);
    CountingUpstream up(foreign->server_cert_path, foreign->server_key_path);
    UpstreamClient client({f.tls->ca_cert_path});

    client.preconnect(up.origin() + "/v2", 3);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(client.idle_connections(up.origin()), 0u);
    EXPECT_EQ(up.handshakes(), 0u) << "the handshake fails on the client's side, before it is done";
    auto answer = client.send(get(up.origin() + "/v2/me"));
    ASSERT_FALSE(answer);
    EXPECT_EQ(answer.error(), UpstreamError::tls_failed) << "the request still reports its own failure";
    EXPECT_EQ(up.requests(), 0);
}

TEST(UpstreamPreconnect, NothingListeningAndBadUrlsAreIgnored) {
    Fixture f;
    ASSERT_TRUE(f.tls);
    UpstreamClient client({f.tls->ca_cert_path});
    const std::string closed = "https://127.0.0.1:" + std::to_string(integration::free_port()) + "/v2";
    client.preconnect(closed, 3);
    client.preconnect("http://127.0.0.1:1/v2", 3);  // not https: send() refuses it too
    client.preconnect("not a url", 3);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(client.idle_connections(closed), 0u);
    auto answer = client.send(get(closed + "/me"));
    ASSERT_FALSE(answer);
    EXPECT_EQ(answer.error(), UpstreamError::connect_failed);
}

// The helper: a sign-in that comes back to /callback with a code opens the
// token request's connection and the dashboard reads' ones; the exchange and
// the reads then open none.
TEST(HelperPreconnect, ACallbackWithACodeOpensTheConnectionsOfTheTokenRequestAndTheDashboard) {
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    CountingUpstream up(tls->server_cert_path, tls->server_key_path);
    HelperConfig config = testing::test_config(dir);
    testing::use_upstream_origin(config, up.origin());
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto browser = helper.client();

    auto page = browser->Get("/callback?code=c0de&state=st4te");
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    // The token endpoint and the API share this upstream's origin: one
    // connection for the exchange, which it hands back for the reads.
    ASSERT_TRUE(eventually([&] { return up.handshakes() == std::size(kDashboardReads); }))
        << "handshakes: " << up.handshakes();
    EXPECT_EQ(up.requests(), 0);

    auto token =
        browser->Post("/oauth/token", helper.app_headers(),
                      "grant_type=authorization_code&code=c0de&redirect_uri=x&code_verifier=v&client_id=web-client",
                      "application/x-www-form-urlencoded");
    ASSERT_TRUE(token);
    EXPECT_EQ(token->status, 200);
    std::vector<std::thread> reads;
    std::vector<int> statuses(3, 0);
    const char* const paths[] = {"/api/me", "/api/my/status", "/api/rooms"};
    for (int i = 0; i < 3; ++i) {
        reads.emplace_back([&, i] {
            auto own = helper.client();  // a connection of its own, as the page's three fetches
            auto answer = own->Get(paths[i], {{"X-Roomkey-Request", "1"}, {"Authorization", "Bearer AT"}});
            statuses[static_cast<std::size_t>(i)] = answer ? answer->status : -1;
        });
    }
    for (auto& t : reads) t.join();
    EXPECT_EQ(statuses, (std::vector<int>{200, 200, 200}));
    EXPECT_EQ(up.handshakes(), std::size(kDashboardReads)) << "the exchange and the reads used the open connections";
}

TEST(HelperPreconnect, ADeniedSignInOrNoPreconnectOpensNothing) {
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    CountingUpstream up(tls->server_cert_path, tls->server_key_path);

    HelperConfig config = testing::test_config(dir);
    testing::use_upstream_origin(config, up.origin());
    {
        RunningHelper helper(config);
        ASSERT_TRUE(helper.ok()) << helper.error();
        auto page = helper.client()->Get("/callback?error=access_denied&state=st4te");
        ASSERT_TRUE(page);
        EXPECT_EQ(page->status, 200) << "the app page still shows the error";
        auto plain = helper.client()->Get("/callback");
        ASSERT_TRUE(plain);
        EXPECT_EQ(plain->status, 200);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // what would have opened has
    }
    config.preconnect = false;
    {
        RunningHelper helper(config);
        ASSERT_TRUE(helper.ok()) << helper.error();
        auto page = helper.client()->Get("/callback?code=c0de&state=st4te");
        ASSERT_TRUE(page);
        EXPECT_EQ(page->status, 200);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    EXPECT_EQ(up.handshakes(), 0u);
}

}  // namespace
}  // namespace roomkey::helper
