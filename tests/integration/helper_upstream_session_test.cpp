// helper_upstream_session_test.cpp: the helper resumes TLS sessions to its
// upstream (common/tls_client_context.hpp), as nginx's
// proxy_ssl_session_reuse does: a new upstream connection offers the session
// the same origin gave out last, and the server accepts it, so the
// certificate chain is neither sent nor verified again. A session is kept
// per origin, never offered to another. Real sockets against an upstream
// that closes every connection after one answer, so that every request
// needs a new one.
#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <atomic>
#include <optional>

#include "common/openable_client.hpp"
#include "common/tls.hpp"
#include "common/tls_client_context.hpp"
#include "helper/upstream_client.hpp"
#include "support/helper_fixture.hpp"

namespace roomkey::helper::upstream_session_test {
namespace {

// testing::StubUpstream that closes each connection after one answer and
// counts the TLS handshakes it completed, and how many of them resumed a session.
class ResumptionCountingUpstream {
public:
    ResumptionCountingUpstream(const std::string& cert, const std::string& key)
        : stub_(cert, key, {}, "127.0.0.1", [this](httplib::SSLServer& server) {
              server.set_keep_alive_max_count(1);
              SSL_CTX_set_app_data(server.ssl_context(), this);
              SSL_CTX_set_info_callback(server.ssl_context(), &ResumptionCountingUpstream::on_tls_event);
          }) {}

    bool ok() const { return stub_.ok(); }
    std::string origin() const { return stub_.origin(); }
    int port() const { return stub_.port(); }
    std::size_t handshakes() const { return handshakes_.load(); }
    std::size_t resumed() const { return resumed_.load(); }

private:
    // Once per connection (OpenSSL may report a TLS 1.3 handshake's end
    // again around its session tickets): marked on the SSL object.
    static void on_tls_event(const SSL* ssl, int where, int) {
        if ((where & SSL_CB_HANDSHAKE_DONE) == 0 || SSL_get_app_data(ssl) != nullptr) return;
        auto* self = static_cast<ResumptionCountingUpstream*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
        SSL_set_app_data(const_cast<SSL*>(ssl), self);
        ++self->handshakes_;
        if (SSL_session_reused(const_cast<SSL*>(ssl)) == 1) ++self->resumed_;
    }

    std::atomic<std::size_t> handshakes_{0};
    std::atomic<std::size_t> resumed_{0};
    testing::StubUpstream stub_;  // last: its threads use the counters until it has stopped
};

HttpRequest get(const std::string& url) {
    HttpRequest request;
    request.method = Method::Get;
    request.url = url;
    return request;
}

class UpstreamSession : public ::testing::Test {
protected:
    void SetUp() override {
        auto made = native::ensure_tls_material(dir / "state");
        ASSERT_TRUE(made) << made.error().detail;
        tls = *made;
    }
    TempDir dir;
    std::optional<native::TlsMaterial> tls;
};

TEST_F(UpstreamSession, NewConnectionsToTheSameOriginResumeTheLastSession) {
    ResumptionCountingUpstream up(tls->server_cert_path, tls->server_key_path);
    ASSERT_TRUE(up.ok()) << "the stub upstream could not listen on a loopback port";
    UpstreamClient client({tls->ca_cert_path});

    for (int i = 0; i < 3; ++i) {
        auto answer = client.send(get(up.origin() + "/v2/me"));
        ASSERT_TRUE(answer) << to_string(answer.error());
        EXPECT_EQ(answer->status, 200);
    }
    EXPECT_EQ(up.handshakes(), 3u) << "the upstream closed every connection after its answer";
    EXPECT_EQ(up.resumed(), 2u) << "every connection after the first resumed a session";
}

TEST_F(UpstreamSession, ASessionIsOfferedOnlyToTheOriginThatGaveIt) {
    ResumptionCountingUpstream first(tls->server_cert_path, tls->server_key_path);
    ResumptionCountingUpstream second(tls->server_cert_path, tls->server_key_path);
    ASSERT_TRUE(first.ok() && second.ok()) << "an upstream could not listen on a loopback port";
    X509_STORE* store = X509_STORE_new();
    ASSERT_EQ(X509_STORE_load_file(store, tls->ca_cert_path.c_str()), 1);
    auto context = native::TlsClientContext::make(store);
    ASSERT_TRUE(context) << "no TLS client context for the local CA";

    native::OpenableClient to_first("127.0.0.1", first.port(), context);
    auto answer = to_first.Get("/v2/me");
    ASSERT_TRUE(answer) << httplib::to_string(answer.error());
    EXPECT_EQ(answer->status, 200);
    EXPECT_TRUE(context->has_session("127.0.0.1", first.port()));
    EXPECT_FALSE(context->has_session("127.0.0.1", second.port()));

    native::OpenableClient to_second("127.0.0.1", second.port(), context);
    ASSERT_EQ(to_second.open(), httplib::Error::Success);
    EXPECT_FALSE(to_second.resumed()) << "the first origin's session went to the second";

    native::OpenableClient again("127.0.0.1", first.port(), context);
    ASSERT_EQ(again.open(), httplib::Error::Success);
    EXPECT_TRUE(again.resumed());
}

}  // namespace
}  // namespace roomkey::helper::upstream_session_test
