// policy.cpp: the checks and headers of policy.hpp.
#include "helper/policy.hpp"

#include <algorithm>

#include "common/loopback_server.hpp"
#include "common/request_log.hpp"
#include "common/security_headers.hpp"
#include "helper/route_policy.hpp"
#include "helper/routes.hpp"
#include "roomkey/http.hpp"
#include "roomkey/token.hpp"
#include "roomkey/url.hpp"

namespace roomkey::helper {

httplib::Headers security_headers() {
    httplib::Headers out;
    for (const auto& [name, value] : native::security_headers(native::HeaderProfile::helper)) {
        out.emplace(std::string(name), std::string(value));
    }
    return out;
}

bool host_allowed(std::string_view host, const Listening& at) {
    if (!at.front_host.empty() && iequals(host, at.front_host)) return true;
    return native::loopback_host_allowed(host, at.port, at.ipv6);
}

bool same_origin(std::string_view origin, const Listening& at) {
    const std::string_view scheme = "https://";
    if (origin.size() <= scheme.size() || !iequals(origin.substr(0, scheme.size()), scheme)) return false;
    return host_allowed(origin.substr(scheme.size()), at);
}

bool proxy_request_allowed(const httplib::Request& request, const Listening& at, bool cookie_session) {
    // Fetch Metadata's four values, case-sensitive: anything else is cross-site.
    const std::string site = request.get_header_value("Sec-Fetch-Site");
    if (request.has_header("Sec-Fetch-Site") && site != "same-origin" && site != "none") return false;
    const bool app_header = request.get_header_value(std::string(kAppRequestHeader).c_str()) == "1";
    if (cookie_session && !app_header) return false;
    if (request.has_header("Origin")) return same_origin(request.get_header_value("Origin"), at);
    return app_header;
}

bool is_proxy_path(std::string_view path) {
    for (const Route& route : helper_routes()) {
        if (route.proxy && route_matches(route, path)) return true;
    }
    return false;
}

namespace {

bool has_dot_segment(std::string_view path) {
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view segment = path.substr(start, end - start);
        if (segment == "." || segment == "..") return true;
        start = end + 1;
    }
    return false;
}

}  // namespace

bool target_allowed(std::string_view target, std::string_view decoded_path) {
    // Absolute-form (https://host/...), authority-form (host:port) and "*"
    // are for proxies and OPTIONS; httplib would route them as odd paths.
    if (target.empty() || target[0] != '/' || target.rfind("//", 0) == 0) return false;
    const std::string_view raw_path = target.substr(0, target.find('?'));
    if (has_dot_segment(raw_path) || has_dot_segment(decoded_path) || decoded_path.rfind("//", 0) == 0) return false;
    // "/%61pi/me" decodes to "/api/me" for the router but is forwarded raw.
    if ((is_proxy_path(raw_path) || is_proxy_path(decoded_path)) && raw_path != decoded_path) return false;
    return true;
}

std::size_t header_section_bytes(const httplib::Headers& headers) {
    std::size_t total = 0;
    for (const auto& [name, value] : headers) {
        if (name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" || name == "LOCAL_PORT") continue;
        total += name.size() + value.size() + 4;
    }
    return total;
}

std::vector<std::string> single_valued_headers() {
    return {"Origin", std::string(kAppRequestHeader), "Sec-Fetch-Site"};
}

std::optional<Refusal> refusal_for(const httplib::Request& request, const Listening& at, const PolicyLimits& limits,
                                   bool cookie_session) {
    if (request.target.size() > limits.max_uri_bytes) return Refusal{414, "URI too long"};
    if (header_section_bytes(request.headers) > limits.max_header_bytes) {
        return Refusal{431, "request header fields too large"};
    }
    if (!target_allowed(request.target, request.path)) return Refusal{400, "request-target not accepted"};
    // DNS rebinding: a page on evil.example resolved to 127.0.0.1.
    if (!host_allowed(request.get_header_value("Host"), at)) return Refusal{403, "forbidden host"};
    for (const auto& name : single_valued_headers()) {
        if (request.get_header_value_count(name) > 1) return Refusal{403, "Origin, X-Roomkey-Request and Sec-Fetch-Site may each come once"};
    }
    // CSRF: only the app's own page may use the proxies.
    if (is_proxy_path(request.path) && !proxy_request_allowed(request, at, cookie_session)) {
        return Refusal{403, "cross-origin request refused"};
    }
    return std::nullopt;
}

std::string token_request_log_line(std::string_view method, std::string_view url, std::string_view form_body,
                                   int status, std::optional<double> milliseconds) {
    std::string endpoint = "-";
    if (auto parsed = parse_url(url); parsed && parsed->has_authority) {
        Url shown = *parsed;
        shown.query.reset();  // nothing secret travels there, but nothing needs to be shown either
        shown.fragment.reset();
        endpoint = to_string(shown);
    }
    std::string grant = "?";
    if (auto fields = form_decode(form_body)) {
        const std::optional<std::string> type = form_get(*fields, "grant_type");
        if (type && grant_type_from(*type)) grant = *type;
    }
    std::string line = "token request: " + std::string(method == "POST" ? "POST" : "-") + " " + endpoint +
                       " grant_type=" + grant + " " + (status > 0 ? std::to_string(status) : std::string("no answer"));
    line += native::milliseconds_suffix(milliseconds);
    return line;
}

}  // namespace roomkey::helper
