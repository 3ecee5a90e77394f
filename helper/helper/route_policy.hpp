// route_policy.hpp: what each route class of roomkey-helper answers with
// (Cache-Control, content types, which file names are hashed) and the paths
// the route table (routes.hpp) and the page's configuration name, as data.
// The helper's handlers and the nginx configuration generator
// (nginx_config.hpp) both read it, so the two fronts cannot drift apart.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "helper/options.hpp"
#include "roomkey/launch_url.hpp"

namespace roomkey::helper {

enum class RouteClass {
    page,          // the app page (the page rows of routes.hpp)
    hashed_asset,  // "roomkey.3f2a9c1b.wasm": content never changes under that name
    asset,         // any other file of the web build
    config_json,   // GET /config.json
    token,         // POST /oauth/token
    api,           // /api/... (allowlisted endpoints)
    refusal,       // answers of the policy (403, 404, 414, ...)
};

// The Cache-Control value of a route class's answers.
std::string_view cache_control(RouteClass route);

// The Pragma value of a route class's answers, empty for none: the token
// endpoint's answers carry "Pragma: no-cache" (RFC 6749 5.1, spec 2.3).
std::string_view pragma(RouteClass route);

// The OAuth redirect URI's path: the helper's redirect URI is
// https://127.0.0.1:PORT/callback.
inline constexpr std::string_view kCallbackPath = roomkey::kRedirectPath;
// The file the app page's routes serve (routes.hpp: "/", this file's own
// path, and the redirect URI while the page holds the session).
inline constexpr std::string_view kPageFile = "/index.html";

// /config.json and the proxies' paths are the page's defaults too
// (shared/'s public_config.hpp).
inline constexpr std::string_view kConfigPath = roomkey::kConfigPath;
inline constexpr std::string_view kTokenPath = kHelperTokenPath;
inline constexpr std::string_view kApiPrefix = kHelperApiBase;  // /api/<path> -> {base_url}/<path>
inline constexpr std::string_view kApiPathPrefix = "/api/";  // kApiPrefix + '/': the API proxy's routes
// The BFF mode's own routes (docs/bff.md). Login is a navigation; the other
// three are the page's fetches, under the proxies' CSRF rule.
inline constexpr std::string_view kBffLoginPath = "/bff/login";
inline constexpr std::string_view kBffSessionPath = "/bff/session";
inline constexpr std::string_view kBffRefreshPath = "/bff/refresh";
inline constexpr std::string_view kBffLogoutPath = "/bff/logout";

// A hashed file name (ECMAScript and PCRE alike, matched against the last
// path segment): [.-] then 8+ hex digits then '.', e.g. "app-8c1f0d2e9a.js".
inline constexpr std::string_view kHashedAssetPattern = "[.-][0-9A-Fa-f]{8,}\\.[^/]*$";

// The web build's content types by lowercase extension ("wasm" ->
// "application/wasm"); anything else is kDefaultContentType.
struct ContentTypeEntry {
    std::string_view extension;
    std::string_view type;
};
extern const std::vector<ContentTypeEntry> kContentTypes;
// Idle keep-alive connections to each upstream origin kept for reuse (the
// helper's UpstreamClient; nginx's `keepalive` in the generated front). As
// many as bench/soak.sh's 64 concurrent requests: with 8, most requests
// paid a new TLS handshake upstream, and throughput halved.
inline constexpr std::size_t kUpstreamIdleConnections = 64;
// How long such a connection may sit idle: kUpstreamIdleSeconds (options.hpp).

inline constexpr std::string_view kDefaultContentType = "application/octet-stream";

// Query parameter names the API proxy refuses (spec 5.1: credentials never in
// a URL), compared case-insensitively: the API-token header's name,
// "access_token" and "token".
std::vector<std::string> credential_query_names(const UpstreamConfig& upstream);

// Response headers that come from the helper, never from the upstream: the
// security headers, caching, and any CORS or cookie header (the app is
// same-origin only and keeps no cookies).
std::vector<std::string> upstream_headers_never_relayed();

// The CA files the helper trusts for upstream TLS besides the system store:
// --upstream-ca files, then the local CA (`local_ca`, empty when none).
std::vector<std::string> upstream_ca_files(const UpstreamConfig& upstream, const std::string& local_ca);

}  // namespace roomkey::helper
