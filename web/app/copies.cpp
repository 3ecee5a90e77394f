// copies.cpp: the log's copies, export and filter (copies.hpp).
#include "app/copies.hpp"

#include "app/i18n.hpp"

namespace roomkey::app {

RedactionRules Copies::redaction() const {
    return trace_.redaction(config_.token_header());
}

std::optional<std::string> Copies::curl_text(std::uint64_t entry_id, bool may_reveal) const {
    return trace_.curl_text(entry_id, may_reveal, origin_, redaction());
}

SnippetTarget Copies::snippet_target() const {
    SnippetTarget target;
    target.origin = origin_;
    const ApiConfig helper = config_.api_config();
    target.api_base = helper.base_url;
    target.service.token_header = helper.token_header;
    if (config_.value()) {
        target.service.base_url = config_.value()->upstream_base_url;
        target.request_header = config_.value()->request_header;
    }
    return target;
}

PlannedCall Copies::planned_console_call() const {
    const ConsolePending& asked = console_.console().asked();
    return PlannedCall{asked.method, asked.path, asked.params};
}

std::string Copies::text_as(std::optional<std::uint64_t> entry_id, SnippetFormat format, bool may_reveal) const {
    auto text = trace_.text_as(entry_id, planned_console_call(), format, may_reveal, snippet_target(), redaction());
    return text ? std::move(*text) : std::string();
}

std::optional<Told> Copies::copy_curl(std::uint64_t entry_id, bool may_reveal) {
    auto copy = trace_.copy_curl(entry_id, may_reveal, origin_, redaction());
    if (!copy) return std::nullopt;
    return Told{std::move(copy->notice), std::move(copy->text), std::nullopt};
}

Told Copies::copy_as(std::optional<std::uint64_t> entry_id, SnippetFormat format, bool may_reveal) {
    auto copy = trace_.copy_as(entry_id, planned_console_call(), format, may_reveal, snippet_target(), redaction());
    if (!copy) return Told{copy.error(), std::nullopt, std::nullopt};
    return Told{std::move(copy->notice), std::move(copy->text), std::nullopt};
}

Told Copies::export_har(bool may_reveal, Instant now) {
    auto file = trace_.export_har(may_reveal, origin_, redaction(), now);
    Words notice{trace_.reveal() && may_reveal ? "notice.har_saved_revealed" : "notice.har_saved", "file", file.name};
    return Told{std::move(notice), std::nullopt, effect::SaveFile{std::move(file.name), "application/json", std::move(file.text)}};
}

std::optional<Told> Copies::set_filter(LogFilter filter) {
    if (const char* problem = log_filter_problem_key(filter))
        return Told{Words{"notice.log_filter_unchanged", "problem", "", problem}, std::nullopt, std::nullopt};
    trace_.set_filter(std::move(filter));
    return std::nullopt;
}

std::optional<Told> Copies::apply(const intent::SetReveal& i, Instant) {
    trace_.set_reveal(i.on);
    return std::nullopt;
}

std::optional<Told> Copies::apply(const intent::ClearLog&, Instant) {
    trace_.log().clear();
    return std::nullopt;
}

std::optional<Told> Copies::apply(const intent::ClipboardCleared& i, Instant) {
    trace_.clipboard_cleared(i.cleared);
    return std::nullopt;
}

}  // namespace roomkey::app
