// app_format_test.cpp: the UI's countdowns, due dates and id lists
// (web/app/format.hpp).
#include "app/format.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
namespace {

// spec 5.2.3: the access token lives 30 minutes; the countdown shows it.
TEST(AppFormat, Countdowns) {
    EXPECT_EQ(format_countdown(Seconds(30 * 60)), "30:00");
    EXPECT_EQ(format_countdown(Seconds(9)), "0:09");
    EXPECT_EQ(format_countdown(Millis(999)), "0:00");
    EXPECT_EQ(format_countdown(Seconds(3600 + 120)), "1h 02m");
    EXPECT_EQ(format_countdown(Seconds(14 * 86400 - 1)), "13d 23h") << "spec 2.3: refresh token, 14 days";
    EXPECT_EQ(format_countdown(Millis(-1)), "expired");
}

TEST(AppFormat, DueDates) {
    EXPECT_EQ(parse_due_date("1970-01-01"), 0);
    EXPECT_EQ(parse_due_date("2023-11-14"), 1'699'920'000);
    EXPECT_EQ(parse_due_date("2024-02-29"), 1'709'164'800) << "a leap day";
    EXPECT_FALSE(parse_due_date("2023-02-29")) << "not a leap year";
    EXPECT_FALSE(parse_due_date("2023-13-01"));
    EXPECT_FALSE(parse_due_date("2023-1-01"));
    EXPECT_FALSE(parse_due_date("1969-12-31"));
    EXPECT_FALSE(parse_due_date("tomorrow"));
    EXPECT_EQ(format_date(1'709'164'800), "2024-02-29");
    EXPECT_EQ(format_date(*parse_due_date("2099-12-31")), "2099-12-31");
}

TEST(AppFormat, IdLists) {
    EXPECT_EQ(parse_id_list("12, 34 56"), (std::vector<std::string>{"12", "34", "56"}));
    EXPECT_EQ(parse_id_list(""), std::vector<std::string>{});
    EXPECT_FALSE(parse_id_list("12,abc"));
    EXPECT_FALSE(parse_id_list("-3"));
}

}  // namespace
}  // namespace roomkey::app
