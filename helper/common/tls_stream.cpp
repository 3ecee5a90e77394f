// tls_stream.cpp: see tls_stream.hpp.
#include "common/tls_stream.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

namespace roomkey::native {
namespace {

bool wait_for(int fd, short events, int timeout_ms) {
    pollfd waiting{fd, events, 0};
    for (;;) {
        const int ready = ::poll(&waiting, 1, timeout_ms);
        if (ready < 0 && errno == EINTR) continue;
        return ready > 0;
    }
}

void ip_and_port(const sockaddr_storage& addr, std::string& ip, int& port) {
    char text[INET6_ADDRSTRLEN] = {};
    if (addr.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(addr);
        ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
        port = ntohs(v4.sin_port);
    } else if (addr.ss_family == AF_INET6) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(addr);
        ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
        port = ntohs(v6.sin6_port);
    }
    ip = text;
}

int clamp(size_t size) { return static_cast<int>(std::min<size_t>(size, INT_MAX)); }

}  // namespace

TlsStream::TlsStream(int fd, SSL* ssl, int read_timeout_ms, int write_timeout_ms)
    : fd_(fd), ssl_(ssl), read_timeout_ms_(read_timeout_ms), write_timeout_ms_(write_timeout_ms) {
    SSL_set_mode(ssl_, SSL_MODE_AUTO_RETRY);  // OpenSSL's default; httplib's own stream clears it
}

// A write held back counts as readable: read() sends it first, then waits
// within the read timeout, as the poll would have.
bool TlsStream::is_readable() const {
    return in_begin_ != in_end_ || !out_.empty() || SSL_has_pending(ssl_) != 0 ||
           wait_for(fd_, POLLIN, read_timeout_ms_);
}

bool TlsStream::is_writable() const { return !write_failed_ && wait_for(fd_, POLLOUT, write_timeout_ms_); }

bool TlsStream::has_unread() const { return in_begin_ != in_end_ || SSL_has_pending(ssl_) != 0; }

ssize_t TlsStream::read(char* ptr, size_t size) {
    // Ended for reading (loopback_server.cpp's close_connection_after_response
    // marks a connection so once its answer is decided): what is held here
    // is dropped unread, as OpenSSL drops what it holds.
    if ((SSL_get_shutdown(ssl_) & SSL_RECEIVED_SHUTDOWN) != 0) {
        in_begin_ = in_end_ = 0;
        return 0;
    }
    if (in_begin_ == in_end_) {
        if (!out_.empty() && !flush()) return -1;  // the peer answers only what it has received
        if (size >= in_.size()) return ssl_read(ptr, size);
        const ssize_t n = ssl_read(in_.data(), in_.size());
        if (n <= 0) return n;
        in_begin_ = 0;
        in_end_ = static_cast<std::size_t>(n);
    }
    const std::size_t n = std::min(size, in_end_ - in_begin_);
    std::memcpy(ptr, in_.data() + in_begin_, n);
    in_begin_ += n;
    return static_cast<ssize_t>(n);
}

ssize_t TlsStream::write(const char* ptr, size_t size) {
    if (!hold_writes_) return ssl_write(ptr, size);
    if (write_failed_) return -1;
    if (out_.size() + size > kWriteBuffer) {
        if (!flush()) return -1;
        if (size >= kWriteBuffer) return ssl_write(ptr, size);
    }
    out_.append(ptr, size);
    return static_cast<ssize_t>(size);
}

bool TlsStream::flush() {
    std::size_t done = 0;
    while (!write_failed_ && done < out_.size()) {
        const ssize_t n = ssl_write(out_.data() + done, out_.size() - done);
        if (n <= 0) {
            write_failed_ = true;
        } else {
            done += static_cast<std::size_t>(n);
        }
    }
    out_.clear();
    return !write_failed_;
}

ssize_t TlsStream::ssl_read(char* ptr, size_t size) {
    // Blocking: returns with application data, the peer's close, or an error
    // (SO_RCVTIMEO expired: SSL_ERROR_WANT_READ).
    const int n = SSL_read(ssl_, ptr, clamp(size));
    if (n > 0) return n;
    const int error = SSL_get_error(ssl_, n);
    ERR_clear_error();
    return error == SSL_ERROR_ZERO_RETURN ? 0 : -1;
}

ssize_t TlsStream::ssl_write(const char* ptr, size_t size) {
    const int n = SSL_write(ssl_, ptr, clamp(size));
    if (n > 0) return n;
    ERR_clear_error();
    return -1;
}

void TlsStream::get_remote_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) ip_and_port(addr, ip, port);
}

void TlsStream::get_local_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) ip_and_port(addr, ip, port);
}

socket_t TlsStream::socket() const { return fd_; }

}  // namespace roomkey::native
