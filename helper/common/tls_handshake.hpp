// tls_handshake.hpp: a TLS handshake on a connected blocking socket, done
// non-blocking so that it ends by a deadline (OpenSSL's calls have no
// timeout of their own). Used by both ends roomkey runs: OpenableClient
// (SSL_connect) and TlsServer (SSL_accept).
#pragma once

#include <openssl/ssl.h>

#include <chrono>

namespace roomkey::native {

bool set_nonblocking(int fd, bool on);

// Gives `ssl` a socket BIO on `fd` (the SSL owns it; the fd stays open) and
// runs `step` (SSL_connect or SSL_accept) until the handshake is done, waiting
// for the socket with poll() at most until `deadline`. The socket is
// blocking again afterwards, whatever the outcome. False on a refused
// certificate, a closed connection, a protocol error or the deadline.
bool tls_handshake(SSL* ssl, int fd, int (*step)(SSL*), std::chrono::steady_clock::time_point deadline);

}  // namespace roomkey::native
