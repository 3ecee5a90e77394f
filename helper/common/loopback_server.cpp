// loopback_server.cpp: socket options, binding and the request-framing guard
// for the loopback servers (POSIX, OpenSSL).
//
// [SECTION] socket options
// [SECTION] request framing
// [SECTION] harden_server
// [SECTION] bind
#include "common/loopback_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "common/route_answer.hpp"
#include "common/tls_server.hpp"
#include "roomkey/http.hpp"

namespace roomkey::native {

std::string_view to_string(BindError error) {
    switch (error) {
        case BindError::port_in_use:
            return "port_in_use";
        case BindError::permission_denied:
            return "permission_denied";
        case BindError::failed:
            return "failed";
    }
    return "unknown";
}

// [SECTION] socket options ----------------------------------------------------

void loopback_socket_options(int socket) {
    int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
}

// [SECTION] request framing ---------------------------------------------------

namespace {

// The TLS connection this thread serves. httplib runs a connection's
// handshake and every request on it on one worker thread, but gives the
// handlers the SSL (req.ssl) only for requests that parsed; the answer to one
// that did not must still be able to end the connection.
thread_local SSL* t_connection = nullptr;
// close_connection_after_response() was called for the current answer.
thread_local bool t_closing = false;

void note_connection(const SSL* ssl, int where, int /*ret*/) {
    if ((where & SSL_CB_HANDSHAKE_START) != 0 && t_connection != ssl) {
        t_connection = const_cast<SSL*>(ssl);
        t_closing = false;
    }
}

SSL* connection_of(const httplib::Request& request) {
    // httplib hands out its own SSL as const; ending the connection is ours to do.
    return request.ssl != nullptr ? const_cast<SSL*>(request.ssl) : t_connection;
}

// Methods whose body httplib reads (its detail::expect_content).
bool reads_body(std::string_view method) {
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE" || method == "PRI";
}

struct Refusal {
    int status;
    const char* reason;
};

// What httplib would mishandle in how this request delimits its body.
std::optional<Refusal> framing_problem(const httplib::Request& request, std::uint64_t& length) {
    length = 0;
    if (request.has_header("Transfer-Encoding")) {
        return Refusal{411, "send the body with Content-Length; Transfer-Encoding is not accepted"};
    }
    const std::size_t lengths = request.get_header_value_count("Content-Length");
    if (lengths > 1) return Refusal{400, "more than one Content-Length"};
    if (lengths == 1) {
        const std::string value = request.get_header_value("Content-Length");
        // At most 18 digits: no overflow, and far above any limit.
        if (value.empty() || value.size() > 18 || value.find_first_not_of("0123456789") != std::string::npos) {
            return Refusal{400, "malformed Content-Length"};
        }
        length = std::stoull(value);
    }
    // httplib 0.18.7 reads such a body (0.11.4 left it on the connection to
    // be parsed as the next request); no roomkey route takes one, and a
    // front before roomkey may frame it differently: refused.
    if (length > 0 && !reads_body(request.method)) return Refusal{400, "this method takes no body"};
    if (length > 0 && request.has_header("Content-Encoding") &&
        !iequals(request.get_header_value("Content-Encoding"), "identity")) {
        return Refusal{415, "request bodies are not accepted compressed"};
    }
    // Over the payload limit is httplib's own 413: it reads and drops the
    // body first, so the client can finish sending and read the answer.
    return std::nullopt;
}

}  // namespace

bool body_follows(const httplib::Request& request) {
    if (!reads_body(request.method)) return false;
    std::uint64_t length = 0;
    return !framing_problem(request, length) && length > 0;
}

bool refuse_unsafe_framing(const httplib::Request& request, httplib::Response& response) {
    std::uint64_t length = 0;
    if (auto problem = framing_problem(request, length)) {
        response.status = problem->status;
        response.set_content(std::string(problem->reason) + "\n", "text/plain; charset=utf-8");
        close_connection_after_response(request, response);
        return true;
    }
    if (reads_body(request.method) && request.method != "DELETE" && !request.has_header("Content-Length")) {
        // A body came without its length: refused (docs/deploy.md: bodies
        // come with Content-Length), never read as the next request.
        if (bytes_waiting(connection_of(request))) {
            response.status = 411;
            response.set_content("send the body with Content-Length\n", "text/plain; charset=utf-8");
            close_connection_after_response(request, response);
            return true;
        }
        // Nothing follows: a body-less POST, as some browsers send it. httplib
        // hands the pre-routing handler its own, non-const Request: without
        // a length it would read until the peer closes (it already does this
        // for DELETE).
        const_cast<httplib::Request&>(request).set_header("Content-Length", "0");
    }
    return false;
}

bool refuse_body_over(const httplib::Request& request, httplib::Response& response, std::size_t max_bytes) {
    std::uint64_t length = 0;
    if (framing_problem(request, length) || length <= max_bytes) return false;
    response.status = 413;
    response.set_content("request body too large: this route takes at most " + std::to_string(max_bytes) + " bytes\n",
                         "text/plain; charset=utf-8");
    // The body is never read: its bytes must not be parsed as a request.
    close_connection_after_response(request, response);
    return true;
}

void answer_uncompressed(const httplib::Request& request) {
    // httplib decides from the request's Accept-Encoding when it writes the
    // answer; the pre-routing handler's Request is httplib's own, non-const.
    const_cast<httplib::Request&>(request).headers.erase("Accept-Encoding");
}

void close_connection_after_response(const httplib::Request& request, httplib::Response& response) {
    SSL* ssl = connection_of(request);
    if (ssl == nullptr) return;
    // Every later SSL_read returns 0 at once and drops what OpenSSL has
    // buffered (a smuggled request sits there, decrypted with the body
    // around it), so httplib's next request read ends the connection. Writing
    // still works. (Not shutdown(SHUT_RD): httplib checks before each write
    // that a peek at the socket does not see end of stream.)
    SSL_set_shutdown(ssl, SSL_get_shutdown(ssl) | SSL_RECEIVED_SHUTDOWN);
    t_closing = true;
    response.set_header("Connection", "close");
}

// After the handlers: a request that did not parse (httplib stopped somewhere
// in its header section) or whose body was not read in full leaves bytes on
// the connection that must never be parsed as a request.
void close_if_bytes_left_unread(const httplib::Request& request, httplib::Response& response) {
    std::uint64_t length = 0;
    const bool unparsed = request.ssl == nullptr;  // setup_request() gives every parsed request its SSL
    if (unparsed || framing_problem(request, length) || request.body.size() != length) {
        close_connection_after_response(request, response);
    }
    if (t_closing) {
        // httplib has added its own "Keep-Alive" (or a "Connection") by now.
        response.headers.erase("Connection");
        response.headers.erase("Keep-Alive");
        response.set_header("Connection", "close");
        t_closing = false;
    }
}

bool loopback_host_allowed(std::string_view host, int port, bool listening_on_ipv6) {
    const std::string suffix = ":" + std::to_string(port);
    if (host.size() <= suffix.size() || host.substr(host.size() - suffix.size()) != suffix) return false;
    const std::string_view name = host.substr(0, host.size() - suffix.size());
    for (const auto& allowed : loopback_host_names(listening_on_ipv6)) {
        if (iequals(name, allowed)) return true;
    }
    return false;
}

std::vector<std::string> loopback_host_names(bool listening_on_ipv6) {
    std::vector<std::string> names = {"127.0.0.1", "localhost"};
    if (listening_on_ipv6) names.emplace_back("[::1]");
    return names;
}

// [SECTION] harden_server -----------------------------------------------------

void harden_server(httplib::Server& server, const ServerLimits& limits, PreRoutingHandler pre_routing,
                   PostRoutingHandler post_routing) {
    server.set_tcp_nodelay(true);
    server.set_socket_options([](int sock) { loopback_socket_options(sock); });
    server.set_payload_max_length(limits.max_body_bytes);
    server.set_read_timeout(limits.read_timeout_seconds, 0);
    server.set_write_timeout(limits.write_timeout_seconds, 0);
    server.set_keep_alive_timeout(limits.keep_alive_timeout_seconds);
    server.set_keep_alive_max_count(limits.keep_alive_max_requests);
    const std::size_t threads = limits.threads;
    const std::size_t queued = limits.max_queued_connections;
    server.new_task_queue = [threads, queued] { return new httplib::ThreadPool(threads, queued); };

    if (auto* own = dynamic_cast<TlsServer*>(&server)) {
        own->set_connection_limits(limits.threads, limits.max_queued_connections, limits.connections_per_peer,
                                   limits.read_timeout_seconds);
    }
    server.set_pre_routing_handler(
        [pre_routing = std::move(pre_routing)](const httplib::Request& req, httplib::Response& res) {
            head_complete();
            if (refuse_unsafe_framing(req, res)) return httplib::Server::HandlerResponse::Handled;
            return pre_routing ? pre_routing(req, res) : httplib::Server::HandlerResponse::Unhandled;
        });
    auto* tls = dynamic_cast<httplib::SSLServer*>(&server);
    if (tls != nullptr) {
        SSL_CTX_set_info_callback(tls->ssl_context(), note_connection);
        use_server_suites(tls->ssl_context());
    }
    server.set_post_routing_handler(
        [post_routing = std::move(post_routing), tls](const httplib::Request& req, httplib::Response& res) {
            if (post_routing) post_routing(req, res);
            clear_route_answer();  // after the error handler: no mark outlives its answer
            if (tls != nullptr) close_if_bytes_left_unread(req, res);  // last: it may end the connection
        });
}

// [SECTION] bind --------------------------------------------------------------

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
    // The listen backlog is CPPHTTPLIB_LISTEN_BACKLOG, set at compile time
    // (cmake/RoomkeyThirdParty.cmake); 0.11.4's compiled .so had 5.
    server.set_socket_options([](int sock) { loopback_socket_options(sock); });
    int bound = port;
    if (port == 0) {
        bound = server.bind_to_any_port(host);
        if (bound <= 0) bound = -1;
    } else if (!server.bind_to_port(host, port)) {
        bound = -1;
    }
    if (bound < 0) return Err{probe_bind_error(host, port)};
    return bound;
}

}  // namespace roomkey::native
