// trace.hpp: the HTTP log and what may be disclosed from it: the secrets
// this session saw (masked wherever they appear), the reveal switch, and
// whether "Copy as curl" put text on the system clipboard (sign-out
// overwrites it, or says why it could not yet).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/http_log.hpp"

namespace roomkey::app {

class Trace {
public:
    const HttpLog& log() const { return log_; }
    HttpLog& log() { return log_; }
    bool reveal() const { return reveal_; }
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
        std::string notice;
    };
    std::optional<CurlCopy> copy_curl(std::uint64_t entry_id, bool may_reveal, std::string_view origin,
                                      const RedactionRules& rules);
    // The platform's answer to a clear: refused until a click or key press.
    void clipboard_cleared(bool cleared) { clear_refused_ = !cleared; }
    // What to tell the user while a clear waits ("" when none does).
    std::string clipboard_notice() const;

    // Sign-out: the log keeps its entries, rewritten masked, and the secrets
    // of this session exist nowhere any more. True when this session put
    // text on the system clipboard (it is to be overwritten too).
    bool forget_session(const RedactionRules& rules);

private:
    HttpLog log_;
    bool reveal_ = false;
    bool copied_ = false;               // this session put text on the system clipboard
    bool clear_refused_ = false;        // sign-out's overwrite waits for a click or key press
    std::vector<std::string> secrets_;  // every token/code/verifier seen, to mask in the log
};

}  // namespace roomkey::app
