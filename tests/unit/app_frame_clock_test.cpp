// app_frame_clock_test.cpp: draw on change (web/app/frame_clock.hpp): a frame
// is drawn when something changed or was asked for, and never otherwise.
#include "app/frame_clock.hpp"

#include <gtest/gtest.h>

#include "app/format.hpp"

namespace roomkey::app {
namespace {

const Instant t0 = instant_from_unix_ms(1'700'000'000'000);

TEST(FrameClock, IdleMeansNoFrame) {
    FrameClock clock;
    EXPECT_FALSE(clock.due(t0));
    EXPECT_FALSE(clock.next_at(t0));
    EXPECT_FALSE(clock.due(t0 + Seconds(60)));
}

TEST(FrameClock, InputDrawsUntilTheTailThenStops) {
    FrameClock clock(Millis(300));
    clock.on_event(t0);
    for (int ms : {0, 16, 150, 300}) {
        EXPECT_TRUE(clock.due(t0 + Millis(ms))) << ms;
        clock.on_frame(t0 + Millis(ms));
    }
    EXPECT_FALSE(clock.due(t0 + Millis(317)));
    clock.on_frame(t0 + Millis(317));
    EXPECT_FALSE(clock.due(t0 + Seconds(5)));
    EXPECT_FALSE(clock.next_at(t0 + Seconds(5)));
}

TEST(FrameClock, EachKeyExtendsTheTail) {
    FrameClock clock(Millis(300));
    clock.on_event(t0);
    clock.on_event(t0 + Millis(250));
    EXPECT_TRUE(clock.due(t0 + Millis(500)));
    EXPECT_FALSE(clock.due(t0 + Millis(551)));
    // An older event never shortens it.
    clock.on_event(t0 + Millis(10));
    EXPECT_TRUE(clock.due(t0 + Millis(550)));
}

TEST(FrameClock, ARequestedTimeGetsOneFrame) {
    FrameClock clock;
    clock.request_at(t0 + Seconds(1));
    clock.request_at(t0 + Seconds(3));  // the earliest request wins
    clock.request_at(std::nullopt);
    EXPECT_EQ(clock.next_at(t0), t0 + Seconds(1));
    EXPECT_FALSE(clock.due(t0 + Millis(999)));
    EXPECT_TRUE(clock.due(t0 + Seconds(1)));
    clock.on_frame(t0 + Seconds(1));
    EXPECT_FALSE(clock.due(t0 + Seconds(1) + Millis(16)));
    EXPECT_FALSE(clock.next_at(t0 + Seconds(2))) << "the caller asks again after each frame";
}

TEST(FrameClock, ARequestStillAheadSurvivesAFrame) {
    FrameClock clock;
    clock.request_at(t0 + Seconds(2));
    clock.on_event(t0);
    clock.on_frame(t0);
    EXPECT_EQ(clock.next_at(t0 + Seconds(1)), t0 + Seconds(2));
}

// The next change of a countdown is exactly when its text changes.
TEST(FrameClock, CountdownChangesOncePerSecond) {
    const Instant expiry = t0 + Millis(30 * 60 * 1000 + 250);
    const std::optional<Instant> next = next_countdown_change(expiry, t0);
    ASSERT_TRUE(next);
    EXPECT_EQ(*next, t0 + Millis(251));
    const auto text = [&](Instant now) { return format_countdown(std::chrono::duration_cast<Millis>(expiry - now)); };
    EXPECT_EQ(text(*next - Millis(1)), text(t0));
    EXPECT_NE(text(*next), text(t0));
    EXPECT_EQ(next_countdown_change(expiry, expiry), expiry + Millis(1)) << "then it reads expired";
    EXPECT_FALSE(next_countdown_change(expiry, expiry + Millis(1)));
}

}  // namespace
}  // namespace roomkey::app
