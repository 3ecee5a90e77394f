// tls_handshake.cpp: see tls_handshake.hpp.
#include "common/tls_handshake.hpp"

#include <fcntl.h>
#include <poll.h>

#include <cerrno>

namespace roomkey::native {
namespace {

bool run_handshake(SSL* ssl, int fd, int (*step)(SSL*), std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        const int result = step(ssl);
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

bool set_nonblocking(int fd, bool on) {
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return false;
    return fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) == 0;
}

bool tls_handshake(SSL* ssl, int fd, int (*step)(SSL*), std::chrono::steady_clock::time_point deadline) {
    BIO* bio = BIO_new_socket(fd, BIO_NOCLOSE);
    if (bio == nullptr) return false;
    SSL_set_bio(ssl, bio, bio);  // the SSL owns the BIO from here
    if (!set_nonblocking(fd, true)) return false;
    const bool done = run_handshake(ssl, fd, step, deadline);
    return set_nonblocking(fd, false) && done;
}

}  // namespace roomkey::native
