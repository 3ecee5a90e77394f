// view_answer.hpp: how a view's request ends in words, once for every view
// (the open room, files, my tasks, contacts): the failure as the view shows
// it, also set as the app's error for the view's source; the 429 note.
#pragma once

#include <string>
#include <string_view>

#include "app/feature.hpp"

namespace roomkey::app {

// A GET that gets 429 waits for x-ratelimit-reset and is retried once (spec 8.1, 7.3).
inline constexpr int kMaxRateLimitedGetRetries = 1;
// A GET's options: 429 waited out once.
RestOptions view_options();

// A request the session gave up on (e.g. still 401 after the one refresh
// and retry, spec 5.2.2), in words: `reason` (the wire's) only in its message.
UserError given_up_error(std::string_view what, const std::string& reason);

// The failure ("" on success; `ok` says whether the answer is one), also
// set as the error of `source`. A 403 insufficient_scope names the scope the
// call needed (spec 5.2.2): the failure says it and the console offers it.
std::string view_failure(FeatureHost& host, const std::string& what, const Answer& answer, bool ok, Method method,
                         const std::string& path, ErrorSource source);

// A 2xx whose body cannot be read: the failure, also set as the error.
std::string unreadable_failure(FeatureHost& host, const std::string& what, std::string_view detail, ErrorSource source);

// "429: the rate limit is used up; retrying once in 12 s, ..." (spec 8.1):
// as a notice's piece (kept as its key and the wait), and as text.
Piece rate_limit_piece(const FeatureHost& host, Instant now);
std::string rate_limit_note(const FeatureHost& host, Instant now);
// "<what>: <that note>": the note is one more piece of the notice.
Words rate_limited(Words what, const FeatureHost& host, Instant now);

}  // namespace roomkey::app
