// server.cpp: Sandbox: TLS material, cpp-httplib setup and the adapter that
// hands every request to SandboxApp (see server.hpp).
#include "sandbox/server.hpp"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/certificate_renewal.hpp"
#include "common/httplib_adapter.hpp"
#include "common/loopback_server.hpp"
#include "common/openssl_random.hpp"
#include "common/raw_body.hpp"
#include "common/request_log.hpp"
#include "common/route_answer.hpp"
#include "common/state_dir.hpp"
#include "sandbox/fixture.hpp"
#include "sandbox/store.hpp"
#include "roomkey/sha256.hpp"
#include "roomkey/upload_limits.hpp"
#include "common/tls.hpp"
#include "common/tls_server.hpp"
#include "sandbox/app.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

Sandbox::Sandbox(SandboxOptions options) : options_(std::move(options)), clock_(options_.clock_sources) {}

Sandbox::~Sandbox() { stop(); }

Result<Unit, std::string> Sandbox::start() {
    std::string cert = options_.cert_path;
    std::string key = options_.key_path;
    if (cert.empty()) {
        std::string dir = options_.state_dir.empty() ? native::default_state_dir() : options_.state_dir;
        if (dir.empty()) return Err{std::string("no state directory: set HOME or pass --state-dir DIR")};
        auto tls = native::ensure_tls_material(dir);
        if (!tls) {
            return Err{"cannot prepare the TLS certificate in " + dir + ": " +
                       std::string(native::to_string(tls.error().code)) + ": " + tls.error().detail};
        }
        cert = tls->server_cert_path;
        key = tls->server_key_path;
        ca_cert_path_ = tls->ca_cert_path;
        auto renewal = native::CertificateRenewal::create(dir, *tls, options_.certificate_clock);
        if (!renewal) return Err{renewal.error()};
        renewal_ = std::move(renewal).value();
    }

    const std::int64_t now = unix_seconds(clock_.now());
    // What the state starts from; a store that holds the state started from
    // the same source is loaded instead (the sandbox remembers).
    std::string source = "demo";
    if (!options_.fixture_path.empty()) {
        std::ifstream in(options_.fixture_path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        source = "fixture " + to_hex(sha256(text.str()));
    }
    std::unique_ptr<StateStore> store;
    bool restore = false;
    if (options_.persistent) {
        const std::string dir = options_.state_dir.empty() ? native::default_state_dir() : options_.state_dir;
        if (dir.empty()) return Err{std::string("no state directory: set HOME, pass --state-dir DIR, or --ephemeral")};
        auto opened = StateStore::open(dir + "/" + std::string(kStoreFileName));
        if (!opened) return Err{opened.error()};
        store = std::move(opened).value();
        const std::string stored = store->source();
        restore = stored == source;
        if (!stored.empty() && !restore) {
            std::fprintf(stderr, "roomkey-sandbox: %s held a state started from %s; starting afresh from %s\n",
                         store->path().c_str(), stored.substr(0, 15).c_str(), source.substr(0, 15).c_str());
        }
    }
    auto chat = restore ? Result<ChatModel, std::string>(ChatModel())
                : options_.fixture_path.empty() ? Result<ChatModel, std::string>(ChatModel::demo(now))
                                                : load_fixture_file(options_.fixture_path, now);
    if (!chat) return Err{chat.error()};
    app_ = std::make_unique<SandboxApp>(options_, clock_, faults_, RandomSource(native::openssl_random),
                                        std::move(chat).value());
    if (store) {
        if (auto attached = app_->attach_store(std::move(store), source, restore); !attached) return Err{attached.error()};
    }
    auto registered = app_->register_start_up_clients();
    if (!registered) return Err{registered.error()};
    app_->persist(true);
    for (const auto& line : registered.value()) std::fprintf(stderr, "roomkey-sandbox: %s\n", line.c_str());

    // The helper's connection loop (common/tls_server.hpp): the same
    // deadlines, per-peer cap and idle-first closing against slow clients.
    server_ = std::make_unique<native::TlsServer>(cert.c_str(), key.c_str());
    if (!server_->is_valid()) return Err{"cannot load the certificate " + cert + " or its key " + key};
    if (renewal_) renewal_->attach(server_->ssl_context());
    // The hardened defaults, 128 worker threads included: each keep-alive or
    // idle connection holds a thread until its timeout, so fewer threads let
    // a handful of idle connections stall the sandbox.
    native::ServerLimits limits;
    // The ceiling is the upload's; SandboxApp::handle holds every other
    // route to max_body_bytes once the body is read (a refusal before it
    // would reset a client still sending, instead of answering 413).
    limits.max_body_bytes = std::max(options_.max_body_bytes, kMaxUploadRequestBytes);
    limits.keep_alive_max_requests = options_.keep_alive_requests;

    const bool log = options_.log_requests;
    auto dispatch = [this, log](const httplib::Request& in, httplib::Response& out) {
        native::restore_content_type(in);  // hidden while httplib read the body (below)
        const auto started = std::chrono::steady_clock::now();
        auto request = native::from_httplib_request(in);
        HttpResponse response;
        SandboxApp::take_dropped_answer();  // nothing left over from an earlier request
        if (request) {
            response = app_->handle(*request);
        } else {
            response = app_->unsupported_method(in.target, native::from_httplib_headers(in.headers));
        }
        native::to_httplib_response(response, out);
        native::mark_route_answer();  // SandboxApp's, its body as it is
        if (SandboxApp::take_dropped_answer()) {
            // drop_answer fault: the status line and headers (Content-Length
            // included) go out, then the body provider fails, which makes
            // cpp-httplib close the connection: the client sees a truncated
            // answer to a request that was acted on.
            const std::size_t length = out.body.size() + 1;
            const std::string type = out.get_header_value("Content-Type");
            out.body.clear();
            out.set_content_provider(length, type.empty() ? "application/json" : type.c_str(),
                                     [](std::size_t, std::size_t, httplib::DataSink&) { return false; });
        }
        if (log) {
            // Never the query string: it may hold a code or a state value.
            const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started);
            std::fprintf(stderr, "roomkey-sandbox: %s\n",
                         native::request_log_line(in.method, in.target, response.status, ms.count(),
                                                  native::QueryInLog::left_out)
                             .c_str());
        }
    };
    server_->Get(".*", dispatch);
    server_->Post(".*", dispatch);
    server_->Put(".*", dispatch);
    server_->Delete(".*", dispatch);
    server_->Patch(".*", dispatch);
    server_->Options(".*", dispatch);
    server_->set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        res.status = 500;
        res.set_content(api_error(500, "Internal error").body, "application/json; charset=utf-8");
    });

    // Responses httplib makes itself (400, 413, 414, ...) never reach the
    // app: give those without a body the spec 2.7 error shape; SandboxApp's
    // own keep theirs (common/route_answer.hpp). Runs before httplib
    // computes Content-Length, unlike the post-routing handler.
    // The framing guard's refusals (a body a GET carries, chunked or
    // compressed bodies: common/loopback_server.hpp) come as plain text: the
    // same shape, and a log line.
    server_->set_error_handler(
        httplib::Server::HandlerWithResponse([log](const httplib::Request& req, httplib::Response& res) {
            if (res.content_provider_ || native::is_route_answer()) return httplib::Server::HandlerResponse::Unhandled;
            std::string text;
            if (res.body.empty()) {
                text = "The request was refused (HTTP status " + std::to_string(res.status) + ").";
            } else if (res.get_header_value("Content-Type").rfind("text/plain", 0) == 0) {
                text = "The request's body framing is refused: " + res.body;
                while (!text.empty() && text.back() == '\n') text.pop_back();
                if (log) {
                    std::fprintf(stderr, "roomkey-sandbox: %s (connection closed)\n",
                                 native::request_log_line(req.method, req.target, res.status, std::nullopt,
                                                          native::QueryInLog::left_out)
                                     .c_str());
                }
            } else {
                return httplib::Server::HandlerResponse::Unhandled;
            }
            res.set_content(api_error(res.status, text).body, "application/json; charset=utf-8");
            return httplib::Server::HandlerResponse::Handled;
        }));
    // The last step before any response is written: the app's policy
    // (security headers, never CORS, x-ratelimit-* under /v2) for those that
    // did not come through SandboxApp (which applied it already).
    auto apply_policy = [this](const httplib::Request& req, httplib::Response& res) {
        if (!res.has_header("X-Frame-Options")) {
            HttpResponse policy;
            policy.status = res.status;
            policy.headers = native::from_httplib_headers(res.headers);
            Headers request_headers = native::from_httplib_headers(req.headers);
            app_->apply_transport_policy(req.target, request_headers, policy);
            // httplib adds Keep-Alive unless the request asked to close.
            if (policy.headers.get("Connection") == std::optional<std::string>("close")) {
                policy.headers.remove("Keep-Alive");
            }
            res.headers = native::to_httplib_headers(policy.headers);
        }
    };
    // The hardened defaults and the request-framing guard, wrapped around the
    // policy above (never set a pre/post-routing handler on the server itself).
    // Bodies are read as the bytes that came, not by httplib's rules for
    // their types (raw_body.hpp): a form over 8 KiB (a long message) is not
    // refused, an upload's multipart body is not emptied.
    auto keep_raw = [](const httplib::Request& req, httplib::Response&) {
        native::keep_body_raw(req);
        // Token answers are never compressed (BREACH: a secret beside reflected text).
        if (req.path == "/oauth/token") native::answer_uncompressed(req);
        return httplib::Server::HandlerResponse::Unhandled;
    };
    native::harden_server(*server_, limits, keep_raw, apply_policy);

    auto bound = native::bind_loopback(*server_, options_.host, options_.port);
    if (!bound) {
        std::string why(native::to_string(bound.error()));
        if (bound.error() == native::BindError::port_in_use) {
            why = "port " + std::to_string(options_.port) + " is in use (another sandbox? try --port N)";
        }
        return Err{"cannot listen on " + options_.host + ": " + why};
    }
    port_ = bound.value();
    app_->set_port(port_);
    app_->set_listening_on_ipv6(options_.host == "::1");
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    if (renewal_) {
        renewal_->start_checks(options_.certificate_check_interval, [](const std::string& line) {
            std::fprintf(stderr, "roomkey-sandbox: %s\n", line.c_str());
        });
    }
    // httplib's stop() does nothing before the accept loop runs (0.18.7
    // too): wait for it, so a stop right after start cannot be lost.
    server_->wait_until_ready();
    return Unit{};
}

void Sandbox::request_stop() {
    if (server_) server_->stop();
}

void Sandbox::stop() {
    request_stop();
    wait();
}

void Sandbox::wait() {
    if (thread_.joinable()) thread_.join();
    if (renewal_) renewal_->stop_checks();
    if (app_) app_->persist(true, true);  // the last second of rate windows too
}

std::optional<std::string> Sandbox::check_certificate() {
    return renewal_ ? renewal_->check() : std::nullopt;
}

std::string Sandbox::origin() const { return "https://127.0.0.1:" + std::to_string(port_); }
std::string Sandbox::base_url() const { return origin() + "/v2"; }
std::string Sandbox::auth_url() const { return origin() + "/oauth"; }
std::string Sandbox::consent_url() const { return origin() + "/consent"; }

std::string Sandbox::ready_line() const {
    return "roomkey-sandbox: ready base_url=" + base_url() + " auth_url=" + auth_url() +
           " consent_url=" + consent_url();
}

}  // namespace roomkey::sandbox
