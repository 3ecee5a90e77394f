// nginx_syntax.hpp: the pieces of nginx syntax the configuration writer
// builds its text from: quoting, escaping, an indenting writer, the upstream
// an https URL names, and the Host and origin the front answers to.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "helper/options.hpp"
#include "roomkey/http.hpp"
#include "roomkey/result.hpp"

namespace roomkey::helper::nginx {

// A double-quoted nginx string: '\' and '"' escaped. '$' would start a
// variable; callers never pass one.
std::string nq(std::string_view text);

// A string that must reach the client byte for byte: '$' becomes the JSON
// escape \u0024 (only used for JSON bodies, where '$' sits inside strings).
std::string json_literal(std::string_view json);

// PCRE escape of a literal (host names, header names, client ids).
std::string regex_escape(std::string_view text);

// nginx's variable for a request header: "$http_x_servicetoken".
std::string header_variable(std::string_view name);

// "^(GET|POST)$".
std::string methods_regex(const std::vector<Method>& methods);

// `return STATUS "{\"errors\":[\"MESSAGE\"]}";`
std::string json_error(int status, const std::string& message);

// Lines indented by four spaces per open block.
class Writer {
public:
    void line(const std::string& text);
    void open(const std::string& head);  // "head {"
    void close();                        // "}"
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

Result<Target, std::string> target_of(const std::string& url, std::string_view what);

// Host header values the server answers to, as one PCRE: the helper's
// loopback names with the exact port, or the configured server name (its
// port optional on 443, as browsers omit it).
std::string host_regex(const HelperConfig& config, const NginxOptions& options);

// The origin the browser sees: https://127.0.0.1:PORT or the server name's.
std::string app_origin(const HelperConfig& config, const NginxOptions& options);

}  // namespace roomkey::helper::nginx
