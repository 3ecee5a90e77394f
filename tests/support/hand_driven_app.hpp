// hand_driven_app.hpp: what the App's unit tests that answer its requests by
// hand share (app_files_test, app_file_preview_test): an App at the dev
// server's origin with a fixed random source, and the API path a request is
// for (what follows the helper's /api prefix), and the /config.json it reads.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "app/app.hpp"
#include "roomkey/http.hpp"

namespace roomkey::testing {

inline std::unique_ptr<app::App> hand_driven_app() {
    return std::make_unique<app::App>(
        [](unsigned char* out, std::size_t n) {
            for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>(i * 7 + 3);
        },
        "https://127.0.0.1:8443");
}

// The helper's /config.json for an App signed in with an API token.
inline constexpr const char* kHandDrivenConfigJson =
    R"({"configured":true,"client_id":"roomkey-web","client_type":"public",)"
    R"("consent_url":"https://auth.example.test/consent",)"
    R"("redirect_uri":"https://127.0.0.1:8443/callback",)"
    R"("token_endpoint":"/oauth/token","api_base":"/api",)"
    R"("token_header":"x-servicetoken","request_header":"X-Roomkey-Request",)"
    R"("scope":""})";

inline std::string api_path(const HttpRequest& request) {
    const auto start = request.url.find("/api");
    return request.url.substr(start == std::string::npos ? 0 : start + 4);
}

}  // namespace roomkey::testing
