// routes.cpp: the table of routes.hpp.
#include "helper/routes.hpp"

#include <algorithm>
#include <string>

#include "helper/static_site.hpp"

namespace roomkey::helper {

const std::vector<Route>& helper_routes() {
    using M = Method;
    static const std::vector<Route> routes = {
        // The web build: the app page (also at its redirect URI when the page
        // holds the session), /config.json, the files.
        {"/", PathMatch::exact, RouteModes::both, {M::Get}, BodyRule::none, RouteClass::page, false,
         Compression::may, RouteHandler::site, NginxHandling::page_file},
        {kPageFile, PathMatch::exact, RouteModes::both, {M::Get}, BodyRule::none, RouteClass::page, false,
         Compression::may, RouteHandler::site, NginxHandling::page_file},
        {kCallbackPath, PathMatch::exact, RouteModes::browser, {M::Get}, BodyRule::none, RouteClass::page, false,
         Compression::may, RouteHandler::site, NginxHandling::page_file},
        {kConfigPath, PathMatch::exact, RouteModes::both, {M::Get}, BodyRule::none, RouteClass::config_json, false,
         Compression::may, RouteHandler::config_json, NginxHandling::config_json},
        {kHashedAssetPattern, PathMatch::hashed_asset, RouteModes::both, {M::Get}, BodyRule::none,
         RouteClass::hashed_asset, false, Compression::may, RouteHandler::site, NginxHandling::static_files},
        {"/", PathMatch::prefix, RouteModes::both, {M::Get}, BodyRule::none, RouteClass::asset, false,
         Compression::may, RouteHandler::site, NginxHandling::static_files},
        // The BFF mode's own (docs/bff.md): login and the redirect URI are
        // navigations; the other three are the page's fetches.
        {kBffLoginPath, PathMatch::exact, RouteModes::bff, {M::Get}, BodyRule::none, RouteClass::api, false,
         Compression::never, RouteHandler::bff_login, NginxHandling::bff_navigation},
        {kCallbackPath, PathMatch::exact, RouteModes::bff, {M::Get}, BodyRule::none, RouteClass::api, false,
         Compression::never, RouteHandler::bff_callback, NginxHandling::bff_navigation},
        {kBffSessionPath, PathMatch::exact, RouteModes::bff, {M::Get}, BodyRule::none, RouteClass::api, true,
         Compression::never, RouteHandler::bff_session, NginxHandling::bff_fetch},
        {kBffRefreshPath, PathMatch::exact, RouteModes::bff, {M::Post}, BodyRule::json, RouteClass::api, true,
         Compression::never, RouteHandler::bff_refresh, NginxHandling::bff_fetch},
        {kBffLogoutPath, PathMatch::exact, RouteModes::bff, {M::Post}, BodyRule::json, RouteClass::api, true,
         Compression::never, RouteHandler::bff_logout, NginxHandling::bff_fetch},
        // The proxies. The token proxy exists in both modes: in the BFF mode
        // it answers 404 (the helper makes the token requests).
        {kTokenPath, PathMatch::exact, RouteModes::both, {M::Post}, BodyRule::form, RouteClass::token, true,
         Compression::never, RouteHandler::token, NginxHandling::token_proxy},
        {kApiPrefix, PathMatch::exact, RouteModes::both, {}, BodyRule::none, RouteClass::api, true,
         Compression::may, RouteHandler::none, NginxHandling::api_not_allowed},
        {kApiPathPrefix, PathMatch::prefix, RouteModes::both, {M::Get, M::Post, M::Put, M::Delete},
         BodyRule::api_catalog, RouteClass::api, true, Compression::may, RouteHandler::api,
         NginxHandling::api_allowlist},
        // An image preview's bytes from the service's own host or a link it
        // issued (Proxy::file_preview); behind nginx only in the BFF mode.
        {kHelperFilePreviewPath, PathMatch::exact, RouteModes::both, {M::Post}, BodyRule::form, RouteClass::api, true,
         Compression::may, RouteHandler::file_preview, NginxHandling::helper_fetch},
    };
    return routes;
}

bool route_in_mode(const Route& route, SessionMode mode) {
    switch (route.modes) {
        case RouteModes::both:
            return true;
        case RouteModes::browser:
            return mode == SessionMode::browser;
        case RouteModes::bff:
            return mode == SessionMode::bff;
    }
    return false;
}

bool route_matches(const Route& route, std::string_view path) {
    switch (route.match) {
        case PathMatch::exact:
            return path == route.path;
        case PathMatch::prefix:
            return path.substr(0, route.path.size()) == route.path;
        case PathMatch::hashed_asset:
            return is_hashed_asset(path.substr(path.rfind('/') + 1));
    }
    return false;
}

const Route* route_for(std::string_view path, SessionMode mode, const std::vector<Route>& routes) {
    const Route* prefix = nullptr;
    const Route* hashed = nullptr;
    for (const Route& route : routes) {
        if (!route_in_mode(route, mode) || !route_matches(route, path)) continue;
        switch (route.match) {
            case PathMatch::exact:
                return &route;
            case PathMatch::prefix:
                if (!prefix || route.path.size() > prefix->path.size()) prefix = &route;
                break;
            case PathMatch::hashed_asset:
                if (!hashed) hashed = &route;
                break;
        }
    }
    if (hashed && (!prefix || prefix->path == "/")) return hashed;
    return prefix;
}

bool answer_may_be_compressed(std::string_view path, SessionMode mode, const std::vector<Route>& routes) {
    const Route* row = route_for(path, mode, routes);
    return !row || row->compression == Compression::may;
}

std::string httplib_pattern(const Route& route) {
    std::string out;
    for (char c : route.path) {
        if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return route.match == PathMatch::prefix ? out + ".*" : out;
}

bool is_page_path(std::string_view path) {
    for (const Route& route : helper_routes()) {
        if (route.route_class == RouteClass::page && route.handler == RouteHandler::site && route_matches(route, path)) {
            return true;
        }
    }
    return false;
}

std::vector<std::string> routed_methods(const std::vector<Route>& routes) {
    std::vector<std::string> out;
    for (const Route& route : routes) {
        for (Method method : route.methods) {
            const std::string name(to_string(method));
            if (std::find(out.begin(), out.end(), name) != out.end()) continue;
            out.push_back(name);
            if (method == Method::Get) out.emplace_back("HEAD");
        }
    }
    return out;
}

}  // namespace roomkey::helper
