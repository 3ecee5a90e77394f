// http_log.cpp: redaction, rendering and curl export of logged exchanges.
#include "app/http_log.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/i18n.hpp"
#include "roomkey/ascii.hpp"
#include "roomkey/json_text.hpp"
#include "roomkey/request_snippets.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

constexpr std::string_view kSecretHeaders[] = {"authorization", "proxy-authorization", "cookie", "set-cookie"};
// RFC 6749/7636 parameter and member names that carry credentials, and the
// sandbox login form's password.
constexpr std::string_view kSecretFields[] = {"access_token", "refresh_token", "id_token",  "code",
                                              "code_verifier", "client_secret", "password", "api_token"};
constexpr std::size_t kShortestMaskedSecret = 4;
constexpr std::size_t kMaxShownBody = 64 * 1024;

void mask_json(json& value) {
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (is_secret_field(it.key()) && (it.value().is_string() || it.value().is_number())) {
                it.value() = std::string(kMask);
            } else {
                mask_json(it.value());
            }
        }
    } else if (value.is_array()) {
        for (auto& item : value) mask_json(item);
    }
}

std::string path_of(std::string_view url) {
    if (url.empty() || url.front() == '/') return std::string(url);
    const auto parsed = parse_url(url);
    if (!parsed) return std::string(url);
    return parsed->path.empty() ? "/" : parsed->path;
}

// The URL with secret query fields masked (the app never puts one there, but
// the log must not be the place that shows it if something else did).
std::string masked_url(std::string_view url, const RedactionRules& rules) {
    const auto question = url.find('?');
    if (question == std::string_view::npos) return mask_known_secrets(std::string(url), rules);
    const auto hash = url.find('#', question);
    const std::string_view query = url.substr(question + 1, hash == std::string_view::npos ? std::string_view::npos
                                                                                            : hash - question - 1);
    std::string out(url.substr(0, question + 1));
    out += mask_form(query, rules);
    if (hash != std::string_view::npos) out += url.substr(hash);
    return mask_known_secrets(std::move(out), rules);
}

std::string body_for_display(const Headers& headers, std::string_view body, const RedactionRules& rules,
                             bool reveal) {
    if (body.empty()) return {};
    std::string shown;
    if (auto pretty = pretty_json(body, !reveal)) {
        shown = std::move(*pretty);
    } else if (!reveal && has_form_content_type(headers)) {
        shown = mask_form(body, rules);
    } else {
        shown = std::string(body);
    }
    if (!reveal) shown = mask_known_secrets(std::move(shown), rules);
    if (shown.size() > kMaxShownBody) {
        shown.resize(kMaxShownBody);
        shown += "\n" + std::string(tr("log.truncated"));
    }
    return shown;
}

std::vector<std::pair<std::string, std::string>> headers_for_display(const Headers& headers,
                                                                     const RedactionRules& rules, bool reveal) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, value] : headers.fields()) {
        out.emplace_back(name, reveal ? value : mask_known_secrets(mask_header_value(name, value, rules), rules));
    }
    return out;
}

}  // namespace

bool is_secret_header(std::string_view name, const RedactionRules& rules) {
    if (!rules.api_token_header.empty() && iequals(name, rules.api_token_header)) return true;
    return std::any_of(std::begin(kSecretHeaders), std::end(kSecretHeaders),
                       [&](std::string_view secret) { return iequals(name, secret); });
}

bool is_secret_field(std::string_view name) {
    return std::any_of(std::begin(kSecretFields), std::end(kSecretFields),
                       [&](std::string_view secret) { return name == secret; });
}

std::string mask_header_value(std::string_view name, std::string_view value, const RedactionRules& rules) {
    if (!is_secret_header(name, rules)) return std::string(value);
    if (iequals(name, "authorization") || iequals(name, "proxy-authorization")) {
        // Keep the scheme: "Bearer" vs "Basic" is what a reader needs to see.
        const auto space = value.find(' ');
        if (space != std::string_view::npos && space > 0) {
            return std::string(value.substr(0, space)) + " " + std::string(kMask);
        }
    }
    return std::string(kMask);
}

std::string mask_form(std::string_view form, const RedactionRules& rules) {
    auto fields = form_decode(form);
    if (!fields) return mask_known_secrets(std::string(form), rules);
    bool masked_any = false;
    for (auto& [name, value] : *fields) {
        if (is_secret_field(name)) {
            value = std::string(kMask);
            masked_any = true;
        }
    }
    if (!masked_any) return mask_known_secrets(std::string(form), rules);
    return mask_known_secrets(form_encode(*fields), rules);
}

std::optional<std::string> pretty_json(std::string_view text, bool mask) {
    json value = roomkey::parse_json_text(text);
    if (value.is_discarded() || !(value.is_object() || value.is_array())) return std::nullopt;
    if (mask) mask_json(value);
    // replace: invalid UTF-8 in a body must not abort (JSON_NOEXCEPTION).
    return value.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string mask_known_secrets(std::string text, const RedactionRules& rules) {
    for (const std::string& secret : rules.known_secrets) {
        if (secret.size() < kShortestMaskedSecret) continue;
        std::size_t at = 0;
        while ((at = text.find(secret, at)) != std::string::npos) {
            text.replace(at, secret.size(), kMask);
            at += kMask.size();
        }
        // Form and percent encoding may spell the secret differently.
        const std::string encoded = percent_encode(secret);
        if (encoded == secret) continue;
        at = 0;
        while ((at = text.find(encoded, at)) != std::string::npos) {
            text.replace(at, encoded.size(), kMask);
            at += kMask.size();
        }
    }
    return text;
}

RenderedExchange render(const LogEntry& entry, const RedactionRules& rules, bool reveal) {
    RenderedExchange out;
    const std::string method(to_string(entry.request.method));
    const std::string url = reveal ? entry.request.url : masked_url(entry.request.url, rules);
    out.request_line = method + " " + url;
    out.request_headers = headers_for_display(entry.request.headers, rules, reveal);
    out.request_body = body_for_display(entry.request.headers, entry.request.body, rules, reveal);
    for (const StepParameter& parameter : entry.step_parameters) {
        std::string value = parameter.value;
        if (!reveal) value = is_secret_field(parameter.name) ? std::string(kMask) : mask_known_secrets(value, rules);
        std::string line = parameter.name + ": " + value;
        if (!parameter.note.empty()) line += "  (" + parameter.note + ")";
        out.parameters.push_back(std::move(line));
    }

    if (entry.response) {
        out.status_line = std::to_string(entry.response->status);
        out.response_headers = headers_for_display(entry.response->headers, rules, reveal);
        out.response_body = body_for_display(entry.response->headers, entry.response->body, rules, reveal);
    } else if (!entry.transport_error.empty()) {
        out.status_line = tr("log.no_response", {{"error", entry.transport_error}});
    } else if (!entry.step_note.empty()) {
        out.status_line = "(" + entry.step_note + ")";
    } else {
        out.status_line = tr("log.pending_status");
    }
    out.title = entry_title(entry);
    return out;
}

std::string entry_title(const LogEntry& entry) {
    if (!entry.step_note.empty()) {
        // A navigation: no status and no duration, only which step it was.
        return tr("log.step_title", {{"call", std::string(to_string(entry.request.method)) + " " + path_of(entry.request.url)},
                                     {"purpose", entry.purpose}});
    }
    std::string outcome = entry.response ? std::to_string(entry.response->status)
                                         : tr(entry.transport_error.empty() ? "log.pending" : "log.failed");
    std::string title = std::string(to_string(entry.request.method)) + " " + path_of(entry.request.url) + " -> " +
                        outcome;
    if (entry.finished) title += " " + tr("log.duration", {{"ms", std::to_string((*entry.finished - entry.started).count())}});
    if (!entry.purpose.empty()) title += "  " + entry.purpose;
    return title;
}

std::string copy_as_curl(const HttpRequest& request, std::string_view origin, const RedactionRules& rules,
                         bool reveal) {
    HttpRequest shown = request;
    if (!shown.url.empty() && shown.url.front() == '/') shown.url = std::string(origin) + shown.url;
    if (!reveal) {
        shown.url = masked_url(shown.url, rules);
        Headers headers;
        for (const auto& [name, value] : request.headers.fields()) {
            headers.add(name, mask_known_secrets(mask_header_value(name, value, rules), rules));
        }
        shown.headers = std::move(headers);
        shown.body = has_form_content_type(request.headers) ? mask_form(request.body, rules)
                                                            : mask_known_secrets(request.body, rules);
    }
    return write_snippet(SnippetFormat::curl_helper, shown);
}

const char* log_filter_problem_key(const LogFilter& filter) {
    constexpr std::string_view kMethods[] = {"", "GET", "POST", "PUT", "DELETE"};
    constexpr std::string_view kClasses[] = {"", "2xx", "3xx", "4xx", "5xx", "none"};
    if (std::find(std::begin(kMethods), std::end(kMethods), filter.method) == std::end(kMethods)) {
        return "log.bad_method";
    }
    if (std::find(std::begin(kClasses), std::end(kClasses), filter.status) == std::end(kClasses)) {
        return "log.bad_status";
    }
    return nullptr;
}

std::string log_filter_problem(const LogFilter& filter) {
    const char* key = log_filter_problem_key(filter);
    return key ? tr(key) : std::string();
}

bool matches(const LogEntry& entry, const LogFilter& filter) {
    if (!filter.method.empty() && filter.method != to_string(entry.request.method)) return false;
    if (!filter.status.empty()) {
        const std::string got = entry.response ? std::to_string(entry.response->status / 100) + "xx" : "none";
        if (got != filter.status) return false;
    }
    return ifind(path_of(entry.request.url), filter.text) != std::string_view::npos;
}

void HttpLog::begin(std::uint64_t id, std::string purpose, const HttpRequest& request, Instant now) {
    LogEntry entry;
    entry.id = id;
    entry.purpose = std::move(purpose);
    entry.request = request;
    entry.started = now;
    entries_.push_back(std::move(entry));
    if (entries_.size() > capacity_) entries_.erase(entries_.begin(), entries_.end() - static_cast<std::ptrdiff_t>(capacity_));
}

void HttpLog::add_step(std::uint64_t id, std::string purpose, const HttpRequest& request, std::string note,
                       Instant at, std::vector<StepParameter> parameters) {
    begin(id, std::move(purpose), request, at);
    entries_.back().step_note = std::move(note);
    entries_.back().step_parameters = std::move(parameters);
    entries_.back().finished = at;
}

void HttpLog::complete(std::uint64_t id, const HttpResponse& response, Instant now) {
    if (LogEntry* entry = find_mutable(id)) {
        entry->response = response;
        entry->finished = now;
    }
}

void HttpLog::fail(std::uint64_t id, std::string error, Instant now) {
    if (LogEntry* entry = find_mutable(id)) {
        entry->transport_error = std::move(error);
        entry->finished = now;
    }
}

void mask_entry(LogEntry& entry, const RedactionRules& rules) {
    HttpRequest& request = entry.request;
    request.url = masked_url(request.url, rules);
    Headers masked;
    for (const auto& [name, value] : request.headers.fields()) {
        masked.add(name, mask_known_secrets(mask_header_value(name, value, rules), rules));
    }
    request.headers = std::move(masked);
    request.body = body_for_display(request.headers, request.body, rules, false);
    for (StepParameter& parameter : entry.step_parameters) {
        parameter.value =
            is_secret_field(parameter.name) ? std::string(kMask) : mask_known_secrets(parameter.value, rules);
    }
    if (entry.response) {
        Headers response_headers;
        for (const auto& [name, value] : entry.response->headers.fields()) {
            response_headers.add(name, mask_known_secrets(mask_header_value(name, value, rules), rules));
        }
        entry.response->headers = std::move(response_headers);
        entry.response->body = body_for_display(entry.response->headers, entry.response->body, rules, false);
    }
}

void HttpLog::forget_secrets(const RedactionRules& rules) {
    for (LogEntry& entry : entries_) mask_entry(entry, rules);
}

const LogEntry* HttpLog::find(std::uint64_t id) const {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
        if (it->id == id) return &*it;
    }
    return nullptr;
}

LogEntry* HttpLog::find_mutable(std::uint64_t id) {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
        if (it->id == id) return &*it;
    }
    return nullptr;
}

}  // namespace roomkey::app
