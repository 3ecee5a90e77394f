// helper_server.hpp: roomkey-helper's HTTPS server: one function registers
// the routes (app page + assets, /config.json, POST /oauth/token, /api/...);
// policy.hpp is applied to every request, before routing or, for a request
// with a body, once httplib has read it.
#pragma once

#include <httplib.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/certificate_renewal.hpp"
#include "common/tls.hpp"
#include "helper/options.hpp"
#include "helper/routes.hpp"
#include "helper/static_site.hpp"
#include "roomkey/result.hpp"

namespace roomkey::helper {

class BffGateway;
class Proxy;
class UpstreamClient;

enum class StartError {
    web_root_missing,  // no web build where --web-root points
    tls_failed,        // the state dir or the certificate could not be made/loaded
    port_in_use,       // another process listens on the port
    bind_failed,       // any other bind failure
    upstream_invalid,  // the upstream configuration cannot be used
    bff_key_failed,    // --session bff: the cookie key could not be read or made
    bff_store_failed,  // --bff-store: the Redis address is wrong or does not answer
};
std::string_view to_string(StartError error);

struct StartFailure {
    StartError code;
    std::string message;  // for the user, names the fix; never a secret
};

// Receives one log line at a time (stderr in main, a buffer in tests).
using LogSink = std::function<void(const std::string& line)>;

class HelperServer {
public:
    // Checks the web root, makes or loads the certificate, registers the
    // routes and binds the port; the server accepts once run() is called
    // (connections made before wait in the listen backlog).
    static Result<std::unique_ptr<HelperServer>, StartFailure> start(HelperConfig config, LogSink log);

    ~HelperServer();
    HelperServer(const HelperServer&) = delete;
    HelperServer& operator=(const HelperServer&) = delete;

    int port() const { return port_; }
    // "https://127.0.0.1:PORT/", also with --ipv6: the redirect URI the
    // service knows is on 127.0.0.1.
    std::string app_url() const;
    // The same without the trailing '/': "https://127.0.0.1:PORT".
    std::string origin() const;
    // The origin the browser sees: --front-origin when behind a front, else origin().
    std::string public_origin() const;
    // The generated TLS files; empty when --cert/--key were given.
    const std::optional<native::TlsMaterial>& tls() const { return tls_; }
    const HelperConfig& config() const { return config_; }
    // The connections to the service (tests: what was opened ahead).
    UpstreamClient& upstream() { return *upstream_; }

    // What the router was given, in order: each row of the route table
    // (routes.hpp) with a handler of its own, method by method, then the
    // catch-alls ("GET .*": the web build's rows; any other method: 405).
    // `row` is the table's row, nullptr for the 405 catch-all.
    struct RegisteredRoute {
        std::string method;   // "GET"
        std::string pattern;  // cpp-httplib's: "/config\\.json", "/api/.*", ".*"
        const Route* row = nullptr;
    };
    const std::vector<RegisteredRoute>& registered_routes() const { return registered_; }

    // Serves until stop(); returns false when listening failed.
    bool run();
    // Serves on a background thread (tests); the destructor stops and joins it.
    void run_in_background();
    // Safe from any thread, also before run().
    void stop();

private:
    // One listening socket (127.0.0.1, and [::1] with --ipv6) with its server.
    struct Listener {
        std::string address;
        std::unique_ptr<httplib::SSLServer> server;
        // stop() may come before run() has started accepting (a signal right
        // after the ready line): this flag and stop_requested_ close that window.
        std::atomic<bool> running{false};
        // stop() runs from run()'s end and from the owner: httplib 0.18.7's
        // Server::stop() asserts when a second call finds the socket closed
        // while the accept loop is still ending. Sent once.
        std::atomic<bool> stop_sent{false};
    };

    HelperServer(HelperConfig config, LogSink log, StaticSite site);
    Result<Unit, StartFailure> add_listener(const std::string& address, const std::string& cert_file,
                                            const std::string& key_file);
    void register_routes(httplib::Server& server);
    // Answers `res` with the policy's refusal, if any; true when it did.
    bool refuse(const httplib::Request& req, httplib::Response& res) const;
    bool listen(Listener& listener);
    void log(const std::string& line) const;

    HelperConfig config_;
    LogSink log_;
    StaticSite site_;
    std::optional<native::TlsMaterial> tls_;
    std::unique_ptr<native::CertificateRenewal> renewal_;  // generated certificates only; outlives the servers
    std::vector<std::unique_ptr<Listener>> listeners_;
    std::vector<RegisteredRoute> registered_;
    std::unique_ptr<Proxy> proxy_;
    std::unique_ptr<BffGateway> bff_;  // --session bff only
    std::shared_ptr<UpstreamClient> upstream_;  // the proxy's too
    int port_ = 0;
    std::thread thread_;
    std::atomic<bool> stop_requested_{false};
};

}  // namespace roomkey::helper
