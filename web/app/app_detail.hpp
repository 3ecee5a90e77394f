// app_detail.hpp: constants and small helpers that the App's .cpp files
// and its features (app*.cpp, dashboard.cpp, posting.cpp, open_room.cpp, ...)
// share. Internal to web/app: nothing outside the App includes it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "roomkey/public_config.hpp"
#include "roomkey/session.hpp"

namespace roomkey::app::detail {

inline constexpr std::size_t kMaxSecrets = 64;
// Prefix of the failure reason of a request that got no HTTP answer at all.
inline constexpr std::string_view kNoAnswer = "no answer: ";  // i18n: not shown (a marker the features strip)

inline SessionConfig default_session_config() {
    SessionConfig config;
    config.token_url = std::string(kHelperTokenPath);
    config.credentials = PublicClient{};
    return config;
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
