// plot_axes.cpp: see plot_axes.hpp.
#include "app/plot_axes.hpp"

#include <cmath>

namespace roomkey::app {

namespace {

std::string time_label(double seconds_before) {
    const long s = std::lround(seconds_before);
    if (s == 0) return "now";
    if (s < 60) return "-" + std::to_string(s) + " s";
    if (s % 60 == 0) return "-" + std::to_string(s / 60) + " min";
    const long rest = s % 60;
    return "-" + std::to_string(s / 60) + ":" + (rest < 10 ? "0" : "") + std::to_string(rest);
}

}  // namespace

std::vector<AxisTick> time_ticks(double span_seconds, int max_ticks) {
    static constexpr double kSteps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600};
    std::vector<AxisTick> ticks;
    if (max_ticks < 1 || !(span_seconds >= 0)) return ticks;
    double step = kSteps[sizeof(kSteps) / sizeof(kSteps[0]) - 1];
    for (double candidate : kSteps) {
        if (std::floor(span_seconds / candidate) + 1 <= max_ticks) {
            step = candidate;
            break;
        }
    }
    for (double at = 0; at <= span_seconds + 1e-9 && static_cast<int>(ticks.size()) < max_ticks; at += step) {
        ticks.push_back({at, time_label(at)});
    }
    return ticks;
}

std::vector<AxisTick> value_ticks(double low, double high, int max_ticks) {
    std::vector<AxisTick> ticks;
    if (max_ticks < 1 || !(high >= low)) return ticks;
    double step = 1;
    for (double power = 1;; power *= 10) {
        bool found = false;
        for (double m : {1.0, 2.0, 5.0}) {
            const double candidate = m * power;
            const double count = std::floor(high / candidate) - std::ceil(low / candidate) + 1;
            if (count <= max_ticks) {
                step = candidate;
                found = true;
                break;
            }
        }
        if (found || power > 1e12) break;
    }
    for (double v = std::ceil(low / step) * step; v <= high + 1e-9; v += step) {
        ticks.push_back({v, std::to_string(std::lround(v))});
    }
    return ticks;
}

}  // namespace roomkey::app
