// copies.hpp: what leaves the HTTP log for the user: "Copy as curl", "Copy
// as <format>" (of a logged request or of the console's call), the HAR
// export and the log's filter, with the masking rules in force. Its own
// object because it reads four owners (the log, the page's origin, the
// helper's configuration, the console's call) and none of them should know
// the others.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/api_console.hpp"
#include "app/config_load.hpp"
#include "app/feedback.hpp"
#include "app/intents.hpp"
#include "app/trace.hpp"

namespace roomkey::app {

class Copies {
public:
    Copies(Trace& trace, const std::string& origin, const ConfigLoad& config, const ApiConsole& console)
        : trace_(trace), origin_(origin), config_(config), console_(console) {}

    // What "Copy as curl" of log entry `entry_id` copies (masked unless
    // revealed and `may_reveal`); none for an entry no longer logged.
    std::optional<std::string> curl_text(std::uint64_t entry_id, bool may_reveal) const;
    // What "Copy as <format>" of log entry `entry_id` (the console's call when
    // none) copies; "" when it cannot (the notice then says why).
    std::string text_as(std::optional<std::uint64_t> entry_id, SnippetFormat format, bool may_reveal) const;
    // Where copied requests go (the page's origin, the helper's proxy, the service).
    SnippetTarget snippet_target() const;
    PlannedCall planned_console_call() const;
    RedactionRules redaction() const;

    std::optional<Told> copy_curl(std::uint64_t entry_id, bool may_reveal);
    Told copy_as(std::optional<std::uint64_t> entry_id, SnippetFormat format, bool may_reveal);
    Told export_har(bool may_reveal, Instant now);
    // The filter is set, or nothing changes and the notice says why.
    std::optional<Told> set_filter(LogFilter filter);

    // The log's intents (the App forwards them): what the user is told, if anything.
    std::optional<Told> apply(const intent::CopyCurl& i, Instant) { return copy_curl(i.entry_id, i.may_reveal); }
    std::optional<Told> apply(const intent::CopyAs& i, Instant) { return copy_as(i.entry, i.format, i.may_reveal); }
    std::optional<Told> apply(const intent::ExportHar& i, Instant now) { return export_har(i.may_reveal, now); }
    std::optional<Told> apply(const intent::SetLogFilter& i, Instant) {
        return set_filter(LogFilter{i.text, i.method, i.status});
    }
    std::optional<Told> apply(const intent::SetReveal& i, Instant);
    std::optional<Told> apply(const intent::ClearLog&, Instant);
    std::optional<Told> apply(const intent::ClipboardCleared& i, Instant);

private:
    Trace& trace_;
    const std::string& origin_;
    const ConfigLoad& config_;
    const ApiConsole& console_;
};

}  // namespace roomkey::app
