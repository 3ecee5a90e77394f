// upstream_client.hpp: sends shared/'s HttpRequest to an https:// upstream with
// cpp-httplib (the native twin of web/'s fetch transport), over pooled
// keep-alive connections, with the server certificate verified against the
// system CAs plus the local CA, and against the upstream's host name or IP
// address (common/tls_client.hpp). Never follows redirects; retries only a GET
// whose reused keep-alive connection turned out to be closed (never a POST:
// an authorization code is single use). Connections can be opened ahead of
// the requests that will need them (preconnect), as a browser does.
#pragma once

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/openable_client.hpp"
#include "common/tls_client_context.hpp"
#include "helper/options.hpp"
#include "roomkey/http.hpp"
#include "roomkey/proxy_outcome.hpp"
#include "roomkey/result.hpp"
#include "roomkey/url.hpp"

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

    // Opens connections to the origin of `url` (absolute https://) in the
    // background, several at once, until `connections` of them are idle or
    // being opened, so that as many requests sent at once soon after find
    // them ready; returns at once. An idle one that will soon expire does not
    // count. A request to that origin that finds none idle while some are
    // being opened waits for one (up to the connect timeout) instead of
    // opening its own. They are closed unused once UpstreamTimeouts::idle has
    // passed, like any idle one, and one that fails to open is dropped
    // silently (the request that would have used it opens its own and
    // reports its own error). Ignored for a URL send() would refuse.
    void preconnect(const std::string& url, std::size_t connections);

    // Until every connection preconnect() asked for is open or has failed
    // (tests, bench).
    void wait_for_preconnects();

    // How many connections to the origin of `url` are idle now (tests, bench).
    std::size_t idle_connections(const std::string& url);

private:
    using Client = native::OpenableClient;
    struct Idle {
        std::unique_ptr<Client> client;
        std::chrono::steady_clock::time_point since;
        bool opened_ahead = false;  // by preconnect(), no request sent on it yet
    };
    struct Origin {
        std::string host;  // an IPv6 literal without brackets, as httplib wants it
        int port = 443;
        std::string key() const { return host + ":" + std::to_string(port); }
    };
    static std::optional<Origin> origin_of(const Url& url);  // null unless https:// with a host
    static std::optional<Origin> origin_of(const std::string& url);
    // Null when the TLS context cannot be made.
    std::unique_ptr<Client> make_client(const std::string& host, int port);
    // An idle connection to `key` that the upstream has not yet timed out, or
    // the next one preconnect() finishes opening to it; null when there is neither.
    std::unique_ptr<Client> take_idle(const std::string& key);
    std::unique_ptr<Client> take_idle_locked(const std::string& key);  // mutex_ held; never waits
    void put_idle(const std::string& key, std::unique_ptr<Client> client);
    // An opener thread: preconnect()'s work, one connection at a time, and
    // closing idle connections as they expire.
    void open_ahead();
    // Openers, so that a sign-in's connections open side by side (its token
    // exchange and dashboard reads: 1 + 3).
    static constexpr std::size_t kOpeners = 4;

    std::vector<std::string> ca_files_;
    UpstreamTimeouts timeouts_;
    std::mutex mutex_;
    std::shared_ptr<native::TlsClientContext> tls_;  // made by the first make_client()
    // Idle connections per "host:port", most recently used last.
    std::map<std::string, std::vector<Idle>> idle_;
    // preconnect(): connections asked for and not yet opened, per "host:port",
    // and the origins to open them to, in order.
    std::map<std::string, std::size_t> opening_;
    std::deque<Origin> to_open_;
    std::condition_variable wake_opener_;
    std::condition_variable opened_;  // a preconnect() connection opened or failed
    bool stopping_ = false;
    std::vector<std::thread> openers_;  // started by the first preconnect()
};

}  // namespace roomkey::helper
