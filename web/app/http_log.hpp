// http_log.hpp: the app's record of every HTTP exchange (the Playground-style
// step view): what was sent and what came back, shown with tokens, codes,
// verifiers and secrets masked unless the user reveals them, and copyable as
// a curl command (masked unless revealed). Entries live in memory only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/api.hpp"
#include "roomkey/http.hpp"
#include "roomkey/request_snippets.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

// What a masked secret is replaced with. '*' survives form encoding unescaped,
// so a masked form body stays a valid form body.
inline constexpr std::string_view kMask = "********";

// Which parts of an exchange hold secrets.
struct RedactionRules {
    // The API-token header (spec 5.1; a setting, because the real name
    // carries the service's brand).
    std::string api_token_header{kDefaultApiTokenHeader};
    // Secret values the app knows (tokens, code, verifier): masked wherever they
    // appear, even in places the field rules below do not cover.
    std::vector<std::string> known_secrets;
};

// Header names whose value is always secret (besides the API-token header).
bool is_secret_header(std::string_view name, const RedactionRules& rules);
// Form, query and JSON member names whose value is always secret.
bool is_secret_field(std::string_view name);

// "Bearer abc" -> "Bearer ********"; anything else -> "********".
std::string mask_header_value(std::string_view name, std::string_view value, const RedactionRules& rules);
// A form body or query string with secret fields masked; text that does not
// decode as a form is returned with known secrets masked.
std::string mask_form(std::string_view form, const RedactionRules& rules);
// A JSON text pretty-printed, with secret members masked when `mask` is set;
// nullopt when `text` is not JSON.
std::optional<std::string> pretty_json(std::string_view text, bool mask);
// Every known secret (at least 4 characters long) in `text` replaced by kMask.
std::string mask_known_secrets(std::string text, const RedactionRules& rules);

// A decoded parameter of a flow step (flow_steps.hpp), with what it means
// there ("S256 of the code_verifier, kept until the callback"). Its value is
// masked when its name is a secret field (code) or it holds a known secret.
struct StepParameter {
    std::string name;
    std::string value;
    std::string note;
};

// One exchange as the log keeps it. The request and response are stored as
// they were (in memory only) so that "reveal" can show them; rendering masks.
struct LogEntry {
    std::uint64_t id = 0;
    std::string purpose;  // "token exchange", "GET /me", ...
    HttpRequest request;
    std::optional<HttpResponse> response;
    std::string transport_error;  // set when no HTTP response arrived
    // A step of the flow that is not a fetch (the navigation to the consent
    // screen, the redirect back to /callback: flow_steps.hpp): what happened,
    // shown where a response would be. Empty for a fetch.
    std::string step_note;
    std::vector<StepParameter> step_parameters;  // a step's parameters, decoded
    Instant started;
    std::optional<Instant> finished;
};

// An entry as the screen shows it.
struct RenderedExchange {
    std::string title;  // "POST /oauth/token -> 200 (12 ms)"
    std::string request_line;
    std::vector<std::pair<std::string, std::string>> request_headers;
    std::string request_body;
    // A step's decoded parameters, one "name: value  (note)" line each, masked.
    std::vector<std::string> parameters;
    std::string status_line;  // "200", "(no response: ...)", "(pending)"
    std::vector<std::pair<std::string, std::string>> response_headers;
    std::string response_body;
};

RenderedExchange render(const LogEntry& entry, const RedactionRules& rules, bool reveal);
// The entry rewritten to its masked form, for good (sign-out, a HAR export).
void mask_entry(LogEntry& entry, const RedactionRules& rules);
// Just the title line (no secrets: method, path, status, duration, purpose).
std::string entry_title(const LogEntry& entry);

// `curl` for the request, one option per line (request_snippets.hpp). `origin` ("https://127.0.0.1:8443")
// makes origin-relative URLs absolute. Secrets masked unless `reveal`.
std::string copy_as_curl(const HttpRequest& request, std::string_view origin, const RedactionRules& rules,
                         bool reveal);

// Which entries the log shows: all fields empty shows every one.
struct LogFilter {
    std::string text;    // part of the URL's path, any case
    std::string method;  // "GET", "POST", "PUT", "DELETE"
    std::string status;  // "2xx" .. "5xx", or "none": no answer (pending, failed, a flow step)
    bool empty() const { return text.empty() && method.empty() && status.empty(); }
};
// "" when `filter` is one the log can apply; else what is wrong.
std::string log_filter_problem(const LogFilter& filter);
const char* log_filter_problem_key(const LogFilter& filter);  // its catalog key; nullptr when none
bool matches(const LogEntry& entry, const LogFilter& filter);

// The bounded list of exchanges, newest last.
class HttpLog {
public:
    explicit HttpLog(std::size_t capacity = 300) : capacity_(capacity) {}

    void begin(std::uint64_t id, std::string purpose, const HttpRequest& request, Instant now);
    void complete(std::uint64_t id, const HttpResponse& response, Instant now);
    void fail(std::uint64_t id, std::string error, Instant now);
    // A step that is not a fetch: complete as it is added.
    void add_step(std::uint64_t id, std::string purpose, const HttpRequest& request, std::string note, Instant at,
                  std::vector<StepParameter> parameters = {});

    // Sign-out: rewrites every entry to its masked form, so the secrets of the
    // ended session no longer exist anywhere in the log.
    void forget_secrets(const RedactionRules& rules);
    void clear() { entries_.clear(); }

    const std::vector<LogEntry>& entries() const { return entries_; }
    const LogEntry* find(std::uint64_t id) const;

private:
    LogEntry* find_mutable(std::uint64_t id);
    std::size_t capacity_;
    std::vector<LogEntry> entries_;
};

}  // namespace roomkey::app
