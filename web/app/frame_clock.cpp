// frame_clock.cpp: see frame_clock.hpp.
#include "app/frame_clock.hpp"

#include <algorithm>

namespace roomkey::app {

void FrameClock::on_event(Instant now) {
    const Instant until = now + tail_;
    if (!dirty_until_ || *dirty_until_ < until) dirty_until_ = until;
}

void FrameClock::request_at(std::optional<Instant> at) {
    if (!at) return;
    if (!wake_at_ || *at < *wake_at_) wake_at_ = at;
}

bool FrameClock::due(Instant now) const {
    return (dirty_until_ && now <= *dirty_until_) || (wake_at_ && *wake_at_ <= now);
}

void FrameClock::on_frame(Instant now) {
    if (dirty_until_ && *dirty_until_ < now) dirty_until_.reset();
    if (wake_at_ && *wake_at_ <= now) wake_at_.reset();
}

std::optional<Instant> FrameClock::next_at(Instant now) const {
    if (dirty_until_ && now <= *dirty_until_) return now;
    return wake_at_;
}

std::optional<Instant> next_countdown_change(Instant at, Instant now) {
    const auto left = std::chrono::duration_cast<Millis>(at - now).count();
    if (left < 0) return std::nullopt;
    // format_countdown shows left / 1000 whole seconds: it changes when
    // `left` drops below the current multiple of 1000.
    return now + Millis(left % 1000 + 1);
}

}  // namespace roomkey::app
