// openable_client.cpp: see openable_client.hpp.
#include "common/openable_client.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>

#include <cerrno>
#include <chrono>

#include "common/tls_handshake.hpp"
#include "common/tls_stream.hpp"

namespace roomkey::native {
namespace {

int milliseconds(time_t sec, time_t usec) { return static_cast<int>(sec * 1000 + usec / 1000); }

// The Host field an https:// client sends: the port only when not 443.
std::string host_field(const std::string& host, int port) {
    const std::string name = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return port == 443 ? name : name + ":" + std::to_string(port);
}

}  // namespace

OpenableClient::OpenableClient(const std::string& host, int port, std::shared_ptr<TlsClientContext> tls)
    : httplib::ClientImpl(host, port), tls_(std::move(tls)) {
    // Accept-Encoding: httplib 0.18.7's client asks for "br, gzip, deflate"
    // on every request that names none (0.11.4 asked for nothing): the
    // service would compress each answer and this client inflate it, only
    // for the helper to relay it. Identity, as with 0.11.4 and as nginx
    // forwards a client that asks for nothing.
    set_default_headers({{"Host", host_field(host, port)}, {"Accept-Encoding", "identity"}});
}

OpenableClient::~OpenableClient() {
    // ClientImpl's destructor closes the socket but cannot reach this
    // class's shutdown_ssl(): end the TLS connection first.
    std::lock_guard<std::mutex> guard(socket_mutex_);
    close_now();
}

void OpenableClient::close_now() {
    shutdown_ssl(socket_, true);
    shutdown_socket(socket_);
    close_socket(socket_);
}

bool OpenableClient::create_and_connect_socket(Socket& socket, httplib::Error& error) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(connection_timeout_sec_) +
                          std::chrono::microseconds(connection_timeout_usec_);
    // ClientImpl's own: TCP only, with this client's timeouts (also as
    // SO_RCVTIMEO/SO_SNDTIMEO), TCP_NODELAY and socket options.
    if (!ClientImpl::create_and_connect_socket(socket, error)) return false;
    const int fd = static_cast<int>(socket.sock);
    SSL* ssl = tls_ ? tls_->new_connection(host_, port_) : nullptr;
    if (ssl == nullptr || !tls_handshake(ssl, fd, SSL_connect, deadline)) {
        ERR_clear_error();
        if (ssl != nullptr) SSL_free(ssl);
        shutdown_socket(socket);
        close_socket(socket);
        error = httplib::Error::SSLConnection;
        return false;
    }
    socket.ssl = ssl;
    return true;
}

void OpenableClient::shutdown_ssl(Socket& socket, bool shutdown_gracefully) {
    if (socket.ssl == nullptr) return;
    // One close_notify, without waiting for the server's (RFC 8446 6.1 lets
    // the closing side go); on a connection that looks dead, none at all
    // (it could raise SIGPIPE).
    if (shutdown_gracefully) SSL_shutdown(socket.ssl);
    SSL_free(socket.ssl);
    ERR_clear_error();
    socket.ssl = nullptr;
}

bool OpenableClient::process_socket(const Socket& socket, std::function<bool(httplib::Stream& strm)> callback) {
    TlsStream stream(static_cast<int>(socket.sock), socket.ssl, milliseconds(read_timeout_sec_, read_timeout_usec_),
                     milliseconds(write_timeout_sec_, write_timeout_usec_));
    stream.hold_writes();  // a request's header block and body in one record
    bool ok = callback(stream);
    // httplib closes the connection inside the callback when the answer
    // said "Connection: close" (shutdown_ssl() then frees the SSL and clears
    // socket.ssl): the stream's SSL is gone, and so is anything unread.
    if (socket.ssl == nullptr) return ok;
    ok = ok && stream.flush();
    if (stream.has_unread()) {
        // Bytes after the whole answer, which nobody asked for: the
        // connection is not in step with its requests (still_open() would
        // refuse it too, had they stayed in OpenSSL), so it ends with this
        // request. (socket_mutex_ guards the flag; httplib does not hold it here.)
        std::lock_guard<std::mutex> guard(socket_mutex_);
        socket_should_be_closed_when_request_is_done_ = true;
    }
    return ok;
}

httplib::Error OpenableClient::open() {
    std::lock_guard<std::mutex> guard(socket_mutex_);
    if (socket_.is_open()) return httplib::Error::Success;
    httplib::Error error = httplib::Error::Success;
    if (!create_and_connect_socket(socket_, error)) return error == httplib::Error::Success ? httplib::Error::Connection : error;
    return httplib::Error::Success;
}

bool OpenableClient::is_open() const {
    std::lock_guard<std::mutex> guard(socket_mutex_);
    return socket_.is_open();
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

bool OpenableClient::resumed() {
    std::lock_guard<std::mutex> guard(socket_mutex_);
    return socket_.ssl != nullptr && SSL_session_reused(socket_.ssl) == 1;
}

}  // namespace roomkey::native
