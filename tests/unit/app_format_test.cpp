// app_format_test.cpp: the UI's countdowns, due dates and id lists
// (web/app/format.hpp).
#include "app/format.hpp"
#include "app/frame_clock.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_format_test {
namespace {

// spec 5.2.3: the access token lives 30 minutes; the countdown shows it.
TEST(AppFormat, Countdowns) {
    EXPECT_EQ(format_countdown(Seconds(30 * 60)), "30:00");
    EXPECT_EQ(format_countdown(Seconds(9)), "0:09");
    EXPECT_EQ(format_countdown(Millis(999)), "0:00");
    EXPECT_EQ(format_countdown(Seconds(3600 + 120)), "1h 02m");
    EXPECT_EQ(format_countdown(Seconds(14 * 86400 - 1)), "13d 23h") << "spec 2.3: refresh token, 14 days";
    EXPECT_EQ(format_countdown(Millis(-1)), "expired");
    EXPECT_EQ(countdown_seconds(Millis(999)), 0) << "shown as 0:00 until the last millisecond";
    EXPECT_EQ(countdown_seconds(Millis(61'000)), 61);
}

// The access token's bar (spec 5.2.3: 30 minutes) shrinks with the
// countdown beside it, a whole second at a time, and holds still between
// the countdown's changes: the frame that shows one tick can settle.
TEST(AppFormat, CountdownFractionMovesOnlyWhenTheCountdownDoes) {
    const Instant issued = instant_from_unix_ms(1'700'000'000'250);
    const Millis lifetime = Seconds(30 * 60);
    const Instant expires = issued + lifetime;
    EXPECT_EQ(countdown_fraction(expires, lifetime, issued), 1.0f);
    EXPECT_EQ(countdown_fraction(expires, lifetime, issued + Seconds(15 * 60)), 0.5f);
    EXPECT_EQ(countdown_fraction(expires, lifetime, expires), 0.0f);
    EXPECT_EQ(countdown_fraction(expires, lifetime, expires + Seconds(5)), 0.0f) << "expired: an empty bar";
    EXPECT_EQ(countdown_fraction(expires, lifetime, issued - Seconds(5)), 1.0f) << "a clock behind: never over full";

    Instant now = issued + Millis(3'456);
    for (int tick = 0; tick < 5; ++tick) {
        const float shown = countdown_fraction(expires, lifetime, now);
        const std::optional<Instant> change = next_countdown_change(expires, now);
        ASSERT_TRUE(change) << "no next countdown change before the expiry";
        for (Instant t = now; t < *change; t += Millis(16)) {
            EXPECT_EQ(countdown_fraction(expires, lifetime, t), shown) << "frames 16 ms apart, before the tick";
        }
        EXPECT_LT(countdown_fraction(expires, lifetime, *change), shown) << "the bar shrinks at the tick";
        EXPECT_EQ(format_countdown(std::chrono::duration_cast<Millis>(expires - *change)),
                  format_countdown(std::chrono::duration_cast<Millis>(expires - now) - Seconds(1)));
        now = *change;
    }
    EXPECT_EQ(countdown_fraction(expires, Millis(0), issued), 1.0f) << "a zero lifetime divides by nothing";
}

Seconds utc(const CivilDate&) {
    return Seconds(0);
}
Seconds tokyo(const CivilDate&) {
    return Seconds(9 * 3600);
}
Seconds new_york(const CivilDate& date) {
    // EDT (UTC-4) from the second Sunday of March 2024, EST (UTC-5) before.
    return date.year == 2024 && (date.month > 3 || (date.month == 3 && date.day >= 10)) ? Seconds(-4 * 3600)
                                                                                        : Seconds(-5 * 3600);
}

TEST(AppFormat, CivilDates) {
    const auto date = parse_civil_date("2024-02-29");
    ASSERT_TRUE(date) << "a leap day";
    EXPECT_EQ(date->year, 2024);
    EXPECT_EQ(date->month, 2u);
    EXPECT_EQ(date->day, 29u);
    EXPECT_FALSE(parse_civil_date("2023-02-29")) << "not a leap year";
    EXPECT_FALSE(parse_civil_date("2023-13-01"));
    EXPECT_FALSE(parse_civil_date("2023-1-01"));
    EXPECT_FALSE(parse_civil_date("1969-12-31"));
    EXPECT_FALSE(parse_civil_date("tomorrow"));
}

// A due date YYYY-MM-DD means the end of that day in the user's local time.
TEST(AppFormat, DueDateIsTheEndOfThatDayInLocalTime) {
    EXPECT_EQ(parse_due_date("1970-01-01", utc), 86'399);
    // 2023-11-14 00:00 UTC is 1'699'920'000.
    EXPECT_EQ(parse_due_date("2023-11-14", utc), 1'699'920'000 + 86'399);
    EXPECT_EQ(parse_due_date("2023-11-14", tokyo), 1'699'920'000 + 86'399 - 9 * 3600)
        << "23:59:59 in Tokyo is 14:59:59 UTC";
    EXPECT_EQ(format_date(*parse_due_date("2023-11-14", tokyo)), "2023-11-14");
    EXPECT_EQ(parse_due_date("2024-03-10", new_york), *parse_due_date("2024-03-10", utc) + 4 * 3600)
        << "the offset of that very day counts (daylight saving time)";
    EXPECT_EQ(parse_due_date("2024-03-09", new_york), *parse_due_date("2024-03-09", utc) + 5 * 3600);
    EXPECT_EQ(format_date(*parse_due_date("2099-12-31", new_york)), "2100-01-01") << "UTC is already the next day";
    EXPECT_FALSE(parse_due_date("2023-02-29", utc));
    EXPECT_EQ(parse_due_date("2023-11-14", nullptr), parse_due_date("2023-11-14", utc)) << "no offset known: UTC";
    EXPECT_EQ(format_date(1'709'164'800), "2024-02-29");
}

TEST(AppFormat, IdLists) {
    EXPECT_EQ(parse_id_list("12, 34 56"), (std::vector<std::string>{"12", "34", "56"}));
    EXPECT_EQ(parse_id_list(""), std::vector<std::string>{});
    EXPECT_FALSE(parse_id_list("12,abc"));
    EXPECT_FALSE(parse_id_list("-3"));
}

}  // namespace
}  // namespace app_format_test
}  // namespace roomkey::app
