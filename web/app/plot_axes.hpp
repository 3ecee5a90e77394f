// plot_axes.hpp: where the rate plot (web/src/ui_rate.cpp) puts its ticks
// and what they say: a time axis that ends at the latest reading and a
// value axis of remaining calls, each with "nice" steps so the labels stay
// few and round at any width. Pure, so it is tested natively.
#pragma once

#include <string>
#include <vector>

namespace roomkey::app {

struct AxisTick {
    double at = 0;  // in axis units: seconds before the latest reading, or calls
    std::string label;
};

// Ticks from the latest reading (at 0, "now") back to `span_seconds`, every
// step of 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10 min: the smallest step that
// gives at most `max_ticks` ticks. Labels: "now", "-30 s", "-1:30", "-5 min".
std::vector<AxisTick> time_ticks(double span_seconds, int max_ticks);

// Ticks for values from `low` to `high` (whole calls), a step of 1, 2 or 5
// times a power of ten giving at most `max_ticks` ticks; labels are the numbers.
std::vector<AxisTick> value_ticks(double low, double high, int max_ticks);

}  // namespace roomkey::app
