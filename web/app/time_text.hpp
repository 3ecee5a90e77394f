// time_text.hpp: message times, date separators and task deadlines as the
// user reads them, in their time zone and their locale.
// Pure: the offset of local time from UTC and the locale's way of writing a
// time come in as functions (UserTime), because the zone's rules and the
// locale's formats live in the browser (Date.getTimezoneOffset and
// Intl.DateTimeFormat, web/src/user_time.cpp) and the offset differs by
// instant where summer time applies. This file decides what is said (a
// clock time for today, a date and time before, "Today", overdue); the
// writer says it ("14:07" or "2:07 PM", "2024/03/05" or "3/5/2024"). Tests
// pass a fixed offset (+540 for Japan) and the default writer: digits,
// year first ("2024-03-05 14:07").
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

// What a written time holds: the clock ("14:07"), the date ("2024-03-05"),
// both, or the date with its weekday ("2024-03-05 (Tue)").
enum class TimeStyle { clock, date, date_clock, date_weekday };

// Writes a Unix time, in the user's zone, as their locale does.
using TimeWriter = std::function<std::string(std::int64_t unix_seconds, TimeStyle style)>;

// Where the user is: their zone (which local day a time falls on) and how
// their locale writes times. Made from an offset alone, it writes digits,
// year first, in that offset's local time.
struct UserTime {
    UserTime(UtcOffsetAt offset_at = fixed_utc_offset(0), TimeWriter writer = {})
        : offset(std::move(offset_at)), write(std::move(writer)) {}
    UtcOffsetAt offset;
    TimeWriter write;  // empty: digits, year first
};

struct LocalTime {
    std::int64_t year = 1970;
    unsigned month = 1;           // 1-12
    unsigned day = 1;             // 1-31
    unsigned hour = 0;            // 0-23
    unsigned minute = 0;          // 0-59
    unsigned weekday = 4;         // 0 = Sunday (1970-01-01 was a Thursday)
    std::int64_t day_number = 0;  // local days since 1970-01-01, to compare days
};
LocalTime local_time(std::int64_t unix_seconds, const UserTime& user);

// The clock ("14:07") for a message sent on today's local date, the date and clock ("2024-03-05 14:07") otherwise.
std::string message_time_text(std::int64_t sent, std::int64_t now, const UserTime& user);

// "10:42:05": the local clock to the second, rounded up, for a time something
// happens again ("Retrying at ...", "Checked again at ...").
std::string clock_seconds_text(std::int64_t unix_ms, const UserTime& user);

// `unix_seconds` written in `style`: by the user's writer, else digits, year first.
std::string written_time(std::int64_t unix_seconds, TimeStyle style, const UserTime& user);

// True when two times fall on the same local date: where a date separator is not drawn.
bool same_local_day(std::int64_t a, std::int64_t b, const UserTime& user);

// The separator above a day's first message: "Today", "Yesterday", else the date with its weekday ("2024-03-05 (Tue)").
std::string date_separator_text(std::int64_t day, std::int64_t now, const UserTime& user);

struct DeadlineText {
    std::string text;      // empty: no deadline
    bool overdue = false;  // drawn marked; never for a done task
};

// A task's deadline (limit_time, limit_type as the API gives them): a "date"
// deadline as its local date ("2024-03-05"), overdue once that day has passed;
// a "time" deadline as local date and time ("2024-03-05 18:00"), overdue once
// passed. "none", an unknown type or no time: no deadline.
DeadlineText deadline_text(std::int64_t limit_time, std::string_view limit_type, bool done, std::int64_t now,
                           const UserTime& user);

}  // namespace roomkey::app
