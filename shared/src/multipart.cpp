// multipart.cpp: build_multipart and read_multipart (see multipart.hpp).
// Sections: [names] escaping and UTF-8, [build], [read].
#include "roomkey/multipart.hpp"

#include "roomkey/encoding.hpp"
#include "roomkey/http.hpp"

namespace roomkey {

namespace {

// ---------------------------------------------------------------------------
// [names]
// ---------------------------------------------------------------------------

// RFC 3629: well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool is_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t extra = 0;
        unsigned min = 0;
        unsigned cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            extra = 1, min = 0x80, cp = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2, min = 0x800, cp = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3, min = 0x10000, cp = c & 0x07u;
        } else {
            return false;
        }
        if (text.size() - i <= extra) return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            const auto d = static_cast<unsigned char>(text[i + k]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += extra + 1;
    }
    return true;
}

// A control character a name may not hold even escaped (CR and LF are escaped).
bool has_other_control(std::string_view text) {
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\r' && c != '\n') || c == 0x7F) return true;
    }
    return false;
}

std::string escape_name(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '\n': out += "%0A"; break;
            case '\r': out += "%0D"; break;
            case '"': out += "%22"; break;
            case '\\': out += "%5C"; break;
            default: out += c;
        }
    }
    return out;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Decodes exactly the four escapes the builder writes; any other '%' stays.
std::string unescape_name(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size()) {
            const int hi = hex_value(text[i + 1]);
            const int lo = hex_value(text[i + 2]);
            const int v = hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
            if (v == '\n' || v == '\r' || v == '"' || v == '\\') {
                out += static_cast<char>(v);
                i += 2;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

// A header value we may write: visible ASCII and spaces only.
bool is_header_safe(std::string_view value) {
    for (char ch : value) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x7F) return false;
    }
    return true;
}

// RFC 2046 5.1.1 bchars, without the space (a trailing space is not allowed
// and roomkey never needs one).
bool is_boundary_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'' || c == '(' ||
           c == ')' || c == '+' || c == '_' || c == ',' || c == '-' || c == '.' || c == '/' || c == ':' ||
           c == '=' || c == '?';
}

constexpr std::string_view kCrlf = "\r\n";
constexpr std::size_t kBoundaryRandomBytes = 18;
// A random source that keeps giving colliding boundaries is broken (or a
// test's fixed one); at 144 bits a real collision never happens twice.
constexpr int kBoundaryAttempts = 4;

}  // namespace

std::string_view to_string(MultipartBuildError error) {
    switch (error) {
        case MultipartBuildError::no_parts: return "no_parts";
        case MultipartBuildError::empty_name: return "empty_name";
        case MultipartBuildError::name_not_utf8: return "name_not_utf8";
        case MultipartBuildError::control_in_name: return "control_in_name";
        case MultipartBuildError::invalid_content_type: return "invalid_content_type";
        case MultipartBuildError::boundary_collision: return "boundary_collision";
    }
    return "unknown";
}

std::string_view to_string(MultipartError error) {
    switch (error) {
        case MultipartError::not_multipart: return "not_multipart";
        case MultipartError::bad_boundary: return "bad_boundary";
        case MultipartError::too_large: return "too_large";
        case MultipartError::missing_first_boundary: return "missing_first_boundary";
        case MultipartError::bad_delimiter: return "bad_delimiter";
        case MultipartError::header_too_large: return "header_too_large";
        case MultipartError::bad_header: return "bad_header";
        case MultipartError::missing_disposition: return "missing_disposition";
        case MultipartError::bad_disposition: return "bad_disposition";
        case MultipartError::unterminated: return "unterminated";
        case MultipartError::too_many_parts: return "too_many_parts";
        case MultipartError::trailing_data: return "trailing_data";
    }
    return "unknown";
}

// ---------------------------------------------------------------------------
// [build]
// ---------------------------------------------------------------------------

std::string content_disposition(std::string_view name, const std::optional<std::string>& filename) {
    std::string out = "form-data; name=\"" + escape_name(name) + "\"";
    if (filename) out += "; filename=\"" + escape_name(*filename) + "\"";
    return out;
}

Result<MultipartBody, MultipartBuildError> build_multipart(const std::vector<MultipartPart>& parts,
                                                           const RandomSource& random) {
    if (parts.empty()) return Err{MultipartBuildError::no_parts};
    for (const MultipartPart& part : parts) {
        if (part.name.empty()) return Err{MultipartBuildError::empty_name};
        for (const std::string* text : {&part.name, part.filename ? &*part.filename : nullptr}) {
            if (!text) continue;
            if (!is_utf8(*text)) return Err{MultipartBuildError::name_not_utf8};
            if (has_other_control(*text)) return Err{MultipartBuildError::control_in_name};
        }
        if (!is_header_safe(part.content_type)) return Err{MultipartBuildError::invalid_content_type};
    }
    std::string boundary;
    for (int attempt = 0;; ++attempt) {
        if (attempt == kBoundaryAttempts) return Err{MultipartBuildError::boundary_collision};
        // The prefix keeps it recognisable in a log; the random part makes it
        // unguessable, so a file cannot be crafted to end the part early.
        boundary = "roomkey-" + base64url_encode(random_bytes(random, kBoundaryRandomBytes));
        bool collides = false;
        for (const MultipartPart& part : parts) {
            // Names and file names are written escaped, but a boundary of
            // base64url characters survives escaping unchanged: check all.
            for (const std::string* text : {&part.data, &part.name, part.filename ? &*part.filename : nullptr}) {
                if (text && text->find(boundary) != std::string::npos) collides = true;
            }
        }
        if (!collides) break;
    }
    MultipartBody out;
    out.boundary = boundary;
    out.content_type = "multipart/form-data; boundary=" + boundary;
    std::size_t size = 0;
    for (const MultipartPart& part : parts) size += part.data.size() + part.name.size() + 160;
    out.body.reserve(size);
    for (const MultipartPart& part : parts) {
        out.body += "--" + boundary + std::string(kCrlf);
        out.body += "Content-Disposition: " + content_disposition(part.name, part.filename) + std::string(kCrlf);
        std::string type = part.content_type;
        if (type.empty() && part.filename) type = "application/octet-stream";
        if (!type.empty()) out.body += "Content-Type: " + type + std::string(kCrlf);
        out.body += kCrlf;
        out.body += part.data;
        out.body += kCrlf;
    }
    out.body += "--" + boundary + "--" + std::string(kCrlf);
    return out;
}

// ---------------------------------------------------------------------------
// [read]
// ---------------------------------------------------------------------------

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

struct Param {
    std::string name;  // lower case
    std::string value;
};

// `type/subtype; a=b; c="d"` -> the lower-cased type and its parameters.
// A quoted value ends at the next `"` (no backslash escapes: the builder and
// browsers never write them); nullopt when malformed.
std::optional<std::pair<std::string, std::vector<Param>>> parse_header_value(std::string_view value) {
    std::size_t semi = value.find(';');
    std::string head = ascii_lower(trim(value.substr(0, semi)));
    std::vector<Param> params;
    std::size_t i = semi == std::string_view::npos ? value.size() : semi + 1;
    while (i < value.size()) {
        while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
        if (i == value.size()) break;
        const std::size_t eq = value.find('=', i);
        if (eq == std::string_view::npos) return std::nullopt;
        Param p;
        p.name = ascii_lower(trim(value.substr(i, eq - i)));
        if (p.name.empty()) return std::nullopt;
        i = eq + 1;
        while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
        if (i < value.size() && value[i] == '"') {
            const std::size_t close = value.find('"', i + 1);
            if (close == std::string_view::npos) return std::nullopt;
            p.value = std::string(value.substr(i + 1, close - i - 1));
            i = close + 1;
            while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
            if (i < value.size() && value[i] != ';') return std::nullopt;
        } else {
            const std::size_t end = value.find(';', i);
            p.value = std::string(trim(value.substr(i, end == std::string_view::npos ? end : end - i)));
            if (p.value.empty()) return std::nullopt;
            i = end == std::string_view::npos ? value.size() : end;
        }
        if (i < value.size() && value[i] == ';') ++i;
        for (const Param& earlier : params) {
            if (earlier.name == p.name) return std::nullopt;  // a duplicate is ambiguous
        }
        params.push_back(std::move(p));
    }
    return std::make_pair(std::move(head), std::move(params));
}

const Param* find_param(const std::vector<Param>& params, std::string_view name) {
    for (const Param& p : params) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

}  // namespace

Result<std::vector<MultipartPart>, MultipartError> read_multipart(std::string_view content_type_header,
                                                                  std::string_view body,
                                                                  const MultipartLimits& limits) {
    const auto type = parse_header_value(content_type_header);
    if (!type || type->first != "multipart/form-data") return Err{MultipartError::not_multipart};
    const Param* boundary_param = find_param(type->second, "boundary");
    if (!boundary_param) return Err{MultipartError::bad_boundary};
    const std::string& boundary = boundary_param->value;
    if (boundary.empty() || boundary.size() > 70) return Err{MultipartError::bad_boundary};
    for (char c : boundary) {
        if (!is_boundary_char(c) && c != ' ') return Err{MultipartError::bad_boundary};
    }
    if (boundary.back() == ' ') return Err{MultipartError::bad_boundary};
    if (body.size() > limits.max_body_bytes) return Err{MultipartError::too_large};

    const std::string dash_boundary = "--" + boundary;
    const std::string delimiter = "\r\n" + dash_boundary;
    if (body.substr(0, dash_boundary.size()) != dash_boundary) return Err{MultipartError::missing_first_boundary};
    std::size_t pos = dash_boundary.size();

    std::vector<MultipartPart> parts;
    for (;;) {
        // After a boundary: "--" closes the body, CRLF opens a part.
        if (body.substr(pos, 2) == "--") {
            pos += 2;
            const std::string_view rest = body.substr(pos);
            if (!rest.empty() && rest != kCrlf) return Err{MultipartError::trailing_data};
            if (parts.empty()) return Err{MultipartError::missing_disposition};
            return parts;
        }
        if (body.substr(pos, 2) != kCrlf) {
            return Err{pos >= body.size() ? MultipartError::unterminated : MultipartError::bad_delimiter};
        }
        pos += 2;
        if (parts.size() == limits.max_parts) return Err{MultipartError::too_many_parts};

        // The header section ends at the first empty line, within the limit.
        const std::size_t window = std::min(body.size() - pos, limits.max_header_bytes + 4);
        const std::string_view head_area = body.substr(pos, window);
        std::size_t head_end = std::string_view::npos;
        if (head_area.substr(0, 2) == kCrlf) {
            head_end = 0;  // no headers at all (refused below: no Content-Disposition)
        } else {
            const std::size_t found = head_area.find("\r\n\r\n");
            if (found != std::string_view::npos) head_end = found + 2;
        }
        if (head_end == std::string_view::npos || head_end > limits.max_header_bytes) {
            return Err{MultipartError::header_too_large};
        }
        const std::string_view headers = body.substr(pos, head_end);
        pos += head_end + 2;

        MultipartPart part;
        bool has_disposition = false;
        std::size_t line_start = 0;
        while (line_start < headers.size()) {
            const std::size_t line_end = headers.find(kCrlf, line_start);
            const std::string_view line = headers.substr(line_start, line_end - line_start);
            line_start = line_end + 2;
            if (line.find('\r') != std::string_view::npos || line.find('\n') != std::string_view::npos) {
                return Err{MultipartError::bad_header};
            }
            const std::size_t colon = line.find(':');
            if (colon == std::string_view::npos || colon == 0 || trim(line.substr(0, colon)).size() != colon) {
                return Err{MultipartError::bad_header};
            }
            const std::string_view name = line.substr(0, colon);
            const std::string_view value = trim(line.substr(colon + 1));
            if (iequals(name, "Content-Disposition")) {
                if (has_disposition) return Err{MultipartError::bad_disposition};
                has_disposition = true;
                const auto parsed = parse_header_value(value);
                if (!parsed || parsed->first != "form-data") return Err{MultipartError::bad_disposition};
                const Param* field = find_param(parsed->second, "name");
                if (!field || field->value.empty()) return Err{MultipartError::bad_disposition};
                part.name = unescape_name(field->value);
                if (const Param* file = find_param(parsed->second, "filename")) {
                    part.filename = unescape_name(file->value);
                }
            } else if (iequals(name, "Content-Type")) {
                part.content_type = std::string(value);
            }
            // Other headers (Content-Transfer-Encoding is deprecated by
            // RFC 7578 4.7; browsers send none) are ignored.
        }
        if (!has_disposition) return Err{MultipartError::missing_disposition};

        const std::size_t end = body.find(delimiter, pos);
        if (end == std::string_view::npos) return Err{MultipartError::unterminated};
        part.data = std::string(body.substr(pos, end - pos));
        parts.push_back(std::move(part));
        pos = end + delimiter.size();
    }
}

const MultipartPart* find_part(const std::vector<MultipartPart>& parts, std::string_view name) {
    for (const MultipartPart& part : parts) {
        if (part.name == name) return &part;
    }
    return nullptr;
}

}  // namespace roomkey
