// nginx_config.cpp: the text of the generated nginx configuration.
//
// [SECTION] the API allowlist from shared/'s endpoint table
// [SECTION] nginx syntax helpers
// [SECTION] the site file (maps, upstreams, server)
// [SECTION] nginx.conf for an unprivileged nginx
// [SECTION] writing the files
#include "helper/nginx_config.hpp"

#include <fcntl.h>
#include <openssl/x509.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/loopback_server.hpp"
#include "common/state_dir.hpp"
#include "common/tls.hpp"
#include "helper/policy.hpp"
#include "helper/proxy.hpp"
#include "helper/request_body_rules.hpp"
#include "helper/route_policy.hpp"
#include "helper/static_site.hpp"
#include "roomkey/bff_cookie.hpp"
#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/token.hpp"
#include "roomkey/url.hpp"

namespace roomkey::helper {

// [SECTION] the API allowlist from shared/'s endpoint table -------------------

namespace {

// "/rooms/{room_id}/messages" -> "/rooms/[1-9][0-9]{0,19}/messages"; other
// segments are letters, digits and '_' only, so they need no escaping.
std::string template_regex(std::string_view path_template) {
    std::string out;
    std::size_t i = 0;
    while (i < path_template.size()) {
        if (path_template[i] == '{') {
            const std::size_t close = path_template.find('}', i);
            out += kResourceIdRegex;
            i = close == std::string_view::npos ? path_template.size() : close + 1;
        } else {
            out += path_template[i++];
        }
    }
    return out;
}

}  // namespace

std::vector<ApiLocation> api_locations() {
    std::vector<ApiLocation> out;
    // shared/'s endpoint catalog: every endpoint's method and path template.
    for (const EndpointInfo& info : endpoint_catalog()) {
        const std::string tpl(info.path);
        auto it = std::find_if(out.begin(), out.end(), [&](const ApiLocation& l) { return l.path_template == tpl; });
        if (it == out.end()) {
            // A named group: the `if` regexes in the location overwrite $1.
            out.push_back(ApiLocation{
                tpl, "^" + std::string(kApiPrefix) + "(?<roomkey_api_path>" + template_regex(tpl) + ")$", {}, {}});
            it = out.end() - 1;
        }
        it->methods.push_back(info.method);
        if (takes_file_part(info)) it->upload_methods.push_back(info.method);
    }
    return out;
}

// [SECTION] nginx syntax helpers ------------------------------------------------

namespace {

// A double-quoted nginx string: '\' and '"' escaped. '$' would start a
// variable; callers never pass one (checked by quote_literal).
std::string nq(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"";
}

// A string that must reach the client byte for byte: '$' becomes the JSON
// escape \u0024 (only used for JSON bodies, where '$' sits inside strings).
std::string json_literal(std::string_view json) {
    std::string out;
    for (char c : json) {
        if (c == '$') {
            out += "\\u0024";
        } else {
            out += c;
        }
    }
    return nq(out);
}

// PCRE escape of a literal (host names, header names, client ids).
std::string regex_escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (std::string_view("\\^$.|?*+()[]{}/-").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

// nginx's variable for a request header: "$http_x_servicetoken".
std::string header_variable(std::string_view name) {
    std::string out = "$http_";
    for (char c : name) {
        if (c == '-') c = '_';
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        out += c;
    }
    return out;
}

std::string methods_regex(const std::vector<Method>& methods) {
    std::string out = "^(";
    for (std::size_t i = 0; i < methods.size(); ++i) {
        if (i) out += '|';
        out += to_string(methods[i]);
    }
    return out + ")$";
}

class Writer {
public:
    void line(const std::string& text) {
        if (!text.empty()) out_ << std::string(static_cast<std::size_t>(indent_) * 4, ' ') << text;
        out_ << '\n';
    }
    void open(const std::string& head) {
        line(head + " {");
        ++indent_;
    }
    void close() {
        --indent_;
        line("}");
    }
    std::string str() const { return out_.str(); }

private:
    std::ostringstream out_;
    int indent_ = 0;
};

// The upstream an absolute https URL names: host, port, path.
struct Target {
    std::string host;  // as in the URL (IPv6 with brackets)
    int port = 443;
    std::string path;  // "" or "/v2"
    std::string authority() const { return port == 443 ? host : host + ":" + std::to_string(port); }
    // The name nginx verifies the certificate against. nginx 1.22 checks DNS
    // names only (X509_check_host), never IP addresses: a loopback upstream
    // (the sandbox) is verified as "localhost", which its certificate names
    // beside 127.0.0.1 and ::1; target_of() refuses any other IP.
    std::string tls_name() const { return host == "127.0.0.1" || host == "[::1]" ? "localhost" : host; }
};

bool is_ip_literal(const std::string& host) {
    return host.find_first_not_of("0123456789.") == std::string::npos || host.find(':') != std::string::npos;
}

Result<Target, std::string> target_of(const std::string& url, std::string_view what) {
    auto parsed = parse_url(url);
    if (!parsed || parsed->scheme != "https") return Err{std::string(what) + ": not an https:// URL: " + url};
    Target t;
    t.host = parsed->host.find(':') != std::string::npos ? "[" + parsed->host + "]" : parsed->host;
    t.port = parsed->port ? *parsed->port : 443;
    if (is_ip_literal(parsed->host) && t.tls_name() == t.host) {
        return Err{std::string(what) + ": nginx verifies upstream certificates by host name only; use the name, not " +
                   parsed->host};
    }
    t.path = parsed->path;
    while (!t.path.empty() && t.path.back() == '/') t.path.pop_back();
    return t;
}

// Host header values the server answers to, as one PCRE: the helper's
// loopback names with the exact port, or the configured server name (its
// port optional on 443, as browsers omit it).
std::string host_regex(const HelperConfig& config, const NginxOptions& options) {
    if (!options.server_name.empty()) {
        const std::string port = std::to_string(config.port);
        return "^" + regex_escape(options.server_name) + (config.port == 443 ? "(:443)?" : ":" + port) + "$";
    }
    std::string names;
    for (const auto& name : native::loopback_host_names(config.ipv6)) {
        if (!names.empty()) names += '|';
        names += regex_escape(name);
    }
    return "^(" + names + "):" + std::to_string(config.port) + "$";
}

std::string app_origin(const HelperConfig& config, const NginxOptions& options) {
    if (options.server_name.empty()) return "https://127.0.0.1:" + std::to_string(config.port);
    return "https://" + options.server_name + (config.port == 443 ? "" : ":" + std::to_string(config.port));
}

// The security headers, repeated in every location that adds a header of
// its own (nginx inherits add_header only into locations that add none).
void security_header_lines(Writer& w) {
    for (const auto& [name, value] : security_headers()) w.line("add_header " + name + " " + nq(value) + " always;");
}

// The web build's classes cache only what was found; an error (404, 405)
// is a refusal, never stored, as the helper answers it.
constexpr RouteClass kStaticRoutes[] = {RouteClass::page, RouteClass::hashed_asset, RouteClass::asset};

std::string cache_variable(RouteClass route) {
    return route == RouteClass::page           ? "$roomkey_cache_page"
           : route == RouteClass::hashed_asset ? "$roomkey_cache_hashed"
                                               : "$roomkey_cache_asset";
}

void location_headers(Writer& w, RouteClass route) {
    security_header_lines(w);
    const bool is_static =
        std::find(std::begin(kStaticRoutes), std::end(kStaticRoutes), route) != std::end(kStaticRoutes);
    w.line("add_header Cache-Control " + (is_static ? cache_variable(route) : nq(cache_control(route))) + " always;");
    if (!pragma(route).empty()) w.line("add_header Pragma " + nq(pragma(route)) + " always;");
}

// The CSRF rule of proxy_request_allowed() (policy.hpp), for /oauth/token and
// /api/...: its map is in the site file's head.
void proxy_checks(Writer& w) {
    // "/%61pi/me" decodes to an API path but is forwarded raw: target_allowed().
    w.line("if ($request_uri ~ \"^[^?]*%\") { return 400; }");
    w.line("if ($roomkey_proxy_allowed = 0) { return 403; }");
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

// The BFF routes (route_policy.hpp) and the redirect URI, to the helpers.
void bff_locations(Writer& w, const NginxInputs& inputs) {
    for (std::string_view path : {kBffLoginPath, kCallbackPath}) {
        // Navigations: the helper checks Fetch Metadata itself.
        w.open("location = " + std::string(path));
        location_headers(w, RouteClass::api);
        w.line("if ($request_method !~ \"^(GET|HEAD)$\") { return 405; }");
        bff_proxy_lines(w, inputs);
        w.close();
    }
    for (std::string_view path : {kBffSessionPath, kBffRefreshPath, kBffLogoutPath}) {
        w.open("location = " + std::string(path));
        location_headers(w, RouteClass::api);
        w.line("default_type application/json;");
        proxy_checks(w);
        w.line(std::string("if ($request_method != ") + (path == kBffSessionPath ? "GET" : "POST") +
               ") { return 405; }");
        bff_proxy_lines(w, inputs);
        w.close();
    }
    w.line("");
}

std::string json_error(int status, const std::string& message) {
    const std::string body = "{\"errors\":[\"" + message + "\"]}";
    return "return " + std::to_string(status) + " " + json_literal(body) + ";";
}

}  // namespace

// [SECTION] the site file (maps, upstreams, server) ------------------------------

std::string nginx_site_config(const HelperConfig& config, const NginxOptions& options, const NginxInputs& inputs) {
    const UpstreamConfig& up = config.upstream;
    const bool bff = config.session == SessionMode::bff;
    Writer w;
    w.line("# roomkey: generated by `roomkey-helper nginx-config` from the helper's own policy.");
    w.line("# Do not edit: change the helper's flags/config file and generate it again.");
    w.line("# Include it in nginx's http {} context.");
    w.line("");
    // Logs: method, path, status, time; a query is shown as "?[redacted]"
    // (codes and states travel there), never a header (log_line(), policy.hpp).
    w.open("map $request_uri $roomkey_log_target");
    w.line("default $request_uri;");
    w.line("\"~^(?<roomkey_log_path>[^?]*)\\?\" \"${roomkey_log_path}?[redacted]\";");
    w.close();
    w.line(
        "log_format roomkey_redacted '$remote_addr [$time_local] \"$request_method $roomkey_log_target\" $status "
        "$body_bytes_sent ${request_time}s';");
    w.line("");
    // Host: DNS rebinding (host_allowed()).
    w.open("map $http_host $roomkey_host_allowed");
    w.line("default 0;");
    w.line(nq("~*" + host_regex(config, options)) + " 1;");
    w.close();
    // CSRF (proxy_request_allowed()): Sec-Fetch-Site cross-site/same-site is
    // refused; an Origin must be the app's own; without one the app's header
    // must be "1".
    const std::string origin_hosts = host_regex(config, options);
    w.open("map \"$http_sec_fetch_site|$http_origin|" + header_variable(kAppRequestHeader) +
           "\" $roomkey_proxy_allowed");
    w.line("default 0;");
    w.line("\"~^(cross-site|same-site)\\|\" 0;");
    // BFF mode: a cookie authorises, so the app's header is required even
    // with the app's Origin (proxy_request_allowed(..., cookie_session)).
    const std::string header_part = bff ? "1" : "[^|]*";
    w.line(nq("~*^[^|]*\\|https://" + origin_hosts.substr(1, origin_hosts.size() - 2) + "\\|" + header_part + "$") +
           " 1;");
    w.line("\"~^[^|]*\\|\\|1$\" 1;");
    w.close();
    if (bff) {
        // The session's stable id, the cookie value's prefix (docs/bff.md):
        // nginx's consistent hash sends a session's requests to one helper
        // although the sealed part changes at every refresh. (A variable
        // name cannot hold '-', so $cookie___Host-... does not exist.)
        w.open("map $http_cookie $roomkey_bff_session");
        w.line("default \"\";");
        w.line(nq("~(^|;)\\s*" + std::string(kBffSessionCookie) + "=(?<roomkey_bff_sid>[A-Za-z0-9_-]{22})\\.") +
               " $roomkey_bff_sid;");
        w.close();
        w.open("upstream roomkey_bff");
        w.line("hash $roomkey_bff_session consistent;");
        for (int port : options.bff_helper_ports) w.line("server 127.0.0.1:" + std::to_string(port) + ";");
        w.line("keepalive " + std::to_string(kUpstreamIdleConnections) + ";");
        w.line("keepalive_timeout " + std::to_string(kUpstreamIdleSeconds) + "s;");
        w.close();
    }
    for (RouteClass route : kStaticRoutes) {
        w.open("map $status " + cache_variable(route));
        w.line("default " + nq(cache_control(RouteClass::refusal)) + ";");
        w.line("\"~^[23]\" " + nq(cache_control(route)) + ";");
        w.close();
    }
    // Only a Bearer Authorization goes upstream (proxy.cpp).
    w.open("map $http_authorization $roomkey_bearer");
    w.line("default \"\";");
    w.line("\"~^Bearer \" $http_authorization;");
    w.close();
    // A body on GET/HEAD: 400, as the helper's framing guard answers
    // (refuse_unsafe_framing()); it also keeps the upload location's larger
    // body limit to the upload's own method.
    w.open("map \"$request_method|$http_content_length\" $roomkey_body_not_allowed");
    w.line("default 0;");
    w.line("\"~^(GET|HEAD)\\|0*[1-9]\" 1;");
    w.close();
    // Bodies by route (request_body_rules.hpp, Proxy::api): the methods whose
    // body the API proxy forwards (POST, PUT) never carry multipart/form-data,
    // except the upload, which must, with a boundary.
    w.open("map \"$request_method|$content_type\" $roomkey_multipart_body");
    w.line("default 0;");
    w.line(nq("~*^(POST|PUT)\\|" + std::string(kMultipartTypePattern.substr(1))) + " 1;");
    w.close();
    std::vector<Method> upload_methods;
    for (const EndpointInfo* info : upload_endpoints()) upload_methods.push_back(info->method);
    if (!upload_methods.empty()) {
        const std::string methods = methods_regex(upload_methods);  // "^(POST)$"
        const std::string method_part = methods.substr(0, methods.size() - 1);  // "^(POST)"
        w.open("map \"$request_method|$content_type\" $roomkey_upload_body_refused");
        w.line("default 0;");
        w.line(nq("~*" + method_part + "\\|" + std::string(kMultipartWithBoundaryPattern.substr(1))) + " 0;");
        w.line(nq("~" + method_part + "\\|") + " 1;");
        w.close();
    }
    std::optional<Target> api_target;
    std::optional<Target> auth_target;
    if (up.configured()) {
        // write_nginx_config() has checked both.
        if (auto t = target_of(up.base_url, "base_url")) api_target = *t;
        if (auto t = target_of(up.auth_url, "auth_url")) auth_target = *t;
    }
    // In the BFF mode the helpers authenticate at the token endpoint; nginx
    // never holds the secret.
    const bool confidential = up.client_type == ClientType::confidential && !bff;
    if (api_target && auth_target) {
        for (const auto& [name, t] : {std::pair{"roomkey_api", *api_target}, std::pair{"roomkey_auth", *auth_target}}) {
            w.open(std::string("upstream ") + name);
            w.line("server " + t.authority() + (t.port == 443 ? ":443" : "") + ";");
            w.line("keepalive " + std::to_string(kUpstreamIdleConnections) + ";");
            w.line("keepalive_timeout " + std::to_string(kUpstreamIdleSeconds) + "s;");
            w.close();
        }
        if (confidential) {
            // BFF mode: the page names the client in the body; the service
            // refuses client_id together with Basic, so it is taken out
            // (Proxy::token). A foreign client_id goes on and the service refuses it.
            const std::string id = regex_escape(up.client_id);
            w.open("map $request_body $roomkey_token_body");
            w.line("default $request_body;");
            w.line(nq("~^client_id=" + id + "$") + " \"\";");
            w.line(nq("~^client_id=" + id + "&(?<roomkey_after>.*)$") + " $roomkey_after;");
            w.line(nq("~^(?<roomkey_before>.*)&client_id=" + id + "(?<roomkey_rest>(&.*)?)$") +
                   " \"${roomkey_before}${roomkey_rest}\";");
            w.close();
        }
    }
    w.line("");

    w.open("server");
    const std::string port = std::to_string(config.port);
    if (options.server_name.empty()) {
        w.line("listen 127.0.0.1:" + port + " ssl;");
        if (config.ipv6) w.line("listen [::1]:" + port + " ssl;");
        w.line("server_name 127.0.0.1 localhost;");
    } else {
        w.line("listen " + port + " ssl;");
        w.line("listen [::]:" + port + " ssl;");
        w.line("server_name " + options.server_name + ";");
    }
    w.line("ssl_certificate " + nq(inputs.cert_file) + ";");
    w.line("ssl_certificate_key " + nq(inputs.key_file) + ";");
    w.line("ssl_protocols TLSv1.2 TLSv1.3;");
    w.line("server_tokens off;");
    // "//x" is refused, never merged (target_allowed()).
    w.line("merge_slashes off;");
    // Limits (ServerLimits, HelperConfig): body, then one header line (8 KiB,
    // the helper's httplib limit); the request-target is checked below. The
    // upload's location has its own body limit. Bodies stay in memory (the
    // buffer is as large as the limit), never in a temp file: a token
    // request's body holds a code or a refresh token.
    w.line("client_max_body_size " + std::to_string(config.limits.max_body_bytes) + ";");
    w.line("client_body_buffer_size " + std::to_string(config.limits.max_body_bytes) + ";");
    w.line("large_client_header_buffers 4 8k;");
    w.line("keepalive_timeout " + std::to_string(config.limits.keep_alive_timeout_seconds) + "s;");
    w.line("client_header_timeout " + std::to_string(config.limits.read_timeout_seconds) + "s;");
    w.line("client_body_timeout " + std::to_string(config.limits.read_timeout_seconds) + "s;");
    w.line("send_timeout " + std::to_string(config.limits.write_timeout_seconds) + "s;");
    w.line("access_log " + nq(inputs.access_log) + " roomkey_redacted;");
    // A missing file's error line would carry the request line (and its query).
    w.line("log_not_found off;");
    w.line("root " + nq(config.web_root) + ";");
    w.open("types");
    for (const auto& entry : kContentTypes) w.line(nq(entry.type) + " " + std::string(entry.extension) + ";");
    w.close();
    w.line("default_type " + std::string(kDefaultContentType) + ";");
    w.line("charset off;");
    w.line("gzip_static on;");
    w.line("gzip_vary on;");
    if (inputs.brotli) w.line("brotli_static on;");
    security_header_lines(w);
    w.line("add_header Cache-Control " + nq(cache_control(RouteClass::refusal)) + " always;");
    // The policy's order (refusal_for()): 414, 400 (target), 403 (Host).
    // The header-section total (431) has no nginx twin: see docs/deploy.md.
    w.line("if ($request_uri ~ \"^.{" + std::to_string(config.max_uri_bytes + 1) + "}\") { return 414; }");
    w.line("if ($request_uri !~ \"^/\") { return 400; }");
    w.line("if ($request_uri ~ \"^//\") { return 400; }");
    w.line("if ($request_uri ~* \"^[^?]*/(\\.|%2e){1,2}(/|\\?|$)\") { return 400; }");
    w.line("if ($roomkey_host_allowed = 0) { return 403; }");
    // The helper routes no other method (405, without any CORS header).
    w.line("if ($request_method !~ \"^(GET|HEAD|POST|PUT|DELETE)$\") { return 405; }");
    // Bodies come with Content-Length, uncompressed (harden_server()).
    w.line("if ($http_transfer_encoding) { return 411; }");
    w.line("if ($roomkey_body_not_allowed) { return 400; }");
    w.line("if ($http_content_encoding) { return 415; }");
    w.line("");

    // The app page, its redirect URI, /config.json.
    for (std::string_view page : kPagePaths) {
        if (bff && page == kCallbackPath) continue;  // the helpers' own (below)
        w.open("location = " + std::string(page));
        location_headers(w, RouteClass::page);
        w.line("if ($request_method !~ \"^(GET|HEAD)$\") { return 405; }");
        w.line("try_files " + std::string(kPageFile) + " =404;");
        w.close();
    }
    w.open("location = " + std::string(kConfigPath));
    location_headers(w, RouteClass::config_json);
    w.line("if ($request_method !~ \"^(GET|HEAD)$\") { return 405; }");
    w.line("default_type application/json;");
    w.line("return 200 " + json_literal(Proxy(up, {}).public_config_json(app_origin(config, options), config.session)) + ";");
    w.close();
    // The rest of the web build: hashed names are immutable.
    w.open("location ~ " + nq(kHashedAssetPattern));
    location_headers(w, RouteClass::hashed_asset);
    w.line("if ($request_method !~ \"^(GET|HEAD)$\") { return 405; }");
    w.close();
    w.open("location /");
    location_headers(w, RouteClass::asset);
    w.line("if ($request_method !~ \"^(GET|HEAD)$\") { return 405; }");
    w.close();
    w.line("");

    if (bff) bff_locations(w, inputs);

    // The token proxy: POST {auth_url}/token.
    w.open("location = " + std::string(kTokenPath));
    location_headers(w, RouteClass::token);
    proxy_checks(w);
    // BFF mode: the page never calls the token endpoint (docs/bff.md).
    if (bff) w.line("return 404;");
    // The helper routes only POST here; a GET finds no file (404).
    w.line("if ($request_method ~ \"^(GET|HEAD)$\") { return 404; }");
    w.line("if ($request_method != POST) { return 405; }");
    if (!auth_target) {
        w.line("return 503;");
    } else {
        // Only client_id may travel in the query (spec 4.3).
        w.line("if ($args !~ \"^(client_id=[^&]*)?$\") { return 400; }");
        w.line("if ($content_type !~* \"^application/x-www-form-urlencoded( |;|$)\") { return 415; }");
        upstream_proxy_lines(w, *auth_target, inputs);
        w.line("proxy_set_header Content-Type $content_type;");
        w.line("proxy_set_header Accept application/json;");
        if (confidential) {
            // The Basic header lives in its own 0600 file, never in this one.
            w.line("include " + nq(inputs.secret_include) + ";");
            w.line("proxy_set_body $roomkey_token_body;");
            w.line("proxy_pass https://roomkey_auth" + auth_target->path + "/token;");
        } else {
            w.line("proxy_pass https://roomkey_auth" + auth_target->path + "/token$is_args$args;");
        }
    }
    w.close();
    w.line("");

    // The API proxy: only shared/'s endpoints, with their methods.
    const std::string not_allowed = json_error(404, "not an allowed API endpoint");
    w.open("location = " + std::string(kApiPrefix));
    location_headers(w, RouteClass::api);
    w.line("default_type application/json;");
    proxy_checks(w);
    w.line(not_allowed);
    w.close();
    w.open("location ^~ " + std::string(kApiPrefix) + "/");
    location_headers(w, RouteClass::api);
    w.line("default_type application/json;");
    proxy_checks(w);
    std::string credential_names;
    for (const auto& name : credential_query_names(up)) {
        if (!credential_names.empty()) credential_names += '|';
        credential_names += regex_escape(name);
    }
    for (const auto& location : api_locations()) {
        const bool upload = !location.upload_methods.empty();
        w.open("location ~ " + nq(location.regex));
        if (upload) {
            // The upload (request_body_rules.hpp): its body limit, checked
            // before the `if`s below run; the GET beside it has no body
            // ($roomkey_body_not_allowed).
            w.line("client_max_body_size " + std::to_string(config.max_upload_body_bytes) + ";");
            w.line("client_body_buffer_size " + std::to_string(config.max_upload_body_bytes) + ";");
        }
        location_headers(w, RouteClass::api);
        w.line("default_type application/json;");
        proxy_checks(w);
        w.line("if ($request_method !~ " + nq(methods_regex(location.methods)) + ") { " + not_allowed + " }");
        if (!api_target) {
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
            if (bff) {
                // The helper attaches the session's token (BffGateway::api).
                bff_proxy_lines(w, inputs);
                w.close();
                continue;
            }
            upstream_proxy_lines(w, *api_target, inputs);
            w.line("proxy_set_header Authorization $roomkey_bearer;");
            w.line("proxy_set_header " + up.token_header + " " + header_variable(up.token_header) + ";");
            w.line("proxy_set_header Accept $http_accept;");
            w.line("proxy_set_header Content-Type $content_type;");
            w.line("proxy_pass https://roomkey_api" + api_target->path + "$roomkey_api_path$is_args$args;");
        }
        w.close();
    }
    w.line(not_allowed);
    w.close();
    w.close();
    return w.str();
}

// [SECTION] nginx.conf for an unprivileged nginx ----------------------------------

std::string nginx_main_config(const NginxOptions& options, const NginxInputs& inputs, const std::string& site_file) {
    Writer w;
    const std::string dir = options.out_dir;
    w.line("# roomkey: generated by `roomkey-helper nginx-config --standalone`: nginx -p " + dir + " -c " + dir +
           "/nginx.conf");
    if (inputs.brotli) w.line("load_module " + nq(kBrotliStaticModule) + ";");
    w.line("daemon off;");
    w.line("worker_processes 1;");
    // As root (CI), workers drop to nobody: they only read the web build.
    if (inputs.run_as_root) w.line("user nobody nogroup;");
    w.line("pid " + nq(dir + "/nginx.pid") + ";");
    w.line("error_log " + nq(dir + "/error.log") + " notice;");
    w.open("events");
    w.line("worker_connections 512;");
    w.close();
    w.open("http");
    for (const char* temp : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"}) {
        w.line(std::string(temp) + "_temp_path " + nq(dir + "/temp/" + temp) + ";");
    }
    w.line("sendfile on;");
    w.line("include " + nq(site_file) + ";");
    w.close();
    return w.str();
}

// [SECTION] writing the files -------------------------------------------------------

namespace {

Result<Unit, std::string> write_file(const std::string& path, const std::string& text, mode_t mode) {
    // Created with its final mode (no window where a secret is world-readable).
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) return Err{"cannot write " + path};
    ::fchmod(fd, mode);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) {
            ::close(fd);
            return Err{"cannot write " + path};
        }
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return Unit{};
}

std::string system_ca_bundle() {
    const char* env = std::getenv(X509_get_default_cert_file_env());
    return env != nullptr && env[0] != '\0' ? env : X509_get_default_cert_file();
}

}  // namespace

Result<std::string, std::string> write_nginx_config(const HelperConfig& given_config, const NginxOptions& given) {
    // nginx reads a relative path against its own prefix, not the directory
    // the command ran in: every path it is given is made absolute here, the
    // way the helper resolves the same flags.
    HelperConfig config = given_config;
    for (std::string* path : {&config.web_root, &config.state_dir, &config.cert_file, &config.key_file}) {
        if (!path->empty()) *path = std::filesystem::absolute(*path).lexically_normal().string();
    }
    NginxOptions options = given;
    if (options.out_dir.empty()) options.out_dir = config.state_dir + "/nginx";
    if (options.access_log.empty()) options.access_log = options.out_dir + "/access.log";
    options.out_dir = std::filesystem::absolute(options.out_dir).lexically_normal().string();
    if (options.access_log != "off" && options.access_log.rfind("syslog:", 0) != 0) {
        options.access_log = std::filesystem::absolute(options.access_log).lexically_normal().string();
    }
    // The same check as `serve`, with the same words: nginx would start and
    // answer 404 for the page.
    if (auto site = StaticSite::open(config.web_root); !site) return Err{site.error()};
    if (!options.server_name.empty() && config.cert_file.empty()) {
        return Err{"--server-name " + options.server_name +
                   " needs that name's certificate: --cert FILE --key FILE (see docs/deploy.md)"};
    }
    if (config.port == 0) return Err{"nginx needs a fixed port: --port N (not 0)"};
    if (config.upstream.configured()) {
        for (const auto& [url, what] :
             {std::pair{config.upstream.base_url, "base_url"}, std::pair{config.upstream.auth_url, "auth_url"}}) {
            if (auto t = target_of(url, what); !t) return Err{t.error()};
        }
    }
    if (auto made = native::ensure_private_dir(options.out_dir); !made) return Err{made.error()};
    ::mkdir((options.out_dir + "/temp").c_str(), 0700);

    NginxInputs inputs;
    inputs.access_log = options.access_log;
    inputs.cert_file = config.cert_file;
    inputs.key_file = config.key_file;
    // The same CAs the helper trusts upstream: system, --upstream-ca, local CA.
    std::string local_ca;
    auto tls = native::ensure_tls_material(config.state_dir);
    if (config.cert_file.empty()) {
        if (!tls) return Err{"certificate: " + tls.error().detail};
        inputs.cert_file = tls->server_cert_path;
        inputs.key_file = tls->server_key_path;
    }
    if (tls) local_ca = tls->ca_cert_path;
    std::string bundle;
    std::vector<std::string> sources = {system_ca_bundle()};
    for (const auto& file : upstream_ca_files(config.upstream, local_ca)) sources.push_back(file);
    for (const auto& file : sources) {
        auto text = native::read_whole_file(file);
        if (!text) {
            if (file == sources.front()) continue;  // no system bundle: the others still count
            return Err{"upstream CA file: " + text.error()};
        }
        bundle += *text;
        if (!bundle.empty() && bundle.back() != '\n') bundle += '\n';
    }
    inputs.upstream_ca_bundle = options.out_dir + "/upstream-ca.pem";
    if (auto ok = write_file(inputs.upstream_ca_bundle, bundle, 0644); !ok) return Err{ok.error()};

    if (options.brotli == "on") {
        inputs.brotli = true;
    } else if (options.brotli == "auto") {
        struct stat st {};
        inputs.brotli = ::stat(std::string(kBrotliStaticModule).c_str(), &st) == 0;
    }
    inputs.run_as_root = ::geteuid() == 0;

    const std::string secret_file = options.out_dir + "/client-secret.conf";
    if (config.upstream.client_type == ClientType::confidential && config.session != SessionMode::bff) {
        inputs.secret_include = secret_file;
        const std::string basic =
            basic_authorization(ConfidentialClient{config.upstream.client_id, config.upstream.client_secret});
        if (basic.find_first_of("\"\\$\r\n") != std::string::npos) return Err{"the client secret cannot be encoded"};
        if (auto ok = write_file(secret_file, "proxy_set_header Authorization \"" + basic + "\";\n", 0600); !ok) {
            return Err{ok.error()};
        }
    } else {
        ::unlink(secret_file.c_str());  // a public client leaves no old secret behind
    }

    const std::string site_file = options.out_dir + "/roomkey.conf";
    if (auto ok = write_file(site_file, nginx_site_config(config, options, inputs), 0644); !ok) return Err{ok.error()};
    if (!options.standalone) return site_file;
    const std::string main_file = options.out_dir + "/nginx.conf";
    if (auto ok = write_file(main_file, nginx_main_config(options, inputs, site_file), 0644); !ok) {
        return Err{ok.error()};
    }
    return main_file;
}

}  // namespace roomkey::helper
