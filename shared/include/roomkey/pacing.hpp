// pacing.hpp: decides when the next REST request may go so that neither the
// overall rate limit (spec 8.1) nor the per-room posting limit (spec 8.2) is
// exceeded, and how to back off after a 429 (spec 7.3). Pure: time is passed in.
//
// Token requests (POST {auth_url}/token) are never paced or retried here: the
// limits of section 8 are stated for the REST API only, and a refresh that waited
// behind API posts would stall every request that needs it. Callers send token
// requests directly and do not report them to the scheduler.
#pragma once

#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/time.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roomkey {

struct PacingConfig {
    // spec 8.1, replaced by x-ratelimit-limit once a response carried it.
    long overall_limit = kOverallRateLimit;
    Millis overall_window = kOverallRateWindow;
    // spec 8.2 (rate_limit_headers.hpp).
    long room_limit = kRoomPostLimit;
    Millis room_window = kRoomPostWindow;
    // spec 7.3: "After the per-room posting error, the caller waits about 10 seconds".
    Millis room_backoff = Seconds(10);
    // A 429 that is neither the per-room error nor carries rate-limit headers
    // (the spec promises it always does): wait this long before anything else.
    Millis unknown_429_backoff = Seconds(10);
    // Added to the window of a request still in flight (and of every request
    // for the overall limit): the server counts it somewhere between our send
    // and its answer, so latency can make it see two sends closer together
    // than we sent them. A room post whose answer has arrived is counted from
    // that answer instead, which needs no slack: the service counted it before
    // answering. 0 paces exactly at the stated limits.
    Millis slack = Millis(500);
    // x-ratelimit-reset is whole Unix seconds (spec 8.1); a server that
    // rounds its window's end down may still be in the old window for up to a
    // second after the stated time. Nothing waiting for the reset goes before
    // reset + this margin.
    Millis reset_margin = Seconds(1);
};

// What the UI shows for one room (spec 8.2).
struct RoomBudget {
    long used = 0;      // posts sent to the room within the current window
    long limit = 0;     // posts allowed per window
    Instant next_free;  // earliest time a post to this room may go (room limit only)
};

// What the UI shows for the overall limit (spec 8.1).
struct OverallBudget {
    long limit = 0;                // x-ratelimit-limit, or the configured default
    long remaining = 0;            // our best estimate of calls left now
    std::optional<Instant> reset;  // x-ratelimit-reset of the last headers, if any
    bool from_headers = false;     // true when `remaining` comes from x-ratelimit-* values
    Instant next_free;             // earliest time any REST request may go (overall limit only)
};

// Pacing of REST requests. Feed it every REST request when it is sent and every
// REST response when it arrives; ask it when the next request may go.
class PacingScheduler {
public:
    explicit PacingScheduler(PacingConfig config = {});

    // When a request may be sent without exceeding either limit: `now` if at
    // once. Pass the room id for POST messages/tasks (spec 8.2), nullopt otherwise.
    Instant earliest_send(Instant now, const std::optional<std::string>& room_id_for_post) const;

    // A REST request has just been handed to the transport.
    void on_sent(Instant now, const std::optional<std::string>& room_id_for_post);

    // A REST response arrived. `headers` are its x-ratelimit-* values (nullptr if
    // absent); `per_room_limit_body` is true when a 429 carried the per-room
    // posting error of spec 7.3.
    void on_response(Instant now, const std::optional<std::string>& room_id_for_post, int status,
                     const RateLimit* headers, bool per_room_limit_body);

    RoomBudget budget(const std::string& room_id, Instant now) const;
    OverallBudget overall(Instant now) const;

    const PacingConfig& config() const { return config_; }

private:
    // Per room (spec 8.2), when each post reached the service at the latest:
    // the arrival of its answer, or, while it is in flight, its send + slack.
    // Vectors, not deques: at most a window's worth of times (10 per room, 300
    // overall), and a deque of them cost the web build 5 KB of code.
    struct RoomState {
        std::vector<Instant> answered;   // answer times, oldest first, pruned lazily
        std::vector<Instant> in_flight;  // send times of posts not answered yet, oldest first
        Instant blocked_until;          // after a per-room 429
        // Both kinds of entries as one sorted list of "counted no later than" times.
        std::vector<Instant> counted_times(Millis slack) const;
    };
    // The last x-ratelimit-* values, plus what we sent after they arrived.
    struct Snapshot {
        long limit = 0;
        long remaining = 0;  // already lowered by the requests in flight then
        Instant reset;
        long sent_since = 0;
    };

    Instant overall_earliest(Instant t) const;
    Instant room_earliest(const std::string& room_id, Instant t) const;
    long overall_limit() const;
    long local_overall_count(Instant t) const;
    long remaining_from_snapshot() const;

    PacingConfig config_;
    std::vector<Instant> overall_sends_;
    std::map<std::string, RoomState> rooms_;
    std::optional<Snapshot> snapshot_;
    Instant overall_blocked_until_;
    long in_flight_ = 0;
};

// A request waiting for its turn. `room_id_for_post` as for PacingScheduler.
struct PendingRequest {
    std::uint64_t id = 0;
    std::optional<std::string> room_id_for_post;
};

// Holds requests that are waiting for pacing and says which may go when.
// Requests to the same room keep their order (messages must not overtake each
// other); a room that must wait does not hold back other rooms or plain requests.
class PostQueue {
public:
    void push(PendingRequest request);
    // Removes and returns the first request that may be sent at `now`, if any.
    // The caller sends it and reports it with scheduler.on_sent before asking again.
    std::optional<PendingRequest> pop_ready(Instant now, const PacingScheduler& scheduler);
    // When pop_ready could next return something (to set a timer); nullopt if empty.
    std::optional<Instant> next_ready_at(Instant now, const PacingScheduler& scheduler) const;
    // Drops a request (e.g. the user cancelled it); false if it was not queued.
    bool remove(std::uint64_t id);

    std::size_t size() const { return pending_.size(); }
    bool empty() const { return pending_.empty(); }
    const std::vector<PendingRequest>& pending() const { return pending_; }

private:
    // Index of the first eligible request (earliest of its room), with its time.
    std::optional<std::pair<std::size_t, Instant>> first_eligible(Instant now, const PacingScheduler& scheduler,
                                                                  bool only_ready) const;
    std::vector<PendingRequest> pending_;
};

}  // namespace roomkey
