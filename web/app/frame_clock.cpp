// frame_clock.cpp: see frame_clock.hpp.
#include "app/frame_clock.hpp"

#include "app/format.hpp"

#include <algorithm>

namespace roomkey::app {

void FrameClock::on_change() {
    owed_ = std::max(owed_, 1);
}

void FrameClock::on_input() {
    owed_ = std::max(owed_, kInputFrames);
}

void FrameClock::request_at(std::optional<Instant> at) {
    if (!at) return;
    if (!wake_at_ || *at < *wake_at_) wake_at_ = at;
}

bool FrameClock::due(Instant now) const {
    return owed_ > 0 || unsettled_ || (wake_at_ && *wake_at_ <= now);
}

void FrameClock::on_frame(Instant now, const FramePicture& picture) {
    if (owed_ > 0) --owed_;
    if (wake_at_ && *wake_at_ <= now) wake_at_.reset();
    // The first frame ever has nothing to compare with: one more shows
    // whether it was final.
    const bool changed = !last_digest_ || *last_digest_ != picture.digest;
    last_digest_ = picture.digest;
    unsettled_ = changed || picture.settling || picture.held;
}

std::optional<Instant> FrameClock::next_at(Instant now) const {
    if (owed_ > 0 || unsettled_) return now;
    return wake_at_;
}

std::optional<Instant> next_countdown_change(Instant at, Instant now) {
    const auto left = std::chrono::duration_cast<Millis>(at - now).count();
    if (left < 0) return std::nullopt;
    // The countdown shows countdown_seconds(left): it changes 1 ms after
    // `left` has used up the milliseconds above those whole seconds.
    const std::int64_t above_whole_seconds = left - countdown_seconds(Millis(left)) * 1000;
    return now + Millis(above_whole_seconds + 1);
}

}  // namespace roomkey::app
