// polling_test.cpp: the room poll interval keeps polling within its stated
// share (10 %) of the remaining overall budget, at several budgets.
#include "roomkey/polling.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace polling_test {
namespace {

const Instant kNow = instant_from_unix_seconds(1'700'000'000);

OverallBudget from_headers(long remaining, Seconds until_reset) {
    OverallBudget b;
    b.limit = 300;
    b.remaining = remaining;
    b.reset = kNow + until_reset;
    b.from_headers = true;
    return b;
}

TEST(RoomPollInterval, FullBudgetPollsEveryTenSeconds) {
    // 10 % of 300 calls per 300 s window: 30 polls, one per 10 s.
    EXPECT_EQ(room_poll_interval(from_headers(300, Seconds(300)), kNow), Seconds(10));
}

TEST(RoomPollInterval, NeverFasterThanTheFloorWithAHugeBudget) {
    EXPECT_EQ(room_poll_interval(from_headers(100'000, Seconds(300)), kNow), Seconds(10));
}

TEST(RoomPollInterval, SlowsDownAsTheBudgetShrinks) {
    const Millis at_100 = room_poll_interval(from_headers(100, Seconds(300)), kNow);  // 10 polls
    const Millis at_30 = room_poll_interval(from_headers(30, Seconds(300)), kNow);    // 3 polls
    EXPECT_EQ(at_100, Seconds(30));
    EXPECT_EQ(at_30, Seconds(100));
    EXPECT_EQ(room_poll_interval(from_headers(7, Seconds(300)), kNow), Millis(301'000))
        << "0.7 polls fit before the reset: the next one waits for it";
    EXPECT_GT(at_30, at_100);
}

TEST(RoomPollInterval, WaitsForTheResetWhenNotOnePollFits) {
    // 9 remaining: 10 % is 0.9 polls; 333 s by the share, so at the reset (120 s).
    EXPECT_EQ(room_poll_interval(from_headers(9, Seconds(120)), kNow), Seconds(121));
    EXPECT_EQ(room_poll_interval(from_headers(0, Seconds(40)), kNow), Seconds(41));
    // Reset in 2 s: still the floor, not a burst right after the reset.
    EXPECT_EQ(room_poll_interval(from_headers(0, Seconds(2)), kNow), Seconds(10));
}

TEST(RoomPollInterval, WithoutHeadersUsesTheWindow) {
    OverallBudget local;
    local.limit = 300;
    local.remaining = 150;  // 15 polls in the 300 s sliding window
    EXPECT_EQ(room_poll_interval(local, kNow), Seconds(20));
    // A reset that has passed no longer bounds anything.
    OverallBudget stale = from_headers(150, Seconds(-5));
    EXPECT_EQ(room_poll_interval(stale, kNow), Seconds(20));
}

// Simulates polling until the reset at several starting budgets, the budget
// dropping by one per poll and by `other` calls of the user per poll: the
// polls never exceed 10 % of the budget at the start.
TEST(RoomPollInterval, PollsUntilResetStayWithinTheShare) {
    for (long start : {300L, 250L, 120L, 60L, 25L, 10L}) {
        for (long other : {0L, 1L, 3L}) {
            const Instant reset = kNow + Seconds(300);
            Instant t = kNow;
            long remaining = start;
            long polls = 0;
            while (true) {
                OverallBudget b;
                b.limit = 300;
                b.remaining = remaining;
                b.reset = reset;
                b.from_headers = true;
                t += room_poll_interval(b, t);
                if (t >= reset) break;
                ++polls;
                remaining = std::max(0L, remaining - 1 - other);
            }
            EXPECT_LE(polls, start / 10) << "start " << start << ", other calls per poll " << other;
            if (start >= 100 && other == 0) {
                EXPECT_GE(polls, start / 10 - 2) << "the share is used, not wasted: start " << start;
            }
        }
    }
}

// The open room's poll and the room list's read run side by side.
// Simulated together until the reset, each on its own part's interval, the
// budget dropping by one per call: together they stay within 10 % of the
// budget at the start, as the room's poll alone does.
TEST(PollInterval, TheRoomAndTheRoomListTogetherStayWithinTheShare) {
    for (long start : {300L, 250L, 120L, 60L, 25L, 10L}) {
        const Instant reset = kNow + Seconds(300);
        long remaining = start;
        long calls = 0;
        auto budget = [&] {
            OverallBudget b;
            b.limit = 300;
            b.remaining = remaining;
            b.reset = reset;
            b.from_headers = true;
            return b;
        };
        Instant room_at = kNow + poll_interval(budget(), kNow, kRoomMessagesPart);
        Instant list_at = kNow + poll_interval(budget(), kNow, kRoomListPart);
        while (std::min(room_at, list_at) < reset) {
            const bool room = room_at <= list_at;
            const Instant t = room ? room_at : list_at;
            ++calls;
            remaining = std::max(0L, remaining - 1);
            if (room) {
                room_at = t + poll_interval(budget(), t, kRoomMessagesPart);
            } else {
                list_at = t + poll_interval(budget(), t, kRoomListPart);
            }
        }
        EXPECT_LE(calls, start / 10) << "start " << start;
        if (start >= 100) {
            EXPECT_GE(calls, start / 10 - 3) << "the share is used, not wasted: start " << start;
        }
    }
}

TEST(PollInterval, PartsScaleTheIntervalAndTheFloor) {
    // Full budget: the room alone every 10 s; its three quarters every
    // 13.34 s and the list's quarter every 40 s, together 30 calls per 300 s.
    EXPECT_EQ(poll_interval(from_headers(300, Seconds(300)), kNow, kRoomMessagesPart), Millis(13'334));
    EXPECT_EQ(poll_interval(from_headers(300, Seconds(300)), kNow, kRoomListPart), Seconds(40));
    // A huge budget: the 10 s floor is shared too (never more than one call per 10 s together).
    EXPECT_EQ(poll_interval(from_headers(100'000, Seconds(300)), kNow, kRoomListPart), Seconds(40));
    EXPECT_EQ(poll_interval(from_headers(100'000, Seconds(300)), kNow, kRoomMessagesPart), Millis(13'334));
    // Nothing left: both wait for the reset, when the budget is whole again.
    EXPECT_EQ(poll_interval(from_headers(0, Seconds(90)), kNow, kRoomListPart), Seconds(91));
    EXPECT_EQ(poll_interval(from_headers(300, Seconds(300)), kNow, PollPart{}),
              room_poll_interval(from_headers(300, Seconds(300)), kNow));
}

}  // namespace
}  // namespace polling_test
}  // namespace roomkey
