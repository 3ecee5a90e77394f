// tls_server.cpp: see tls_server.hpp.
#include "common/tls_server.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>

#include "common/tls_handshake.hpp"
#include "common/tls_stream.hpp"

namespace roomkey::native {
namespace {

using Clock = std::chrono::steady_clock;

// The connection this thread serves (httplib runs each on one worker thread).
thread_local TlsStream* t_stream = nullptr;

int milliseconds(time_t sec, time_t usec) { return static_cast<int>(sec * 1000 + usec / 1000); }

// httplib's keep-alive wait (detail::keep_alive): until the socket is
// readable, the keep-alive timeout passes, or the server stops (its
// listening socket closed), looked at every
// CPPHTTPLIB_KEEPALIVE_TIMEOUT_CHECK_INTERVAL_USECOND.
// Between requests (`guard` given), ended early when workers are scarce: an
// idle keep-alive connection is the first to go. A new connection's first
// request is waited for as long as the head's deadline.
bool next_request_comes(int fd, const std::atomic<socket_t>& listening, time_t timeout_sec,
                        const ConnectionGuard* guard) {
    const int interval_ms = CPPHTTPLIB_KEEPALIVE_TIMEOUT_CHECK_INTERVAL_USECOND / 1000;
    const auto deadline = Clock::now() + std::chrono::seconds(timeout_sec);
    for (;;) {
        if (listening == INVALID_SOCKET || (guard != nullptr && guard->scarce())) return false;
        pollfd waiting{fd, POLLIN, 0};
        const int ready = ::poll(&waiting, 1, interval_ms);
        if (ready > 0) return true;
        if (ready < 0 && errno != EINTR) return false;
        if (Clock::now() >= deadline) return false;
    }
}

// The end of a connection whose last answer went out, as httplib's
// SSLServer ends it: close_notify, then up to a second for the client's.
// httplib slept 100 ms before that second SSL_shutdown(); on the blocking
// socket (SO_RCVTIMEO) the call itself waits.
void shut_down(SSL* ssl, int fd) {
    timeval one_second{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &one_second, sizeof one_second);
    for (int call = 0; call < 2 && SSL_shutdown(ssl) == 0; ++call) {
    }
}

std::string peer_address(int fd) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return "";
    char host[INET6_ADDRSTRLEN] = {};
    if (addr.ss_family == AF_INET6) {
        ::inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(&addr)->sin6_addr, host, sizeof host);
    } else {
        ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(&addr)->sin_addr, host, sizeof host);
    }
    return host;
}

thread_local int t_head_fd = -1;  // the connection whose request head has a deadline

}  // namespace

namespace {

// httplib's task queue for a TlsServer: httplib's accept loop hands it each
// accepted connection as process_and_close_socket(sock), which this runs at
// once, on the accept thread; that call gives the connection to `workers`.
class AdmittingQueue final : public httplib::TaskQueue {
public:
    AdmittingQueue(std::size_t threads, std::size_t queued) : workers(threads, queued) {}
    bool enqueue(std::function<void()> admit) override {
        t_admitting = this;
        admit();
        t_admitting = nullptr;
        return true;  // admit() closed what it did not hand over
    }
    void shutdown() override { workers.shutdown(); }

    static thread_local AdmittingQueue* t_admitting;  // the queue whose enqueue() runs on this thread
    httplib::ThreadPool workers;
};

thread_local AdmittingQueue* AdmittingQueue::t_admitting = nullptr;

}  // namespace

void TlsServer::set_connection_limits(std::size_t threads, std::size_t queued, std::size_t per_peer,
                                      time_t head_seconds) {
    guard_.configure(threads, per_peer);
    head_seconds_ = head_seconds;
    new_task_queue = [threads, queued] { return new AdmittingQueue(threads, queued); };
}

void head_complete() {
    if (t_head_fd >= 0) clear_deadline(t_head_fd);
}

bool TlsServer::process_and_close_socket(socket_t sock) {
    const int fd = static_cast<int>(sock);
    std::string peer = peer_address(fd);
    if (!guard_.admit(peer)) {
        // Over its peer's cap: closed before any TLS work.
        ::close(fd);
        return false;
    }
    AdmittingQueue* queue = AdmittingQueue::t_admitting;
    if (queue == nullptr) {  // not from the accept loop: served on this thread
        const bool ok = serve(fd);
        guard_.leave(peer);
        return ok;
    }
    if (!queue->workers.enqueue([this, fd, peer] {
            serve(fd);
            guard_.leave(peer);
        })) {
        // Every worker busy and the queue full, with every peer under its
        // cap: the server is at capacity.
        guard_.leave(peer);
        ::shutdown(fd, SHUT_RDWR);
        ::close(fd);
        return false;
    }
    return true;
}

bool TlsServer::serve(int fd) {
    bool ok = false;
    SSL* ssl = SSL_new(ssl_context());
    // The whole handshake within the read timeout (httplib: each wait of it).
    const auto deadline =
        Clock::now() + std::chrono::seconds(read_timeout_sec_) + std::chrono::microseconds(read_timeout_usec_);
    if (ssl != nullptr && tls_handshake(ssl, fd, SSL_accept, deadline)) {
        // One recv per read, not one for a record's header and one for its
        // body; TlsStream::has_unread() sees what read ahead holds.
        SSL_set_read_ahead(ssl, 1);
        t_head_fd = fd;
        TlsStream stream(fd, ssl, milliseconds(read_timeout_sec_, read_timeout_usec_),
                         milliseconds(write_timeout_sec_, write_timeout_usec_));
        stream.hold_writes();
        t_stream = &stream;
        std::string remote_addr, local_addr;
        int remote_port = 0, local_port = 0;
        stream.get_remote_ip_and_port(remote_addr, remote_port);
        stream.get_local_ip_and_port(local_addr, local_port);
        // httplib's keep-alive loop (process_server_socket_core), except that
        // a request already read from the socket (held by the stream or by
        // OpenSSL) is served without waiting for the socket to be readable.
        for (std::size_t left = keep_alive_max_count_; left > 0; --left) {
            const bool first = left == keep_alive_max_count_;
            if (!stream.has_unread() &&
                !next_request_comes(fd, svr_sock_, first ? head_seconds_ : keep_alive_timeout_sec_,
                                    first ? nullptr : &guard_)) {
                break;
            }
            bool connection_closed = false;
            // The whole head within head_seconds_ (head_complete() ends it).
            set_deadline(fd, Clock::now() + std::chrono::seconds(head_seconds_));
            ok = process_request(stream, remote_addr, remote_port, local_addr, local_port, left == 1, connection_closed,
                                 [ssl](httplib::Request& req) { req.ssl = ssl; });
            clear_deadline(fd);
            ok = stream.flush() && ok;  // the answer leaves here, in one record
            if (!ok || connection_closed) break;
        }
        t_stream = nullptr;
        t_head_fd = -1;
        // Gracefully only after an answer went out: a peer that looks gone
        // gets no close_notify (it could raise SIGPIPE).
        if (ok) shut_down(ssl, fd);
    } else if (ssl != nullptr) {
        SSL_shutdown(ssl);  // as httplib does after a failed handshake
    }
    SSL_free(ssl);
    ERR_clear_error();
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
    return ok;
}

bool use_server_suites(SSL_CTX* context) {
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_options(context, SSL_OP_CIPHER_SERVER_PREFERENCE);
    return SSL_CTX_set_cipher_list(context, kTls12Ciphers) == 1 &&
           SSL_CTX_set_ciphersuites(context, kTls13Ciphersuites) == 1;
}

bool bytes_waiting(SSL* ssl) {
    if (t_stream != nullptr && t_stream->has_unread()) return true;
    if (ssl == nullptr) return false;
    if (SSL_has_pending(ssl) != 0) return true;
    pollfd waiting{SSL_get_fd(ssl), POLLIN, 0};
    return ::poll(&waiting, 1, 0) > 0;
}

void send_answer_now() {
    if (t_stream != nullptr) t_stream->flush();  // a failure shows in the loop's own flush()
}

}  // namespace roomkey::native
