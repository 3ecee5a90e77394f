// http_util.cpp: request/response helpers (see http_util.hpp).
#include "sandbox/http_util.hpp"

#include "roomkey/errors.hpp"

namespace roomkey::sandbox {

namespace {
std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}
}  // namespace

Target split_target(std::string_view target) {
    Target t;
    const std::size_t hash = target.find('#');
    if (hash != std::string_view::npos) target = target.substr(0, hash);
    const std::size_t q = target.find('?');
    if (q == std::string_view::npos) {
        t.path = std::string(target);
        return t;
    }
    t.path = std::string(target.substr(0, q));
    t.query = std::string(target.substr(q + 1));
    t.has_query = true;
    return t;
}

std::optional<std::string> cookie_value(const Headers& headers, std::string_view name) {
    for (const auto& [field, value] : headers.fields()) {
        if (!iequals(field, "cookie")) continue;
        std::string_view rest = value;
        while (!rest.empty()) {
            const std::size_t semi = rest.find(';');
            std::string_view pair = trim(rest.substr(0, semi));
            rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
            const std::size_t eq = pair.find('=');
            if (eq == std::string_view::npos) continue;
            if (trim(pair.substr(0, eq)) == name) return std::string(trim(pair.substr(eq + 1)));
        }
    }
    return std::nullopt;
}

std::optional<FormFields> decode_form(std::string_view text) {
    auto fields = form_decode(text);
    if (!fields) return std::nullopt;
    return std::move(fields).value();
}

std::string dump_json(const nlohmann::ordered_json& value) {
    return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

namespace {

void append_u_escape(std::string& out, unsigned unit) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
}

// The code point of the UTF-8 sequence at text[i] and its length; length 0
// when the bytes there are not a valid, shortest-form sequence.
std::pair<unsigned, std::size_t> decode_utf8(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned lead = byte(i);
    std::size_t length = 0;
    unsigned cp = 0;
    if (lead >= 0xC2 && lead <= 0xDF) { length = 2; cp = lead & 0x1F; }
    else if (lead >= 0xE0 && lead <= 0xEF) { length = 3; cp = lead & 0x0F; }
    else if (lead >= 0xF0 && lead <= 0xF4) { length = 4; cp = lead & 0x07; }
    else return {0, 0};
    if (i + length > text.size()) return {0, 0};
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return {0, 0};
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    const bool overlong = (length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
    return {cp, length};
}

}  // namespace

std::string service_json_text(std::string_view json) {
    std::string out;
    out.reserve(json.size() + json.size() / 8);
    for (std::size_t i = 0; i < json.size();) {
        const char c = json[i];
        if (c == '/') {
            out += "\\/";
            ++i;
            continue;
        }
        if (static_cast<unsigned char>(c) < 0x80) {
            out += c;
            ++i;
            continue;
        }
        const auto [cp, length] = decode_utf8(json, i);
        if (length == 0) {
            append_u_escape(out, 0xFFFD);
            ++i;
            continue;
        }
        if (cp >= 0x10000) {
            const unsigned v = cp - 0x10000;
            append_u_escape(out, 0xD800 + (v >> 10));
            append_u_escape(out, 0xDC00 + (v & 0x3FF));
        } else {
            append_u_escape(out, cp);
        }
        i += length;
    }
    return out;
}

HttpResponse json_response(int status, const nlohmann::ordered_json& body) {
    return json_text_response(status, dump_json(body));
}

HttpResponse json_text_response(int status, std::string_view json) {
    HttpResponse r;
    r.status = status;
    r.headers.set("Content-Type", "application/json; charset=utf-8");
    r.body = service_json_text(json);
    return r;
}

HttpResponse api_error(int status, std::string_view message) {
    HttpResponse r;
    r.status = status;
    r.headers.set("Content-Type", "application/json; charset=utf-8");
    r.body = service_json_text(to_json(ApiErrorBody{{std::string(message)}}));
    return r;
}

HttpResponse html_response(int status, std::string body) {
    HttpResponse r;
    r.status = status;
    r.headers.set("Content-Type", "text/html; charset=utf-8");
    r.body = std::move(body);
    return r;
}

HttpResponse redirect_response(std::string location, int status) {
    HttpResponse r;
    r.status = status;
    r.headers.set("Location", std::move(location));
    return r;
}

HttpResponse no_content() {
    HttpResponse r;
    r.status = 204;
    return r;
}

}  // namespace roomkey::sandbox
