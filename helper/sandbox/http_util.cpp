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

bool is_form_content(const Headers& headers) {
    const auto type = headers.get("Content-Type");
    if (!type) return false;
    std::string_view media = *type;
    media = trim(media.substr(0, media.find(';')));
    return iequals(media, "application/x-www-form-urlencoded");
}

std::optional<FormFields> decode_form(std::string_view text) {
    auto fields = form_decode(text);
    if (!fields) return std::nullopt;
    return std::move(fields).value();
}

std::string dump_json(const nlohmann::ordered_json& value) {
    return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

HttpResponse json_response(int status, const nlohmann::ordered_json& body) {
    HttpResponse r;
    r.status = status;
    r.headers.set("Content-Type", "application/json; charset=utf-8");
    r.body = dump_json(body);
    return r;
}

HttpResponse api_error(int status, std::string_view message) {
    HttpResponse r;
    r.status = status;
    r.headers.set("Content-Type", "application/json; charset=utf-8");
    r.body = to_json(ApiErrorBody{{std::string(message)}});
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
