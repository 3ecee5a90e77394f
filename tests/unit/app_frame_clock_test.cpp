// app_frame_clock_test.cpp: draw on change (web/app/frame_clock.hpp): a frame
// is drawn when something changed or was asked for, frames go on until the
// picture settles, and none is drawn otherwise.
#include "app/frame_clock.hpp"

#include <gtest/gtest.h>

#include "app/format.hpp"

namespace roomkey::app {
// A namespace of its own: unity batches put test files together, and
// several define helpers of the same names (t0, ...).
namespace app_frame_clock_test {
namespace {

const Instant t0 = instant_from_unix_ms(1'700'000'000'000);

// A frame showing `digest`, nothing held or measuring.
FramePicture shows(std::uint64_t digest) {
    return FramePicture{digest, false, false};
}

// Draws while due (at most `limit` frames, 16 ms apart, each showing what
// `picture(i)` says); returns how many were drawn.
template <typename Picture>
int draw_while_due(FrameClock& clock, Instant& now, Picture picture, int limit = 100) {
    int drawn = 0;
    while (clock.due(now) && drawn < limit) {
        clock.on_frame(now, picture(drawn));
        ++drawn;
        now += Millis(16);
    }
    return drawn;
}

// Settles the clock on a picture (the first frame ever has nothing to compare with).
void settle(FrameClock& clock, Instant& now, std::uint64_t digest) {
    clock.on_change();
    draw_while_due(clock, now, [&](int) { return shows(digest); });
    ASSERT_FALSE(clock.due(now)) << "the clock still asks for frames after the picture settled";
}

TEST(FrameClock, IdleMeansNoFrame) {
    FrameClock clock;
    EXPECT_FALSE(clock.due(t0));
    EXPECT_FALSE(clock.next_at(t0));
    EXPECT_FALSE(clock.due(t0 + Seconds(60)));
}

TEST(FrameClock, AChangeThatLeavesThePictureAsItWasCostsOneFrame) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 7);
    clock.on_change();
    EXPECT_EQ(clock.next_at(now), now);
    EXPECT_EQ(draw_while_due(clock, now, [](int) { return shows(7); }), 1);
    EXPECT_FALSE(clock.next_at(now + Seconds(5)));
}

// The rule the e2e failures came from: ImGui may need a second or third frame
// after a change (a table's widths, a window sized on first use), and the
// state and widget positions a test reads must be the settled ones.
TEST(FrameClock, FramesGoOnUntilThePictureStopsChanging) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    clock.on_change();
    // The answer's frame shows 2, layout settles on 4 two frames later.
    const std::uint64_t pictures[] = {2, 3, 4, 4, 4, 4};
    EXPECT_EQ(draw_while_due(clock, now, [&](int i) { return shows(pictures[i]); }), 4)
        << "three changing frames and one that confirms the picture";
}

TEST(FrameClock, InputGetsItsFramesEvenWhenThePictureDoesNotChange) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    clock.on_input();
    EXPECT_EQ(draw_while_due(clock, now, [](int) { return shows(1); }), kInputFrames)
        << "a press and release between two frames need one frame each";
    // Counted in frames, not time: a machine too loaded to draw for a second still draws them.
    clock.on_input();
    now += Seconds(1);
    EXPECT_TRUE(clock.due(now));
    clock.on_frame(now, shows(1));
    now += Seconds(1);
    EXPECT_TRUE(clock.due(now));
    clock.on_frame(now, shows(1));
    EXPECT_FALSE(clock.due(now + Seconds(1)));
}

TEST(FrameClock, ImGuiStillMeasuringOrAHeldButtonKeepsFramesComing) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    clock.on_change();
    clock.on_frame(now, FramePicture{1, true, false});
    EXPECT_TRUE(clock.due(now)) << "a window hidden this frame to size itself shows next frame";
    clock.on_frame(now, FramePicture{1, false, true});
    EXPECT_TRUE(clock.due(now)) << "a held mouse button (drag, repeat button)";
    clock.on_frame(now, shows(1));
    EXPECT_FALSE(clock.due(now));
}

TEST(FrameClock, AnAnimationNeverSettlesAndGetsEveryFrame) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    clock.on_change();
    EXPECT_EQ(draw_while_due(
                  clock, now, [](int i) { return shows(100 + static_cast<std::uint64_t>(i)); }, 50),
              50);
}

TEST(FrameClock, ARequestedTimeGetsAFrameAndNoneBefore) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    const Instant at = now + Seconds(1);
    clock.request_at(at);
    clock.request_at(at + Seconds(2));  // the earliest request wins
    clock.request_at(std::nullopt);
    EXPECT_EQ(clock.next_at(now), at);
    EXPECT_FALSE(clock.due(at - Millis(1)));
    EXPECT_TRUE(clock.due(at));
    // A countdown's new second: the changed frame and one that confirms it.
    now = at;
    EXPECT_EQ(draw_while_due(clock, now, [](int) { return shows(2); }), 2);
    EXPECT_FALSE(clock.next_at(now + Seconds(2))) << "the caller asks again after each frame";
}

TEST(FrameClock, ARequestStillAheadSurvivesAFrame) {
    FrameClock clock;
    clock.request_at(t0 + Seconds(2));
    clock.on_change();
    clock.on_frame(t0, shows(1));
    clock.on_frame(t0, shows(1));
    EXPECT_EQ(clock.next_at(t0 + Seconds(1)), t0 + Seconds(2));
}

// The sign-in's chain: the code exchange's answer sends /me, /my/status and
// /rooms. Their step ("signed in, loading") is not drawn when they are
// answered within kFollowUpWait: one frame shows the filled dashboard, and no
// slow frame stands between the answers and their handling.
TEST(FrameClock, AnAnswerThatSentRequestsIsDrawnWithTheirAnswers) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    clock.on_answers({1}, {2, 3, 4}, now);
    EXPECT_FALSE(clock.due(now));
    EXPECT_EQ(clock.next_at(now), now + kFollowUpWait);
    now += Millis(10);
    clock.on_answers({2}, {}, now);
    clock.on_answers({4}, {}, now);
    EXPECT_FALSE(clock.due(now)) << "/my/status is still out";
    now += Millis(5);
    clock.on_answers({3}, {}, now);
    EXPECT_TRUE(clock.due(now)) << "all three answered: the dashboard is drawn now";
    EXPECT_EQ(draw_while_due(clock, now, [](int) { return shows(2); }), 2);
    EXPECT_FALSE(clock.next_at(now));
}

TEST(FrameClock, AnAnswerWithoutFollowUpsIsDrawnAtOnce) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    clock.on_answers({7}, {}, now);
    EXPECT_TRUE(clock.due(now));
}

// A slow service: the step is drawn kFollowUpWait after the first answer
// that waited, however long the chain, and the later answers as they come.
TEST(FrameClock, AChangeWaitsNoLongerThanTheFollowUpWait) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    const Instant first = now;
    clock.on_answers({1}, {2}, now);
    now += Millis(60);
    clock.on_answers({2}, {3}, now);  // a chain: the wait is not renewed
    EXPECT_EQ(clock.next_at(now), first + kFollowUpWait);
    EXPECT_FALSE(clock.due(first + kFollowUpWait - Millis(1)));
    now = first + kFollowUpWait;
    EXPECT_TRUE(clock.due(now));
    EXPECT_EQ(draw_while_due(clock, now, [](int) { return shows(2); }), 2);
    EXPECT_FALSE(clock.due(now + Seconds(5))) << "nothing waits once the step is drawn";
    clock.on_answers({9}, {}, now);
    EXPECT_TRUE(clock.due(now)) << "an answer after the drawn step is drawn as it comes";
    draw_while_due(clock, now, [](int) { return shows(3); });
    clock.on_answers({3}, {}, now);
    EXPECT_TRUE(clock.due(now)) << "so is the late answer the step waited for";
}

// Answers nobody waits for arrive during a wait: they are drawn with it, not
// held longer, and not before it.
TEST(FrameClock, AnUnrelatedAnswerDuringAWaitIsDrawnWithIt) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    const Instant first = now;
    clock.on_answers({1}, {2}, now);
    now += Millis(30);
    clock.on_answers({7}, {}, now);  // a room poll's answer, say
    EXPECT_FALSE(clock.due(now));
    EXPECT_EQ(clock.next_at(now), first + kFollowUpWait) << "the wait is not renewed";
    clock.on_answers({2}, {}, now + Millis(5));
    EXPECT_TRUE(clock.due(now + Millis(5)));
}

TEST(FrameClock, FramesThatSettleTheLastPictureWaitWithTheChange) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    clock.on_change();
    clock.on_frame(now, shows(2));  // changed: one more frame would confirm it
    clock.request_at(now + Millis(20));  // a countdown's next second
    ASSERT_TRUE(clock.due(now)) << "a changed picture asks for no frame to confirm it";
    clock.on_answers({1}, {2}, now);
    EXPECT_FALSE(clock.due(now + Millis(20)));
    EXPECT_EQ(clock.next_at(now), now + kFollowUpWait);
    clock.on_answers({2}, {}, now + Millis(30));
    EXPECT_TRUE(clock.due(now + Millis(30)));
}

TEST(FrameClock, InputIsNotHeldBackByAWaitingChange) {
    FrameClock clock;
    Instant now = t0;
    settle(clock, now, 1);
    clock.on_answers({1}, {2}, now);
    clock.on_input();
    EXPECT_TRUE(clock.due(now));
    EXPECT_EQ(draw_while_due(clock, now, [](int) { return shows(2); }), kInputFrames);
    EXPECT_FALSE(clock.due(now + kFollowUpWait)) << "the waiting change was drawn with the input";
}

// The next change of a countdown is exactly when its text changes.
TEST(FrameClock, CountdownChangesOncePerSecond) {
    const Instant expiry = t0 + Millis(30 * 60 * 1000 + 250);
    const std::optional<Instant> next = next_countdown_change(expiry, t0);
    ASSERT_TRUE(next) << "no next countdown change before the expiry";
    EXPECT_EQ(*next, t0 + Millis(251));
    const auto text = [&](Instant now) { return format_countdown(std::chrono::duration_cast<Millis>(expiry - now)); };
    EXPECT_EQ(text(*next - Millis(1)), text(t0));
    EXPECT_NE(text(*next), text(t0));
    EXPECT_EQ(next_countdown_change(expiry, expiry), expiry + Millis(1)) << "then it reads expired";
    EXPECT_FALSE(next_countdown_change(expiry, expiry + Millis(1)));
}

}  // namespace
}  // namespace app_frame_clock_test
}  // namespace roomkey::app
