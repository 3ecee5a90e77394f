// polling.hpp: how often an open room is polled for new messages (GET
// /rooms/{room_id}/messages) and the room list read again for mentions in
// other rooms (GET /rooms), derived from the overall budget the
// pacer reports (spec 8.1), so that polling, all of it together, never takes
// more than a stated share of what is left before the limit resets. Pure:
// the budget and time are passed in.
#pragma once

#include "roomkey/pacing.hpp"
#include "roomkey/time.hpp"

namespace roomkey {

struct PollConfig {
    // Polling may use at most this share (in percent) of the remaining
    // overall budget until its reset; the other 90 % stay for what the user
    // does (posts, tasks, the console). 10 % of a full 300-per-5-minutes
    // budget is 30 polls in 300 s: one every 10 s.
    long share_percent = 10;
    // Never faster than this, even with a large budget: a chat room does not
    // need sub-10-second freshness, and the service's other users share it.
    Millis min_interval = Seconds(10);
    // The overall window (spec 8.1: 5 minutes) when no x-ratelimit-reset is
    // known: the pacer's local count is a sliding window of this length.
    Millis window = kOverallRateWindow;
    // As PacingConfig::reset_margin: the reset may lag the stated second.
    Millis reset_margin = Seconds(1);
};

// The wait before the next poll: the window divided by (share x remaining),
// i.e. a rate of share * R / window, at least min_interval. Recomputed after
// every poll with the budget then, the polls before a reset T <= window away
// add up to at most share * R * T / window <= share * R of the budget R
// remaining now (dividing by the time to the reset instead would not hold:
// R barely falls while T shrinks, and the allowance would be granted again
// and again). With nothing remaining, or when the next poll would fall after
// a known reset, it waits for that reset, when the budget is whole again.
Millis room_poll_interval(const OverallBudget& budget, Instant now, const PollConfig& config = {});

// A part of the poll share: `parts` of `of` (3 of 4). Polls that run side by
// side each take a part; parts that add up to at most 1 keep them together
// within the share (and the floor: together never more often than one per
// min_interval).
struct PollPart {
    long parts = 1;
    long of = 1;
};

// The open room's messages take three quarters of the share, the room list
// (mentions in the rooms that are not open) the last quarter: with a full
// 300-per-5-minutes budget, one poll of the room per 13.3 s and one read of
// the list per 40 s, 30 calls in 5 minutes together, as the room's alone
// were before the list was read. The parts hold whether the other one runs
// or not, so no switch between them can burst.
inline constexpr PollPart kRoomMessagesPart{3, 4};
inline constexpr PollPart kRoomListPart{1, 4};

// As room_poll_interval for a poll that takes `part` of the share: the rate
// scaled by parts/of (the interval by of/parts), the floor too; a known
// reset still ends a wait early once the budget is whole again.
Millis poll_interval(const OverallBudget& budget, Instant now, PollPart part, const PollConfig& config = {});

}  // namespace roomkey
