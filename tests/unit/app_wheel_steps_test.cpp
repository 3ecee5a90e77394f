// app_wheel_steps_test.cpp: a DOM wheel event as ImGui's wheel steps
// (web/app/wheel_steps.hpp): one notch of a mouse wheel is one step in every
// delta mode, the browser's "down" is ImGui's negative, a touchpad's small
// deltas are fractions of a step, and no input moves a panel without bound;
// small steps are held back until they are worth a few pixels, and none is
// lost (WheelAccumulator).
#include "app/wheel_steps.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_wheel_steps_test {
namespace {

constexpr int kPixelMode = static_cast<int>(WheelDeltaMode::pixel);
constexpr int kLineMode = static_cast<int>(WheelDeltaMode::line);
constexpr int kPageMode = static_cast<int>(WheelDeltaMode::page);

TEST(WheelSteps, OneNotchDownInChromiumIsOneStepDown) {
    const WheelSteps s = wheel_steps(0.0, 100.0, kPixelMode);  // Chromium, Safari: 100 px a notch
    EXPECT_FLOAT_EQ(s.y, -1.0f);
    EXPECT_FLOAT_EQ(s.x, 0.0f);
}

TEST(WheelSteps, OneNotchUpInFirefoxIsOneStepUp) {
    EXPECT_FLOAT_EQ(wheel_steps(0.0, -3.0, kLineMode).y, 1.0f);  // Firefox: 3 lines a notch
}

TEST(WheelSteps, RightIsImGuisNegativeHorizontalStep) {
    const WheelSteps s = wheel_steps(200.0, 0.0, kPixelMode);
    EXPECT_FLOAT_EQ(s.x, -2.0f);
    EXPECT_FLOAT_EQ(s.y, 0.0f);
}

TEST(WheelSteps, ATouchpadsSmallDeltaIsAFractionOfAStep) {
    EXPECT_FLOAT_EQ(wheel_steps(0.0, 4.0, kPixelMode).y, -0.04f);
}

TEST(WheelSteps, APageIsTenSteps) {
    EXPECT_FLOAT_EQ(wheel_steps(0.0, 1.0, kPageMode).y, -10.0f);
}

TEST(WheelSteps, AnUnknownModeCountsAsPixels) {
    EXPECT_FLOAT_EQ(wheel_steps(0.0, 100.0, 7).y, -1.0f);
    EXPECT_FLOAT_EQ(wheel_steps(0.0, 100.0, -1).y, -1.0f);
}

TEST(WheelSteps, NoMovementIsNoStep) {
    const WheelSteps s = wheel_steps(0.0, 0.0, kPixelMode);
    EXPECT_FLOAT_EQ(s.x, 0.0f);
    EXPECT_FLOAT_EQ(s.y, 0.0f);
}

TEST(WheelSteps, ANonFiniteDeltaMovesNothing) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_FLOAT_EQ(wheel_steps(nan, inf, kPixelMode).x, 0.0f);
    EXPECT_FLOAT_EQ(wheel_steps(nan, inf, kPixelMode).y, 0.0f);
    EXPECT_FLOAT_EQ(wheel_steps(0.0, -inf, kLineMode).y, 0.0f);
}

TEST(WheelSteps, AHugeDeltaIsHeldToAThousandSteps) {
    EXPECT_FLOAT_EQ(wheel_steps(0.0, 1e300, kPageMode).y, -1000.0f);
    EXPECT_FLOAT_EQ(wheel_steps(-1e300, 0.0, kPixelMode).x, 1000.0f);
    EXPECT_TRUE(std::isfinite(wheel_steps(0.0, -1e300, kPageMode).y));
}

TEST(WheelAccumulator, ANotchIsHandedOverAtOnce) {
    WheelAccumulator wheel;
    const WheelSteps now = wheel.add(wheel_steps(0.0, 100.0, kPixelMode));
    EXPECT_FLOAT_EQ(now.y, -1.0f);
    EXPECT_FLOAT_EQ(now.x, 0.0f);
}

// A slow touchpad: 1 px at a time, down. Each of these alone is under a
// pixel of scrolling, which ImGui drops; together they are one notch.
TEST(WheelAccumulator, ManyOnePixelPushesDownAddUpToANotchAndEachHandOverIsWorthPixels) {
    WheelAccumulator wheel;
    float total = 0.0f;
    int hand_overs = 0;
    for (int i = 0; i < 100; ++i) {
        const float now = wheel.add(wheel_steps(0.0, 1.0, kPixelMode)).y;
        if (now != 0.0f) {
            EXPECT_LE(now, -kLeastStep + 1e-6f) << "push " << i;
            ++hand_overs;
        }
        total += now;
    }
    EXPECT_NEAR(total, -1.0f, 0.051f);  // all but what is still held
    EXPECT_GE(hand_overs, 15);          // moving along, not all at the end
}

TEST(WheelAccumulator, UpAndDownCancelWhileHeld) {
    WheelAccumulator wheel;
    EXPECT_FLOAT_EQ(wheel.add(wheel_steps(0.0, 3.0, kPixelMode)).y, 0.0f);
    EXPECT_FLOAT_EQ(wheel.add(wheel_steps(0.0, -3.0, kPixelMode)).y, 0.0f);
    // Nothing left over: 4 px down is still under the least step, 6 px is not.
    EXPECT_FLOAT_EQ(wheel.add(wheel_steps(0.0, 4.0, kPixelMode)).y, 0.0f);
    EXPECT_NEAR(wheel.add(wheel_steps(0.0, 2.0, kPixelMode)).y, -0.06f, 1e-6f);
}

TEST(WheelAccumulator, TheAxesAreHeldApart) {
    WheelAccumulator wheel;
    const WheelSteps now = wheel.add(wheel_steps(2.0, 100.0, kPixelMode));
    EXPECT_FLOAT_EQ(now.x, 0.0f);
    EXPECT_FLOAT_EQ(now.y, -1.0f);
    EXPECT_NEAR(wheel.add(wheel_steps(4.0, 0.0, kPixelMode)).x, -0.06f, 1e-6f);
}

}  // namespace
}  // namespace app_wheel_steps_test
}  // namespace roomkey::app
