// url.hpp: URLs (RFC 3986 subset for http/https and custom schemes),
// percent-encoding and application/x-www-form-urlencoded (WHATWG URL standard,
// section 5), used for query strings and POST bodies alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roomkey/result.hpp"

namespace roomkey {

enum class UrlError {
    empty,               // nothing to parse
    missing_scheme,      // no "scheme:" prefix
    invalid_scheme,      // scheme with characters outside [A-Za-z][A-Za-z0-9+.-]*
    missing_host,        // "scheme://" with no host (http/https need one)
    invalid_port,        // port not a number in 0-65535
    invalid_character,   // a byte RFC 3986 does not allow there (controls, space, non-ASCII, "\\", ...)
    invalid_percent_encoding,  // '%' not followed by two hex digits
    invalid_host,        // malformed IPv6 literal, stray '[' or ']'
    userinfo_not_allowed,  // "user@host": refused, it only serves to disguise the host
};
std::string_view to_string(UrlError error);

struct Url {
    std::string scheme;              // lowercased, e.g. "https"
    std::string host;                // lowercased; IPv6 without brackets
    std::optional<std::uint16_t> port;
    std::string path;                // raw (still percent-encoded); with an authority "" or starting with '/'
    std::optional<std::string> query;     // raw, without '?'
    std::optional<std::string> fragment;  // raw, without '#'
    bool has_authority = false;      // "scheme://..." rather than "scheme:..."
};

bool operator==(const Url& a, const Url& b);
inline bool operator!=(const Url& a, const Url& b) { return !(a == b); }

// Strict: only RFC 3986 characters (no spaces, controls, non-ASCII, '\\', '<',
// '>', '"', '{', '}', '|', '^', '`'), every '%' followed by two hex digits,
// no userinfo, '[' ']' only around an IPv6 host. http and https need a host.
// Nothing is normalised beyond lowercasing scheme and host.
Result<Url, UrlError> parse_url(std::string_view text);
std::string to_string(const Url& url);  // the inverse of parse_url for what it accepts

// The origin "scheme://host[:port]" of an absolute URL; the scheme's default
// port (80 for http, 443 for https) is left out, as in the WHATWG origin.
std::string origin_of(const Url& url);

// Percent-encodes every byte outside the RFC 3986 unreserved set [A-Za-z0-9-._~].
std::string percent_encode(std::string_view bytes);
// Decodes %XX escapes; with plus_as_space, '+' becomes ' ' (form encoding).
Result<std::string, UrlError> percent_decode(std::string_view text, bool plus_as_space = false);

// An ordered list of name/value pairs, as in a query string or a form body.
using FormFields = std::vector<std::pair<std::string, std::string>>;

// name=value&... with form encoding (space as '+', everything outside
// [A-Za-z0-9*-._] percent-encoded).
std::string form_encode(const FormFields& fields);
// The inverse; a field without '=' has an empty value; empty pieces are skipped.
Result<FormFields, UrlError> form_decode(std::string_view text);

// `url` with the fields form-encoded and appended to its query ('?' or '&'),
// before any fragment.
std::string append_query(std::string_view url, const FormFields& fields);

// The value of the first field with that name.
std::optional<std::string> form_get(const FormFields& fields, std::string_view name);
// How many fields have that name (the token endpoint refuses repeated parameters).
std::size_t form_count(const FormFields& fields, std::string_view name);

}  // namespace roomkey
