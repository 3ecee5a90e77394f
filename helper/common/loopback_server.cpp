// loopback_server.cpp: socket options and binding for the loopback servers (POSIX).
#include "common/loopback_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace roomkey::native {

std::string_view to_string(BindError error) {
    switch (error) {
        case BindError::port_in_use: return "port_in_use";
        case BindError::permission_denied: return "permission_denied";
        case BindError::failed: return "failed";
    }
    return "unknown";
}

void loopback_socket_options(int socket) {
    int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
}

void harden_server(httplib::Server& server, const ServerLimits& limits) {
    server.set_tcp_nodelay(true);
    server.set_socket_options([](int sock) { loopback_socket_options(sock); });
    server.set_payload_max_length(limits.max_body_bytes);
    server.set_read_timeout(limits.read_timeout_seconds, 0);
    server.set_write_timeout(limits.write_timeout_seconds, 0);
    server.set_keep_alive_timeout(limits.keep_alive_timeout_seconds);
    server.set_keep_alive_max_count(limits.keep_alive_max_requests);
    const std::size_t threads = limits.threads;
    server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
}

namespace {

// httplib reports a failed bind as `false` only; bind a probe socket with the
// same options to learn why.
BindError probe_bind_error(const std::string& host, int port) {
    const bool v6 = host.find(':') != std::string::npos;
    const int sock = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sock < 0) return BindError::failed;
    loopback_socket_options(sock);
    int rc = -1;
    if (v6) {
        sockaddr_in6 addr{};
        addr.sin6_family = AF_INET6;
        addr.sin6_port = htons(static_cast<std::uint16_t>(port));
        if (::inet_pton(AF_INET6, host.c_str(), &addr.sin6_addr) != 1) {
            ::close(sock);
            return BindError::failed;
        }
        rc = ::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    } else {
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
            ::close(sock);
            return BindError::failed;
        }
        rc = ::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    }
    if (rc == 0) rc = ::listen(sock, 1);
    const int err = rc == 0 ? 0 : errno;
    ::close(sock);
    if (err == EADDRINUSE) return BindError::port_in_use;
    if (err == EACCES) return BindError::permission_denied;
    return BindError::failed;
}

}  // namespace

Result<int, BindError> bind_loopback(httplib::Server& server, const std::string& host, int port) {
    if (port < 0 || port > 65535) return Err{BindError::failed};
    // httplib 0.11 listens with a backlog of 5 (a compile-time constant of the
    // .so): a burst of new connections (a page load, 8 benchmark clients)
    // overflows it and the kernel drops SYNs, which costs a 1 s retransmit.
    // Note the socket as it is created, and listen again with a real backlog.
    int listening = -1;
    server.set_socket_options([&listening](int sock) {
        loopback_socket_options(sock);
        listening = sock;
    });
    int bound = port;
    if (port == 0) {
        bound = server.bind_to_any_port(host);
        if (bound <= 0) bound = -1;
    } else if (!server.bind_to_port(host, port)) {
        bound = -1;
    }
    server.set_socket_options([](int sock) { loopback_socket_options(sock); });
    if (bound < 0) return Err{probe_bind_error(host, port)};
    if (listening >= 0) ::listen(listening, SOMAXCONN);
    return bound;
}

}  // namespace roomkey::native
