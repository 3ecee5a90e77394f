// route_policy.cpp: the values of route_policy.hpp.
#include "helper/route_policy.hpp"

#include "helper/policy.hpp"

namespace roomkey::helper {

std::string_view cache_control(RouteClass route) {
    switch (route) {
        // The page must be revalidated every time (a rebuild changes which
        // assets it loads); unhashed files revalidate via ETag.
        case RouteClass::page:
        case RouteClass::asset:
            return "no-cache";
        case RouteClass::hashed_asset:
            return "public, max-age=31536000, immutable";
        // Configuration, tokens, API data and refusals are never stored.
        case RouteClass::config_json:
        case RouteClass::token:
        case RouteClass::api:
        case RouteClass::refusal:
            return "no-store";
    }
    return "no-store";
}

std::string_view pragma(RouteClass route) {
    return route == RouteClass::token ? "no-cache" : "";
}

const std::vector<ContentTypeEntry> kContentTypes = {
    {"html", "text/html; charset=utf-8"},
    {"htm", "text/html; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"wasm", "application/wasm"},  // required by WebAssembly.instantiateStreaming
    {"css", "text/css; charset=utf-8"},
    {"json", "application/json"},
    {"map", "application/json"},
    {"webmanifest", "application/manifest+json"},
    {"svg", "image/svg+xml"},
    {"png", "image/png"},
    {"ico", "image/x-icon"},
    {"txt", "text/plain; charset=utf-8"},
    {"woff2", "font/woff2"},
    {"ttf", "font/ttf"},
};

std::vector<std::string> credential_query_names(const UpstreamConfig& upstream) {
    return {upstream.token_header, "access_token", "token"};
}

std::vector<std::string> upstream_headers_never_relayed() {
    std::vector<std::string> names;
    for (const auto& [name, value] : security_headers()) names.push_back(name);
    for (const char* name :
         {"Cache-Control", "Pragma", "Set-Cookie", "Access-Control-Allow-Origin", "Access-Control-Allow-Credentials",
          "Access-Control-Allow-Headers", "Access-Control-Allow-Methods", "Access-Control-Expose-Headers",
          "Access-Control-Max-Age"}) {
        names.emplace_back(name);
    }
    return names;
}

std::vector<std::string> upstream_ca_files(const UpstreamConfig& upstream, const std::string& local_ca) {
    std::vector<std::string> cas = upstream.extra_ca_files;
    if (!local_ca.empty()) cas.push_back(local_ca);
    return cas;
}

}  // namespace roomkey::helper
