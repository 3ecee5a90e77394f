// nginx_locations.cpp: the locations of nginx_locations.hpp.
#include "helper/nginx_locations.hpp"

#include <algorithm>

#include "helper/policy.hpp"
#include "helper/proxy.hpp"
#include "helper/request_body_rules.hpp"

namespace roomkey::helper::nginx {

void security_header_lines(Writer& w) {
    for (const auto& [name, value] : security_headers()) w.line("add_header " + name + " " + nq(value) + " always;");
}

std::string cache_variable(RouteClass route) {
    return route == RouteClass::page           ? "$roomkey_cache_page"
           : route == RouteClass::hashed_asset ? "$roomkey_cache_hashed"
                                               : "$roomkey_cache_asset";
}

namespace {

void location_headers(Writer& w, RouteClass route) {
    security_header_lines(w);
    const bool is_static =
        std::find(std::begin(kStaticRoutes), std::end(kStaticRoutes), route) != std::end(kStaticRoutes);
    w.line("add_header Cache-Control " + (is_static ? cache_variable(route) : nq(cache_control(route))) + " always;");
    if (!pragma(route).empty()) w.line("add_header Pragma " + nq(pragma(route)) + " always;");
}

// The CSRF rule of proxy_request_allowed() (policy.hpp), for the rows under
// it: its map is in the site file's head.
void proxy_checks(Writer& w) {
    // "/%61pi/me" decodes to an API path but is forwarded raw: target_allowed().
    w.line("if ($request_uri ~ \"^[^?]*%\") { return 400; }");
    w.line("if ($roomkey_proxy_allowed = 0) { return 403; }");
}

// 405 for any method but the row's (a GET row also answers HEAD, as the
// helper's router does).
void methods_line(Writer& w, const Route& route) {
    std::vector<std::string> names;
    for (Method m : route.methods) {
        names.emplace_back(to_string(m));
        if (m == Method::Get) names.emplace_back("HEAD");
    }
    std::string alternatives;
    for (const auto& name : names) alternatives += (alternatives.empty() ? "" : "|") + name;
    w.line("if ($request_method !~ \"^(" + alternatives + ")$\") { return 405; }");
}

// TLS to an upstream, verified against the helper's CA set by `tls_name`.
void upstream_tls_lines(Writer& w, const std::string& tls_name, const NginxInputs& inputs) {
    w.line("proxy_ssl_server_name on;");
    w.line("proxy_ssl_name " + nq(tls_name) + ";");
    w.line("proxy_ssl_verify on;");
    w.line("proxy_ssl_verify_depth 4;");
    w.line("proxy_ssl_trusted_certificate " + nq(inputs.upstream_ca_bundle) + ";");
    w.line("proxy_ssl_protocols TLSv1.2 TLSv1.3;");
    w.line("proxy_ssl_session_reuse on;");
    // Answers are small JSON: kept in memory, never in a temp file.
    w.line("proxy_max_temp_file_size 0;");
}

void upstream_proxy_lines(Writer& w, const Target& target, const NginxInputs& inputs) {
    w.line("proxy_http_version 1.1;");
    w.line("proxy_set_header Connection \"\";");
    // Only what the helper forwards (proxy.cpp); no cookies, Origin or Referer.
    w.line("proxy_pass_request_headers off;");
    w.line("proxy_set_header Host " + nq(target.authority()) + ";");
    upstream_tls_lines(w, target.tls_name(), inputs);
    for (const auto& name : upstream_headers_never_relayed()) w.line("proxy_hide_header " + name + ";");
}

// To the BFF helpers (upstream roomkey_bff), with the browser's headers
// (its cookies, Origin, Fetch Metadata, X-Roomkey-Request: the helper
// applies the same policy again) and its Host, which the helpers accept
// (--front-origin). Their Set-Cookie goes back to the browser; the headers
// nginx adds itself are hidden, so they are not doubled.
void bff_proxy_lines(Writer& w, const NginxInputs& inputs) {
    w.line("proxy_http_version 1.1;");
    w.line("proxy_set_header Connection \"\";");
    w.line("proxy_set_header Host $http_host;");
    upstream_tls_lines(w, "localhost", inputs);  // the helpers' certificate (local CA)
    for (const auto& name : upstream_headers_never_relayed()) {
        if (name != "Set-Cookie") w.line("proxy_hide_header " + name + ";");
    }
    w.line("proxy_pass https://roomkey_bff;");
}

void open_location(Writer& w, const Route& route) {
    switch (route.match) {
        case PathMatch::exact:
            return w.open("location = " + std::string(route.path));
        case PathMatch::prefix:
            // Under the API prefix the allowlist's regexes decide, never the
            // server's (the hashed-asset one).
            return w.open(std::string("location ") + (route.path == "/" ? "" : "^~ ") + std::string(route.path));
        case PathMatch::hashed_asset:
            return w.open("location ~ " + nq(route.path));
    }
}

// A row's location, its headers, and its compression: a row whose answers
// hold tokens or the session is never compressed (Compression::never, which
// the helper reads too), whatever an including config turns on.
void open_route(Writer& w, const Route& route) {
    open_location(w, route);
    location_headers(w, route.route_class);
    if (route.compression == Compression::never) w.line("gzip off;");
}

// The app page and the other files of the web build, and /config.json.
void web_build_location(Writer& w, const Route& route, const LocationContext& c) {
    open_route(w, route);
    methods_line(w, route);
    if (route.nginx == NginxHandling::page_file) w.line("try_files " + std::string(kPageFile) + " =404;");
    if (route.nginx == NginxHandling::config_json) {
        w.line("default_type application/json;");
        w.line("return 200 " +
               json_literal(Proxy(c.config.upstream, {})
                                .public_config_json(app_origin(c.config, c.options), c.config.session, c.bff)) +
               ";");
    }
    w.close();
}

void bff_location(Writer& w, const Route& route, const LocationContext& c) {
    open_route(w, route);
    if (route.nginx == NginxHandling::bff_navigation) {
        // Navigations: the helper checks Fetch Metadata itself.
        methods_line(w, route);
    } else {
        w.line("default_type application/json;");
        if (route.proxy) proxy_checks(w);
        w.line("if ($request_method != " + std::string(to_string(route.methods.front())) + ") { return 405; }");
    }
    bff_proxy_lines(w, c.inputs);
    w.close();
}

// The token proxy: POST {auth_url}/token.
void token_location(Writer& w, const Route& route, const LocationContext& c) {
    open_route(w, route);
    if (route.proxy) proxy_checks(w);
    // BFF mode: the page never calls the token endpoint (docs/bff.md).
    if (c.bff) w.line("return 404;");
    // The helper routes only POST here; a GET finds no file (404).
    w.line("if ($request_method ~ \"^(GET|HEAD)$\") { return 404; }");
    w.line("if ($request_method != " + std::string(to_string(route.methods.front())) + ") { return 405; }");
    if (!c.auth_target) {
        w.line("return 503;");
    } else {
        // Only client_id may travel in the query (spec 4.3).
        w.line("if ($args !~ \"^(client_id=[^&]*)?$\") { return 400; }");
        if (route.body == BodyRule::form) {
            // shared/'s is_form_content_type(): the media type before any
            // ';', in any case ($content_type comes without leading spaces).
            w.line("if ($content_type !~* \"^" + std::string(kFormContentType) + "( |;|$)\") { return 415; }");
        }
        upstream_proxy_lines(w, *c.auth_target, c.inputs);
        w.line("proxy_set_header Content-Type $content_type;");
        w.line("proxy_set_header Accept application/json;");
        if (c.confidential) {
            // The Basic header lives in its own 0600 file, never in this one.
            w.line("include " + nq(c.inputs.secret_include) + ";");
            w.line("proxy_set_body $roomkey_token_body;");
            w.line("proxy_pass https://roomkey_auth" + c.auth_target->path + "/token;");
        } else {
            w.line("proxy_pass https://roomkey_auth" + c.auth_target->path + "/token$is_args$args;");
        }
    }
    w.close();
}

const std::string& api_not_allowed() {
    static const std::string line = json_error(404, "not an allowed API endpoint");
    return line;
}

void api_not_allowed_location(Writer& w, const Route& route) {
    open_route(w, route);
    w.line("default_type application/json;");
    if (route.proxy) proxy_checks(w);
    w.line(api_not_allowed());
    w.close();
}

// The helper's own fetch (an image preview): the BFF helpers, which proxy
// the API, answer it under their own rule (Proxy::file_preview: the
// service's origin, or a link the service issued through that helper; one
// session's requests all reach one helper). nginx alone proxies the API
// itself, so no helper knows the links: the page reads that in /config.json
// ("file_previews": false) and the route says so.
void helper_fetch_location(Writer& w, const Route& route, const LocationContext& c) {
    if (c.bff) return bff_location(w, route, c);
    open_route(w, route);
    w.line("default_type application/json;");
    if (route.proxy) proxy_checks(w);
    w.line(json_error(404, "image previews need roomkey-helper: nginx alone cannot tell a download link the service "
                           "issued from any other URL (docs/file_previews.md)"));
    w.close();
}

// The API proxy: only shared/'s endpoints, with their methods.
void api_allowlist_location(Writer& w, const Route& route, const LocationContext& c) {
    const UpstreamConfig& up = c.config.upstream;
    open_route(w, route);
    w.line("default_type application/json;");
    // API answers compressed for a browser that accepts it, as the helper
    // does (proxy.hpp compress_api_answer), when the row allows it; gzip is
    // off by default everywhere else.
    if (route.compression == Compression::may) {
        w.line("gzip on;");
        w.line("gzip_proxied any;");
        w.line("gzip_types application/json;");
        w.line("gzip_comp_level " + std::to_string(kCompressLevel) + ";");
        w.line("gzip_min_length " + std::to_string(kCompressFromBytes) + ";");
        w.line("gzip_vary on;");
    }
    if (route.proxy) proxy_checks(w);
    std::string credential_names;
    for (const auto& name : credential_query_names(up)) {
        if (!credential_names.empty()) credential_names += '|';
        credential_names += regex_escape(name);
    }
    for (const auto& location : api_locations()) {
        const bool upload = route.body == BodyRule::api_catalog && !location.upload_methods.empty();
        w.open("location ~ " + nq(location.regex));
        if (upload) {
            // The upload (request_body_rules.hpp): its body limit, checked
            // before the `if`s below run; the GET beside it has no body
            // ($roomkey_body_not_allowed).
            w.line("client_max_body_size " + std::to_string(c.config.max_upload_body_bytes) + ";");
            w.line("client_body_buffer_size " + std::to_string(c.config.max_upload_body_bytes) + ";");
        }
        location_headers(w, route.route_class);
        w.line("default_type application/json;");
        if (route.proxy) proxy_checks(w);
        w.line("if ($request_method !~ " + nq(methods_regex(location.methods)) + ") { " + api_not_allowed() + " }");
        if (!c.api_target) {
            w.line(json_error(503, "no upstream configured"));
        } else {
            // Spec 5.1: the API token must never be sent in the URL.
            w.line("if ($args ~* \"(^|&)(" + credential_names + ")=\") { " +
                   json_error(400, "credentials do not belong in the URL (spec 5.1)") + " }");
            if (upload) {
                w.line("if ($roomkey_upload_body_refused) { " +
                       json_error(415, "the file upload takes a multipart/form-data body with a boundary parameter") +
                       " }");
            } else {
                w.line("if ($roomkey_multipart_body) { " +
                       json_error(415, "multipart/form-data is for the file upload only") + " }");
            }
            if (c.bff) {
                // The helper attaches the session's token (BffGateway::api).
                bff_proxy_lines(w, c.inputs);
                w.close();
                continue;
            }
            upstream_proxy_lines(w, *c.api_target, c.inputs);
            w.line("proxy_set_header Authorization $roomkey_bearer;");
            w.line("proxy_set_header " + up.token_header + " " + header_variable(up.token_header) + ";");
            w.line("proxy_set_header Accept $http_accept;");
            w.line("proxy_set_header Content-Type $content_type;");
            w.line("proxy_pass https://roomkey_api" + c.api_target->path + "$roomkey_api_path$is_args$args;");
        }
        w.close();
    }
    w.line(api_not_allowed());
    w.close();
}

// The file's groups of locations, a blank line between them.
int group_of(NginxHandling handling) {
    switch (handling) {
        case NginxHandling::page_file:
        case NginxHandling::config_json:
        case NginxHandling::static_files:
            return 0;
        case NginxHandling::bff_navigation:
        case NginxHandling::bff_fetch:
            return 1;
        case NginxHandling::token_proxy:
            return 2;
        case NginxHandling::api_not_allowed:
        case NginxHandling::api_allowlist:
        case NginxHandling::helper_fetch:
            return 3;
    }
    return 0;
}

}  // namespace

void route_locations(Writer& w, const std::vector<Route>& routes, const LocationContext& c) {
    const SessionMode mode = c.config.session;
    std::optional<int> group;
    for (const Route& route : routes) {
        if (!route_in_mode(route, mode)) continue;
        if (group && *group != group_of(route.nginx)) w.line("");
        group = group_of(route.nginx);
        switch (route.nginx) {
            case NginxHandling::page_file:
            case NginxHandling::config_json:
            case NginxHandling::static_files:
                web_build_location(w, route, c);
                break;
            case NginxHandling::bff_navigation:
            case NginxHandling::bff_fetch:
                bff_location(w, route, c);
                break;
            case NginxHandling::token_proxy:
                token_location(w, route, c);
                break;
            case NginxHandling::api_not_allowed:
                api_not_allowed_location(w, route);
                break;
            case NginxHandling::api_allowlist:
                api_allowlist_location(w, route, c);
                break;
            case NginxHandling::helper_fetch:
                helper_fetch_location(w, route, c);
                break;
        }
    }
}

}  // namespace roomkey::helper::nginx
