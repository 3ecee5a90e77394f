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

// "2026-11-30" -> Unix seconds at 00:00 UTC of that day; nullopt when it is
// not a real calendar date in years 1970-9999.
std::optional<std::int64_t> parse_due_date(std::string_view text);
// The inverse (UTC), for showing a due date.
std::string format_date(std::int64_t unix_seconds);

// "12, 34 56" -> {"12","34","56"}: account ids separated by commas and/or
// spaces; nullopt when an item is not digits. Empty text -> empty list.
std::optional<std::vector<std::string>> parse_id_list(std::string_view text);

}  // namespace roomkey::app
