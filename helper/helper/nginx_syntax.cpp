// nginx_syntax.cpp: the syntax pieces of nginx_syntax.hpp.
#include "helper/nginx_syntax.hpp"

#include "common/loopback_server.hpp"
#include "roomkey/ascii.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/url.hpp"

namespace roomkey::helper::nginx {

std::string nq(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"";
}

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

std::string regex_escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (std::string_view("\\^$.|?*+()[]{}/-").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

std::string header_variable(std::string_view name) {
    std::string out = "$http_";
    for (char c : name) {
        out += c == '-' ? '_' : ascii_lower(c);
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

std::string json_error(int status, const std::string& message) {
    const std::string body = to_json(ApiErrorBody{{message}});  // shared/'s one writer of the error body
    return "return " + std::to_string(status) + " " + json_literal(body) + ";";
}

void Writer::line(const std::string& text) {
    if (!text.empty()) out_ << std::string(static_cast<std::size_t>(indent_) * 4, ' ') << text;
    out_ << '\n';
}

void Writer::open(const std::string& head) {
    line(head + " {");
    ++indent_;
}

void Writer::close() {
    --indent_;
    line("}");
}

namespace {

bool is_ip_literal(const std::string& host) {
    return host.find_first_not_of("0123456789.") == std::string::npos || host.find(':') != std::string::npos;
}

}  // namespace

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

}  // namespace roomkey::helper::nginx
