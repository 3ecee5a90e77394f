// trace.cpp: the HTTP log's secrets, reveal switch, "Copy as ..." and clipboard (trace.hpp).
#include "app/trace.hpp"

#include <algorithm>

#include "app/app_detail.hpp"
#include "app/har.hpp"
#include "app/i18n.hpp"

namespace roomkey::app {

namespace {

std::string without_prefix(std::string_view text, std::string_view prefix) {
    return std::string(text.substr(text.rfind(prefix, 0) == 0 ? prefix.size() : 0));
}

// "Copy as <format>..." (`key`): the format's label kept as its key, so the
// refusal reads in the language of now; a language and a library are names.
Words refused_as(const char* key, SnippetFormat format) {
    if (format == SnippetFormat::curl_service) return Words(key, "format", {}, "log.format.curl_service");
    if (format == SnippetFormat::curl_helper) return Words(key, "format", {}, "log.format.curl_helper");
    return Words(key, "format", std::string(snippet_label(format)));
}

}  // namespace

std::string snippet_words(SnippetFormat format) {
    if (format == SnippetFormat::curl_service) return tr("log.format.curl_service");
    if (format == SnippetFormat::curl_helper) return tr("log.format.curl_helper");
    return std::string(snippet_label(format));  // a language and a library: names
}

Result<std::string, Words> snippet_of(const HttpRequest& sent, SnippetFormat format, const SnippetTarget& target,
                                      const RedactionRules& rules, bool reveal) {
    if (format == SnippetFormat::curl_helper) return copy_as_curl(sent, target.origin, rules, reveal);
    std::string url = without_prefix(sent.url, target.origin);
    const std::string api = target.api_base + "/";
    if (url.rfind(api, 0) != 0) {
        return Err{refused_as("log.copy_not_api", format)};
    }
    if (target.service.base_url.empty()) {
        return Err{refused_as("log.copy_no_service", format)};
    }
    FormFields params;
    const auto question = url.find('?');
    if (question != std::string::npos) {
        if (auto query = form_decode(std::string_view(url).substr(question + 1))) params = std::move(*query);
        url.resize(question);
    }
    if (has_form_content_type(sent.headers)) {
        if (auto body = form_decode(sent.body)) params.insert(params.end(), body->begin(), body->end());
    }
    // The credential as the service takes it; the helper's own (BFF) is never the page's to show.
    const auto take = [&](std::optional<std::string> value) { return reveal && value ? *value : std::string(kMask); };
    Credentials credentials = BearerToken{std::string(kMask)};
    if (auto bearer = sent.headers.get("authorization"); bearer && bearer->rfind("Bearer ", 0) == 0) {  // i18n: not shown (the scheme)
        credentials = BearerToken{take(bearer->substr(7))};
    } else if (auto token = sent.headers.get(target.service.token_header)) {
        credentials = ApiToken{take(token)};
    }
    auto request = api_request(target.service, credentials, sent.method, url.substr(api.size() - 1), params);
    // The builder's error is an identifier: kept as written.
    if (!request)
        return Err{
            refused_as("log.copy_as_format", format).then(Piece{nullptr, "", std::string(to_string(request.error()))})};
    std::string text = write_snippet(format, *request);
    return reveal ? text : mask_known_secrets(std::move(text), rules);
}

void Trace::add_secret(const std::string& secret) {
    if (secret.empty()) return;
    if (std::find(secrets_.begin(), secrets_.end(), secret) != secrets_.end()) return;
    secrets_.push_back(secret);
    // Old tokens stay in old log entries; keep masking the recent ones.
    if (secrets_.size() > detail::kMaxSecrets) secrets_.erase(secrets_.begin());
}

RedactionRules Trace::redaction(std::string_view token_header) const {
    RedactionRules rules;
    rules.api_token_header = std::string(token_header);
    rules.known_secrets = secrets_;
    return rules;
}

std::optional<std::string> Trace::curl_text(std::uint64_t entry_id, bool may_reveal, std::string_view origin,
                                            const RedactionRules& rules) const {
    const LogEntry* entry = log_.find(entry_id);
    if (!entry) return std::nullopt;
    return copy_as_curl(entry->request, origin, rules, reveal_ && may_reveal);
}

std::optional<Trace::CurlCopy> Trace::copy_curl(std::uint64_t entry_id, bool may_reveal, std::string_view origin,
                                                const RedactionRules& rules) {
    SnippetTarget target;
    target.origin = std::string(origin);
    auto copy = copy_as(entry_id, {}, SnippetFormat::curl_helper, may_reveal, target, rules);
    if (!copy) return std::nullopt;
    return std::move(*copy);
}

HttpRequest Trace::planned_request(const PlannedCall& planned, const SnippetTarget& target) const {
    auto built = api_request(ApiConfig{target.api_base, target.service.token_header}, HeldByHelper{}, planned.method,
                             planned.path, planned.params);
    HttpRequest request = built ? std::move(*built) : HttpRequest{planned.method, target.api_base + planned.path, {}, {}};
    if (!target.request_header.empty()) request.headers.set(target.request_header, "1");
    const std::string api = target.api_base + "/";
    for (auto it = log_.entries().rbegin(); it != log_.entries().rend(); ++it) {
        if (without_prefix(it->request.url, target.origin).rfind(api, 0) != 0) continue;
        for (const std::string_view name : {std::string_view("authorization"), std::string_view(target.service.token_header)}) {
            if (auto value = it->request.headers.get(name)) {
                request.headers.set(std::string(name), *value);
                return request;
            }
        }
    }
    return request;
}

Result<std::string, Words> Trace::text_as(std::optional<std::uint64_t> entry_id, const PlannedCall& planned,
                                          SnippetFormat format, bool may_reveal, const SnippetTarget& target,
                                          const RedactionRules& rules) const {
    const LogEntry* entry = entry_id ? log_.find(*entry_id) : nullptr;
    if (entry_id && !entry) return Err{Words("log.entry_gone", "id", std::to_string(*entry_id))};
    if (!entry && planned.path.empty()) return Err{Words("log.console_empty")};
    return snippet_of(entry ? entry->request : planned_request(planned, target), format, target, rules,
                      reveal_ && may_reveal);
}

Result<Trace::CurlCopy, Words> Trace::copy_as(std::optional<std::uint64_t> entry_id, const PlannedCall& planned,
                                              SnippetFormat format, bool may_reveal, const SnippetTarget& target,
                                              const RedactionRules& rules) {
    auto text = text_as(entry_id, planned, format, may_reveal, target, rules);
    if (!text) return Err{text.error()};
    copied_ = true;
    clear_refused_ = false;
    // Kept as words: the notice reads in the language of now (the service's curl is a label).
    const bool service = format == SnippetFormat::curl_service;
    return CurlCopy{std::move(*text),
                    Words{reveal_ && may_reveal ? "log.copied_revealed" : "log.copied_masked", "format",
                          format == SnippetFormat::curl_helper ? "curl" : service ? "" : std::string(snippet_label(format)),
                          service ? "log.format.curl_service" : nullptr}};
}

Trace::HarFile Trace::export_har(bool may_reveal, std::string_view origin, const RedactionRules& rules,
                                 Instant now) {
    HarFile file{har_file_name(now), write_har(log_.entries(), rules, reveal_ && may_reveal, origin)};
    last_export_ = Export{file.name, file.text.size()};
    return file;
}

std::string Trace::clipboard_notice() const {
    if (!clear_refused_) return {};
    return tr("log.clipboard_held");
}

bool Trace::forget_session(const RedactionRules& rules) {
    log_.forget_secrets(rules);
    secrets_.clear();
    reveal_ = false;
    const bool held = copied_;
    copied_ = false;
    return held;
}

}  // namespace roomkey::app
