// app.cpp: SandboxApp's route table and the policy every response passes
// through (see app.hpp). Sections:
//   [routes]   register_routes(): every path the sandbox serves
//   [dispatch] handle(): target parsing, Host check, routing
//   [policy]   finish(): rate-limit headers on API answers, security headers, never CORS
#include "sandbox/app.hpp"

#include "common/loopback_server.hpp"
#include "common/security_headers.hpp"
#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/upload_limits.hpp"
#include <cstdio>

#include "app/i18n.hpp"
#include "sandbox/html.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

SandboxApp::SandboxApp(SandboxOptions options, SandboxClock& clock, FaultInjector& faults, RandomSource random,
                       ChatModel chat)
    : options_(std::move(options)),
      clock_(clock),
      faults_(faults),
      random_(random),
      chat_(std::move(chat)),
      oauth_(random, options_.caps),
      rate_limiter_(options_.rate_limit, std::chrono::duration_cast<Millis>(options_.rate_window)),
      room_limiter_(options_.room_post_limit, std::chrono::duration_cast<Millis>(options_.room_post_window)),
      download_signer_(random) {
    register_routes();
    seed_demo_files();
}

Result<Unit, std::string> SandboxApp::attach_store(std::unique_ptr<StateStore> store, const std::string& source,
                                                  bool restore) {
    std::lock_guard<std::mutex> lock(mutex_);
    const StateParts parts{chat_, oauth_, rate_limiter_, room_limiter_, file_store_, clock_};
    auto done = restore ? store->load(parts) : store->save_all(parts, source, clock_.now());
    if (!done) return Err{"the state file " + store->path() + ": " + done.error()};
    restored_ = restore;
    store_ = std::move(store);
    return Unit{};
}

void SandboxApp::persist(bool auth, bool final) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!store_) return;
    auto written = store_->flush(StateParts{chat_, oauth_, rate_limiter_, room_limiter_, file_store_, clock_}, clock_.now(), auth, final);
    if (!written && !store_failed_) {
        std::fprintf(stderr, "roomkey-sandbox: cannot write the state to %s: %s (the sandbox goes on; what changes "
                             "from now on may be lost at a stop)\n", store_->path().c_str(), written.error().c_str());
    }
    store_failed_ = !written;
}

Result<std::vector<std::string>, std::string> SandboxApp::register_start_up_clients() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (restored_) oauth_.forget_start_up_clients();
    }
    std::vector<ClientSpec> specs;
    if (options_.register_web_client) specs.push_back(web_client_spec(options_.web_port));
    for (const auto& s : options_.clients) specs.push_back(s);
    std::vector<std::string> notices;
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& spec : specs) {
        auto registered =
            oauth_.register_client(spec.registration, spec.client_id, spec.client_secret, 0, clock_.now());
        if (!registered) {
            std::string message = "client '" + spec.registration.name + "' cannot be registered:";
            for (const auto& v : registered.error().violations) {
                message += " ";
                message += user_message(v.kind);
                if (!v.detail.empty()) message += " (" + v.detail + ")";
            }
            if (!registered.error().message.empty()) message += " " + registered.error().message;
            return Err{message};
        }
        const RegisteredClient* c = registered.value();
        if (c->config.type == ClientType::confidential && spec.client_secret.empty()) {
            notices.push_back("client '" + c->name + "' (client_id " + c->config.client_id +
                              "): generated client_secret " + c->secret);
        }
    }
    return notices;
}

// ---------------------------------------------------------------------------
// [routes]
// ---------------------------------------------------------------------------
void SandboxApp::add(Method method, std::string path, RouteKind kind, Handler handler) {
    routes_.push_back(Route{method, std::move(path), kind, std::move(handler)});
}

void SandboxApp::register_routes() {
    using M = Method;
    using K = RouteKind;
    add(M::Get, "/", K::page, &SandboxApp::index_page);
    // Spec 4.2 / 7.1: the consent screen and its login screen.
    add(M::Get, "/consent", K::page, &SandboxApp::consent_get);
    add(M::Post, "/consent", K::page, &SandboxApp::consent_post);
    add(M::Get, "/login", K::page, &SandboxApp::login_get);
    add(M::Post, "/login", K::page, &SandboxApp::login_post);
    add(M::Post, "/logout", K::page, &SandboxApp::logout_post);
    // The page an invitation link (GET /v2/rooms/{room_id}/link) opens.
    add(M::Get, "/g/", K::page, &SandboxApp::invitation_page);
    // Spec 2.1: client creation and management screens.
    add(M::Get, "/clients", K::page, &SandboxApp::clients_list);
    add(M::Post, "/clients", K::page, &SandboxApp::clients_create);
    add(M::Get, "/clients/new", K::page, &SandboxApp::clients_new);
    add(M::Get, "/clients/", K::page, &SandboxApp::clients_item);
    add(M::Post, "/clients/", K::page, &SandboxApp::clients_item_post);
    // Spec 4.3: the token endpoint ({auth_url}/token).
    add(M::Post, "/oauth/token", K::token, &SandboxApp::token);
    // Spec 4.1-4.8: the REST API under {base_url} = /v2.
    for (M m : {M::Get, M::Post, M::Put, M::Delete}) add(m, "/v2/", K::api, &SandboxApp::api);
    // The signed, expiring links of GET /v2/rooms/{room_id}/files/{file_id}?create_download_url=1.
    add(M::Get, std::string(kDownloadPath), K::download, &SandboxApp::download);
    // Tests only: time, faults and the issued token values.
    if (options_.test_controls) {
        add(M::Get, "/_sandbox/clock", K::control, &SandboxApp::control_clock_get);
        add(M::Post, "/_sandbox/clock/advance", K::control, &SandboxApp::control_clock_advance);
        add(M::Post, "/_sandbox/clock/scale", K::control, &SandboxApp::control_clock_scale);
        add(M::Post, "/_sandbox/faults", K::control, &SandboxApp::control_faults_post);
        add(M::Delete, "/_sandbox/faults", K::control, &SandboxApp::control_faults_delete);
        add(M::Get, "/_sandbox/tokens", K::control, &SandboxApp::control_tokens_get);
    }
}

// ---------------------------------------------------------------------------
// [dispatch]
// ---------------------------------------------------------------------------
namespace {

bool path_matches(const std::string& pattern, const std::string& path) {
    if (pattern.size() > 1 && pattern.back() == '/') {
        return path.size() > pattern.size() && path.compare(0, pattern.size(), pattern) == 0;
    }
    return path == pattern;
}

RouteKind kind_for_path(const std::string& path) {
    if (path.rfind("/v2/", 0) == 0 || path == "/v2") return RouteKind::api;
    if (path.rfind("/oauth/", 0) == 0) return RouteKind::token;
    if (path.rfind("/_sandbox/", 0) == 0) return RouteKind::control;
    if (path.rfind(kDownloadPath, 0) == 0) return RouteKind::download;
    return RouteKind::page;
}

// A page's error in the words of the request's Accept-Language: its title
// and its text (`text_key` with `args`), then a link when `link_key` is given.
HttpResponse error_page(int status, const Headers& headers, std::string_view title_key, std::string_view text_key,
                        std::initializer_list<app::i18n::Arg> args = {}, std::string_view link_key = {}) {
    use_page_language(headers);
    const std::string title = app::tr(title_key);
    std::string body = "<h1>" + html_escape(title) + "</h1><p>" + html_escape(app::tr(text_key, args));
    if (!link_key.empty()) body += " <a href=\"/\">" + html_escape(app::tr(link_key)) + "</a>";
    return html_response(status, html_page(title, body + "</p>"));
}

HttpResponse not_found(RouteKind kind, const Headers& headers) {
    if (kind == RouteKind::page) {
        return error_page(404, headers, "sandbox.not_found", "sandbox.not_found.text", {}, "sandbox.not_found.index");
    }
    // The service's answer to a path or method its API does not have.
    if (kind == RouteKind::api) return api_error(400, kInvalidEndpointMessage);
    return api_error(404, "Resource not found");
}

// A method the route does not take: 405 with Allow, but under /v2 the
// service's 400 (hubot-chatwork issue #6), which carries no Allow.
HttpResponse method_not_allowed(RouteKind kind, const std::string& allowed, const Headers& headers) {
    if (kind == RouteKind::api) return api_error(400, kInvalidEndpointMessage);
    HttpResponse response = kind == RouteKind::page ? error_page(405, headers, "sandbox.method_not_allowed",
                                                                 "sandbox.method_not_allowed.text", {{"allowed", allowed}})
                                                    : api_error(405, "Method not allowed");
    response.headers.set("Allow", allowed);
    return response;
}

}  // namespace

std::size_t SandboxApp::body_limit(Method method, std::string_view path) const {
    if (path.rfind("/v2/", 0) == 0) {
        const auto match = match_endpoint(method, path.substr(3));
        if (match && takes_file_part(endpoint_info(match->endpoint))) return kMaxUploadRequestBytes;
    }
    return options_.max_body_bytes;
}

bool SandboxApp::host_allowed(const Headers& headers) const {
    // DNS rebinding: a page on evil.example resolved to 127.0.0.1 would send
    // its own name in Host. Only loopback names with our port pass.
    const auto host = headers.get("Host");
    return host && native::loopback_host_allowed(*host, port_, listening_on_ipv6_);
}

HttpResponse SandboxApp::handle(const HttpRequest& request) {
    Target target = split_target(request.url);
    const RouteKind guessed = kind_for_path(target.path);
    HttpResponse response;
    // Early answers carry the same policy (and, under /v2, the same
    // x-ratelimit-* headers) as routed ones.
    auto early = [&](RouteKind kind, HttpResponse r) {
        finish(kind, request.headers, std::nullopt, r);
        return r;
    };
    if (target.path.empty() || target.path[0] != '/') {
        return early(guessed, api_error(400, "The request target must be a path."));
    }
    // The Host check lives here, after cpp-httplib has read the whole body:
    // a refusal before the body is read would leave it on a keep-alive
    // connection to be parsed as the next request (request smuggling).
    if (!host_allowed(request.headers)) {
        return early(guessed,
                     api_error(403, "The Host header must name 127.0.0.1 or localhost with the sandbox's port."));
    }
    const Route* route = nullptr;
    std::string allowed;
    for (const Route& r : routes_) {
        if (!path_matches(r.path, target.path)) continue;
        if (r.method == request.method) {
            route = &r;
            break;
        }
        if (!allowed.empty()) allowed += ", ";
        allowed += std::string(to_string(r.method));
    }
    if (!route) {
        if (allowed.empty()) return early(guessed, not_found(guessed, request.headers));
        return early(guessed, method_not_allowed(guessed, allowed, request.headers));
    }
    // httplib reads bodies up to the upload route's limit; every other route
    // keeps the small one (docs/sandbox.md, Limits).
    if (request.body.size() > body_limit(request.method, target.path)) {
        return early(route->kind, api_error(413, "The request body is larger than this route accepts (" +
                                                     std::to_string(body_limit(request.method, target.path)) +
                                                     " bytes)."));
    }
    auto query = decode_form(target.query);
    if (!query) {
        return early(route->kind, route->kind == RouteKind::page
                                      ? error_page(400, request.headers, "sandbox.bad_request", "sandbox.bad_query")
                                      : api_error(400, "The query string is not valid percent-encoding."));
    }
    if (route->kind == RouteKind::control) {
        const auto confirm = request.headers.get(kControlHeader);
        if (!confirm || *confirm != "1") {
            // A custom header cannot be sent cross-site without a CORS
            // preflight, which the sandbox never grants: no CSRF on controls.
            return early(route->kind, api_error(403, "Test controls need the header X-Roomkey-Sandbox-Control: 1."));
        }
    }
    const RequestContext ctx{request, target.path, target.query, std::move(query).value(), clock_.now(), std::nullopt};
    response = route->handler(*this, ctx);
    // Written before the answer leaves: what a client was told is kept.
    persist(route->kind == RouteKind::page || route->kind == RouteKind::token);
    finish(route->kind, request.headers, ctx.counted, response);
    return response;
}

HttpResponse SandboxApp::unsupported_method(std::string_view target, const Headers& request_headers) {
    const RouteKind kind = kind_for_path(split_target(target).path);
    HttpResponse response = method_not_allowed(kind, "GET, POST, PUT, DELETE", request_headers);
    finish(kind, request_headers, std::nullopt, response);
    return response;
}

void SandboxApp::apply_transport_policy(std::string_view target, const Headers& request_headers,
                                        HttpResponse& response) {
    // An unparsable request line leaves no target: the strict (non-page) CSP.
    const RouteKind kind = target.empty() ? RouteKind::api : kind_for_path(split_target(target).path);
    finish(kind, request_headers, std::nullopt, response);
}

// ---------------------------------------------------------------------------
// [policy]
// ---------------------------------------------------------------------------
void SandboxApp::finish(RouteKind kind, const Headers& request_headers, const std::optional<RateDecision>& counted,
                        HttpResponse& response) {
    // Spec 8.1: "Every response carries these headers" - every /v2 answer,
    // counted or not (auth failures, 404, 405, faults, HTTP-layer errors).
    if (kind == RouteKind::api) write_rate_limit_headers(request_headers, counted, response);
    apply_policy(kind, response);
}

void SandboxApp::apply_policy(RouteKind kind, HttpResponse& response) {
    Headers& h = response.headers;
    // No CORS anywhere (spec 4.2): the real service offers none either,
    // so a browser app that works here must not depend on it.
    for (const char* name :
         {"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Allow-Headers",
          "Access-Control-Allow-Methods", "Access-Control-Expose-Headers", "Access-Control-Max-Age"}) {
        h.remove(name);
    }
    // The table both programs share (common/security_headers.hpp).
    for (const auto& [name, value] : native::security_headers(
             kind == RouteKind::page ? native::HeaderProfile::sandbox_page : native::HeaderProfile::sandbox_api)) {
        h.set(std::string(name), std::string(value));
    }
    if (!h.has("Cache-Control")) h.set("Cache-Control", "no-store");
}

}  // namespace roomkey::sandbox
