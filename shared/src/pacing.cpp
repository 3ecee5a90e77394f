// pacing.cpp: the pacing scheduler and its queue (see pacing.hpp).
#include "roomkey/pacing.hpp"

#include <algorithm>
#include <utility>

namespace roomkey {

namespace detail {

// Index of the first element of `sends` (sorted ascending) that is > `after`.
inline std::size_t first_after(const std::vector<Instant>& sends, Instant after) {
    return static_cast<std::size_t>(std::upper_bound(sends.begin(), sends.end(), after) - sends.begin());
}

// Index of the first element of `sends` (sorted ascending) that is >= `from`.
inline std::size_t first_at_or_after(const std::vector<Instant>& sends, Instant from) {
    return static_cast<std::size_t>(std::lower_bound(sends.begin(), sends.end(), from) - sends.begin());
}

// Keeps `sends` sorted even if a caller's clock stepped back.
inline void insert_sorted(std::vector<Instant>& sends, Instant t) {
    sends.insert(std::upper_bound(sends.begin(), sends.end(), t), t);
}

inline void drop_older_than(std::vector<Instant>& sends, Instant cutoff) {
    sends.erase(sends.begin(), sends.begin() + static_cast<std::ptrdiff_t>(first_after(sends, cutoff)));
}

// Sliding-window rule: with `sends[first..]` inside the window ending at `t`,
// when may one more go so that at most `limit` fall in any window of `span`?
inline Instant window_earliest(const std::vector<Instant>& sends, std::size_t first, long limit, Millis span,
                               Instant t) {
    const auto count = static_cast<long>(sends.size() - first);
    if (count < limit) return t;
    // The (count - limit + 1) oldest sends in the window must leave it first.
    const auto leaving = first + static_cast<std::size_t>(count - limit);
    return std::max(t, sends[leaving] + span);
}

}  // namespace detail

PacingScheduler::PacingScheduler(PacingConfig config) : config_(config) {}

long PacingScheduler::overall_limit() const { return snapshot_ ? snapshot_->limit : config_.overall_limit; }

long PacingScheduler::remaining_from_snapshot() const {
    return snapshot_ ? snapshot_->remaining - snapshot_->sent_since : 0;
}

long PacingScheduler::local_overall_count(Instant t) const {
    std::size_t first = detail::first_after(overall_sends_, t - config_.overall_window - config_.slack);
    // Sends before the server's reset belong to its previous window.
    if (snapshot_) first = std::max(first, detail::first_at_or_after(overall_sends_, snapshot_->reset));
    return static_cast<long>(overall_sends_.size() - first);
}

Instant PacingScheduler::overall_earliest(Instant t) const {
    t = std::max(t, overall_blocked_until_);
    if (snapshot_ && t < snapshot_->reset + config_.reset_margin) {
        // The server told us how many calls are left until reset: trust it.
        if (remaining_from_snapshot() > 0) return t;
        t = snapshot_->reset + config_.reset_margin;
    }
    // No fresh headers: count locally (spec 8.1 default, or the last x-ratelimit-limit).
    const long limit = overall_limit();
    const Millis span = config_.overall_window + config_.slack;
    if (limit <= 0) return t + span;  // a server that allows nothing: check back after a window
    std::size_t first = detail::first_after(overall_sends_, t - span);
    if (snapshot_) first = std::max(first, detail::first_at_or_after(overall_sends_, snapshot_->reset));
    return detail::window_earliest(overall_sends_, first, limit, span, t);
}

std::vector<Instant> PacingScheduler::RoomState::counted_times(Millis slack) const {
    std::vector<Instant> times(answered.begin(), answered.end());
    for (Instant sent : in_flight) detail::insert_sorted(times, sent + slack);
    return times;
}

Instant PacingScheduler::room_earliest(const std::string& room_id, Instant t) const {
    const auto it = rooms_.find(room_id);
    if (it == rooms_.end()) return t;
    const RoomState& room = it->second;
    t = std::max(t, room.blocked_until);
    const Millis span = config_.room_window;
    if (config_.room_limit <= 0) return t + span;
    const std::vector<Instant> counted = room.counted_times(config_.slack);
    const std::size_t first = detail::first_after(counted, t - span);
    return detail::window_earliest(counted, first, config_.room_limit, span, t);
}

Instant PacingScheduler::earliest_send(Instant now, const std::optional<std::string>& room_id_for_post) const {
    // Each rule alone is settled by one step; alternating them reaches a time both
    // accept. The bound only guards against a clock that goes backwards mid-way.
    Instant t = now;
    for (int round = 0; round < 16; ++round) {
        Instant next = overall_earliest(t);
        if (room_id_for_post) next = room_earliest(*room_id_for_post, next);
        if (next == t) break;
        t = next;
    }
    return t;
}

void PacingScheduler::on_sent(Instant now, const std::optional<std::string>& room_id_for_post) {
    detail::drop_older_than(overall_sends_, now - config_.overall_window - config_.slack);
    detail::insert_sorted(overall_sends_, now);
    if (room_id_for_post) {
        RoomState& room = rooms_[*room_id_for_post];
        detail::drop_older_than(room.answered, now - config_.room_window);
        // A post never answered (its caller did not report it) stops counting
        // once it would have left the window anyway.
        detail::drop_older_than(room.in_flight, now - config_.room_window - config_.slack);
        detail::insert_sorted(room.in_flight, now);
    }
    if (snapshot_) ++snapshot_->sent_since;
    ++in_flight_;
}

void PacingScheduler::on_response(Instant now, const std::optional<std::string>& room_id_for_post, int status,
                                  const RateLimit* headers, bool per_room_limit_body) {
    in_flight_ = std::max(0L, in_flight_ - 1);
    if (room_id_for_post) {
        // The k-th answer to arrive comes after the k-th post to reach the
        // service, whatever the order: pairing answers with the oldest post in
        // flight never counts a post earlier than the service did.
        const auto it = rooms_.find(*room_id_for_post);
        if (it != rooms_.end() && !it->second.in_flight.empty()) {
            it->second.in_flight.erase(it->second.in_flight.begin());
            detail::insert_sorted(it->second.answered, now);
        }
    }
    // A response from a server window older than the one we know about is stale.
    const bool stale = headers && snapshot_ && headers->reset < snapshot_->reset;
    if (headers && !stale) {
        // Requests still in flight may not be counted in these values yet: assume
        // they are not (the next response corrects us).
        long remaining = headers->remaining - in_flight_;
        // Responses can arrive out of order; within one server window the count
        // only goes down, so keep the lower estimate.
        if (snapshot_ && snapshot_->reset == headers->reset) remaining = std::min(remaining, remaining_from_snapshot());
        snapshot_ = Snapshot{headers->limit, remaining, headers->reset, 0};
    }
    if (status != 429) return;

    if (per_room_limit_body && room_id_for_post) {
        // spec 7.3: wait about 10 seconds before posting to that room again.
        RoomState& room = rooms_[*room_id_for_post];
        room.blocked_until = std::max(room.blocked_until, now + config_.room_backoff);
    } else if (per_room_limit_body) {
        // The per-room error for a request we did not know as a room post: hold
        // everything for the same time rather than guess the room.
        overall_blocked_until_ = std::max(overall_blocked_until_, now + config_.room_backoff);
    } else if (headers && headers->remaining <= 0 && headers->reset > now) {
        // spec 8.1: overall limit exceeded; nothing goes until x-ratelimit-reset.
        overall_blocked_until_ = std::max(overall_blocked_until_, headers->reset + config_.reset_margin);
    } else if (stale) {
        // A late 429 from a window that is already over: nothing to wait for.
    } else {
        // No usable reset (absent, or already past by our clock: clocks differ).
        overall_blocked_until_ = std::max(overall_blocked_until_, now + config_.unknown_429_backoff);
    }
}

RoomBudget PacingScheduler::budget(const std::string& room_id, Instant now) const {
    RoomBudget budget;
    budget.limit = config_.room_limit;
    budget.next_free = room_earliest(room_id, now);
    const auto it = rooms_.find(room_id);
    if (it != rooms_.end()) {
        const auto counted = it->second.counted_times(config_.slack);
        budget.used = static_cast<long>(counted.size() - detail::first_after(counted, now - config_.room_window));
    }
    return budget;
}

OverallBudget PacingScheduler::overall(Instant now) const {
    OverallBudget budget;
    budget.limit = overall_limit();
    if (snapshot_) budget.reset = snapshot_->reset;
    if (snapshot_ && now < snapshot_->reset + config_.reset_margin) {
        budget.remaining = std::max(0L, remaining_from_snapshot());
        budget.from_headers = true;
    } else {
        budget.remaining = std::max(0L, budget.limit - local_overall_count(now));
    }
    budget.next_free = overall_earliest(now);
    return budget;
}

// ---- PostQueue ----

void PostQueue::push(PendingRequest request) { pending_.push_back(std::move(request)); }

std::optional<std::pair<std::size_t, Instant>> PostQueue::first_eligible(Instant now, const PacingScheduler& scheduler,
                                                                         bool only_ready) const {
    std::optional<std::pair<std::size_t, Instant>> best;
    // While the overall limit holds everything back, no request is ready.
    if (only_ready && scheduler.earliest_send(now, std::nullopt) > now) return best;
    std::vector<const std::string*> rooms_seen;
    bool plain_seen = false;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
        const auto& room = pending_[i].room_id_for_post;
        if (!room) {
            // Requests outside any room all share the overall limit: the first
            // one speaks for the rest, which keep their order behind it.
            if (plain_seen) continue;
            plain_seen = true;
        } else {
            // Only the oldest request of each room is a candidate: order within a room is kept.
            const bool seen =
                std::any_of(rooms_seen.begin(), rooms_seen.end(), [&](const std::string* r) { return *r == *room; });
            if (seen) continue;
            rooms_seen.push_back(&*room);
        }
        const Instant at = scheduler.earliest_send(now, room);
        if (only_ready) {
            if (at <= now) return std::make_pair(i, at);
        } else if (!best || at < best->second) {
            best = std::make_pair(i, at);
        }
    }
    return best;
}

std::optional<PendingRequest> PostQueue::pop_ready(Instant now, const PacingScheduler& scheduler) {
    const auto found = first_eligible(now, scheduler, true);
    if (!found) return std::nullopt;
    PendingRequest request = std::move(pending_[found->first]);
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(found->first));
    return request;
}

std::optional<Instant> PostQueue::next_ready_at(Instant now, const PacingScheduler& scheduler) const {
    const auto found = first_eligible(now, scheduler, false);
    if (!found) return std::nullopt;
    return found->second;
}

bool PostQueue::remove(std::uint64_t id) {
    const auto it = std::find_if(pending_.begin(), pending_.end(), [&](const PendingRequest& r) { return r.id == id; });
    if (it == pending_.end()) return false;
    pending_.erase(it);
    return true;
}

}  // namespace roomkey
