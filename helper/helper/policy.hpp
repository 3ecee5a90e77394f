// policy.hpp: roomkey-helper's request policy, applied in one place before
// any route runs: DNS-rebinding (Host) and CSRF (Origin) checks, size limits,
// the security headers every response carries, and the redacted log line.
#pragma once

#include <httplib.h>

#include <optional>
#include <string>
#include <string_view>

namespace roomkey::helper {

// Sent by the web app on every /oauth and /api call. A cross-origin page
// cannot add it without a CORS preflight, which the helper never grants.
inline constexpr std::string_view kAppRequestHeader = "X-Roomkey-Request";

// The Content-Security-Policy of every response: the page may compile its
// own wasm ('wasm-unsafe-eval') but not eval JS, and runs no inline script.
inline constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; "
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

// The fixed security headers (CSP, nosniff, no-referrer, DENY, COOP, CORP).
httplib::Headers security_headers();

// Host is 127.0.0.1:PORT, localhost:PORT or [::1]:PORT (case-insensitive
// host, exact port). Anything else is a DNS-rebinding attempt or a mistake.
bool host_allowed(std::string_view host_header, int port);

// The origins of the app itself: https://{127.0.0.1|localhost|[::1]}:PORT.
bool same_origin(std::string_view origin, int port);

// For the proxies: an Origin header, when present, must be the app's own;
// without one the app's custom header must be there; a Sec-Fetch-Site of
// cross-site/same-site is refused either way.
bool proxy_request_allowed(const httplib::Request& request, int port);

// Total size of the header section as received (names, values, ": ", CRLF),
// without httplib's REMOTE_ADDR-style pseudo-headers.
std::size_t header_section_bytes(const httplib::Headers& headers);

// "GET /api/me 200 1.2ms": method, path, status and time only. A query is
// shown as "?[redacted]" because codes and states travel there (/callback).
std::string log_line(std::string_view method, std::string_view target, int status,
                     std::optional<double> milliseconds);

}  // namespace roomkey::helper
