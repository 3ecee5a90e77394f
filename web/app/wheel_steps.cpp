// wheel_steps.cpp: see wheel_steps.hpp.
#include "app/wheel_steps.hpp"

#include <algorithm>
#include <cmath>

namespace roomkey::app {

namespace {

constexpr double kMostWheelSteps = 1000.0;

double wheel_steps_per_unit(int delta_mode) {
    switch (static_cast<WheelDeltaMode>(delta_mode)) {
        case WheelDeltaMode::line:
            return 1.0 / kLinesPerStep;
        case WheelDeltaMode::page:
            return kStepsPerPage;
        case WheelDeltaMode::pixel:
            break;
    }
    return 1.0 / kPixelsPerStep;
}

// The DOM's "down" (or "right") is ImGui's negative.
float wheel_delta_to_steps(double delta, double per_unit) {
    if (!std::isfinite(delta)) return 0.0f;
    return static_cast<float>(std::clamp(-delta * per_unit, -kMostWheelSteps, kMostWheelSteps));
}

}  // namespace

WheelSteps wheel_steps(double delta_x, double delta_y, int delta_mode) {
    const double per_unit = wheel_steps_per_unit(delta_mode);
    return WheelSteps{wheel_delta_to_steps(delta_x, per_unit), wheel_delta_to_steps(delta_y, per_unit)};
}

namespace {

// Adds `more` to what is held on one axis; hands it all over once it is worth it.
float hand_over(float& held, float more) {
    held += more;
    if (std::fabs(held) < kLeastStep) return 0.0f;
    const float now = held;
    held = 0.0f;
    return now;
}

}  // namespace

WheelSteps WheelAccumulator::add(WheelSteps steps) {
    return WheelSteps{hand_over(held_.x, steps.x), hand_over(held_.y, steps.y)};
}

}  // namespace roomkey::app
