// rate_limiter.hpp: the two request limits of the service (spec 8.1, 8.2) as
// pure bookkeeping with time passed in: a fixed window per credential (N
// requests per window, reported in x-ratelimit-* headers) and a sliding log
// per room for POSTs to messages and tasks (10 per 10 s, counted together).
// Not thread-safe: the sandbox calls it under its state mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>

#include "roomkey/time.hpp"

namespace roomkey::sandbox {

// What the x-ratelimit-* headers say after a request was counted (or refused).
struct RateDecision {
    bool allowed = false;
    std::int64_t limit = 0;
    std::int64_t remaining = 0;
    Instant reset;  // when the current window ends (x-ratelimit-reset, Unix seconds)
};

// Spec 8.1: `limit` requests per `window` per credential. The window starts at
// a credential's first request and ends `window` later; a refused request is
// not counted.
class WindowLimiter {
public:
    WindowLimiter(std::int64_t limit, Millis window) : limit_(limit), window_(window) {}

    RateDecision hit(const std::string& key, Instant now);
    // The headers without counting a request (for responses that count nothing).
    RateDecision peek(const std::string& key, Instant now) const;

    std::int64_t limit() const { return limit_; }
    Millis window() const { return window_; }
    std::size_t tracked_keys() const { return windows_.size(); }

    // For the state store: each key's window, and putting one back.
    struct Window {
        Instant start;
        std::int64_t count = 0;
    };
    const std::unordered_map<std::string, Window>& windows() const { return windows_; }
    void restore(const std::string& key, Window window) { windows_[key] = window; }

private:
    void forget_expired(Instant now);

    std::int64_t limit_;
    Millis window_;
    std::unordered_map<std::string, Window> windows_;
    Instant next_sweep_{};
};

// Spec 8.2: at most `limit` calls per `window` per room, sliding: a call is
// refused while `limit` calls already happened in the `window` before it.
class SlidingLimiter {
public:
    SlidingLimiter(std::size_t limit, Millis window) : limit_(limit), window_(window) {}

    bool hit(const std::string& key, Instant now);

    std::size_t limit() const { return limit_; }
    Millis window() const { return window_; }

    // For the state store: each key's calls, and putting them back.
    const std::unordered_map<std::string, std::deque<Instant>>& calls() const { return calls_; }
    void restore(const std::string& key, std::deque<Instant> calls) { calls_[key] = std::move(calls); }

private:
    void forget_expired(Instant now);

    std::size_t limit_;
    Millis window_;
    std::unordered_map<std::string, std::deque<Instant>> calls_;
    Instant next_sweep_{};
};

}  // namespace roomkey::sandbox
