// app_detail.hpp: constants and small helpers that the App's .cpp files
// and its features (app*.cpp, dashboard.cpp, posting.cpp, open_room.cpp, ...)
// share. Internal to web/app: nothing outside the App includes it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "roomkey/session.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app::detail {

inline constexpr std::string_view kDefaultTokenPath = "/oauth/token";
inline constexpr std::string_view kDefaultRequestHeader = "X-Roomkey-Request";
inline constexpr std::size_t kMaxSecrets = 64;
// Prefix of the failure reason of a request that got no HTTP answer at all.
inline constexpr std::string_view kNoAnswer = "no answer: ";

inline SessionConfig default_session_config() {
    SessionConfig config;
    config.token_url = std::string(kDefaultTokenPath);
    config.credentials = PublicClient{};
    return config;
}

// True when the URL's query carries an authorization answer (spec 4.2).
inline bool is_callback(std::string_view url) {
    auto parsed = parse_url(url);
    if (!parsed || !parsed->query) return false;
    auto fields = form_decode(*parsed->query);
    if (!fields) return true;  // malformed: let validate_callback say why
    return form_count(*fields, "code") > 0 || form_count(*fields, "state") > 0 || form_count(*fields, "error") > 0;
}

inline std::string trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

inline bool is_success(int status) {
    return status >= 200 && status < 300;
}

}  // namespace roomkey::app::detail
