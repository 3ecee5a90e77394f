// static_site.hpp: serves the web build from a directory: content types
// (application/wasm), precompressed .br/.gz variants, caching headers, and
// the app page for "/" and the OAuth redirect URI "/callback".
#pragma once

#include <httplib.h>

#include <string>
#include <string_view>

#include "roomkey/result.hpp"

namespace roomkey::helper {

// "application/wasm" for .wasm, "text/javascript; charset=utf-8" for .js, ...;
// application/octet-stream for unknown extensions.
std::string content_type_for(std::string_view path);

// A file name that carries a content hash ("roomkey.3f2a9c1b.wasm",
// "app-8c1f0d2e9a.js": 8+ hex digits between '.'/'-' and the next '.'): its
// content never changes under that name, so it may be cached for a year.
bool is_hashed_asset(std::string_view file_name);

// Whether an Accept-Encoding value accepts `coding` ("br", "gzip") with q > 0
// (RFC 9110 12.5.3), directly or through "*".
bool accepts_encoding(std::string_view accept_encoding, std::string_view coding);

class StaticSite {
public:
    // Fails, naming the command that builds it, when `web_root` is missing or
    // has no index.html.
    static Result<StaticSite, std::string> open(const std::string& web_root);

    // Answers a GET or HEAD: the file, 304 when the ETag matches, or 404.
    // "/", "/index.html" and "/callback" are the app page.
    void serve(const httplib::Request& request, httplib::Response& response) const;

    const std::string& root() const { return root_; }

private:
    explicit StaticSite(std::string root) : root_(std::move(root)) {}
    std::string root_;  // realpath of the web root, without trailing '/'
};

}  // namespace roomkey::helper
