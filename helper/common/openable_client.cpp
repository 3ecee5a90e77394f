// openable_client.cpp: see openable_client.hpp.
#include "common/openable_client.hpp"

#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>

#include <cerrno>
#include <chrono>

namespace roomkey::native {
namespace {

bool set_nonblocking(int fd, bool on) {
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return false;
    return fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) == 0;
}

// SSL_connect on a non-blocking socket, waiting for it at most until `deadline`.
bool handshake(SSL* ssl, int fd, std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        const int result = SSL_connect(ssl);
        if (result == 1) return true;
        short events = 0;
        switch (SSL_get_error(ssl, result)) {
            case SSL_ERROR_WANT_READ:
                events = POLLIN;
                break;
            case SSL_ERROR_WANT_WRITE:
                events = POLLOUT;
                break;
            default:
                return false;  // refused certificate, closed connection, protocol error
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd waiting{fd, events, 0};
        const int ready = poll(&waiting, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return false;
    }
}

}  // namespace

bool OpenableClient::open() {
    std::lock_guard<std::mutex> guard(socket_mutex_);
    if (socket_.is_open()) return true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(connection_timeout_sec_) +
                          std::chrono::microseconds(connection_timeout_usec_);
    httplib::Error error = httplib::Error::Success;
    // ClientImpl's own: TCP only, with this client's timeouts, TCP_NODELAY
    // and socket options (the SSLClient override would also handshake, but
    // it is private).
    if (!ClientImpl::create_and_connect_socket(socket_, error)) return false;
    const int fd = static_cast<int>(socket_.sock);
    SSL* ssl = SSL_new(ssl_context());
    BIO* bio = ssl != nullptr ? BIO_new_socket(fd, BIO_NOCLOSE) : nullptr;
    bool ok = bio != nullptr && set_nonblocking(fd, true);
    if (ok) {
        SSL_set_bio(ssl, bio, bio);  // the SSL owns the BIO from here
        bio = nullptr;
        // SNI, as httplib sends it (SSL_set_tlsext_host_name without its C cast).
        SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, const_cast<char*>(host_.c_str()));
        ok = handshake(ssl, fd, deadline) && set_nonblocking(fd, false);
    }
    if (!ok) {
        if (bio != nullptr) BIO_free(bio);
        if (ssl != nullptr) SSL_free(ssl);
        shutdown_socket(socket_);
        close_socket(socket_);
        return false;
    }
    socket_.ssl = ssl;
    return true;
}

bool OpenableClient::still_open() {
    std::lock_guard<std::mutex> guard(socket_mutex_);
    if (!socket_.is_open() || socket_.ssl == nullptr) return false;
    const int fd = static_cast<int>(socket_.sock);
    pollfd waiting{fd, POLLIN, 0};
    const int ready = poll(&waiting, 1, 0);
    if (ready == 0) return SSL_has_pending(socket_.ssl) == 0;  // quiet: open, nothing unasked
    if (ready < 0 || !set_nonblocking(fd, true)) return false;
    char byte = 0;
    const int peeked = SSL_peek(socket_.ssl, &byte, 1);
    const int error = SSL_get_error(socket_.ssl, peeked);
    ERR_clear_error();
    const bool restored = set_nonblocking(fd, false);
    // Nothing to read yet is the one good answer: a close (ZERO_RETURN,
    // SYSCALL) or bytes of an answer nobody asked for both end it.
    return restored && peeked <= 0 && error == SSL_ERROR_WANT_READ;
}

}  // namespace roomkey::native
