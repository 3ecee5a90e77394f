// app_plot_axes_test.cpp: the rate plot's ticks (web/app/plot_axes.hpp):
// few, round and labelled the way the plot shows them.
#include "app/plot_axes.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_plot_axes_test {
namespace {

std::vector<std::string> labels(const std::vector<AxisTick>& ticks) {
    std::vector<std::string> out;
    for (const AxisTick& t : ticks) out.push_back(t.label);
    return out;
}

TEST(PlotAxes, TimeTicksEndAtNowWithRoundSteps) {
    EXPECT_EQ(labels(time_ticks(90, 4)), (std::vector<std::string>{"now", "-30 s", "-1 min", "-1:30"}));
    EXPECT_EQ(labels(time_ticks(8, 5)), (std::vector<std::string>{"now", "-2 s", "-4 s", "-6 s", "-8 s"}));
    EXPECT_EQ(labels(time_ticks(600, 3)), (std::vector<std::string>{"now", "-5 min", "-10 min"}));
    EXPECT_EQ(labels(time_ticks(0, 4)), (std::vector<std::string>{"now"})) << "one reading";
}

TEST(PlotAxes, TimeTicksNeverExceedTheMaximum) {
    for (double span : {1.0, 7.0, 59.0, 61.0, 299.0, 301.0, 3599.0}) {
        for (int max = 1; max <= 8; ++max) {
            EXPECT_LE(static_cast<int>(time_ticks(span, max).size()), max) << span << " s, max " << max;
        }
    }
}

TEST(PlotAxes, ValueTicksAreRoundNumbersInsideTheRange) {
    EXPECT_EQ(labels(value_ticks(0, 300, 4)), (std::vector<std::string>{"0", "100", "200", "300"}));
    EXPECT_EQ(labels(value_ticks(265, 300, 4)), (std::vector<std::string>{"270", "280", "290", "300"}));
    EXPECT_EQ(labels(value_ticks(296, 300, 5)), (std::vector<std::string>{"296", "297", "298", "299", "300"}));
    for (const AxisTick& t : value_ticks(13, 287, 5)) {
        EXPECT_GE(t.at, 13);
        EXPECT_LE(t.at, 287);
    }
    EXPECT_LE(value_ticks(13, 287, 5).size(), 5u);
}

}  // namespace
}  // namespace app_plot_axes_test
}  // namespace roomkey::app
