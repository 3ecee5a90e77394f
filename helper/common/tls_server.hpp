// tls_server.hpp: cpp-httplib's HTTPS server (SSLServer: its certificate,
// context, routes and request handling) with each connection read and
// written through TlsStream (tls_stream.hpp) instead of httplib's
// SSLSocketStream.
//
// Why (profiled under bench/servers.sh, roomkey-helper's proxy beside nginx):
// per request, SSLSocketStream polls the socket before every read that
// OpenSSL cannot serve from memory and twice before every write (select +
// a peek for a closed peer), calls SSL_read once per byte of the request
// line and header fields, and sends an answer's header block and body as
// two TLS records; at the connection's end it sleeps 100 ms before reading
// the client's close_notify. Here: whole-record reads with OpenSSL's read
// ahead (one recv per record, not two), the answer in one record sent when
// httplib has written it, no poll besides the keep-alive wait, and no sleep.
// What httplib decides about a request (parsing, limits, routing, the
// keep-alive count and timeout, Connection: close) is its own, unchanged:
// this class replaces only the connection loop around
// Server::process_request. The loopback servers' request-framing guard
// (loopback_server.hpp) still ends a connection by marking its SSL shut for
// reading; TlsStream honours that mark for the bytes it holds.
#pragma once

#include <httplib.h>
#include <openssl/ssl.h>

#include <cstddef>

#include "common/connection_guard.hpp"

namespace roomkey::native {

// The suites every roomkey server (the helper, the sandbox, the generated
// nginx front) offers: TLS 1.3's AEAD suites, and TLS 1.2 only with ECDHE
// (forward secrecy) and an AEAD cipher (AES-GCM, ChaCha20-Poly1305): no CBC
// (LUCKY13), CCM8, CAMELLIA or ARIA. Strongest first, the server's order
// wins. ECDSA first (the local certificate's key); RSA for --cert/--key.
inline constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256";
inline constexpr const char* kTls13Ciphersuites =
    "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256";

// TLS 1.2 and 1.3 only, the suites above, the server's order. False when
// OpenSSL took none of them.
bool use_server_suites(SSL_CTX* context);

class TlsServer final : public httplib::SSLServer {
public:
    using httplib::SSLServer::SSLServer;

    // Slow and idle clients (connection_guard.hpp): `threads` workers, and
    // at most `queued` accepted connections waiting for one; at most
    // `per_peer` connections per peer address in service or waiting (0:
    // three quarters of the threads), others closed unserved; a request
    // head must come whole within `head_seconds` of its first byte (the
    // first request's: of the handshake's end), like nginx's
    // client_header_timeout; idle keep-alive connections are closed when
    // workers are scarce. harden_server() sets it from ServerLimits.
    //
    // The peer's cap is applied on the accept thread, as each connection is
    // accepted, not by a worker: httplib's accept loop closes a connection
    // at once when the workers' queue is full, and when a worker had to
    // take each connection to refuse it, a flood from one peer filled that
    // queue with connections waiting only to be refused, and another peer's
    // (a user's) was closed unserved.
    void set_connection_limits(std::size_t threads, std::size_t queued, std::size_t per_peer, time_t head_seconds);

private:
    // On the accept thread (through the task queue set_connection_limits()
    // installs): the peer's cap, then the connection to a worker.
    bool process_and_close_socket(socket_t sock) override;
    bool serve(int fd);  // the handshake and the keep-alive loop; closes fd

    ConnectionGuard guard_;
    time_t head_seconds_ = 10;
};

// For the pre-routing handler: the request head has come whole, so its
// deadline no longer applies (the body's bytes each have the read timeout,
// as nginx's client_body_timeout). A no-op outside a TlsServer.
void head_complete();

// Sends the answer written so far on the connection this thread serves for
// a TlsServer (nothing elsewhere). For httplib's logger, which runs once an
// answer is wholly written: the log line's work then comes after the answer
// has left, not before.
void send_answer_now();

// Whether bytes the peer sent wait unread on the TLS connection `ssl` that
// this thread serves (held by a TlsServer's stream, by OpenSSL, or in the
// socket): after a request's head, the start of a body or of another request.
bool bytes_waiting(SSL* ssl);

}  // namespace roomkey::native
