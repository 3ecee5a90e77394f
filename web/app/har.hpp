// har.hpp: the HTTP log as a HAR 1.2 file (http://www.softwareishard.com/blog/har-12-spec/),
// which Chromium's DevTools network panel and Postman import: each exchange
// with its request, answer and timing, and each step of the flow that is not
// a fetch (the consent screen, the redirect back) as an entry whose comment
// says what happened. Secrets masked unless revealed, as on screen. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/http_log.hpp"

namespace roomkey::app {

// The HAR text of `entries`, oldest first; `origin` makes the page's
// origin-relative URLs absolute.
std::string write_har(const std::vector<LogEntry>& entries, const RedactionRules& rules, bool reveal,
                      std::string_view origin);

// "roomkey-2026-11-27T10-04-05Z.har": when it was written, in UTC, a valid file name everywhere.
std::string har_file_name(Instant now);

}  // namespace roomkey::app
