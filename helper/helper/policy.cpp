// policy.cpp: the checks and headers of policy.hpp.
#include "helper/policy.hpp"

#include <cstdio>

#include "roomkey/http.hpp"

namespace roomkey::helper {

httplib::Headers security_headers() {
    return {
        {"Content-Security-Policy", std::string(kContentSecurityPolicy)},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},  // the callback URL carries code and state
        {"X-Frame-Options", "DENY"},
        {"Cross-Origin-Opener-Policy", "same-origin"},
        {"Cross-Origin-Resource-Policy", "same-origin"},
    };
}

bool host_allowed(std::string_view host, int port) {
    const std::string suffix = ":" + std::to_string(port);
    if (host.size() <= suffix.size() || host.substr(host.size() - suffix.size()) != suffix) return false;
    const std::string_view name = host.substr(0, host.size() - suffix.size());
    return name == "127.0.0.1" || iequals(name, "localhost") || name == "[::1]";
}

bool same_origin(std::string_view origin, int port) {
    const std::string_view scheme = "https://";
    if (origin.size() <= scheme.size() || !iequals(origin.substr(0, scheme.size()), scheme)) return false;
    return host_allowed(origin.substr(scheme.size()), port);
}

bool proxy_request_allowed(const httplib::Request& request, int port) {
    const std::string site = request.get_header_value("Sec-Fetch-Site");
    if (site == "cross-site" || site == "same-site") return false;
    if (request.has_header("Origin")) return same_origin(request.get_header_value("Origin"), port);
    return request.get_header_value(std::string(kAppRequestHeader).c_str()) == "1";
}

std::size_t header_section_bytes(const httplib::Headers& headers) {
    std::size_t total = 0;
    for (const auto& [name, value] : headers) {
        if (name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" || name == "LOCAL_PORT") continue;
        total += name.size() + value.size() + 4;
    }
    return total;
}

std::string log_line(std::string_view method, std::string_view target, int status,
                     std::optional<double> milliseconds) {
    std::string path(target.substr(0, target.find('?')));
    // Control characters would let a request forge log lines.
    for (char& c : path) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    }
    if (path.size() > 200) path = path.substr(0, 200) + "...";
    std::string line(method.substr(0, 16));
    line += ' ';
    line += path.empty() ? "-" : path;
    if (target.find('?') != std::string_view::npos) line += "?[redacted]";
    line += ' ';
    line += std::to_string(status);
    if (milliseconds) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.1fms", *milliseconds);
        line += buf;
    }
    return line;
}

}  // namespace roomkey::helper
