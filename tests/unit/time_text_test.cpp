// time_text_test.cpp: times, date separators and deadlines in the user's zone,
// written by the user's locale (web/app/time_text.hpp).
#include "app/time_text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace roomkey::app {
namespace time_text_test {
namespace {

const UtcOffsetAt kJapan = fixed_utc_offset(540);
const UtcOffsetAt kUtc = fixed_utc_offset(0);
const UtcOffsetAt kNewYorkWinter = fixed_utc_offset(-300);

constexpr std::int64_t kSent = 1700000000;           // 2023-11-14 22:13:20 UTC, 2023-11-15 07:13:20 in Japan
constexpr std::int64_t kUtcMidnight = 1700006400;    // 2023-11-15 00:00 UTC, 09:00 in Japan
constexpr std::int64_t kJapanMidnight = 1699974000;  // 2023-11-15 00:00 in Japan
constexpr std::int64_t kJapanEndOfDay = 1700060399;  // 2023-11-15 23:59:59 in Japan
constexpr std::int64_t kJapanSixPm = 1700038800;     // 2023-11-15 18:00 in Japan

TEST(TimeText, LocalTimeAppliesTheOffset) {
    const LocalTime japan = local_time(kSent, kJapan);
    EXPECT_EQ(japan.year, 2023);
    EXPECT_EQ(japan.month, 11u);
    EXPECT_EQ(japan.day, 15u);
    EXPECT_EQ(japan.hour, 7u);
    EXPECT_EQ(japan.minute, 13u);
    EXPECT_EQ(japan.weekday, 3u) << "a Wednesday";
    const LocalTime utc = local_time(kSent, kUtc);
    EXPECT_EQ(utc.day, 14u);
    EXPECT_EQ(utc.hour, 22u);
    const LocalTime before_epoch = local_time(-1, kUtc);
    EXPECT_EQ(before_epoch.year, 1969);
    EXPECT_EQ(before_epoch.hour, 23u);
    EXPECT_EQ(before_epoch.weekday, 3u);
}

TEST(TimeText, MessageTimeIsTheClockTodayAndTheDateBefore) {
    EXPECT_EQ(message_time_text(kSent, kUtcMidnight, kJapan), "07:13") << "both on 11-15 in Japan";
    EXPECT_EQ(message_time_text(kSent, kUtcMidnight, kUtc), "2023-11-14 22:13") << "different days in UTC";
    EXPECT_EQ(message_time_text(kSent, kSent + 86400, kJapan), "2023-11-15 07:13");
    EXPECT_EQ(message_time_text(kSent, kSent, kNewYorkWinter), "17:13");
}

TEST(TimeText, DateSeparatorsFollowTheLocalDay) {
    EXPECT_TRUE(same_local_day(kSent, kUtcMidnight, kJapan));
    EXPECT_FALSE(same_local_day(kSent, kUtcMidnight, kUtc));
    EXPECT_EQ(date_separator_text(kSent, kUtcMidnight, kJapan), "Today");
    EXPECT_EQ(date_separator_text(kSent, kSent + 86400, kJapan), "Yesterday");
    EXPECT_EQ(date_separator_text(kSent - 2 * 86400, kSent, kJapan), "2023-11-13 (Mon)");
}

TEST(TimeText, DateDeadlineIsItsLocalDateAndOverdueOnceThatDayPassed) {
    EXPECT_EQ(deadline_text(kJapanMidnight, "date", false, kSent, kJapan).text, "2023-11-15");
    EXPECT_EQ(deadline_text(kJapanMidnight, "date", false, kSent, kUtc).text, "2023-11-14");
    EXPECT_FALSE(deadline_text(kJapanEndOfDay, "date", false, kJapanEndOfDay, kJapan).overdue);
    EXPECT_FALSE(deadline_text(kJapanMidnight, "date", false, kJapanEndOfDay, kJapan).overdue)
        << "due that day, not overdue until it ends";
    EXPECT_TRUE(deadline_text(kJapanMidnight, "date", false, kJapanEndOfDay + 1, kJapan).overdue);
    EXPECT_FALSE(deadline_text(kJapanMidnight, "date", true, kJapanEndOfDay + 1, kJapan).overdue) << "done";
}

TEST(TimeText, TimeDeadlineIsLocalDateAndTimeAndOverdueOncePassed) {
    const auto due = deadline_text(kJapanSixPm, "time", false, kJapanSixPm, kJapan);
    EXPECT_EQ(due.text, "2023-11-15 18:00");
    EXPECT_FALSE(due.overdue);
    EXPECT_TRUE(deadline_text(kJapanSixPm, "time", false, kJapanSixPm + 1, kJapan).overdue);
    EXPECT_FALSE(deadline_text(kJapanSixPm, "time", true, kJapanSixPm + 1, kJapan).overdue);
    EXPECT_EQ(deadline_text(kJapanSixPm, "time", false, 0, kUtc).text, "2023-11-15 09:00");
}

TEST(TimeText, NoDeadline) {
    EXPECT_EQ(deadline_text(kJapanSixPm, "none", false, kSent, kJapan).text, "");
    EXPECT_EQ(deadline_text(0, "date", false, kSent, kJapan).text, "");
    EXPECT_EQ(deadline_text(kJapanSixPm, "someday", false, kSent, kJapan).text, "");
    EXPECT_FALSE(deadline_text(1, "none", false, kSent, kJapan).overdue);
}

// The locale's writer (Intl in the browser) writes what
// this file decided to say; which day a time falls on still follows the zone.
TEST(TimeText, TheLocalesWriterWritesWhatIsSaid) {
    std::vector<std::int64_t> asked;
    const UserTime user(kJapan, [&](std::int64_t t, TimeStyle style) {
        asked.push_back(t);
        return "w" + std::to_string(static_cast<int>(style));
    });
    EXPECT_EQ(message_time_text(kSent, kUtcMidnight, user), "w0") << "the same day in Japan: the clock";
    EXPECT_EQ(message_time_text(kSent, kSent + 86400, user), "w2") << "another day: date and clock";
    EXPECT_EQ(date_separator_text(kSent, kUtcMidnight, user), "Today");
    EXPECT_EQ(date_separator_text(kSent - 2 * 86400, kSent, user), "w3") << "the date with its weekday";
    EXPECT_EQ(deadline_text(kJapanMidnight, "date", false, kSent, user).text, "w1");
    EXPECT_TRUE(deadline_text(kJapanMidnight, "date", false, kJapanEndOfDay + 1, user).overdue);
    EXPECT_EQ(deadline_text(kJapanSixPm, "time", false, kSent, user).text, "w2");
    EXPECT_EQ(asked, (std::vector<std::int64_t>{kSent, kSent, kSent - 2 * 86400, kJapanMidnight, kJapanMidnight,
                                                kJapanSixPm}));
    // Without a writer: digits, year first.
    EXPECT_EQ(written_time(kSent, TimeStyle::date_weekday, kJapan), "2023-11-15 (Wed)");
    EXPECT_EQ(written_time(kSent, TimeStyle::date, kJapan), "2023-11-15");
}

}  // namespace
}  // namespace time_text_test
}  // namespace roomkey::app
