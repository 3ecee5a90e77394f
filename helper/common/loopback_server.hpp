// loopback_server.hpp: the socket-level hardening every roomkey server gets
// (cpp-httplib 0.11 is a compiled library, so only its runtime setters count):
// loopback bind without SO_REUSEPORT, TCP_NODELAY, size limits, timeouts.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <ctime>
#include <string>
#include <string_view>

#include "roomkey/result.hpp"

namespace roomkey::native {

struct ServerLimits {
    std::size_t max_body_bytes = 1 << 20;  // larger bodies get 413 (httplib checks Content-Length)
    std::time_t read_timeout_seconds = 10;
    std::time_t write_timeout_seconds = 10;
    std::time_t keep_alive_timeout_seconds = 5;
    std::size_t keep_alive_max_requests = 1000;  // httplib's default of 5 would defeat keep-alive
    // One thread serves one connection for its whole keep-alive life, and a
    // browser opens ~6 per origin: httplib's default of 8 threads runs out.
    std::size_t threads = 32;
};

// TCP_NODELAY (without it every keep-alive request after the first waits for
// the peer's delayed ACK, ~40 ms), SO_REUSEADDR but never SO_REUSEPORT (with
// it a second process could bind the same port and take the OAuth redirect),
// the payload limit and the timeouts.
void harden_server(httplib::Server& server, const ServerLimits& limits = {});

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
