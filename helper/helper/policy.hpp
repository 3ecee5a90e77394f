// policy.hpp: roomkey-helper's request policy, decided in one place for
// every request: size limits, the request-target's form, DNS-rebinding
// (Host) and CSRF (Origin) checks, and the security headers every response
// carries. The request log line is common/request_log.hpp's.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/public_config.hpp"

namespace roomkey::helper {

// Sent by the web app on every /oauth and /api call. A cross-origin page
// cannot add it without a CORS preflight, which the helper never grants.
// The page learns its name from /config.json (shared/'s public_config.hpp).
inline constexpr std::string_view kAppRequestHeader = kHelperRequestHeader;

// The security headers of every answer (common/security_headers.hpp's
// helper profile: CSP, nosniff, no-referrer, DENY, COOP, CORP,
// Permissions-Policy), as
// cpp-httplib's default headers.
httplib::Headers security_headers();

// Where the helper listens: Host and Origin must name it.
struct Listening {
    int port = 0;
    bool ipv6 = false;  // also on [::1]:PORT (--ipv6)
    // "host:port" of the front (nginx) that forwards to this helper
    // (--front-origin), which the browser's Host and Origin name; "" = none.
    std::string front_host;
};

// Host is 127.0.0.1:PORT or localhost:PORT (case-insensitive host, exact
// port), or [::1]:PORT when the helper listens there, or the front's
// host:port. Anything else is a DNS-rebinding attempt or a mistake.
bool host_allowed(std::string_view host_header, const Listening& at);

// The origins of the app itself: https:// + an allowed host.
bool same_origin(std::string_view origin, const Listening& at);

// For the proxies: an Origin header, when present, must be the app's own;
// without one the app's custom header must be there; a Sec-Fetch-Site other
// than same-origin or none is refused either way (a value outside the four
// Fetch Metadata defines, "CROSS-SITE" included, counts as cross-site). When a cookie authorises the
// request (the BFF mode, `cookie_session`), the custom header is required
// even with the app's Origin: the browser attaches the cookie to any
// request, the header only to the app's own (no CORS preflight is granted).
bool proxy_request_allowed(const httplib::Request& request, const Listening& at, bool cookie_session = false);

// Whether a path belongs to a route under the proxies' CSRF rule (routes.hpp:
// /oauth/token, /api, /api/..., and the BFF routes the page fetches), in
// either session mode.
bool is_proxy_path(std::string_view path);

// The request-target in the one form the helper routes: origin-form ("/..."),
// not "//...", no "." or ".." segment (also percent-encoded), and for the
// proxies no percent-encoding in the path at all, so that the path the policy
// and the router see (httplib decodes it) is the path that is forwarded
// (raw). `decoded_path` is httplib's req.path.
bool target_allowed(std::string_view target, std::string_view decoded_path);

// Total size of the header section as received (names, values, ": ", CRLF),
// without httplib's REMOTE_ADDR-style pseudo-headers.
std::size_t header_section_bytes(const httplib::Headers& headers);

struct PolicyLimits {
    std::size_t max_uri_bytes = 4096;
    std::size_t max_header_bytes = 16384;
};

struct Refusal {
    int status;
    std::string_view text;
};

// The request headers the CSRF rule reads. Each may come at most once: two
// Origin lines ("evil" then "own") would otherwise be resolved by whichever
// one a reader picks (httplib the first, others the last).
std::vector<std::string> single_valued_headers();

// The whole policy for one request, in order: 414, 431, 400 (target), 403
// (Host), 403 (a header of single_valued_headers() twice), 403 (Origin,
// proxies only; `cookie_session` as for proxy_request_allowed). nullopt:
// route it.
std::optional<Refusal> refusal_for(const httplib::Request& request, const Listening& at, const PolicyLimits& limits,
                                   bool cookie_session = false);

// The log line of a token request the helper made itself (the BFF mode's
// code exchanges and refreshes), as the page's HTTP log shows its own:
// "token request: POST https://host/token grant_type=refresh_token 200
// 12.3ms". Never the body's code, refresh token or verifier, nor the Basic
// credentials; a grant type other than the spec's two is "?". Status 0: no
// answer came.
std::string token_request_log_line(std::string_view method, std::string_view url, std::string_view form_body,
                                   int status, std::optional<double> milliseconds);

}  // namespace roomkey::helper
