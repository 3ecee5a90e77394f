// Tests of the pacing scheduler (spec 8.1 overall limit, 8.2 per-room posting
// limit, 7.3 backoff after 429) and of its PostQueue.
#include "roomkey/pacing.hpp"

#include "roomkey/endpoints.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace roomkey {
// A namespace of its own: unity batches put test files together, and
// several define helpers of the same names (t0, ...).
namespace pacing_test {
namespace {

const Instant t0 = instant_from_unix_seconds(1'700'000'000);
const std::optional<std::string> room_a = std::string("101");
const std::optional<std::string> room_b = std::string("202");
const std::optional<std::string> no_room = std::nullopt;

long ms_since_t0(Instant t) { return static_cast<long>((t - t0).count()); }

// The limits exactly as the spec states them, without the safety margins of
// the defaults, so that these tests pin the arithmetic of spec 8.1 and 8.2.
PacingConfig exact() {
    PacingConfig config;
    config.slack = Millis(0);
    config.reset_margin = Millis(0);
    return config;
}

// Sends `count` requests as early as the scheduler allows, starting at `start`.
std::vector<Instant> send_burst(PacingScheduler& s, Instant start, int count, const std::optional<std::string>& room) {
    std::vector<Instant> times;
    Instant now = start;
    for (int i = 0; i < count; ++i) {
        now = s.earliest_send(now, room);
        s.on_sent(now, room);
        times.push_back(now);
    }
    return times;
}

// spec 8.2: 10 posts per 10 s to one room.
TEST(Pacing, BurstOf30PostsToOneRoomTakes20Seconds) {
    PacingScheduler s(exact());
    const auto times = send_burst(s, t0, 30, room_a);
    for (int i = 0; i < 30; ++i) {
        EXPECT_EQ(ms_since_t0(times[static_cast<std::size_t>(i)]), (i / 10) * 10'000)
            << "post " << i << " should go in the " << (i / 10) << "th 10-second window (spec 8.2)";
    }
    EXPECT_EQ(times.back() - times.front(), Seconds(20)) << "a burst of 30 needs exactly two more windows";
}

// spec 8.2: the limit is per room, messages and tasks counted together.
TEST(Pacing, TwoRoomsArePacedIndependently) {
    PacingScheduler s(exact());
    send_burst(s, t0, 10, room_a);
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0, room_a)), 10000) << "room A used its 10 posts";
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0, room_b)), 0) << "room B must not wait for room A (spec 8.2)";
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0, no_room)), 0) << "a GET is not a room post";
}

// spec 4.6, 4.7, 8.2: POST messages and POST tasks to one room are counted
// together; the room id comes from the endpoint allowlist.
TEST(Pacing, MessagesAndTasksShareTheRoomBudget) {
    PacingScheduler s(exact());
    auto room_of = [](std::string_view path) -> std::optional<std::string> {
        const auto m = match_endpoint(Method::Post, path);
        if (!m || !is_room_post(m->endpoint)) return std::nullopt;
        return m->room_id;
    };
    ASSERT_EQ(room_of("/rooms/101/messages"), room_a);
    ASSERT_EQ(room_of("/rooms/101/tasks"), room_a);
    for (int i = 0; i < 5; ++i) {
        s.on_sent(t0, room_of("/rooms/101/messages"));
        s.on_sent(t0, room_of("/rooms/101/tasks"));
    }
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0, room_of("/rooms/101/tasks"))), 10000)
        << "5 messages + 5 tasks use up the room's 10 posts";
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0, room_of("/rooms/202/messages"))), 0);
}

// spec 8.2: the window slides: a post leaves it 10 s after it was sent.
TEST(Pacing, RoomWindowSlides) {
    PacingScheduler s(exact());
    for (int i = 0; i < 10; ++i) s.on_sent(t0 + Seconds(i), room_a);
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0 + Seconds(9), room_a)), 10000);
    s.on_sent(t0 + Seconds(10), room_a);  // the post at t=0 s has left the window
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0 + Millis(10'500), room_a)), 11000)
        << "the post at t=1 s leaves the window at t=11 s";
}

// spec 8.1: x-ratelimit-remaining = 0 blocks every request until x-ratelimit-reset.
TEST(Pacing, OverallRemainingZeroBlocksUntilReset) {
    PacingScheduler s(exact());
    s.on_sent(t0, no_room);
    const RateLimit headers{300, 0, t0 + Seconds(42)};
    s.on_response(t0 + Millis(100), no_room, 200, &headers, false);
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0 + Millis(100), no_room)), 42000);
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0 + Millis(100), room_b)), 42000)
        << "room posts count too (spec 8.2 'in addition to 8.1')";
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0 + Seconds(42), no_room)), 42000) << "after reset the limit is fresh";
}

// spec 8.1: the remaining count from the headers is used up by our own sends.
TEST(Pacing, OverallRemainingFromHeadersCountsDown) {
    PacingScheduler s(exact());
    s.on_sent(t0, no_room);
    const RateLimit headers{300, 2, t0 + Seconds(60)};
    s.on_response(t0, no_room, 200, &headers, false);
    const auto times = send_burst(s, t0, 3, no_room);
    EXPECT_EQ(ms_since_t0(times[0]), 0);
    EXPECT_EQ(ms_since_t0(times[1]), 0);
    EXPECT_EQ(ms_since_t0(times[2]), 60000) << "two calls were left; the third waits for the reset";
    EXPECT_EQ(s.overall(t0).remaining, 0);
    EXPECT_TRUE(s.overall(t0).from_headers);
}

// Requests still in flight when headers arrive may not be counted in them yet.
TEST(Pacing, RequestsInFlightLowerTheRemainingEstimate) {
    PacingScheduler s(exact());
    for (int i = 0; i < 3; ++i) s.on_sent(t0, no_room);
    const RateLimit headers{300, 10, t0 + Seconds(60)};
    s.on_response(t0, no_room, 200, &headers, false);
    EXPECT_EQ(s.overall(t0).remaining, 8) << "10 left minus the 2 requests still in flight";
}

// Out-of-order responses of one server window keep the lower estimate.
TEST(Pacing, LateResponseDoesNotRaiseRemaining) {
    PacingScheduler s(exact());
    s.on_sent(t0, no_room);
    s.on_sent(t0, no_room);
    const RateLimit newer{300, 5, t0 + Seconds(60)};
    const RateLimit older{300, 6, t0 + Seconds(60)};
    s.on_response(t0, no_room, 200, &newer, false);
    s.on_response(t0, no_room, 200, &older, false);
    EXPECT_EQ(s.overall(t0).remaining, 4) << "5 left with one in flight; the late '6' must not raise it";
}

// spec 8.1: without headers, 300 requests per 5 minutes are counted locally.
TEST(Pacing, DefaultOverallLimitIs300Per5Minutes) {
    PacingScheduler s(exact());
    const auto times = send_burst(s, t0, 301, no_room);
    EXPECT_EQ(ms_since_t0(times[299]), 0);
    EXPECT_EQ(ms_since_t0(times[300]), 300000) << "the 301st request waits until the first leaves the 5-minute window";
    EXPECT_EQ(s.overall(t0).limit, 300);
    EXPECT_FALSE(s.overall(t0).from_headers);
}

// spec 8.1: "the value may change in future": x-ratelimit-limit replaces the default.
TEST(Pacing, HeaderLimitReplacesDefaultAfterReset) {
    PacingScheduler s(exact());
    s.on_sent(t0, no_room);
    const RateLimit headers{5, 4, t0 + Seconds(1)};
    s.on_response(t0, no_room, 200, &headers, false);
    const auto times = send_burst(s, t0 + Seconds(1), 6, no_room);
    EXPECT_EQ(ms_since_t0(times[4]), 1000);
    EXPECT_EQ(ms_since_t0(times[5]), 301000) << "past the reset, the local count uses the limit of 5 from the headers";
    EXPECT_EQ(s.overall(t0 + Seconds(2)).limit, 5);
}

// spec 7.3: after the per-room 429 the caller waits about 10 seconds.
TEST(Pacing, PerRoom429WaitsTenSeconds) {
    PacingScheduler s(exact());
    s.on_sent(t0, room_a);
    const RateLimit headers{300, 250, t0 + Seconds(200)};
    s.on_response(t0 + Seconds(1), room_a, 429, &headers, true);
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0 + Seconds(1), room_a)), 11000) << "room A waits 10 s from the 429";
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0 + Seconds(1), room_b)), 1000) << "other rooms are not affected";
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0 + Seconds(1), no_room)), 1000) << "GETs are not affected";
}

// spec 7.3 / 8.1: an overall 429 (remaining = 0) holds everything until x-ratelimit-reset.
TEST(Pacing, Overall429WaitsUntilReset) {
    PacingScheduler s(exact());
    s.on_sent(t0, no_room);
    const RateLimit headers{300, 0, t0 + Seconds(90)};
    s.on_response(t0, no_room, 429, &headers, false);
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0, no_room)), 90000);
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0, room_a)), 90000);
    EXPECT_EQ(ms_since_t0(s.overall(t0).next_free), 90000);
}

// A 429 without the promised headers: back off rather than retry at once.
TEST(Pacing, Unknown429BacksOff) {
    PacingScheduler s(exact());
    s.on_sent(t0, no_room);
    s.on_response(t0, no_room, 429, nullptr, false);
    EXPECT_EQ(ms_since_t0(s.earliest_send(t0, no_room)), 10000);
}

// The UI view: used / limit / next free slot of a room (spec 8.2).
TEST(Pacing, RoomBudgetShowsUsedLimitAndNextFreeSlot) {
    PacingScheduler s(exact());
    EXPECT_EQ(s.budget("101", t0).used, 0);
    EXPECT_EQ(ms_since_t0(s.budget("101", t0).next_free), 0);
    send_burst(s, t0, 10, room_a);
    const RoomBudget b = s.budget("101", t0 + Seconds(3));
    EXPECT_EQ(b.used, 10);
    EXPECT_EQ(b.limit, 10);
    EXPECT_EQ(ms_since_t0(b.next_free), 10000);
    EXPECT_EQ(s.budget("101", t0 + Seconds(10)).used, 0) << "posts leave the window after 10 s";
}

TEST(Pacing, OverallBudgetCountsLocallyWithoutHeaders) {
    PacingScheduler s(exact());
    send_burst(s, t0, 7, no_room);
    const OverallBudget b = s.overall(t0);
    EXPECT_EQ(b.limit, 300);
    EXPECT_EQ(b.remaining, 293);
    EXPECT_FALSE(b.reset.has_value());
}

// ---- PostQueue ----

TEST(PostQueue, KeepsOrderWithinARoomButDoesNotBlockOtherRooms) {
    PacingScheduler s(exact());
    send_burst(s, t0, 10, room_a);  // room A is full until t0 + 10 s
    PostQueue q;
    q.push({1, room_a});
    q.push({2, room_b});
    q.push({3, no_room});
    q.push({4, room_a});
    auto first = q.pop_ready(t0, s);
    ASSERT_TRUE(first) << "nothing ready while room B's post could go";
    EXPECT_EQ(first->id, 2u) << "room B may go while room A waits";
    s.on_sent(t0, first->room_id_for_post);
    auto second = q.pop_ready(t0, s);
    ASSERT_TRUE(second) << "the post with no room was not ready";
    EXPECT_EQ(second->id, 3u);
    s.on_sent(t0, second->room_id_for_post);
    EXPECT_FALSE(q.pop_ready(t0, s)) << "both remaining posts are to the full room A";
    EXPECT_EQ(ms_since_t0(q.next_ready_at(t0, s).value_or(t0)), 10000);
    auto third = q.pop_ready(t0 + Seconds(10), s);
    ASSERT_TRUE(third) << "room A's post was not ready after its 10 s";
    EXPECT_EQ(third->id, 1u) << "posts to one room keep their order";
}

TEST(PostQueue, RemoveDropsAPendingRequest) {
    PacingScheduler s(exact());
    PostQueue q;
    q.push({1, room_a});
    EXPECT_TRUE(q.remove(1));
    EXPECT_FALSE(q.remove(1));
    EXPECT_TRUE(q.empty());
    EXPECT_FALSE(q.next_ready_at(t0, s));
}

// Spec 8.2 with real latency: one post in flight per room (the app keeps a
// room's messages in order), each reaching the service after a random uplink
// delay and answered after a random downlink delay. Counting answered posts
// from their answer keeps every 10 s window of what the SERVICE saw at 10 or
// fewer, for any delays, and costs only the round trips, not a slack.
TEST(Pacing, SerialPostsCountedFromTheirAnswersNeverExceedTheRoomLimit_spec8_2) {
    std::mt19937 rng(42);
    PacingScheduler s;  // defaults: the slack only applies to posts in flight
    std::vector<Instant> received;  // when the service counted each post
    Instant now = t0;
    Instant last_answer = t0;
    for (int i = 0; i < 30; ++i) {
        now = s.earliest_send(now, room_a);
        s.on_sent(now, room_a);
        const Instant at_service = now + Millis(5 + rng() % 300);
        received.push_back(at_service);
        last_answer = at_service + Millis(5 + rng() % 300);
        now = last_answer;
        s.on_response(now, room_a, 200, nullptr, false);
    }
    for (std::size_t k = 10; k < received.size(); ++k) {
        EXPECT_GE(received[k] - received[k - 10], Seconds(10))
            << "posts " << k - 10 << " and " << k << " fell in one 10 s window of the service";
    }
    // 20 s of windows plus round trips: nowhere near a second per window of slack.
    EXPECT_LT(ms_since_t0(last_answer), 20000 + 12 * 610);
}

// With short round trips the burst finishes close to the 20 s the limit allows.
TEST(Pacing, SerialBurstWithShortRoundTripsTakes20SecondsPlusRoundTrips_spec8_2) {
    PacingScheduler s;
    Instant now = t0;
    for (int i = 0; i < 30; ++i) {
        now = s.earliest_send(now, room_a);
        s.on_sent(now, room_a);
        now += Millis(20);  // round trip
        s.on_response(now, room_a, 200, nullptr, false);
    }
    // Window 1 answers at 20..200 ms; post 11 goes at answer_1 + 10 s, and so on:
    // the 30th answer arrives at 20 s + 12 round trips.
    EXPECT_EQ(ms_since_t0(now), 20000 + 12 * 20);
}

// ---- Property: a randomized simulation never exceeds either limit ----

// A strict stand-in for the service's limits: fixed overall windows that start
// at the exact moment of the first request after a reset, reported in
// x-ratelimit-reset rounded DOWN to whole seconds (the worst a server may do:
// the window is still on for up to a second after the stated time), and a
// sliding 10 s window per room.
class LimitModel {
public:
    explicit LimitModel(long overall_limit) : limit_(overall_limit) {}

    // Returns the status and the headers of the response to a request received at `t`.
    std::pair<int, RateLimit> receive(Instant t, const std::optional<std::string>& room) {
        if (t >= reset_) {
            reset_ = t + Seconds(300);
            used_ = 0;
        }
        ++used_;
        int status = 200;
        if (used_ > limit_) status = 429;
        if (room) {
            auto& sends = room_sends_[*room];
            sends.push_back(t);
            while (sends.front() <= t - Seconds(10)) sends.erase(sends.begin());
            if (sends.size() > 10) status = 429;
        }
        const Instant stated_reset = instant_from_unix_seconds(unix_seconds(reset_));  // rounded down
        return {status, RateLimit{limit_, std::max(0L, limit_ - used_), stated_reset}};
    }

private:
    long limit_;
    long used_ = 0;
    Instant reset_;
    std::map<std::string, std::vector<Instant>> room_sends_;
};

struct SimResult {
    int sent = 0;
    int rejected = 0;
    Instant finished;
};

// Requests arrive at random (with bursts), wait in a PostQueue, go when the
// scheduler allows, and are answered after a random latency.
SimResult simulate(std::uint32_t seed, int request_count, bool server_sends_headers, PacingConfig config = {}) {
    std::mt19937 rng(seed);  // fully specified by the standard: same sequence everywhere
    auto below = [&](std::uint32_t n) { return rng() % n; };

    struct Arrival {
        Instant at;
        std::optional<std::string> room;
    };
    std::vector<Arrival> arrivals;
    Instant t = t0;
    while (static_cast<int>(arrivals.size()) < request_count) {
        t += Millis(below(1500));
        const bool burst = below(20) == 0;
        const int n = burst ? 15 : 1;
        for (int i = 0; i < n; ++i) {
            std::optional<std::string> room;
            if (below(10) < 6) room = std::to_string(below(3));
            arrivals.push_back({t, room});
        }
    }
    arrivals.resize(static_cast<std::size_t>(request_count));

    struct InFlight {
        Instant at;
        std::optional<std::string> room;
        int status;
        RateLimit headers;
    };
    std::vector<InFlight> in_flight;  // unordered; the earliest is delivered first

    PacingScheduler scheduler(config);
    PostQueue queue;
    LimitModel server(300);
    SimResult result;
    std::size_t next_arrival = 0;
    std::uint64_t next_id = 0;
    std::map<std::uint64_t, std::optional<std::string>> rooms_by_id;
    Instant now = t0;
    for (;;) {
        // Deliver due responses, in arrival order.
        std::sort(in_flight.begin(), in_flight.end(), [](const InFlight& a, const InFlight& b) { return a.at < b.at; });
        while (!in_flight.empty() && in_flight.front().at <= now) {
            const InFlight r = in_flight.front();
            in_flight.erase(in_flight.begin());
            scheduler.on_response(r.at, r.room, r.status, server_sends_headers ? &r.headers : nullptr,
                                  r.status == 429 && r.room.has_value());
        }
        while (next_arrival < arrivals.size() && arrivals[next_arrival].at <= now) {
            queue.push({next_id++, arrivals[next_arrival].room});
            ++next_arrival;
        }
        while (auto ready = queue.pop_ready(now, scheduler)) {
            scheduler.on_sent(now, ready->room_id_for_post);
            const auto [status, headers] = server.receive(now, ready->room_id_for_post);
            if (status == 429) ++result.rejected;
            ++result.sent;
            in_flight.push_back({now + Millis(20 + below(600)), ready->room_id_for_post, status, headers});
        }
        std::optional<Instant> next;
        auto consider = [&](Instant c) {
            if (!next || c < *next) next = c;
        };
        if (next_arrival < arrivals.size()) consider(arrivals[next_arrival].at);
        if (!in_flight.empty()) consider(in_flight.front().at);
        if (auto q = queue.next_ready_at(now, scheduler)) consider(*q);
        if (!next) break;
        if (*next <= now) {
            ADD_FAILURE() << "simulation did not advance at " << ms_since_t0(now) << " ms";
            break;
        }
        now = *next;
    }
    result.finished = now;
    return result;
}

// spec 8.1 + 8.2: 1500 requests, ~60 % room posts with bursts, arriving faster
// than 300 per 5 minutes: the service never has to reject one.
TEST(PacingProperty, RandomTrafficNeverExceedsEitherLimitWithHeaders) {
    for (std::uint32_t seed : {1u, 2u}) {
        const SimResult r = simulate(seed, 1500, true);
        EXPECT_EQ(r.sent, 1500) << "seed " << seed << ": every request must eventually go";
        EXPECT_EQ(r.rejected, 0) << "seed " << seed << ": a request exceeded a limit of spec 8.1/8.2";
    }
}

TEST(PacingProperty, RandomTrafficNeverExceedsEitherLimitWithoutHeaders) {
    const SimResult r = simulate(7u, 1500, false);
    EXPECT_EQ(r.sent, 1500);
    EXPECT_EQ(r.rejected, 0) << "local counting alone must keep within spec 8.1/8.2";
}

// The simulation can fail: a scheduler that allows 11 posts per room window is caught.
TEST(PacingProperty, SimulationDetectsAPacerThatIsTooLoose) {
    PacingConfig loose;
    loose.room_limit = 11;
    const SimResult r = simulate(1u, 1500, true, loose);
    EXPECT_GT(r.rejected, 0) << "the limit model must reject the 11th post within 10 s";
}

// 600 GETs at once, starting 0.7 s into a second: the server's window ends at
// +300.7 s but its header says +300 s. Returns the 429s and when the last went.
std::pair<int, Instant> burst_of_600_gets(PacingConfig config) {
    PacingScheduler s(config);
    LimitModel server(300);
    Instant now = t0 + Millis(700);
    int rejected = 0;
    for (int i = 0; i < 600; ++i) {
        now = s.earliest_send(now, no_room);
        s.on_sent(now, no_room);
        const auto [status, headers] = server.receive(now, no_room);
        if (status == 429) ++rejected;
        s.on_response(now, no_room, status, &headers, false);
    }
    return {rejected, now};
}

// spec 8.1: x-ratelimit-reset is whole seconds; waiting for exactly that
// second may be too early. The default margin avoids the 429, and pacing is
// still not needlessly slow: the second 300 go within the margin of the reset.
TEST(PacingProperty, BurstOfGetsUsesTheWholeAllowanceWithoutA429AtTheReset_spec8_1) {
    const auto [rejected, last] = burst_of_600_gets(PacingConfig{});
    EXPECT_EQ(rejected, 0);
    EXPECT_GE(ms_since_t0(last), 300700) << "not before the server's window really ended";
    EXPECT_LE(ms_since_t0(last), 301000 + 1000) << "the second 300 go as soon as the reset (+ margin) allows";
}

// The test above can fail: without the margin the first request after the
// stated reset lands in the server's old window.
TEST(PacingProperty, LimitModelCatchesAPacerThatTrustsARoundedDownReset) {
    const auto [rejected, last] = burst_of_600_gets(exact());
    EXPECT_GT(rejected, 0);
    (void)last;
}

// The defaults keep half a second of slack per room window (latency jitter):
// a burst of 30 posts to one room costs 21 s instead of the bare 20 s, well
// inside the 10 % the browser test allows.
TEST(Pacing, DefaultSlackCostsHalfASecondPerRoomWindow_spec8_2) {
    PacingScheduler s;
    const auto times = send_burst(s, t0, 30, room_a);
    EXPECT_EQ(ms_since_t0(times[9]), 0);
    EXPECT_EQ(ms_since_t0(times[10]), 10500);
    EXPECT_EQ(ms_since_t0(times[29]), 21000);
}

}  // namespace
}  // namespace pacing_test
}  // namespace roomkey
