// tls_server.cpp: see tls_server.hpp.
#include "common/tls_server.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
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
bool next_request_comes(int fd, const std::atomic<socket_t>& listening, time_t timeout_sec) {
    const int interval_ms = CPPHTTPLIB_KEEPALIVE_TIMEOUT_CHECK_INTERVAL_USECOND / 1000;
    const auto deadline = Clock::now() + std::chrono::seconds(timeout_sec);
    for (;;) {
        if (listening == INVALID_SOCKET) return false;
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

}  // namespace

bool TlsServer::process_and_close_socket(socket_t sock) {
    const int fd = static_cast<int>(sock);
    bool ok = false;
    SSL* ssl = SSL_new(ssl_context());
    // The whole handshake within the read timeout (httplib: each wait of it).
    const auto deadline =
        Clock::now() + std::chrono::seconds(read_timeout_sec_) + std::chrono::microseconds(read_timeout_usec_);
    if (ssl != nullptr && tls_handshake(ssl, fd, SSL_accept, deadline)) {
        // One recv per read, not one for a record's header and one for its
        // body; TlsStream::has_unread() sees what read ahead holds.
        SSL_set_read_ahead(ssl, 1);
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
            if (!stream.has_unread() && !next_request_comes(fd, svr_sock_, keep_alive_timeout_sec_)) break;
            bool connection_closed = false;
            ok = process_request(stream, remote_addr, remote_port, local_addr, local_port, left == 1, connection_closed,
                                 [ssl](httplib::Request& req) { req.ssl = ssl; });
            ok = stream.flush() && ok;  // the answer leaves here, in one record
            if (!ok || connection_closed) break;
        }
        t_stream = nullptr;
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
