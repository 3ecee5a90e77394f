// routes.hpp: roomkey-helper's own routes as one table: each row's path,
// methods, body rule, policy and what the generated nginx front does with it.
// The route registration (helper_server.cpp), the policy (is_proxy_path), the
// body limits (request_body_rules.cpp), the static site's page paths and the
// nginx writer (nginx_locations.cpp) read it; no other file lists the routes.
#pragma once

#include <string_view>
#include <vector>

#include "helper/options.hpp"
#include "helper/route_policy.hpp"
#include "roomkey/http.hpp"

namespace roomkey::helper {

// How a row's path matches a request path.
enum class PathMatch {
    exact,         // the path itself
    prefix,        // the path ends in '/': every path under it
    hashed_asset,  // a file whose last segment matches kHashedAssetPattern (the path is that pattern)
};

// The session modes a row exists in.
enum class RouteModes { both, browser, bff };

// What answers the row in the helper. Adding a value makes the helper's
// switch over it fail to build until it has a handler.
enum class RouteHandler {
    none,  // no handler of its own (the web build's 404 and 405 answer; only nginx has a location)
    site,  // the web build (StaticSite): the page and its files
    config_json,
    token,
    api,
    file_preview,
    bff_login,
    bff_callback,
    bff_session,
    bff_refresh,
    bff_logout,
};

// The request body a row takes.
enum class BodyRule {
    none,  // GET and HEAD only: a body is refused (400, the framing guard)
    form,  // application/x-www-form-urlencoded, up to the body limit
    json,  // optional JSON, up to the body limit (the BFF's POSTs)
    // By shared/'s endpoint catalog: an endpoint with a file part takes
    // multipart/form-data with a boundary up to the upload limit; every other
    // endpoint never multipart/form-data, up to the body limit
    // (request_body_rules.hpp).
    api_catalog,
};

// How the generated nginx front handles the row (nginx_locations.cpp).
enum class NginxHandling {
    page_file,        // try_files the page file
    config_json,      // the document, written into the configuration
    static_files,     // files of the web root
    bff_navigation,   // to the BFF helpers: a browser navigation (GET, HEAD)
    bff_fetch,        // to the BFF helpers: the page's fetch, under the proxies' CSRF rule
    token_proxy,      // to {auth_url}/token
    api_not_allowed,  // a JSON 404
    api_allowlist,    // one location per path template of shared/'s catalog, to {base_url}
    // The helper's fetch of an image preview: to the BFF helpers, which
    // proxy the API and so know the download links the service issued
    // (issued_links.hpp); without them a JSON 404 saying previews need
    // roomkey-helper (nginx alone cannot tell such a link from any URL).
    helper_fetch,
};

// Whether a row's answers may be compressed (the helper's, and nginx's
// location for the row). Never the token endpoint's nor the BFF's token
// flows: they carry tokens or the session, and a compressed secret beside
// text a page can reflect leaks by its length (as in BREACH).
enum class Compression { may, never };

struct Route {
    std::string_view path;  // "/oauth/token"; for a prefix "/api/"; for hashed_asset the pattern
    PathMatch match;
    RouteModes modes;
    std::vector<Method> methods;  // the helper's (GET also answers HEAD); empty: not routed by the helper
    BodyRule body;
    RouteClass route_class;  // caching and content (route_policy.hpp)
    bool proxy;              // the proxies' CSRF rule applies (proxy_request_allowed(), policy.hpp)
    Compression compression;
    RouteHandler handler;
    NginxHandling nginx;
};

// The helper's routes, in the generated nginx configuration's order. The
// helper registers the rows with a handler of their own first, the web
// build's catch-all after them.
const std::vector<Route>& helper_routes();

// Whether a row exists in `mode`.
bool route_in_mode(const Route& route, SessionMode mode);

// Whether `path` (a request path) is the row's.
bool route_matches(const Route& route, std::string_view path);

// The row of `mode` that answers `path`, chosen as nginx chooses its
// location: the exact row, else the longest prefix row, except that a
// hashed file name's row wins over the "/" prefix (nginx: a regex location
// over a plain prefix; the others are written `^~`). nullptr: no row.
const Route* route_for(std::string_view path, SessionMode mode, const std::vector<Route>& routes = helper_routes());

// Whether the helper may compress its answer on `path` in `mode`: the
// row's Compression (nginx writes the same per location).
bool answer_may_be_compressed(std::string_view path, SessionMode mode,
                              const std::vector<Route>& routes = helper_routes());

// The row's path as cpp-httplib's pattern (a regex matched against the whole
// path) for an exact or prefix row: "/config\\.json", "/api/.*".
std::string httplib_pattern(const Route& route);

// Whether `path` is one of the app page's rows ("/", "/index.html", the
// redirect URI), in any mode: the web build answers them with the page.
bool is_page_path(std::string_view path);

// Every method some row takes, in the table's order, GET followed by HEAD:
// "GET", "HEAD", "POST", "PUT", "DELETE". The front refuses any other (405).
std::vector<std::string> routed_methods(const std::vector<Route>& routes = helper_routes());

}  // namespace roomkey::helper
