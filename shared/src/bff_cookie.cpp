// bff_cookie.cpp: cookie names, attributes, lookup and value format of bff_cookie.hpp.
#include "roomkey/bff_cookie.hpp"

#include <algorithm>

#include "roomkey/encoding.hpp"

namespace roomkey {

std::string make_bff_session_id(const RandomSource& random) {
    return base64url_encode(random_bytes(random, kBffSessionIdBytes));
}

bool is_bff_session_id(std::string_view text) {
    if (text.size() != 22) return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

namespace {

std::string attributes(Seconds max_age, SameSite same_site) {
    return "; Max-Age=" + std::to_string(std::max<Seconds::rep>(0, max_age.count())) +
           "; Path=/; Secure; HttpOnly; SameSite=" + (same_site == SameSite::strict ? "Strict" : "Lax");
}

std::string_view trim_cookie_space(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

}  // namespace

std::string set_cookie_header(std::string_view name, std::string_view value, Seconds max_age, SameSite same_site) {
    return std::string(name) + "=" + std::string(value) + attributes(max_age, same_site);
}

std::string clear_cookie_header(std::string_view name, SameSite same_site) {
    return std::string(name) + "=" + attributes(Seconds{0}, same_site);
}

std::optional<std::string> find_cookie(std::string_view header, std::string_view name) {
    while (!header.empty()) {
        const auto end = std::min(header.find(';'), header.size());
        const std::string_view pair = trim_cookie_space(header.substr(0, end));
        const auto eq = pair.find('=');
        if (eq != std::string_view::npos && trim_cookie_space(pair.substr(0, eq)) == name) {
            std::string_view value = trim_cookie_space(pair.substr(eq + 1));
            // RFC 6265 4.1.1 allows a quoted value.
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
            return std::string(value);
        }
        header.remove_prefix(std::min(end + 1, header.size()));
    }
    return std::nullopt;
}

std::string format_bff_cookie_value(std::string_view session_id, std::string_view sealed_bytes) {
    return std::string(session_id) + "." + base64url_encode(sealed_bytes);
}

std::string_view to_string(BffCookieError error) {
    switch (error) {
        case BffCookieError::no_separator:
            return "no_separator";
        case BffCookieError::bad_session_id:
            return "bad_session_id";
        case BffCookieError::bad_encoding:
            return "bad_encoding";
        case BffCookieError::empty:
            return "empty";
    }
    return "unknown";
}

Result<BffCookieValue, BffCookieError> parse_bff_cookie_value(std::string_view value) {
    if (value.empty()) return Err{BffCookieError::empty};
    const auto dot = value.find('.');
    if (dot == std::string_view::npos) return Err{BffCookieError::no_separator};
    const std::string_view id = value.substr(0, dot);
    if (!is_bff_session_id(id)) return Err{BffCookieError::bad_session_id};
    auto sealed = base64url_decode(value.substr(dot + 1));
    if (!sealed || sealed->empty()) return Err{BffCookieError::bad_encoding};
    return BffCookieValue{std::string(id), std::move(*sealed)};
}

Seconds bff_session_max_age(const std::optional<Instant>& refresh_expires_at, Instant now) {
    if (!refresh_expires_at) return kBffOfflineSessionLifetime;
    const auto left = std::chrono::duration_cast<Seconds>(*refresh_expires_at - now);
    return left.count() > 0 ? left : Seconds{0};
}

}  // namespace roomkey
