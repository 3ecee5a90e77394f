// loopback_server.hpp: the socket-level hardening every roomkey server gets
// on cpp-httplib 0.18.7: loopback bind without SO_REUSEPORT, TCP_NODELAY,
// size limits, timeouts, and request framing that httplib would get wrong
// (request smuggling). Each default below was re-checked against 0.18.7.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <ctime>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/result.hpp"
#include "roomkey/upload_limits.hpp"

namespace roomkey::native {

struct ServerLimits {
    // Larger bodies get 413 (httplib checks Content-Length, reads and drops
    // the body); refuse_body_over() gives a route a smaller limit.
    std::size_t max_body_bytes = kMaxRequestBodyBytes;
    std::time_t read_timeout_seconds = 10;
    std::time_t write_timeout_seconds = 10;
    std::time_t keep_alive_timeout_seconds = 5;
    // httplib's default (CPPHTTPLIB_KEEPALIVE_MAX_COUNT: 5 in 0.11.4, 100 in
    // 0.18.7) would end a busy page's connections; 1000 is nginx's default.
    std::size_t keep_alive_max_requests = 1000;
    // One thread serves one connection for its whole keep-alive life, and a
    // browser opens ~6 per origin: httplib's default of 8 threads runs out.
    // bench/soak.sh showed 32 running out too: 32 idle or slow-drip
    // connections held every thread and 64 busy keep-alive clients waited
    // ~5 s each (p99 4.7 s). An idle thread costs its stack's touched pages.
    std::size_t threads = 128;
    // Connections one peer address may hold at once on a TlsServer, in
    // service or waiting for a worker (0: three quarters of the threads, so
    // one peer can never hold them all, nor fill the queue below: its
    // connections over the cap are closed as they are accepted); the request head's deadline there is
    // read_timeout_seconds for the whole head, not for each read
    // (TlsServer::set_connection_limits).
    std::size_t connections_per_peer = 0;
    // Accepted connections waiting for a worker; beyond, a new one is closed
    // at once (httplib's default is unbounded: under a flood of connections
    // the queue held thousands of descriptors and a file open failed).
    // 512: with the threads' own, well under the usual limit of 1024
    // descriptors per process.
    std::size_t max_queued_connections = 512;
};

// TCP_NODELAY (without it every keep-alive request after the first waits for
// the peer's delayed ACK, ~40 ms; 0.18.7's CPPHTTPLIB_TCP_NODELAY is still
// false), SO_REUSEADDR but never SO_REUSEPORT (0.18.7's
// default_socket_options still sets it: a second process could bind the
// same port and take the OAuth redirect), the payload limit (0.18.7's
// default is still unlimited) and the timeouts.
//
// On an httplib::SSLServer, the TLS versions and suites of
// use_server_suites() (tls_server.hpp).
//
// It also installs the request-framing guard (see below), composed with the
// caller's own handlers, which must therefore be given here and never set on
// the server directly (httplib keeps one handler of each kind: setting one
// afterwards would silently drop the guard):
//  - pre-routing: refuse_unsafe_framing() first; then `pre_routing`, if any;
//  - post-routing: `post_routing`, if any; then clear_route_answer()
//    (route_answer.hpp); then, on an httplib::SSLServer,
//    close_if_bytes_left_unread().
using PreRoutingHandler = std::function<httplib::Server::HandlerResponse(const httplib::Request&, httplib::Response&)>;
using PostRoutingHandler = std::function<void(const httplib::Request&, httplib::Response&)>;
void harden_server(httplib::Server& server, const ServerLimits& limits = {}, PreRoutingHandler pre_routing = {},
                   PostRoutingHandler post_routing = {});

// For the last line of a post-routing handler: ends the connection after the
// answer to a request httplib could not parse (it stopped somewhere in the
// header section), or whose body was left unread (e.g. a pre-routing handler
// answered it), so those bytes are never parsed as a request.
void close_if_bytes_left_unread(const httplib::Request& request, httplib::Response& response);

// [request framing] -----------------------------------------------------------
// cpp-httplib (0.11.4, and still 0.18.7) keeps a connection open after every
// answer and parses whatever it did not consume as the next request: a body
// left unread when a pre-routing handler answered, the lines after an
// over-long header line. A cross-site page can make a browser send a POST
// with any text/plain body, so such leftovers would be requests that passed
// no Host/Origin check. It inflates compressed bodies without a size limit
// (0.18.7 too), and reads a POST/PUT/PATCH without Content-Length until the
// peer closes. (0.18.7 with Debian's CVE-2025-46728 fix bounds chunked and
// unframed bodies by the payload limit and reads a GET's body; 0.11.4 did
// neither. The refusals below stay: a route's own limit can only be checked
// before the body is read when it comes with Content-Length.)

// Whether httplib reads a body after the pre-routing handler returns
// Unhandled: POST/PUT/PATCH/DELETE with Content-Length > 0 (after
// refuse_unsafe_framing). A pre-routing handler must not answer such a request
// itself (or the body is parsed as a request; the post-routing guard then
// closes the connection): let a route check it once the body is read.
bool body_follows(const httplib::Request& request);

// For the first line of a pre-routing handler. Answers, and ends the
// connection after, a request whose framing httplib would mishandle:
//   400  a body on GET/HEAD/OPTIONS/CONNECT/TRACE (no route takes one),
//        a Content-Length that is not one plain decimal number;
//   411  Transfer-Encoding (a chunked body's size is known only once read:
//        no route limit could refuse it before);
//   415  Content-Encoding on a request body (inflated without a limit).
//   411  a POST/PUT/PATCH without Content-Length whose body (bytes after
//        the head) has already come.
// (A body over the payload limit gets httplib's 413 after it has been read
// and dropped.) A POST/PUT/PATCH with neither Content-Length nor
// Transfer-Encoding nor bytes after its head gets "Content-Length: 0" (RFC
// 9112 6.3: it has no body), so httplib does not wait for the peer to close.
// Returns true when it answered.
bool refuse_unsafe_framing(const httplib::Request& request, httplib::Response& response);

// For a pre-routing handler, after refuse_unsafe_framing(): answers 413, and
// ends the connection after, a request whose Content-Length is over
// `max_bytes`, before httplib reads the body. The server-wide payload limit
// (ServerLimits::max_body_bytes) is then only the ceiling; this is a route's
// own, smaller limit. Returns true when it answered.
bool refuse_body_over(const httplib::Request& request, httplib::Response& response, std::size_t max_bytes);

// For a pre-routing handler: the answer to `request` goes out uncompressed
// whatever its Accept-Encoding (httplib compresses text and JSON bodies
// when the request accepts gzip or br). For answers that carry secrets.
void answer_uncompressed(const httplib::Request& request);

// Ends the TLS connection that carries `request` once `response` is written:
// later reads see end of stream (bytes already received included), so httplib
// closes it as soon as the peer sends anything more, or after the keep-alive
// timeout; the response says "Connection: close". For an httplib::SSLServer
// hardened by harden_server(); a no-op on plain sockets.
void close_connection_after_response(const httplib::Request& request, httplib::Response& response);

// The DNS-rebinding rule both servers apply to a Host header (or an Origin's
// host part): 127.0.0.1:PORT or localhost:PORT (any case), and [::1]:PORT
// only when the server also listens on [::1]. A page on evil.example that
// resolved to 127.0.0.1 sends its own name and is refused.
bool loopback_host_allowed(std::string_view host, int port, bool listening_on_ipv6);

// The host names loopback_host_allowed() accepts before ":PORT" (localhost
// in any case): 127.0.0.1, localhost, and [::1] when listening there. The
// nginx configuration generator writes its Host rule from this list.
std::vector<std::string> loopback_host_names(bool listening_on_ipv6);

// Only SO_REUSEADDR: restart after a crash without waiting for TIME_WAIT.
void loopback_socket_options(int socket);

enum class BindError {
    port_in_use,        // another process listens there (EADDRINUSE)
    permission_denied,  // a privileged port (EACCES)
    failed,             // anything else
};
std::string_view to_string(BindError error);

// Binds `host` (127.0.0.1 or ::1) on `port` (0 = any free port) and returns
// the port bound; call server.listen_after_bind() next.
Result<int, BindError> bind_loopback(httplib::Server& server, const std::string& host, int port);

}  // namespace roomkey::native
