// trace.cpp: the HTTP log's secrets, reveal switch and clipboard (trace.hpp).
#include "app/trace.hpp"

#include <algorithm>

#include "app/app_detail.hpp"

namespace roomkey::app {

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
    auto text = curl_text(entry_id, may_reveal, origin, rules);
    if (!text) return std::nullopt;
    copied_ = true;
    clear_refused_ = false;
    const bool revealed = reveal_ && may_reveal;
    return CurlCopy{std::move(*text),
                    revealed ? "Copied as curl WITH the secrets revealed." : "Copied as curl (secrets masked)."};
}

std::string Trace::clipboard_notice() const {
    if (!clear_refused_) return {};
    return "The clipboard still holds what roomkey copied: this browser lets a page change the clipboard only "
           "right after a click or key press, so roomkey clears it at your next click or key press.";
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
