// format.hpp: the small text conversions the UI needs, kept here (pure) so
// they are tested: countdowns, the task due date field, the assignee list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/time.hpp"

namespace roomkey::app {

// "0:09", "29:41", "1h 02m", "13d 23h"; "expired" for a negative span.
std::string format_countdown(Millis remaining);

// The whole seconds a countdown shows for `remaining` (999 ms shows 0:00).
// The one rounding rule for everything drawn from a countdown: its text,
// its bar (countdown_fraction) and the frame that shows its next tick
// (frame_clock.hpp next_countdown_change).
std::int64_t countdown_seconds(Millis remaining);

// How much of `lifetime` is left before `at`, seen at `now`, from 0 to 1, in
// the whole seconds format_countdown counts: it changes only when a
// countdown's text could, so a bar drawn from it needs no frames of its own.
// (Drawn from the exact milliseconds, a bar's edge moves by a fraction of a
// pixel every frame, the picture never settles and the page draws at 60 Hz.)
float countdown_fraction(Instant at, Millis lifetime, Instant now);

struct CivilDate {
    int year = 1970;
    unsigned month = 1;  // 1-12
    unsigned day = 1;    // 1-31
};

// "2026-11-30" -> that calendar date; nullopt when it is not a real date in
// years 1970-9999.
std::optional<CivilDate> parse_civil_date(std::string_view text);

// Unix seconds of 23:59:59 local time on `date`, where local time is
// `utc_offset` ahead of UTC on that day (+09:00 -> Seconds(32400)).
std::int64_t end_of_local_day(const CivilDate& date, Seconds utc_offset);

// A task's due date as typed (YYYY-MM-DD): the end of that day in the user's
// local time (spec 4.7 takes Unix seconds). `utc_offset` says how far local
// time is ahead of UTC on a date (the browser knows: Date.getTimezoneOffset).
using UtcOffsetOf = Seconds (*)(const CivilDate& date);
std::optional<std::int64_t> parse_due_date(std::string_view text, UtcOffsetOf utc_offset);

// "2024-02-29" for a Unix time (UTC), for showing a date.
std::string format_date(std::int64_t unix_seconds);

// "12, 34 56" -> {"12","34","56"}: account ids separated by commas and/or
// spaces; nullopt when an item is not digits. Empty text -> empty list.
std::optional<std::vector<std::string>> parse_id_list(std::string_view text);

}  // namespace roomkey::app
