// upstream_client.cpp: a small pool of upstream HTTPS connections (common/openable_client.hpp) per origin.
#include "helper/upstream_client.hpp"

#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "common/httplib_adapter.hpp"
#include "helper/route_policy.hpp"
#include "roomkey/url.hpp"

namespace roomkey::helper {

std::string_view to_string(UpstreamError error) {
    switch (error) {
        case UpstreamError::invalid_url:
            return "invalid_url";
        case UpstreamError::connect_failed:
            return "connect_failed";
        case UpstreamError::tls_failed:
            return "tls_failed";
        case UpstreamError::io_failed:
            return "io_failed";
        case UpstreamError::timed_out:
            return "timed_out";
    }
    return "unknown";
}

UpstreamOutcome outcome_of(UpstreamError error) {
    switch (error) {
        case UpstreamError::invalid_url:
        case UpstreamError::connect_failed:
        case UpstreamError::tls_failed:
            return UpstreamOutcome::not_sent;
        case UpstreamError::io_failed:
        case UpstreamError::timed_out:
            return UpstreamOutcome::no_answer;
    }
    return UpstreamOutcome::no_answer;  // unknown: assume the worst
}

namespace {

// A connection idle this long is dropped rather than risked (route_policy.hpp).

// The system CA directory (hashed names, looked up lazily). Using the
// directory rather than the bundle file matters: loading the bundle parses
// ~140 certificates, ~100 ms per new upstream connection on a busy machine.
std::string system_ca_dir() {
    const char* env = std::getenv(X509_get_default_cert_dir_env());
    return env != nullptr && env[0] != '\0' ? env : X509_get_default_cert_dir();
}

// System CAs + the given files. The SSL_CTX takes ownership of the store.
X509_STORE* make_store(const std::vector<std::string>& ca_files, bool* all_loaded) {
    X509_STORE* store = X509_STORE_new();
    if (store == nullptr) return nullptr;
    X509_STORE_load_path(store, system_ca_dir().c_str());
    bool ok = true;
    for (const auto& file : ca_files) ok = X509_STORE_load_file(store, file.c_str()) == 1 && ok;
    ERR_clear_error();
    if (all_loaded != nullptr) *all_loaded = ok;
    return store;
}

// httplib reports a read timeout as Error::Read; `waited` (the whole call)
// tells it apart from a closed connection.
UpstreamError classify(httplib::Error error, std::chrono::steady_clock::duration waited,
                       std::chrono::milliseconds read_timeout) {
    switch (error) {
        // Error::Connection also covers a failed reconnect of a pooled
        // connection httplib found closed: nothing was sent on either.
        case httplib::Error::Connection:
        case httplib::Error::BindIPAddress:
        case httplib::Error::ConnectionTimeout:
            return UpstreamError::connect_failed;
        case httplib::Error::SSLConnection:
        case httplib::Error::SSLLoadingCerts:
        case httplib::Error::SSLServerVerification:
            return UpstreamError::tls_failed;
        // Read or Write: the request may have reached the upstream. A failed
        // write may have sent part of it, so it counts as sent too.
        // (A broken connection fails at once; 90 %: poll may wake a hair early.)
        case httplib::Error::Read:
            return waited * 10 >= read_timeout * 9 ? UpstreamError::timed_out : UpstreamError::io_failed;
        default:
            return UpstreamError::io_failed;
    }
}

}  // namespace

UpstreamClient::UpstreamClient(std::vector<std::string> ca_files, UpstreamTimeouts timeouts)
    : ca_files_(std::move(ca_files)), timeouts_(timeouts) {}
UpstreamClient::~UpstreamClient() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_opener_.notify_all();
    opened_.notify_all();  // a request waiting for a connection opened ahead
    // Each waits for the handshake it has under way, if any: up to the
    // connect timeout, plus a slow name lookup (getaddrinfo has none).
    for (std::thread& opener : openers_) opener.join();
}

Result<Unit, std::string> UpstreamClient::check_ca_files() const {
    for (const auto& file : ca_files_) {
        bool loaded = false;
        X509_STORE* store = make_store({file}, &loaded);
        X509_STORE_free(store);
        if (!loaded) return Err{"upstream CA file " + file + " cannot be loaded as PEM certificates"};
    }
    return Unit{};
}

std::unique_ptr<UpstreamClient::Client> UpstreamClient::make_client(const std::string& host, int port) {
    {
        // One TLS context for every upstream connection (CAs loaded once,
        // sessions resumed: common/tls_client_context.hpp), made on first use.
        std::lock_guard<std::mutex> lock(mutex_);
        if (!tls_) tls_ = native::TlsClientContext::make(make_store(ca_files_, nullptr));
        if (!tls_) return nullptr;
    }
    auto client = std::make_unique<Client>(host, port, tls_);
    client->set_tcp_nodelay(true);
    client->set_keep_alive(true);
    client->set_follow_location(false);  // a redirect must not carry credentials elsewhere
    // The target is forwarded as received (already percent-encoded); httplib's
    // re-encoding would turn a form-encoded '+' (space) into "%2B".
    client->set_url_encode(false);
    client->set_connection_timeout(timeouts_.connect);
    client->set_read_timeout(timeouts_.read);
    client->set_write_timeout(timeouts_.write);
    return client;
}

namespace {

// Closes idle connections the upstream may be about to close; each open one
// also holds one of the upstream's worker threads (httplib serves a
// connection per thread), so idle ones must not pile up.
template <class Idle>
void prune(std::vector<Idle>& idle, std::chrono::steady_clock::time_point now, std::chrono::milliseconds max_idle) {
    idle.erase(std::remove_if(idle.begin(), idle.end(), [&](const Idle& i) { return now - i.since >= max_idle; }),
               idle.end());
}

}  // namespace

std::unique_ptr<UpstreamClient::Client> UpstreamClient::take_idle_locked(const std::string& key) {
    auto& idle = idle_[key];
    prune(idle, std::chrono::steady_clock::now(), timeouts_.idle);
    while (!idle.empty()) {
        Idle last = std::move(idle.back());  // most recently used: least likely to be closed
        idle.pop_back();
        // httplib's own check before reuse takes any waiting byte for a sign
        // of life: a connection opened ahead and not used yet has the
        // service's session tickets waiting, one the service closed has its
        // close_notify; either would pass it.
        if (last.client->still_open()) return std::move(last.client);
    }
    return nullptr;
}

std::unique_ptr<UpstreamClient::Client> UpstreamClient::take_idle(const std::string& key) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (auto client = take_idle_locked(key)) return client;
    // A connection preconnect() is opening to this origin is further along
    // than a new one would be: wait for it (a request that came sooner than
    // the handshakes ahead of it could finish), as long as a new one may take.
    const auto deadline = std::chrono::steady_clock::now() + timeouts_.connect;
    while (opening_[key] > 0 && !stopping_) {
        if (opened_.wait_until(lock, deadline) == std::cv_status::timeout) break;
        if (auto client = take_idle_locked(key)) return client;
    }
    return nullptr;
}

void UpstreamClient::put_idle(const std::string& key, std::unique_ptr<Client> client) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& idle = idle_[key];
    const auto now = std::chrono::steady_clock::now();
    prune(idle, now, timeouts_.idle);
    if (idle.size() < kUpstreamIdleConnections) idle.push_back(Idle{std::move(client), now});
}

std::optional<UpstreamClient::Origin> UpstreamClient::origin_of(const Url& url) {
    if (url.scheme != "https" || url.host.empty()) return std::nullopt;
    // httplib wants an IPv6 literal without brackets; parse_url gives it so.
    return Origin{url.host, url.port ? static_cast<int>(*url.port) : 443};
}

std::optional<UpstreamClient::Origin> UpstreamClient::origin_of(const std::string& url) {
    auto parsed = parse_url(url);
    return parsed ? origin_of(*parsed) : std::nullopt;
}

void UpstreamClient::preconnect(const std::string& url, std::size_t connections) {
    const auto origin = origin_of(url);
    if (!origin) return;
    const std::string key = origin->key();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
        if (openers_.empty()) {
            try {
                for (std::size_t i = 0; i < kOpeners; ++i) openers_.emplace_back([this] { open_ahead(); });
            } catch (const std::system_error&) {
                if (openers_.empty()) return;  // no thread to open them: the requests open their own
            }
        }
        const auto now = std::chrono::steady_clock::now();
        auto& idle = idle_[key];
        prune(idle, now, timeouts_.idle);
        // One about to be closed does not count: the requests come after
        // the page has loaded, maybe a second from now.
        const auto fresh = static_cast<std::size_t>(
            std::count_if(idle.begin(), idle.end(), [&](const Idle& i) { return now - i.since < timeouts_.idle / 2; }));
        std::size_t& opening = opening_[key];
        const std::size_t have = fresh + opening;
        const std::size_t target = std::min(connections, kUpstreamIdleConnections);
        if (have >= target) return;
        const std::size_t wanted = target - have;
        opening += wanted;
        for (std::size_t i = 0; i < wanted; ++i) to_open_.push_back(*origin);
    }
    wake_opener_.notify_all();
}

void UpstreamClient::open_ahead() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        // Idle connections are closed when they expire, not only when the
        // next request to their origin comes: each holds one of the
        // service's worker threads.
        auto expiry = std::chrono::steady_clock::time_point::max();
        for (const auto& [key, idle] : idle_) {
            for (const Idle& i : idle) expiry = std::min(expiry, i.since + timeouts_.idle);
        }
        const auto work = [this] { return stopping_ || !to_open_.empty(); };
        if (expiry == std::chrono::steady_clock::time_point::max()) {
            wake_opener_.wait(lock, work);
        } else {
            wake_opener_.wait_until(lock, expiry, work);
        }
        if (stopping_) return;
        if (to_open_.empty()) {
            const auto now = std::chrono::steady_clock::now();
            for (auto& [key, idle] : idle_) prune(idle, now, timeouts_.idle);
            continue;
        }
        const Origin origin = to_open_.front();
        to_open_.pop_front();
        lock.unlock();
        std::unique_ptr<Client> client = make_client(origin.host, origin.port);
        const bool opened = client && client->open() == httplib::Error::Success;
        lock.lock();
        if (opened) {
            auto& idle = idle_[origin.key()];
            if (idle.size() < kUpstreamIdleConnections) {
                idle.push_back(Idle{std::move(client), std::chrono::steady_clock::now(), true});
            }
        }
        --opening_[origin.key()];
        opened_.notify_all();
        lock.unlock();
        client.reset();  // one not kept is closed outside the lock
        lock.lock();
    }
}

void UpstreamClient::wait_for_preconnects() {
    std::unique_lock<std::mutex> lock(mutex_);
    opened_.wait(lock, [this] {
        return to_open_.empty() &&
               std::all_of(opening_.begin(), opening_.end(), [](const auto& entry) { return entry.second == 0; });
    });
}

std::size_t UpstreamClient::idle_connections(const std::string& url) {
    const auto origin = origin_of(url);
    if (!origin) return 0;
    std::lock_guard<std::mutex> lock(mutex_);
    auto& idle = idle_[origin->key()];
    prune(idle, std::chrono::steady_clock::now(), timeouts_.idle);
    return idle.size();
}

Result<HttpResponse, UpstreamError> UpstreamClient::send(const HttpRequest& request) {
    auto url = parse_url(request.url);
    const auto origin = url ? origin_of(*url) : std::nullopt;
    if (!origin) return Err{UpstreamError::invalid_url};
    const std::string key = origin->key();
    std::string target = url->path.empty() ? "/" : url->path;
    if (url->query) target += "?" + *url->query;

    httplib::Headers headers;
    std::string content_type;
    for (const auto& [name, value] : request.headers.fields()) {
        if (iequals(name, "content-type")) {
            content_type = value;
        } else if (!iequals(name, "content-length") && !iequals(name, "host")) {
            headers.emplace(name, value);
        }
    }
    auto call = [&](httplib::ClientImpl& client) {
        switch (request.method) {
            case Method::Get:
                return client.Get(target.c_str(), headers);
            case Method::Post:
                return client.Post(target.c_str(), headers, request.body, content_type.c_str());
            case Method::Put:
                return client.Put(target.c_str(), headers, request.body, content_type.c_str());
            case Method::Delete:
                return client.Delete(target.c_str(), headers, request.body, content_type.c_str());
        }
        return httplib::Result{nullptr, httplib::Error::Unknown};
    };

    std::unique_ptr<Client> client = take_idle(key);
    const bool reused = client != nullptr;
    if (!client) client = make_client(origin->host, origin->port);
    if (!client) return Err{UpstreamError::tls_failed};
    auto started = std::chrono::steady_clock::now();
    httplib::Result result = call(*client);
    // A handshake that failed (a certificate refused in it) fails again.
    const bool handshake_failed = !result && (result.error() == httplib::Error::SSLConnection ||
                                              result.error() == httplib::Error::SSLServerVerification);
    if (!result && reused && request.method == Method::Get && !handshake_failed) {
        // The upstream closed the idle connection as we reused it. A GET is
        // safe to repeat once, on a fresh connection.
        client = make_client(origin->host, origin->port);
        if (!client) return Err{UpstreamError::tls_failed};
        started = std::chrono::steady_clock::now();
        result = call(*client);
    }
    if (!result) return Err{classify(result.error(), std::chrono::steady_clock::now() - started, timeouts_.read)};
    HttpResponse out = native::from_httplib_response(result.value());
    put_idle(key, std::move(client));
    return out;
}

}  // namespace roomkey::helper
