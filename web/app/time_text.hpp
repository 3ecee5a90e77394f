// time_text.hpp: message times, date separators and task deadlines as the user reads them, in their time zone.
// Pure: the offset of local time from UTC comes in as a function, because the
// zone's rules live in the browser (Intl / Date.getTimezoneOffset) and differ
// by instant where summer time applies; tests pass a fixed offset (+540 for Japan).
// Dates are written year first with digits ("2024-03-05"), which read the
// same in Japanese and English.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace roomkey::app {

// Minutes local time is ahead of UTC at a Unix time: +540 in Japan, -300 in
// New York in winter. From the browser: -new Date(t * 1000).getTimezoneOffset().
using UtcOffsetAt = std::function<int(std::int64_t unix_seconds)>;
UtcOffsetAt fixed_utc_offset(int minutes);

struct LocalTime {
    std::int64_t year = 1970;
    unsigned month = 1;           // 1-12
    unsigned day = 1;             // 1-31
    unsigned hour = 0;            // 0-23
    unsigned minute = 0;          // 0-59
    unsigned weekday = 4;         // 0 = Sunday (1970-01-01 was a Thursday)
    std::int64_t day_number = 0;  // local days since 1970-01-01, to compare days
};
LocalTime local_time(std::int64_t unix_seconds, const UtcOffsetAt& offset);

// "14:07" for a message sent on today's local date, "2024-03-05 14:07" otherwise.
std::string message_time_text(std::int64_t sent, std::int64_t now, const UtcOffsetAt& offset);

// True when two times fall on the same local date: where a date separator is not drawn.
bool same_local_day(std::int64_t a, std::int64_t b, const UtcOffsetAt& offset);

// The separator above a day's first message: "Today", "Yesterday", else "2024-03-05 (Tue)".
std::string date_separator_text(std::int64_t day, std::int64_t now, const UtcOffsetAt& offset);

struct DeadlineText {
    std::string text;      // empty: no deadline
    bool overdue = false;  // drawn marked; never for a done task
};

// A task's deadline (limit_time, limit_type as the API gives them): a "date"
// deadline as its local date ("2024-03-05"), overdue once that day has passed;
// a "time" deadline as local date and time ("2024-03-05 18:00"), overdue once
// passed. "none", an unknown type or no time: no deadline.
DeadlineText deadline_text(std::int64_t limit_time, std::string_view limit_type, bool done, std::int64_t now,
                           const UtcOffsetAt& offset);

}  // namespace roomkey::app
