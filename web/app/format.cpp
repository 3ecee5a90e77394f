// format.cpp: countdowns, dates and id lists for the UI.
#include "app/format.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace roomkey::app {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool is_leap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

}  // namespace

std::int64_t countdown_seconds(Millis remaining) {
    return remaining.count() / 1000;
}

std::string format_countdown(Millis remaining) {
    if (remaining.count() < 0) return "expired";
    const std::int64_t total = countdown_seconds(remaining);
    const std::int64_t days = total / 86400;
    const std::int64_t hours = (total % 86400) / 3600;
    const std::int64_t minutes = (total % 3600) / 60;
    const std::int64_t seconds = total % 60;
    char text[48];
    if (days > 0) {
        std::snprintf(text, sizeof text, "%lldd %lldh", static_cast<long long>(days), static_cast<long long>(hours));
    } else if (hours > 0) {
        std::snprintf(text, sizeof text, "%lldh %02lldm", static_cast<long long>(hours),
                      static_cast<long long>(minutes));
    } else {
        std::snprintf(text, sizeof text, "%lld:%02lld", static_cast<long long>(minutes),
                      static_cast<long long>(seconds));
    }
    return text;
}

float countdown_fraction(Instant at, Millis lifetime, Instant now) {
    const std::int64_t left_seconds = countdown_seconds(std::chrono::duration_cast<Millis>(at - now));
    const std::int64_t lifetime_seconds = std::max<std::int64_t>(1, countdown_seconds(lifetime));
    if (left_seconds <= 0) return 0.0f;
    if (left_seconds >= lifetime_seconds) return 1.0f;
    return static_cast<float>(left_seconds) / static_cast<float>(lifetime_seconds);
}

std::optional<CivilDate> parse_civil_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
    auto number = [&](std::size_t at, std::size_t length) -> std::optional<unsigned> {
        unsigned value = 0;
        for (std::size_t i = at; i < at + length; ++i) {
            if (text[i] < '0' || text[i] > '9') return std::nullopt;
            value = value * 10 + static_cast<unsigned>(text[i] - '0');
        }
        return value;
    };
    const auto year = number(0, 4);
    const auto month = number(5, 2);
    const auto day = number(8, 2);
    if (!year || !month || !day || *year < 1970 || *month < 1 || *month > 12 || *day < 1) return std::nullopt;
    static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const unsigned last = kDays[*month - 1] + (*month == 2 && is_leap(*year) ? 1 : 0);
    if (*day > last) return std::nullopt;
    return CivilDate{static_cast<int>(*year), *month, *day};
}

std::int64_t end_of_local_day(const CivilDate& date, Seconds utc_offset) {
    return days_from_civil(date.year, date.month, date.day) * 86400 + 86399 - utc_offset.count();
}

std::optional<std::int64_t> parse_due_date(std::string_view text, UtcOffsetOf utc_offset) {
    const auto date = parse_civil_date(text);
    if (!date) return std::nullopt;
    return end_of_local_day(*date, utc_offset ? utc_offset(*date) : Seconds(0));
}

std::string format_date(std::int64_t unix_seconds) {
    // civil_from_days (H. Hinnant).
    std::int64_t z = (unix_seconds >= 0 ? unix_seconds : unix_seconds - 86399) / 86400 + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0);
    char text[32];
    std::snprintf(text, sizeof text, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
    return text;
}

std::optional<std::vector<std::string>> parse_id_list(std::string_view text) {
    std::vector<std::string> ids;
    std::string current;
    auto flush = [&] {
        if (!current.empty()) ids.push_back(std::move(current));
        current.clear();
    };
    for (char c : text) {
        if (c == ',' || c == ' ' || c == '\t') {
            flush();
        } else if (c >= '0' && c <= '9') {
            current += c;
        } else {
            return std::nullopt;
        }
    }
    flush();
    return ids;
}

}  // namespace roomkey::app
