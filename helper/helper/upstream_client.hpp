// upstream_client.hpp: sends shared/'s HttpRequest to an https:// upstream with
// cpp-httplib (the native twin of web/'s fetch transport), over pooled
// keep-alive connections, with the server certificate verified against the
// system CAs plus the local CA, and against the upstream's host name or IP
// address (common/tls_client.hpp). Never follows redirects; retries only a GET
// whose reused keep-alive connection turned out to be closed (never a POST:
// an authorization code is single use).
#pragma once

#include <httplib.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "helper/options.hpp"
#include "roomkey/http.hpp"
#include "roomkey/proxy_outcome.hpp"
#include "roomkey/result.hpp"

namespace roomkey::helper {

enum class UpstreamError {
    // Nothing of the request left the helper:
    invalid_url,     // not an absolute https:// URL
    connect_failed,  // refused, unreachable, connect timed out
    tls_failed,      // handshake or certificate verification failed
    // The request was (at least partly) sent; the upstream may have acted:
    io_failed,  // the connection broke while sending or before the whole answer came
    timed_out,  // no answer within UpstreamTimeouts::read
};
std::string_view to_string(UpstreamError error);
// not_sent or no_answer (shared/'s proxy_outcome.hpp), what the app is told.
UpstreamOutcome outcome_of(UpstreamError error);

class UpstreamClient {
public:
    // `ca_files`: PEM files trusted in addition to the system CAs.
    explicit UpstreamClient(std::vector<std::string> ca_files, UpstreamTimeouts timeouts = {});
    ~UpstreamClient();
    UpstreamClient(const UpstreamClient&) = delete;
    UpstreamClient& operator=(const UpstreamClient&) = delete;

    // Checks that every CA file loads; the message names the bad file.
    Result<Unit, std::string> check_ca_files() const;

    // `request.url` is absolute. Thread-safe; concurrent calls use separate connections.
    Result<HttpResponse, UpstreamError> send(const HttpRequest& request);

private:
    struct Idle {
        std::unique_ptr<httplib::SSLClient> client;
        std::chrono::steady_clock::time_point since;
    };
    // Null when the client cannot be made to check the certificate's name.
    std::unique_ptr<httplib::SSLClient> make_client(const std::string& host, int port) const;
    // An idle connection to `key` that the upstream has not yet timed out, or null.
    std::unique_ptr<httplib::SSLClient> take_idle(const std::string& key);
    void put_idle(const std::string& key, std::unique_ptr<httplib::SSLClient> client);

    std::vector<std::string> ca_files_;
    UpstreamTimeouts timeouts_;
    std::mutex mutex_;
    // Idle connections per "host:port", most recently used last.
    std::map<std::string, std::vector<Idle>> idle_;
};

}  // namespace roomkey::helper
