// helper_serving_test.cpp: roomkey-helper serving the web build over HTTPS on
// real sockets: the app page at / and
// /callback, application/wasm, precompressed variants, caching headers, the
// certificate the local CA signed, and files that must never be served.
#include <gtest/gtest.h>

#include "support/helper_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace {

class HelperServing : public ::testing::Test {
protected:
    void SetUp() override {
        helper_ = std::make_unique<RunningHelper>(testing::test_config(dir_));
        ASSERT_TRUE(helper_->ok()) << helper_->error();
        client_ = helper_->client();
    }
    TempDir dir_;
    std::unique_ptr<RunningHelper> helper_;
    std::unique_ptr<httplib::SSLClient> client_;
};

TEST_F(HelperServing, PageIsServedOverHttpsVerifiedByTheLocalCa) {
    auto res = client_->Get("/");
    ASSERT_TRUE(res) << "TLS with the local CA must verify: " << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->body, testing::kIndexHtml);
    EXPECT_EQ(res->get_header_value("Content-Type"), "text/html; charset=utf-8");
    EXPECT_EQ(res->get_header_value("Cache-Control"), "no-cache") << "the page must be revalidated";
}

TEST_F(HelperServing, LocalhostNameVerifiesToo) {
    httplib::SSLClient c("localhost", helper_->port());
    ASSERT_TRUE(integration::trust_only(c, "localhost", helper_->server().tls()->ca_cert_path))
        << "cannot trust the CA file only: unreadable, or the name check could not be set up";
    auto res = c.Get("/");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
}

TEST_F(HelperServing, CallbackServesTheAppPageWithItsQuery) {
    // The registered redirect URI: the wasm code reads code and state itself.
    auto res = client_->Get("/callback?code=c0de&state=st4te");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->body, testing::kIndexHtml);
    EXPECT_EQ(res->get_header_value("Referrer-Policy"), "no-referrer") << "the code must not leak via Referer";
}

TEST_F(HelperServing, WasmIsServedAsApplicationWasm) {
    auto res = client_->Get("/roomkey.wasm");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/wasm")
        << "instantiateStreaming refuses any other type";
    EXPECT_EQ(res->body, testing::kWasmBytes);
}

TEST_F(HelperServing, HeadAnswersWithoutBody) {
    auto res = client_->Head("/roomkey.wasm");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_TRUE(res->body.empty()) << res->body.size() << " bytes of body in a HEAD answer";
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/wasm");
}

TEST_F(HelperServing, BrotliVariantWhenAccepted) {
    auto res = client_->Get("/roomkey.js", {{"Accept-Encoding", "gzip, deflate, br"}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Content-Encoding"), "br");
    EXPECT_EQ(res->body, "BROTLI-BYTES") << "the .br file, sent as is (not compressed twice)";
    EXPECT_EQ(res->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(res->get_header_value("Vary"), "Accept-Encoding");
}

TEST_F(HelperServing, GzipVariantWhenBrotliIsNotAccepted) {
    auto res = client_->Get("/roomkey.js", {{"Accept-Encoding", "gzip, br;q=0"}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->get_header_value("Content-Encoding"), "gzip");
    EXPECT_EQ(res->body, "GZIP-BYTES");
}

TEST_F(HelperServing, PlainFileWithoutAcceptEncoding) {
    auto res = client_->Get("/roomkey.js", {{"Accept-Encoding", "identity"}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_FALSE(res->has_header("Content-Encoding"));
    EXPECT_EQ(res->body, "console.log('plain');\n");
    EXPECT_EQ(res->get_header_value("Vary"), "Accept-Encoding") << "caches must key on the encoding";
}

TEST_F(HelperServing, HashedAssetsAreImmutableOthersRevalidate) {
    auto hashed = client_->Get("/app.0123abcd.js");
    ASSERT_TRUE(hashed) << why_no_answer(hashed);
    EXPECT_EQ(hashed->get_header_value("Cache-Control"), "public, max-age=31536000, immutable");
    auto plain = client_->Get("/roomkey.wasm");
    ASSERT_TRUE(plain) << why_no_answer(plain);
    EXPECT_EQ(plain->get_header_value("Cache-Control"), "no-cache");
}

TEST_F(HelperServing, EtagRevalidationAnswers304) {
    auto first = client_->Get("/roomkey.wasm");
    ASSERT_TRUE(first) << why_no_answer(first);
    const std::string etag = first->get_header_value("ETag");
    ASSERT_FALSE(etag.empty()) << "no ETag on /roomkey.wasm";
    auto second = client_->Get("/roomkey.wasm", {{"If-None-Match", etag}});
    ASSERT_TRUE(second) << why_no_answer(second);
    EXPECT_EQ(second->status, 304);
    EXPECT_TRUE(second->body.empty()) << second->body.size() << " bytes of body in a 304";
}

TEST_F(HelperServing, TraversalIs400AndHiddenOrMissingFilesAre404) {
    // Dot segments and "//" never reach a route (policy: one target form).
    for (const char* path : {"/../state/ca-key.pem", "/%2e%2e/state/ca-key.pem", "/%2e%2e%2fstate/ca-key.pem",
                             "/web/../index.html", "//etc/passwd"}) {
        auto res = client_->Get(path);
        ASSERT_TRUE(res) << path;
        EXPECT_EQ(res->status, 400) << path << " must not be served";
        EXPECT_EQ(res->body.find("BEGIN"), std::string::npos) << path;
    }
    for (const char* path : {"/.secret", "/nope.js"}) {
        auto res = client_->Get(path);
        ASSERT_TRUE(res) << path;
        EXPECT_EQ(res->status, 404) << path << " must not be served";
        EXPECT_EQ(res->body.find("BEGIN"), std::string::npos) << path;
    }
}

TEST_F(HelperServing, SymlinkOutOfTheWebRootIsNotFollowed) {
    ASSERT_EQ(::symlink((dir_ / "state").c_str(), (dir_ / "web/state").c_str()), 0);
    auto res = client_->Get("/state/ca-key.pem");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 404);
}

TEST_F(HelperServing, KeepAliveRequestsAreNotDelayedByNagle) {
    // set_tcp_nodelay(true). Without it, each request after
    // the first on a keep-alive connection waits ~40 ms for a delayed ACK:
    // every one of them, so even the fastest request shows it. The fastest is
    // what is checked, not the median: on a loaded machine (other tests, a
    // parallel build) any number of requests can be slow for want of a core,
    // which says nothing about Nagle (seen: a failing median at load 30).
    // One connection for all: httplib 0.18.7's client waits 100 ms for the
    // server's close_notify whenever it closes one (0.11.4 did not wait).
    client_->set_keep_alive(true);
    ASSERT_TRUE(client_->Get("/roomkey.wasm")) << "GET /roomkey.wasm got no answer";
    std::vector<double> ms;
    for (int i = 0; i < 15; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        auto res = client_->Get("/roomkey.wasm");
        ASSERT_TRUE(res) << why_no_answer(res);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    EXPECT_LT(ms.front(), 30.0) << "even the fastest keep-alive request took " << ms.front()
                                << " ms: Nagle's delay (TCP_NODELAY not set?)";
}

TEST_F(HelperServing, PipelinedRequestsAreAnsweredInOrder) {
    // HTTP/1.1 lets a client send its next request before the answer to the
    // last (RFC 9112 9.3.2). Here both come in one TLS record: httplib's own
    // connection loop left the second in OpenSSL's buffer and waited for the
    // socket, until the keep-alive timeout closed the connection unanswered
    // (common/tls_server.hpp serves what it has already read).
    testing::RawTls conn(helper_->port());
    ASSERT_TRUE(conn.ok()) << "no TLS connection (connect or handshake failed)";
    const std::string host = "Host: 127.0.0.1:" + std::to_string(helper_->port()) + "\r\n\r\n";
    ASSERT_TRUE(conn.send("GET /config.json HTTP/1.1\r\n" + host + "GET /roomkey.wasm HTTP/1.1\r\n" + host))
        << "the connection closed before the request was sent";
    auto first = conn.read_response(3000);
    ASSERT_TRUE(first) << "no complete answer before the read timeout";
    EXPECT_EQ(first->status, 200) << first->head;
    EXPECT_NE(first->body.find("redirect_uri"), std::string::npos) << "the first answer must be /config.json's";
    auto second = conn.read_response(3000);
    ASSERT_TRUE(second) << "the second request of the record was not answered";
    EXPECT_EQ(second->status, 200) << second->head;
    EXPECT_EQ(second->body, testing::kWasmBytes);
}

TEST(HelperServingStart, MissingWebRootNamesTheBuildCommand) {
    TempDir dir;
    HelperConfig config = testing::test_config(dir);
    config.web_root = dir / "no-such-dir";
    auto started = HelperServer::start(config, nullptr);
    ASSERT_FALSE(started) << "the helper started without its web root";
    EXPECT_EQ(started.error().code, StartError::web_root_missing);
    EXPECT_NE(started.error().message.find("./scripts/run.sh"), std::string::npos) << started.error().message;
    EXPECT_NE(started.error().message.find("cmake --build --preset wasm"), std::string::npos);
}

TEST(HelperServingStart, WebRootWithoutIndexIsRefused) {
    TempDir dir;
    HelperConfig config = testing::test_config(dir);
    ::unlink((dir / "web/index.html").c_str());
    auto started = HelperServer::start(config, nullptr);
    ASSERT_FALSE(started) << "the helper started with a web root without index.html";
    EXPECT_EQ(started.error().code, StartError::web_root_missing);
}

TEST(HelperServingStart, UserSuppliedCertificateReplacesTheGeneratedOne) {
    TempDir dir;
    // Another CA stands in for the user's own certificate (e.g. from mkcert).
    auto own = native::ensure_tls_material(dir / "own");
    ASSERT_TRUE(own) << own.error().detail;
    HelperConfig config = testing::test_config(dir);
    config.cert_file = own->server_cert_path;
    config.key_file = own->server_key_path;
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();

    httplib::SSLClient with_own_ca("127.0.0.1", helper.port());
    ASSERT_TRUE(integration::trust_only(with_own_ca, "127.0.0.1", own->ca_cert_path))
        << "cannot trust the CA file only: unreadable, or the name check could not be set up";
    auto res = with_own_ca.Get("/");
    ASSERT_TRUE(res) << "the user's certificate must be served: " << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);

    httplib::SSLClient with_state_ca("127.0.0.1", helper.port());
    ASSERT_TRUE(integration::trust_only(with_state_ca, "127.0.0.1", dir / "state/ca-cert.pem"))
        << "cannot trust the CA file only: unreadable, or the name check could not be set up";
    EXPECT_FALSE(with_state_ca.Get("/")) << "the generated certificate must not be the one served";
}

TEST(HelperServingStart, BadUserCertificateIsAClearError) {
    TempDir dir;
    HelperConfig config = testing::test_config(dir);
    testing::write_file(dir / "cert.pem", "nope");
    testing::write_file(dir / "key.pem", "nope");
    config.cert_file = dir / "cert.pem";
    config.key_file = dir / "key.pem";
    auto started = HelperServer::start(config, nullptr);
    ASSERT_FALSE(started) << "the helper started with an unreadable certificate";
    EXPECT_EQ(started.error().code, StartError::tls_failed);
    EXPECT_NE(started.error().message.find(dir / "cert.pem"), std::string::npos);
}

}  // namespace
}  // namespace roomkey::helper

namespace roomkey::helper {
namespace {

bool ipv6_loopback_available() {
    const int sock = ::socket(AF_INET6, SOCK_STREAM, 0);
    sockaddr_in6 addr{};
    addr.sin6_family = AF_INET6;
    addr.sin6_addr = in6addr_loopback;
    const bool ok = sock >= 0 && ::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (sock >= 0) ::close(sock);
    return ok;
}

TEST(HelperServingStart, Ipv6IsAnAdditionOnTheSamePortAndTheRedirectUriStaysOn127) {
    // Loopback only: 127.0.0.1 always, [::1] too if asked; the certificate
    // names both. The sandbox registers https://127.0.0.1:PORT/callback only.
    if (!ipv6_loopback_available()) GTEST_SKIP() << "no IPv6 loopback here";
    TempDir dir;
    HelperConfig config = testing::test_config(dir);
    config.ipv6 = true;
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();
    const std::string port = std::to_string(helper.port());
    auto listening = testing::listening_addresses(helper.port());
    std::sort(listening.begin(), listening.end());
    EXPECT_EQ(listening, (std::vector<std::string>{"127.0.0.1", "::1"}));
    EXPECT_EQ(helper.server().app_url(), "https://127.0.0.1:" + port + "/");

    httplib::SSLClient v6("::1", helper.port());
    ASSERT_TRUE(integration::trust_only(v6, "::1", helper.server().tls()->ca_cert_path))
        << "cannot trust the CA file only: unreadable, or the name check could not be set up";
    auto page = v6.Get("/", {{"Host", "[::1]:" + port}});
    ASSERT_TRUE(page) << httplib::to_string(page.error());
    EXPECT_EQ(page->status, 200);
    auto cfg = v6.Get("/config.json", {{"Host", "[::1]:" + port}});
    ASSERT_TRUE(cfg) << why_no_answer(cfg);
    EXPECT_NE(cfg->body.find("\"redirect_uri\":\"https://127.0.0.1:" + port + "/callback\""), std::string::npos)
        << cfg->body;

    auto v4 = helper.client()->Get("/", {{"Host", "127.0.0.1:" + port}});
    ASSERT_TRUE(v4) << why_no_answer(v4);
    EXPECT_EQ(v4->status, 200) << "127.0.0.1 keeps serving";
}

TEST(HelperServingStart, HostIpv6LoopbackMeansIpv6Too) {
    // The old spelling (--host ::1, or a config with "::1") no longer moves
    // the helper off 127.0.0.1.
    if (!ipv6_loopback_available()) GTEST_SKIP() << "no IPv6 loopback here";
    TempDir dir;
    HelperConfig config = testing::test_config(dir);
    config.host = "::1";
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto listening = testing::listening_addresses(helper.port());
    std::sort(listening.begin(), listening.end());
    EXPECT_EQ(listening, (std::vector<std::string>{"127.0.0.1", "::1"}));
    EXPECT_EQ(helper.server().app_url(), "https://127.0.0.1:" + std::to_string(helper.port()) + "/");
}

}  // namespace
}  // namespace roomkey::helper
