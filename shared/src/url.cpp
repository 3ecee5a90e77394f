// url.cpp: strict URL parsing (RFC 3986), percent-encoding, and the
// application/x-www-form-urlencoded format (WHATWG URL standard, section 5).
//
// [SECTION] character classes
// [SECTION] URL parsing and serialising
// [SECTION] percent-encoding
// [SECTION] form encoding
#include "roomkey/url.hpp"

#include <cstdint>

#include "roomkey/ascii.hpp"

namespace roomkey {

std::string_view to_string(UrlError error) {
    switch (error) {
        case UrlError::empty: return "url.empty";
        case UrlError::missing_scheme: return "url.missing_scheme";
        case UrlError::invalid_scheme: return "url.invalid_scheme";
        case UrlError::missing_host: return "url.missing_host";
        case UrlError::invalid_port: return "url.invalid_port";
        case UrlError::invalid_character: return "url.invalid_character";
        case UrlError::invalid_percent_encoding: return "url.invalid_percent_encoding";
        case UrlError::invalid_host: return "url.invalid_host";
        case UrlError::userinfo_not_allowed: return "url.userinfo_not_allowed";
    }
    return "url.unknown";
}

// [SECTION] character classes
namespace detail {

bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); }
int hex_value(char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return c - 'a' + 10;
}

bool is_unreserved(char c) { return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

// Bytes RFC 3986 allows somewhere in a URL (unreserved, reserved, '%').
bool is_url_char(char c) {
    if (is_unreserved(c)) return true;
    switch (c) {
        case ':': case '/': case '?': case '#': case '[': case ']': case '@':
        case '!': case '$': case '&': case '\'': case '(': case ')':
        case '*': case '+': case ',': case ';': case '=': case '%':
            return true;
        default:
            return false;
    }
}

constexpr char kUpperHex[] = "0123456789ABCDEF";

void append_escape(std::string& out, char c) {
    const auto byte = static_cast<unsigned char>(c);
    out += '%';
    out += kUpperHex[byte >> 4];
    out += kUpperHex[byte & 0x0F];
}

// [SECTION] URL parsing and serialising

bool is_scheme(std::string_view s) {
    if (s.empty() || !is_alpha(s[0])) return false;
    for (char c : s) {
        if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.') return false;
    }
    return true;
}

// dec-octet "." dec-octet "." dec-octet "." dec-octet (RFC 3986 3.2.2): no leading zeros.
bool is_ipv4(std::string_view s) {
    int parts = 0;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = s.find('.', start);
        const std::string_view part = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (part.empty() || part.size() > 3 || (part.size() > 1 && part[0] == '0')) return false;
        int value = 0;
        for (char c : part) {
            if (!is_digit(c)) return false;
            value = value * 10 + (c - '0');
        }
        if (value > 255) return false;
        ++parts;
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return parts == 4;
}

// Counts the 16-bit groups of a ':'-separated list ("" has none); -1 if malformed.
// An IPv4 tail counts as two groups and is allowed only as the last piece when
// `ipv4_tail_allowed`.
int count_groups(std::string_view s, bool ipv4_tail_allowed) {
    if (s.empty()) return 0;
    int groups = 0;
    std::size_t start = 0;
    while (true) {
        const std::size_t colon = s.find(':', start);
        const bool last = colon == std::string_view::npos;
        const std::string_view piece = s.substr(start, last ? std::string_view::npos : colon - start);
        if (piece.empty()) return -1;
        if (piece.find('.') != std::string_view::npos) {
            if (!last || !ipv4_tail_allowed || !is_ipv4(piece)) return -1;
            groups += 2;
        } else {
            if (piece.size() > 4) return -1;
            for (char c : piece) {
                if (!is_hex(c)) return -1;
            }
            groups += 1;
        }
        if (last) break;
        start = colon + 1;
    }
    return groups;
}

// IPv6address of RFC 3986 3.2.2 (no zone identifiers, no IPvFuture).
bool is_ipv6(std::string_view s) {
    const std::size_t gap = s.find("::");
    if (gap == std::string_view::npos) return count_groups(s, true) == 8;
    if (s.find("::", gap + 1) != std::string_view::npos) return false;
    const int head = count_groups(s.substr(0, gap), false);
    const int tail = count_groups(s.substr(gap + 2), true);
    return head >= 0 && tail >= 0 && head + tail <= 7;
}

Result<std::uint16_t, UrlError> parse_port(std::string_view s) {
    if (s.empty() || s.size() > 5) return Err{UrlError::invalid_port};
    std::uint32_t value = 0;
    for (char c : s) {
        if (!is_digit(c)) return Err{UrlError::invalid_port};
        value = value * 10 + static_cast<std::uint32_t>(c - '0');
    }
    if (value > 65535) return Err{UrlError::invalid_port};
    return static_cast<std::uint16_t>(value);
}

// authority = host [ ":" port ], with host an IPv6 literal in brackets or a reg-name.
Result<Unit, UrlError> parse_authority(std::string_view authority, Url& url) {
    if (authority.find('@') != std::string_view::npos) return Err{UrlError::userinfo_not_allowed};
    std::string_view host;
    std::optional<std::string_view> port;
    if (!authority.empty() && authority[0] == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos) return Err{UrlError::invalid_host};
        host = authority.substr(1, close - 1);
        if (!is_ipv6(host)) return Err{UrlError::invalid_host};
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after[0] != ':') return Err{UrlError::invalid_host};
            port = after.substr(1);
        }
    } else {
        const std::size_t colon = authority.find(':');
        host = authority.substr(0, colon);
        if (colon != std::string_view::npos) port = authority.substr(colon + 1);
        if (host.find_first_of("[]") != std::string_view::npos) return Err{UrlError::invalid_host};
    }
    if (port) {
        auto number = parse_port(*port);
        if (!number) return Err{number.error()};
        url.port = *number;
    }
    url.host = ascii_lower(host);
    return Unit{};
}

bool needs_host(std::string_view scheme) { return scheme == "http" || scheme == "https"; }

std::optional<std::uint16_t> default_port(std::string_view scheme) {
    if (scheme == "http") return 80;
    if (scheme == "https") return 443;
    return std::nullopt;
}

void append_host_port(std::string& out, const Url& url, bool drop_default_port) {
    if (url.host.find(':') != std::string::npos) {
        out += '[';
        out += url.host;
        out += ']';
    } else {
        out += url.host;
    }
    if (url.port && !(drop_default_port && url.port == default_port(url.scheme))) {
        out += ':';
        out += std::to_string(*url.port);
    }
}

}  // namespace detail

bool operator==(const Url& a, const Url& b) {
    return a.scheme == b.scheme && a.host == b.host && a.port == b.port && a.path == b.path &&
           a.query == b.query && a.fragment == b.fragment && a.has_authority == b.has_authority;
}

Result<Url, UrlError> parse_url(std::string_view text) {
    using namespace detail;
    if (text.empty()) return Err{UrlError::empty};
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (!is_url_char(c)) return Err{UrlError::invalid_character};
        if (c == '%' && (i + 2 >= text.size() || !is_hex(text[i + 1]) || !is_hex(text[i + 2]))) {
            return Err{UrlError::invalid_percent_encoding};
        }
    }

    Url url;
    const std::size_t colon = text.find_first_of(":/?#");
    if (colon == std::string_view::npos || text[colon] != ':' || colon == 0) return Err{UrlError::missing_scheme};
    const std::string_view scheme = text.substr(0, colon);
    if (!is_scheme(scheme)) return Err{UrlError::invalid_scheme};
    url.scheme = ascii_lower(scheme);

    std::string_view rest = text.substr(colon + 1);
    if (rest.substr(0, 2) == "//") {
        url.has_authority = true;
        rest.remove_prefix(2);
        const std::size_t end = rest.find_first_of("/?#");
        auto authority = parse_authority(rest.substr(0, end), url);
        if (!authority) return Err{authority.error()};
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    }
    if (needs_host(url.scheme) && url.host.empty()) return Err{UrlError::missing_host};

    // Brackets belong to the host only.
    if (rest.find_first_of("[]") != std::string_view::npos) return Err{UrlError::invalid_character};

    const std::size_t hash = rest.find('#');
    if (hash != std::string_view::npos) {
        const std::string_view fragment = rest.substr(hash + 1);
        if (fragment.find('#') != std::string_view::npos) return Err{UrlError::invalid_character};
        url.fragment = std::string(fragment);
        rest = rest.substr(0, hash);
    }
    const std::size_t question = rest.find('?');
    if (question != std::string_view::npos) {
        url.query = std::string(rest.substr(question + 1));
        rest = rest.substr(0, question);
    }
    url.path = std::string(rest);
    return url;
}

std::string to_string(const Url& url) {
    std::string out = url.scheme;
    out += ':';
    if (url.has_authority) {
        out += "//";
        detail::append_host_port(out, url, false);
    }
    out += url.path;
    if (url.query) {
        out += '?';
        out += *url.query;
    }
    if (url.fragment) {
        out += '#';
        out += *url.fragment;
    }
    return out;
}

std::string origin_of(const Url& url) {
    std::string out = url.scheme;
    out += "://";
    detail::append_host_port(out, url, true);
    return out;
}

// [SECTION] percent-encoding

std::string percent_encode(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    for (char c : bytes) {
        if (detail::is_unreserved(c)) {
            out += c;
        } else {
            detail::append_escape(out, c);
        }
    }
    return out;
}

Result<std::string, UrlError> percent_decode(std::string_view text, bool plus_as_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%') {
            if (i + 2 >= text.size() || !detail::is_hex(text[i + 1]) || !detail::is_hex(text[i + 2])) {
                return Err{UrlError::invalid_percent_encoding};
            }
            out += static_cast<char>(detail::hex_value(text[i + 1]) * 16 + detail::hex_value(text[i + 2]));
            i += 2;
        } else if (c == '+' && plus_as_space) {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

// [SECTION] form encoding

namespace detail {

// The application/x-www-form-urlencoded byte serializer (WHATWG URL 5.2).
void append_form_encoded(std::string& out, std::string_view bytes) {
    for (char c : bytes) {
        if (is_alpha(c) || is_digit(c) || c == '*' || c == '-' || c == '.' || c == '_') {
            out += c;
        } else if (c == ' ') {
            out += '+';
        } else {
            append_escape(out, c);
        }
    }
}

}  // namespace detail

std::string form_encode(const FormFields& fields) {
    std::string out;
    for (const auto& [name, value] : fields) {
        if (!out.empty()) out += '&';
        detail::append_form_encoded(out, name);
        out += '=';
        detail::append_form_encoded(out, value);
    }
    return out;
}

Result<FormFields, UrlError> form_decode(std::string_view text) {
    FormFields fields;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t amp = text.find('&', start);
        const std::string_view piece = text.substr(start, amp == std::string_view::npos ? std::string_view::npos : amp - start);
        if (!piece.empty()) {
            const std::size_t eq = piece.find('=');
            auto name = percent_decode(piece.substr(0, eq), true);
            if (!name) return Err{name.error()};
            std::string value;
            if (eq != std::string_view::npos) {
                auto decoded = percent_decode(piece.substr(eq + 1), true);
                if (!decoded) return Err{decoded.error()};
                value = std::move(decoded).value();
            }
            fields.emplace_back(std::move(name).value(), std::move(value));
        }
        if (amp == std::string_view::npos) break;
        start = amp + 1;
    }
    return fields;
}

std::string append_query(std::string_view url, const FormFields& fields) {
    const std::size_t hash = url.find('#');
    const std::string_view before = url.substr(0, hash);
    std::string out(before);
    if (!fields.empty()) {
        const std::size_t question = before.find('?');
        if (question == std::string_view::npos) {
            out += '?';
        } else if (question + 1 != before.size() && before.back() != '&') {
            out += '&';
        }
        out += form_encode(fields);
    }
    if (hash != std::string_view::npos) out += url.substr(hash);
    return out;
}

std::optional<std::string> form_get(const FormFields& fields, std::string_view name) {
    for (const auto& [n, v] : fields) {
        if (n == name) return v;
    }
    return std::nullopt;
}

std::size_t form_count(const FormFields& fields, std::string_view name) {
    std::size_t count = 0;
    for (const auto& field : fields) {
        if (field.first == name) ++count;
    }
    return count;
}

}  // namespace roomkey
