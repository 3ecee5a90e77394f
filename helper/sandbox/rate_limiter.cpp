// rate_limiter.cpp: WindowLimiter and SlidingLimiter (see rate_limiter.hpp).
#include "sandbox/rate_limiter.hpp"

#include <algorithm>

namespace roomkey::sandbox {

// Stale entries are dropped at most once per window so memory stays bounded
// by the number of credentials active in one window, without a timer thread.
void WindowLimiter::forget_expired(Instant now) {
    if (now < next_sweep_) return;
    for (auto it = windows_.begin(); it != windows_.end();) {
        it = (now >= it->second.start + window_) ? windows_.erase(it) : std::next(it);
    }
    next_sweep_ = now + window_;
}

RateDecision WindowLimiter::hit(const std::string& key, Instant now) {
    forget_expired(now);
    auto [it, inserted] = windows_.try_emplace(key, Window{now, 0});
    Window& w = it->second;
    if (!inserted && now >= w.start + window_) w = Window{now, 0};
    RateDecision d;
    d.limit = limit_;
    d.reset = w.start + window_;
    if (w.count >= limit_) {
        d.allowed = false;
        d.remaining = 0;
        return d;
    }
    ++w.count;
    d.allowed = true;
    d.remaining = limit_ - w.count;
    return d;
}

RateDecision WindowLimiter::peek(const std::string& key, Instant now) const {
    RateDecision d;
    d.allowed = true;
    d.limit = limit_;
    auto it = windows_.find(key);
    if (it == windows_.end() || now >= it->second.start + window_) {
        d.remaining = limit_;
        d.reset = now + window_;
        return d;
    }
    d.remaining = std::max<std::int64_t>(0, limit_ - it->second.count);
    d.reset = it->second.start + window_;
    return d;
}

void SlidingLimiter::forget_expired(Instant now) {
    if (now < next_sweep_) return;
    for (auto it = calls_.begin(); it != calls_.end();) {
        auto& log = it->second;
        while (!log.empty() && log.front() + window_ <= now) log.pop_front();
        it = log.empty() ? calls_.erase(it) : std::next(it);
    }
    next_sweep_ = now + window_;
}

bool SlidingLimiter::hit(const std::string& key, Instant now) {
    forget_expired(now);
    auto& log = calls_[key];
    while (!log.empty() && log.front() + window_ <= now) log.pop_front();
    if (log.size() >= limit_) return false;
    log.push_back(now);
    return true;
}

}  // namespace roomkey::sandbox
