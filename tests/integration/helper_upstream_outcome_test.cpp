// helper_upstream_outcome_test.cpp: the helper's 502/504 say whether the
// request reached the upstream, on real sockets: a refused
// connection is "not_sent"; an upstream that reads the request and hangs up,
// or answers too late, is "no_answer". The app resends by itself only the
// first (shared/'s proxy_outcome.hpp).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/tls.hpp"
#include "roomkey/proxy_outcome.hpp"
#include "support/free_port.hpp"
#include "support/helper_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace {

// A TLS upstream that completes the handshake, reads one whole request
// (header section and Content-Length body), counts it, then either hangs up
// without a byte of answer or holds the connection open, unanswered, until
// the helper closes it.
class SilentUpstream {
public:
    enum class After { hang_up, hold };

    SilentUpstream(const std::string& cert, const std::string& key, After after) : after_(after) {
        ctx_ = SSL_CTX_new(TLS_server_method());
        SSL_CTX_use_certificate_chain_file(ctx_, cert.c_str());
        SSL_CTX_use_PrivateKey_file(ctx_, key.c_str(), SSL_FILETYPE_PEM);
        listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
        ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        ::listen(listen_fd_, 8);
        socklen_t len = sizeof addr;
        ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~SilentUpstream() {
        stop_ = true;
        thread_.join();
        ::close(listen_fd_);
        SSL_CTX_free(ctx_);
    }
    std::string origin() const { return "https://127.0.0.1:" + std::to_string(port_); }

    std::atomic<int> requests{0};  // whole requests read

private:
    void serve() {
        while (!stop_) {
            pollfd p{listen_fd_, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0) continue;
            const int fd = ::accept(listen_fd_, nullptr, nullptr);
            if (fd < 0) continue;
            SSL* ssl = SSL_new(ctx_);
            SSL_set_fd(ssl, fd);
            if (SSL_accept(ssl) == 1 && read_request(ssl)) {
                ++requests;
                if (after_ == After::hold) wait_for_peer_close(fd);
            }
            SSL_free(ssl);  // no close_notify, no answer: the connection just ends
            ::close(fd);
        }
    }

    // Until the helper gives up and closes its end (or the test ends).
    void wait_for_peer_close(int fd) const {
        while (!stop_) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 20) > 0) {
                char bytes[512];  // a TLS alert is drained; the end of the stream is the close
                if (::recv(fd, bytes, sizeof bytes, 0) <= 0) return;
            }
        }
    }

    static bool read_request(SSL* ssl) {
        std::string in;
        char buf[4096];
        std::size_t need = std::string::npos;
        while (need == std::string::npos || in.size() < need) {
            const int n = SSL_read(ssl, buf, sizeof buf);
            if (n <= 0) return false;
            in.append(buf, static_cast<std::size_t>(n));
            const auto end = in.find("\r\n\r\n");
            if (need == std::string::npos && end != std::string::npos) {
                std::size_t body = 0;
                const std::string_view head = std::string_view(in).substr(0, end);
                if (auto at = ifind(head, "content-length:"); at != std::string::npos) {
                    body = std::stoul(std::string(head.substr(at + 15)));
                }
                need = end + 4 + body;
            }
        }
        return true;
    }

    After after_;
    SSL_CTX* ctx_ = nullptr;
    int listen_fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

HelperConfig config_for(const TempDir& dir, const std::string& origin) {
    HelperConfig config = testing::test_config(dir);
    config.upstream.base_url = origin + "/v2";
    config.upstream.auth_url = origin + "/oauth";
    config.upstream.consent_url = origin + "/consent";
    config.upstream.client_id = "web-client";
    return config;
}

// The outcome as the app reads it, after checking the body says the same.
std::optional<UpstreamOutcome> outcome_of_answer(const httplib::Result& res) {
    HttpResponse r;
    r.status = res->status;
    for (const auto& [name, value] : res->headers) r.headers.add(name, value);
    r.body = res->body;
    const auto from_header = read_upstream_outcome(r);
    const auto body = nlohmann::json::parse(res->body, nullptr, false);
    EXPECT_TRUE(body.is_object()) << res->body;
    if (!body.is_object() || !body.contains(std::string(kUpstreamOutcomeField)) || !from_header) return std::nullopt;
    EXPECT_EQ(body[std::string(kUpstreamOutcomeField)], std::string(to_string(*from_header))) << res->body;
    return from_header;
}

const char* const kPost = R"({"body":"hello"})";
httplib::Headers post_headers(const RunningHelper& helper) {
    auto h = helper.app_headers();
    h.emplace("Authorization", "Bearer AT-outcome-test");
    return h;
}

TEST(HelperUpstreamOutcome, RefusedConnectionIsNotSent) {
    TempDir dir;
    RunningHelper helper(config_for(dir, "https://127.0.0.1:" + std::to_string(integration::free_port())));
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto client = helper.client();

    auto post = client->Post("/api/rooms/1/messages", post_headers(helper), kPost, "application/json");
    ASSERT_TRUE(post) << why_no_answer(post);
    EXPECT_EQ(post->status, 502) << post->body;
    EXPECT_EQ(outcome_of_answer(post), UpstreamOutcome::not_sent) << post->body;
    EXPECT_TRUE(safe_to_resend(outcome_of_answer(post)));

    auto token = client->Post("/oauth/token", helper.app_headers(), "grant_type=refresh_token&refresh_token=RT-1",
                              "application/x-www-form-urlencoded");
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 502) << token->body;
    EXPECT_EQ(outcome_of_answer(token), UpstreamOutcome::not_sent) << token->body;
    EXPECT_NE(token->body.find("\"error\":\"upstream_unavailable\""), std::string::npos) << token->body;
}

TEST(HelperUpstreamOutcome, UntrustedUpstreamCertificateIsNotSent) {
    TempDir dir;
    auto foreign = native::ensure_tls_material(dir / "foreign");  // a CA the helper does not trust
    ASSERT_TRUE(foreign) << foreign.error().detail;
    SilentUpstream up(foreign->server_cert_path, foreign->server_key_path, SilentUpstream::After::hang_up);
    RunningHelper helper(config_for(dir, up.origin()));
    ASSERT_TRUE(helper.ok()) << helper.error();

    auto post = helper.client()->Post("/api/rooms/1/messages", post_headers(helper), kPost, "application/json");
    ASSERT_TRUE(post) << why_no_answer(post);
    EXPECT_EQ(post->status, 502) << post->body;
    EXPECT_EQ(outcome_of_answer(post), UpstreamOutcome::not_sent) << post->body;
    EXPECT_EQ(up.requests.load(), 0) << "no request byte goes to an unverified upstream";
}

TEST(HelperUpstreamOutcome, UpstreamThatHangsUpAfterReadingIsNoAnswerAndNotResent) {
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    SilentUpstream up(tls->server_cert_path, tls->server_key_path, SilentUpstream::After::hang_up);
    RunningHelper helper(config_for(dir, up.origin()));
    ASSERT_TRUE(helper.ok()) << helper.error();

    auto post = helper.client()->Post("/api/rooms/1/messages", post_headers(helper), kPost, "application/json");
    ASSERT_TRUE(post) << why_no_answer(post);
    EXPECT_EQ(post->status, 502) << post->body;
    EXPECT_EQ(outcome_of_answer(post), UpstreamOutcome::no_answer) << post->body;
    EXPECT_FALSE(safe_to_resend(outcome_of_answer(post)));
    EXPECT_NE(post->body.find("may have been carried out"), std::string::npos) << post->body;
    EXPECT_EQ(up.requests.load(), 1) << "the helper never resends a POST by itself";
}

TEST(HelperUpstreamOutcome, UpstreamSlowerThanTheTimeoutIs504NoAnswer) {
    TempDir dir;
    auto tls = native::ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    SilentUpstream up(tls->server_cert_path, tls->server_key_path, SilentUpstream::After::hold);
    HelperConfig config = config_for(dir, up.origin());
    config.upstream.timeouts.read = std::chrono::milliseconds(300);
    RunningHelper helper(config);
    ASSERT_TRUE(helper.ok()) << helper.error();

    auto post = helper.client()->Post("/api/rooms/1/messages", post_headers(helper), kPost, "application/json");
    ASSERT_TRUE(post) << why_no_answer(post);
    EXPECT_EQ(post->status, 504) << post->body;
    EXPECT_EQ(outcome_of_answer(post), UpstreamOutcome::no_answer) << post->body;
    EXPECT_NE(post->body.find("within 300 ms"), std::string::npos) << post->body;
    EXPECT_EQ(up.requests.load(), 1);

    auto get = helper.client()->Get("/api/my/status", post_headers(helper));
    ASSERT_TRUE(get) << why_no_answer(get);
    EXPECT_EQ(get->status, 504) << get->body;
    EXPECT_EQ(outcome_of_answer(get), UpstreamOutcome::no_answer) << get->body;
}

}  // namespace
}  // namespace roomkey::helper
