// bff_cookie.hpp: the cookies of roomkey-helper's BFF mode (docs/bff.md):
// their names and attributes (Set-Cookie), finding one in a Cookie header,
// and the value's format "<session id>.<sealed>" whose id prefix lets a
// front (nginx's consistent hash) keep a session on one helper although the
// sealed part changes at every refresh. Pure: the sealing itself
// (AES-256-GCM) is the helper's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/random.hpp"
#include "roomkey/result.hpp"
#include "roomkey/time.hpp"

namespace roomkey {

// __Host-: the browser accepts it only with Secure, Path=/ and no Domain, so
// no sibling host or sub-path can plant or shadow it.
inline constexpr std::string_view kBffSessionCookie = "__Host-roomkey_session";
inline constexpr std::string_view kBffLoginCookie = "__Host-roomkey_login";

// The session cookie's Max-Age when the refresh token has no expiry
// (offline_access): renewed at every refresh, so an idle session ends after it.
inline constexpr Seconds kBffOfflineSessionLifetime{30 * 24 * 60 * 60};

// Browsers keep cookies of up to 4096 bytes of name and value (RFC 6265
// 6.1's minimum): a session cookie's value is kept below this, dropping the
// oldest token request records first (the code exchange's stays).
inline constexpr std::size_t kBffMaxCookieValueBytes = 4096 - 64;

// 16 random bytes as base64url (22 characters): names a session, grants nothing.
inline constexpr std::size_t kBffSessionIdBytes = 16;
std::string make_bff_session_id(const RandomSource& random);
// 22 characters of [A-Za-z0-9_-].
bool is_bff_session_id(std::string_view text);

enum class SameSite { strict, lax };

// "NAME=VALUE; Max-Age=N; Path=/; Secure; HttpOnly; SameSite=Strict"
std::string set_cookie_header(std::string_view name, std::string_view value, Seconds max_age, SameSite same_site);
// The same attributes with an empty value and Max-Age=0: the browser drops it.
std::string clear_cookie_header(std::string_view name, SameSite same_site);

// The value of the cookie `name` in a Cookie request header ("a=1; b=2"), the
// first when repeated; nullopt when absent.
std::optional<std::string> find_cookie(std::string_view cookie_header, std::string_view name);

// The session cookie's value: "<session id>.<sealed part>" (the sealed part
// base64url, its bytes the helper's).
struct BffCookieValue {
    std::string session_id;
    std::string sealed;  // base64url-decoded bytes
};
std::string format_bff_cookie_value(std::string_view session_id, std::string_view sealed_bytes);
enum class BffCookieError { no_separator, bad_session_id, bad_encoding, empty };
std::string_view to_string(BffCookieError error);
Result<BffCookieValue, BffCookieError> parse_bff_cookie_value(std::string_view value);

// Seconds the session cookie may live: until the refresh token expires,
// kBffOfflineSessionLifetime without one; 0 once it has.
Seconds bff_session_max_age(const std::optional<Instant>& refresh_expires_at, Instant now);

}  // namespace roomkey
