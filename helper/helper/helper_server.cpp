// helper_server.cpp: roomkey-helper's routes and the policy around them.
//
// [SECTION] start: web root, TLS, listeners (127.0.0.1, [::1]), bind
// [SECTION] routes
// [SECTION] run / stop (and the periodic certificate check)
#include "helper/helper_server.hpp"

#include <openssl/ssl.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "common/httplib_adapter.hpp"
#include "common/loopback_server.hpp"
#include "common/openssl_random.hpp"
#include "common/raw_body.hpp"
#include "common/request_log.hpp"
#include "common/route_answer.hpp"
#include "common/tls_server.hpp"
#include "helper/bff_gateway.hpp"
#include "common/certificate_renewal.hpp"
#include "helper/policy.hpp"
#include "helper/proxy.hpp"
#include "helper/request_body_rules.hpp"
#include "helper/route_policy.hpp"
#include "helper/routes.hpp"
#include "helper/upstream_client.hpp"

namespace roomkey::helper {

std::string_view to_string(StartError error) {
    switch (error) {
        case StartError::web_root_missing:
            return "web_root_missing";
        case StartError::tls_failed:
            return "tls_failed";
        case StartError::port_in_use:
            return "port_in_use";
        case StartError::bind_failed:
            return "bind_failed";
        case StartError::upstream_invalid:
            return "upstream_invalid";
        case StartError::bff_key_failed:
            return "bff_key_failed";
        case StartError::bff_store_failed:
            return "bff_store_failed";
    }
    return "unknown";
}

namespace {

using Clock = std::chrono::steady_clock;

// The start of the request this connection thread is handling (httplib runs
// one request at a time per thread, from the pre-routing handler to the logger).
thread_local Clock::time_point t_request_start{};

StartFailure failure(StartError code, std::string message) {
    return StartFailure{code, std::move(message)};
}

void send_text(httplib::Response& res, int status, const std::string& text) {
    res.status = status;
    res.set_content(text + "\n", "text/plain; charset=utf-8");
    res.set_header("Cache-Control", std::string(cache_control(RouteClass::refusal)));
}

}  // namespace

// [SECTION] start: web root, TLS, server, bind ---------------------------------

HelperServer::HelperServer(HelperConfig config, LogSink log, StaticSite site)
    : config_(std::move(config)), log_(std::move(log)), site_(std::move(site)) {}

HelperServer::~HelperServer() {
    stop();
    if (thread_.joinable()) thread_.join();
}

Result<std::unique_ptr<HelperServer>, StartFailure> HelperServer::start(HelperConfig config, LogSink log) {
    auto site = StaticSite::open(config.web_root);
    if (!site) return Err{failure(StartError::web_root_missing, site.error())};

    std::unique_ptr<HelperServer> self(new HelperServer(std::move(config), std::move(log), std::move(*site)));
    HelperConfig& c = self->config_;
    // [::1] is an addition to 127.0.0.1, never a replacement: the redirect
    // URI the service knows is https://127.0.0.1:PORT/callback.
    if (c.host == "::1") c.ipv6 = true;
    c.host = "127.0.0.1";

    std::string cert_file = c.cert_file;
    std::string key_file = c.key_file;
    std::string local_ca;
    native::TlsOptions tls_options;
    if (c.clock) tls_options.now = c.clock();
    if (cert_file.empty()) {
        auto tls = native::ensure_tls_material(c.state_dir, tls_options);
        if (!tls) {
            return Err{failure(
                StartError::tls_failed,
                "certificate: " + std::string(native::to_string(tls.error().code)) + ": " + tls.error().detail)};
        }
        self->tls_ = *tls;
        cert_file = tls->server_cert_path;
        key_file = tls->server_key_path;
        local_ca = tls->ca_cert_path;
        auto renewal = native::CertificateRenewal::create(c.state_dir, *tls, c.clock);
        if (!renewal) return Err{failure(StartError::tls_failed, renewal.error())};
        self->renewal_ = std::move(*renewal);
    } else {
        // The sandbox may still use the local CA, so trust it upstream if it exists.
        auto tls = native::ensure_tls_material(c.state_dir, tls_options);
        if (tls) local_ca = tls->ca_cert_path;
    }

    const std::vector<std::string> cas = upstream_ca_files(c.upstream, local_ca);
    auto upstream = std::make_shared<UpstreamClient>(cas, c.upstream.timeouts);
    self->upstream_ = upstream;
    if (auto ok = upstream->check_ca_files(); !ok) return Err{failure(StartError::upstream_invalid, ok.error())};
    UpstreamPreconnect preconnect;  // none with --no-preconnect
    if (c.preconnect) {
        preconnect = [upstream](const std::string& url, std::size_t connections) {
            upstream->preconnect(url, connections);
        };
    }
    self->proxy_ = std::make_unique<Proxy>(
        c.upstream, [upstream](const HttpRequest& request) { return upstream->send(request); }, std::move(preconnect));

    std::optional<BffKeys> bff_keys;
    if (c.session == SessionMode::bff) {
        auto keys = load_or_create_bff_keys(c.state_dir, native::openssl_random);
        if (!keys) return Err{failure(StartError::bff_key_failed, "--session bff: " + keys.error())};
        bff_keys = std::move(*keys);
    }
    std::shared_ptr<BffRedisStore> bff_redis;
    if (c.session == SessionMode::bff && !c.bff_store.empty()) {
        auto address = parse_redis_url(c.bff_store);
        if (!address) return Err{failure(StartError::bff_store_failed, address.error())};
        bff_redis = std::make_shared<BffRedisStore>(*address);
        if (!bff_redis->ping()) {
            return Err{failure(StartError::bff_store_failed,
                               "--bff-store: cannot reach " + bff_redis->error() +
                                   ": start redis-server there, or leave --bff-store out to keep signed-out "
                                   "sessions in the state directory (helpers on this machine only)")};
        }
        self->log("signed-out BFF sessions are shared in " + bff_redis->url());
    }

    // 127.0.0.1 first (port 0 picks the port), then [::1] on the same port.
    if (auto ok = self->add_listener("127.0.0.1", cert_file, key_file); !ok) return Err{ok.error()};
    if (c.ipv6) {
        if (auto ok = self->add_listener("::1", cert_file, key_file); !ok) return Err{ok.error()};
    }
    if (bff_keys) {
        // After binding: the redirect URI names the port.
        Proxy* proxy = self->proxy_.get();
        std::function<std::time_t()> clock = c.clock;
        self->bff_ = std::make_unique<BffGateway>(BffGatewaySetup{
            c.upstream, self->public_origin() + std::string(kCallbackPath), std::move(*bff_keys),
            // Its own token requests go to the log as the page's go to its
            // HTTP log: endpoint, grant, status and time, no secret.
            [upstream, log = self->log_](const HttpRequest& request) {
                const auto start = Clock::now();
                auto answer = upstream->send(request);
                const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
                log(token_request_log_line(to_string(request.method), request.url, request.body,
                                           answer ? answer->status : 0, ms));
                return answer;
            },
            [proxy](const HttpRequest& request) { return proxy->api(request); }, native::openssl_random,
            [clock] {
                if (clock) return instant_from_unix_seconds(clock());
                return std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now());
            },
            // In the state dir: a restart, and every helper sharing it, keeps
            // them; in Redis, helpers on every machine that uses it.
            std::make_shared<BffRevocations>(c.state_dir, bff_redis)});
    }
    return self;
}

Result<Unit, StartFailure> HelperServer::add_listener(const std::string& address, const std::string& cert_file,
                                                      const std::string& key_file) {
    auto listener = std::make_unique<Listener>();
    listener->address = address;
    // httplib's server over roomkey's TLS stream (common/tls_server.hpp: fewer
    // syscalls and records per request).
    listener->server = std::make_unique<native::TlsServer>(cert_file.c_str(), key_file.c_str());
    httplib::SSLServer& server = *listener->server;
    if (!server.is_valid()) {
        return Err{failure(StartError::tls_failed, "cannot load certificate " + cert_file + " with key " + key_file +
                                                       " (PEM chain + matching private key expected)")};
    }
    SSL_CTX_set_min_proto_version(server.ssl_context(), TLS1_2_VERSION);
    if (renewal_) renewal_->attach(server.ssl_context());
    register_routes(server);  // also hardens it (harden_server wraps the policy)

    const int wanted = port_ != 0 ? port_ : config_.port;
    const std::string shown = address == "::1" ? "[::1]" : address;
    auto port = native::bind_loopback(server, address, wanted);
    if (!port) {
        if (port.error() == native::BindError::port_in_use) {
            return Err{failure(StartError::port_in_use,
                               "port " + std::to_string(wanted) + " on " + shown +
                                   " is already in use (another roomkey-helper?). Stop it, or pick another "
                                   "port: --port N (0 = any free port)")};
        }
        return Err{
            failure(StartError::bind_failed, "cannot listen on " + shown + ":" + std::to_string(wanted) + ": " +
                                                 std::string(native::to_string(port.error())) +
                                                 (address == "::1" ? " (no IPv6 loopback here? drop --ipv6)" : ""))};
    }
    port_ = *port;
    listeners_.push_back(std::move(listener));
    return Unit{};
}

std::string HelperServer::app_url() const {
    return origin() + "/";
}

std::string HelperServer::origin() const {
    return "https://127.0.0.1:" + std::to_string(port_);
}

std::string HelperServer::public_origin() const {
    return config_.front_origin.empty() ? origin() : config_.front_origin;
}

void HelperServer::log(const std::string& line) const {
    if (log_) log_(line);
}

// [SECTION] routes ---------------------------------------------------------------

bool HelperServer::refuse(const httplib::Request& req, httplib::Response& res) const {
    const std::string front_host =
        config_.front_origin.empty() ? std::string() : config_.front_origin.substr(std::string("https://").size());
    const auto refusal = refusal_for(req, Listening{port_, config_.ipv6, front_host},
                                     PolicyLimits{config_.max_uri_bytes, config_.max_header_bytes},
                                     config_.session == SessionMode::bff);
    if (!refusal) return false;
    send_text(res, refusal->status, std::string(refusal->text));
    return true;
}

void HelperServer::register_routes(httplib::Server& s) {
    s.set_default_headers(security_headers());

    // Policy, once for every request. httplib 0.18.7 (as 0.11.4) reads a
    // body only after the pre-routing handler (Server::routing), and
    // answering there would leave it unread, to be parsed as the next
    // request (request smuggling past every check below). So a request with
    // a body is let through, and route() applies the same policy in the
    // route, after the body is read (within the payload limit).
    // harden_server() puts its request-framing guard around this handler
    // (never set one on the server directly).
    //
    // Body limits: httplib's payload limit is server-wide, so it is the
    // largest route's (the upload's), and every other route's smaller limit
    // is enforced here from Content-Length, before the body is read
    // (request_body_rules.hpp). Form and multipart bodies are read as bytes,
    // not by httplib's rules for their types (raw_body.hpp, still needed
    // with 0.18.7: no upload emptied, no form over 8 KiB refused); route()
    // gives their Content-Type back.
    native::ServerLimits limits = config_.limits;
    limits.max_body_bytes = std::max(config_.limits.max_body_bytes, config_.max_upload_body_bytes);
    native::harden_server(s, limits, [this](const httplib::Request& req, httplib::Response& res) {
        t_request_start = Clock::now();
        if (!answer_may_be_compressed(req.path, config_.session)) native::answer_uncompressed(req);
        const std::size_t max_body =
            body_limit(req.method, req.path, config_.limits.max_body_bytes, config_.max_upload_body_bytes);
        if (native::refuse_body_over(req, res, max_body)) {
            res.set_header("Cache-Control", std::string(cache_control(RouteClass::refusal)));
            return httplib::Server::HandlerResponse::Handled;
        }
        native::keep_body_raw(req);
        if (!native::body_follows(req) && refuse(req, res)) return httplib::Server::HandlerResponse::Handled;
        return httplib::Server::HandlerResponse::Unhandled;
    });
    // Every route is registered through route(): none can skip the policy.
    registered_.clear();
    using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;
    auto route = [this, &s](std::string_view method, const std::string& pattern, const Route* row, Handler handler) {
        registered_.push_back(RegisteredRoute{std::string(method), pattern, row});
        Handler guarded = [this, handler = std::move(handler)](const httplib::Request& req, httplib::Response& res) {
            native::restore_content_type(req);
            if (native::body_follows(req) && refuse(req, res)) return;
            handler(req, res);
        };
        if (method == "GET") s.Get(pattern, std::move(guarded));
        if (method == "POST") s.Post(pattern, std::move(guarded));
        if (method == "PUT") s.Put(pattern, std::move(guarded));
        if (method == "DELETE") s.Delete(pattern, std::move(guarded));
        if (method == "PATCH") s.Patch(pattern, std::move(guarded));
        if (method == "OPTIONS") s.Options(pattern, std::move(guarded));
    };

    auto config_json = [this](const httplib::Request&, httplib::Response& res) {
        res.set_content(proxy_->public_config_json(public_origin(), config_.session), "application/json");
        res.set_header("Cache-Control", std::string(cache_control(RouteClass::config_json)));
    };

    auto token = [this](const httplib::Request& req, httplib::Response& res) {
        // BFF mode: the page never calls the token endpoint (docs/bff.md).
        if (config_.session == SessionMode::bff) {
            return send_text(res, 404, "not found: in the BFF mode the helper makes the token requests");
        }
        auto request = native::from_httplib_request(req);
        if (!request) return send_text(res, 405, "method not allowed");
        native::to_httplib_response(proxy_->token(*request), res);
        native::mark_route_answer();  // the service's body, as it came
    };

    auto api = [this](const httplib::Request& req, httplib::Response& res) {
        auto request = native::from_httplib_request(req);
        if (!request) return send_text(res, 405, "method not allowed");
        native::to_httplib_response(config_.session == SessionMode::bff ? bff_->api(*request) : proxy_->api(*request),
                                    res);
        native::mark_route_answer();  // the service's body, empty or not
    };

    // The BFF mode's routes (docs/bff.md); the callback is the helper's
    // own, not the app page. bff_ is made once the port is known (the
    // redirect URI names it), before run().
    using Call = HttpResponse (BffGateway::*)(const HttpRequest&);
    auto bff_route = [this](Call call) -> Handler {
        return [this, call](const httplib::Request& req, httplib::Response& res) {
            auto request = native::from_httplib_request(req);
            if (!request) return send_text(res, 405, "method not allowed");
            native::to_httplib_response(((*bff_).*call)(*request), res);
        };
    };

    auto site = [this](const httplib::Request& req, httplib::Response& res) {
        site_.serve(req, res);
        // Only the browser's navigation to the redirect URI: not a HEAD, nor
        // a page elsewhere loading it as an image or a script.
        const std::string dest = req.get_header_value("Sec-Fetch-Dest");
        const bool navigation = req.method == "GET" && (dest.empty() || dest == "document");
        if (req.path == kCallbackPath && navigation && (res.status == 200 || res.status == 304)) {
            const auto q = req.target.find('?');
            if (q != std::string::npos) proxy_->callback_arrived(req.target.substr(q + 1));
        }
    };

    // The route table's rows with a handler of their own, then the web
    // build's rows as one catch-all after them (httplib tries patterns in
    // the order they were registered).
    const Route* site_row = nullptr;
    for (const Route& row : helper_routes()) {
        if (!route_in_mode(row, config_.session)) continue;
        Handler handler;
        switch (row.handler) {
            case RouteHandler::none:
                continue;
            case RouteHandler::site:
                if (!site_row) site_row = &row;
                continue;
            case RouteHandler::config_json:
                handler = config_json;
                break;
            case RouteHandler::token:
                handler = token;
                break;
            case RouteHandler::api:
                handler = api;
                break;
            case RouteHandler::file_preview:
                handler = [this](const httplib::Request& req, httplib::Response& res) {
                    auto request = native::from_httplib_request(req);
                    if (!request) return send_text(res, 405, "method not allowed");
                    native::to_httplib_response(proxy_->file_preview(*request), res);
                    native::mark_route_answer();
                };
                break;
            case RouteHandler::bff_login:
                handler = bff_route(&BffGateway::login);
                break;
            case RouteHandler::bff_callback:
                handler = bff_route(&BffGateway::callback);
                break;
            case RouteHandler::bff_session:
                handler = bff_route(&BffGateway::session);
                break;
            case RouteHandler::bff_refresh:
                handler = bff_route(&BffGateway::refresh);
                break;
            case RouteHandler::bff_logout:
                handler = bff_route(&BffGateway::logout);
                break;
        }
        for (Method method : row.methods) route(to_string(method), httplib_pattern(row), &row, handler);
    }
    route("GET", ".*", site_row, site);

    // No CORS anywhere: a preflight is answered without any Access-Control-* header.
    auto not_allowed = [](const httplib::Request&, httplib::Response& res) {
        res.set_header("Allow", "GET, HEAD");
        send_text(res, 405, "method not allowed");
    };
    for (std::string_view method : {"OPTIONS", "POST", "PUT", "DELETE", "PATCH"}) {
        route(method, ".*", nullptr, not_allowed);
    }

    // Empty answers httplib made itself get their status as text; an answer
    // the service gave keeps its body as it came (common/route_answer.hpp).
    s.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!native::is_route_answer() && res.body.empty() && !res.content_provider_) {
            res.set_content(std::to_string(res.status) + "\n", "text/plain; charset=utf-8");
        }
    });

    s.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
        native::send_answer_now();  // the answer is complete: it need not wait for its log line
        // The pre-routing handler ran only for a request that parsed; httplib
        // fills method and target of one that did not from whatever line it
        // tried (after an over-long header line: the next header line).
        const bool parsed = t_request_start != Clock::time_point{};
        std::optional<double> ms;
        if (parsed) ms = std::chrono::duration<double, std::milli>(Clock::now() - t_request_start).count();
        t_request_start = Clock::time_point{};
        log(parsed ? native::request_log_line(req.method, req.target, res.status, ms)
                   : native::request_log_line("-", "-", res.status, std::nullopt));
    });
}

// [SECTION] run / stop -------------------------------------------------------------

bool HelperServer::listen(Listener& listener) {
    listener.running.store(true);
    bool ok = true;
    if (!stop_requested_.load()) ok = listener.server->listen_after_bind();
    listener.running.store(false);
    return ok;
}

bool HelperServer::run() {
    if (renewal_) {
        renewal_->start_checks(config_.certificate_check_interval, [this](const std::string& line) { log(line); });
    }
    std::vector<std::thread> others;
    for (std::size_t i = 1; i < listeners_.size(); ++i) {
        others.emplace_back([this, i] { listen(*listeners_[i]); });
    }
    const bool ok = listen(*listeners_.front());
    // Whichever way the main listener ended, the others end with it.
    stop();
    for (auto& t : others) t.join();
    if (renewal_) renewal_->stop_checks();
    return ok;
}

void HelperServer::run_in_background() {
    thread_ = std::thread([this] { run(); });
}

void HelperServer::stop() {
    stop_requested_.store(true);
    for (auto& listener : listeners_) {
        if (listener->stop_sent.exchange(true)) continue;
        // run() has begun but httplib may not be accepting yet; its stop() is
        // a no-op until then.
        const auto deadline = Clock::now() + std::chrono::seconds(5);
        while (listener->running.load() && !listener->server->is_running() && Clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        listener->server->stop();
    }
}

}  // namespace roomkey::helper
