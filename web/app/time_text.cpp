// time_text.cpp: local times and dates for the conversation and tasks (see time_text.hpp).
#include "app/time_text.hpp"

#include <cstdio>

#include "app/i18n.hpp"

namespace roomkey::app {

namespace time_text_detail {
namespace {

// Floor division: days before 1970 and negative offsets round down, not toward zero.
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Civil date of a day count since 1970-01-01 (H. Hinnant's algorithm).
void civil_from_days(std::int64_t days, std::int64_t& year, unsigned& month, unsigned& day) {
    days += 719468;
    const std::int64_t era = floor_div(days, 146097);
    const auto doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    day = doy - (153 * mp + 2) / 5 + 1;
    month = mp < 10 ? mp + 3 : mp - 9;
    year = static_cast<std::int64_t>(yoe) + era * 400 + (month <= 2 ? 1 : 0);
}

std::string date_text(const LocalTime& t) {
    char text[32];
    std::snprintf(text, sizeof text, "%04lld-%02u-%02u", static_cast<long long>(t.year), t.month, t.day);
    return text;
}

std::string clock_text(const LocalTime& t) {
    char text[8];
    std::snprintf(text, sizeof text, "%02u:%02u", t.hour, t.minute);
    return text;
}

constexpr const char* kWeekdays[] = {"time.weekday.sun", "time.weekday.mon", "time.weekday.tue", "time.weekday.wed",
                                     "time.weekday.thu", "time.weekday.fri", "time.weekday.sat"};

}  // namespace
}  // namespace time_text_detail

UtcOffsetAt fixed_utc_offset(int minutes) {
    return [minutes](std::int64_t) { return minutes; };
}

std::string clock_seconds_text(std::int64_t unix_ms, const UserTime& user) {
    const std::int64_t at = time_text_detail::floor_div(unix_ms + 999, 1000);
    const LocalTime t = local_time(at, user);
    char clock[16];
    std::snprintf(clock, sizeof clock, "%02u:%02u:%02u", t.hour, t.minute, static_cast<unsigned>(((at % 60) + 60) % 60));
    return clock;
}

LocalTime local_time(std::int64_t unix_seconds, const UserTime& user) {
    using namespace time_text_detail;
    const std::int64_t local =
        unix_seconds + static_cast<std::int64_t>(user.offset ? user.offset(unix_seconds) : 0) * 60;
    LocalTime t;
    t.day_number = floor_div(local, 86400);
    const std::int64_t second_of_day = local - t.day_number * 86400;
    t.hour = static_cast<unsigned>(second_of_day / 3600);
    t.minute = static_cast<unsigned>((second_of_day % 3600) / 60);
    t.weekday = static_cast<unsigned>(((t.day_number % 7) + 7 + 4) % 7);
    civil_from_days(t.day_number, t.year, t.month, t.day);
    return t;
}

std::string written_time(std::int64_t unix_seconds, TimeStyle style, const UserTime& user) {
    using namespace time_text_detail;
    if (user.write) return user.write(unix_seconds, style);
    const LocalTime t = local_time(unix_seconds, user);
    switch (style) {
        case TimeStyle::clock:
            return clock_text(t);
        case TimeStyle::date:
            return date_text(t);
        case TimeStyle::date_clock:
            return date_text(t) + " " + clock_text(t);
        case TimeStyle::date_weekday:
            return date_text(t) + " (" + tr(kWeekdays[t.weekday]) + ")";
    }
    return date_text(t);
}

std::string message_time_text(std::int64_t sent, std::int64_t now, const UserTime& user) {
    const bool today = local_time(sent, user).day_number == local_time(now, user).day_number;
    return written_time(sent, today ? TimeStyle::clock : TimeStyle::date_clock, user);
}

bool same_local_day(std::int64_t a, std::int64_t b, const UserTime& user) {
    return local_time(a, user).day_number == local_time(b, user).day_number;
}

std::string date_separator_text(std::int64_t day, std::int64_t now, const UserTime& user) {
    const std::int64_t number = local_time(day, user).day_number;
    const std::int64_t today = local_time(now, user).day_number;
    if (number == today) return tr("time.today");
    if (number == today - 1) return tr("time.yesterday");
    return written_time(day, TimeStyle::date_weekday, user);
}

DeadlineText deadline_text(std::int64_t limit_time, std::string_view limit_type, bool done, std::int64_t now,
                           const UserTime& user) {
    DeadlineText out;
    if (limit_time <= 0 || (limit_type != "date" && limit_type != "time")) return out;
    if (limit_type == "date") {
        out.text = written_time(limit_time, TimeStyle::date, user);
        out.overdue = !done && local_time(now, user).day_number > local_time(limit_time, user).day_number;
    } else {
        out.text = written_time(limit_time, TimeStyle::date_clock, user);
        out.overdue = !done && now > limit_time;
    }
    return out;
}

}  // namespace roomkey::app
