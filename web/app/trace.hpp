// trace.hpp: the HTTP log and what may be disclosed from it: the secrets
// this session saw (masked wherever they appear), the reveal switch, "Copy
// as ..." (curl against the service or through the helper, fetch, Python)
// and whether a copy put text on the system clipboard (sign-out overwrites
// it, or says why it could not yet).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/feature.hpp"
#include "app/http_log.hpp"
#include "roomkey/request_snippets.hpp"
#include "roomkey/result.hpp"

namespace roomkey::app {

// Where a copied request goes: the helper's relative URLs are made absolute
// with the page's origin; the service's own snippets replace the helper's
// API proxy with the service's {base_url} and its header names.
struct SnippetTarget {
    std::string origin;    // "https://127.0.0.1:8443"
    std::string api_base;  // the helper's proxy of {base_url}: "/api"
    std::string request_header;  // the helper's anti-CSRF header, "1" on every page request
    ApiConfig service;     // {base_url} of the service ("" when the helper did not say) and its API-token header
};

// A call of the catalog as the page would send it to the helper (the API
// console's), with no credentials: for "Copy as ..." before or without a send.
struct PlannedCall {
    Method method = Method::Get;
    std::string path;  // concrete ("/rooms/2100/messages")
    FormFields params;
};

// `sent` (a request the page sent to the helper) in `format`: secrets masked
// unless `reveal`. The service's formats need an API call of the catalog;
// the error says why not, for the user (kept as words: it reads in the
// language of now).
// The format's name in the user's language ("curl (service)").
std::string snippet_words(SnippetFormat format);

Result<std::string, Words> snippet_of(const HttpRequest& sent, SnippetFormat format, const SnippetTarget& target,
                                      const RedactionRules& rules, bool reveal);

class Trace {
public:
    const HttpLog& log() const { return log_; }
    HttpLog& log() { return log_; }
    bool reveal() const { return reveal_; }
    const LogFilter& filter() const { return filter_; }
    void set_filter(LogFilter filter) { filter_ = std::move(filter); }
    void set_reveal(bool on) { reveal_ = on; }

    // A token, code or verifier seen: masked in every entry from now on.
    void add_secret(const std::string& secret);
    // What the log masks: the API-token header named `token_header`, and every secret seen.
    RedactionRules redaction(std::string_view token_header) const;

    // What "Copy as curl" of entry `entry_id` copies (masked unless revealed
    // and `may_reveal`); none for an entry no longer logged.
    std::optional<std::string> curl_text(std::uint64_t entry_id, bool may_reveal, std::string_view origin,
                                         const RedactionRules& rules) const;
    // "Copy as curl": the text for the clipboard and what to tell the user;
    // none for an entry no longer logged. The text is the user's now, so a
    // clear still waiting must not wipe it.
    struct CurlCopy {
        std::string text;
        Words notice;
    };
    std::optional<CurlCopy> copy_curl(std::uint64_t entry_id, bool may_reveal, std::string_view origin,
                                      const RedactionRules& rules);
    // "Copy as <format>" of log entry `entry_id`, or of `planned` (the
    // console's call) when no entry is named: the credential is the one the
    // log last saw sent. The error says why nothing was copied.
    Result<CurlCopy, Words> copy_as(std::optional<std::uint64_t> entry_id, const PlannedCall& planned,
                                    SnippetFormat format, bool may_reveal, const SnippetTarget& target,
                                    const RedactionRules& rules);
    // The text copy_as() would copy (the UI arms it for the click's own handler).
    Result<std::string, Words> text_as(std::optional<std::uint64_t> entry_id, const PlannedCall& planned,
                                       SnippetFormat format, bool may_reveal, const SnippetTarget& target,
                                       const RedactionRules& rules) const;
    // "Export HAR": the log as a HAR 1.2 file (har.hpp), masked unless
    // revealed and `may_reveal`; remembered as last_export.
    struct Export {
        std::string name;
        std::size_t bytes = 0;
    };
    struct HarFile {
        std::string name;
        std::string text;
    };
    HarFile export_har(bool may_reveal, std::string_view origin, const RedactionRules& rules, Instant now);
    const std::optional<Export>& last_export() const { return last_export_; }
    // The platform's answer to a clear: refused until a click or key press.
    void clipboard_cleared(bool cleared) { clear_refused_ = !cleared; }
    // What to tell the user while a clear waits ("" when none does).
    std::string clipboard_notice() const;

    // Sign-out: the log keeps its entries, rewritten masked, and the secrets
    // of this session exist nowhere any more. True when this session put
    // text on the system clipboard (it is to be overwritten too).
    bool forget_session(const RedactionRules& rules);

private:
    // The console's call as the page would send it, with the credential last sent.
    HttpRequest planned_request(const PlannedCall& planned, const SnippetTarget& target) const;
    HttpLog log_;
    bool reveal_ = false;
    bool copied_ = false;               // this session put text on the system clipboard
    bool clear_refused_ = false;        // sign-out's overwrite waits for a click or key press
    std::vector<std::string> secrets_;  // every token/code/verifier seen, to mask in the log
    std::optional<Export> last_export_;
    LogFilter filter_;
};

}  // namespace roomkey::app
