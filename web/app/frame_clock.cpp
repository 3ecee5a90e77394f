// frame_clock.cpp: see frame_clock.hpp.
#include "app/frame_clock.hpp"

#include "app/format.hpp"

#include <algorithm>

namespace roomkey::app {

void FrameClock::on_change() {
    owed_ = std::max(owed_, 1);
}

void FrameClock::on_answers(const std::vector<std::uint64_t>& answered, const std::vector<std::uint64_t>& sent,
                            Instant now) {
    for (const std::uint64_t id : answered) {
        follow_ups_.erase(std::remove(follow_ups_.begin(), follow_ups_.end(), id), follow_ups_.end());
    }
    follow_ups_.insert(follow_ups_.end(), sent.begin(), sent.end());
    if (follow_ups_.empty()) {
        waiting_until_.reset();
        on_change();
        return;
    }
    if (!waiting_until_) waiting_until_ = now + kFollowUpWait;
}

void FrameClock::on_input() {
    owed_ = std::max(owed_, kInputFrames);
}

void FrameClock::request_at(std::optional<Instant> at) {
    if (!at) return;
    if (!wake_at_ || *at < *wake_at_) wake_at_ = at;
}

bool FrameClock::due(Instant now) const {
    if (owed_ > 0) return true;
    // While a change waits, so do the frames that would settle the last
    // picture or tick a countdown: each could cost the answers a slow frame.
    if (waiting_until_) return *waiting_until_ <= now;
    return unsettled_ || (wake_at_ && *wake_at_ <= now);
}

void FrameClock::on_frame(Instant now, const FramePicture& picture) {
    if (owed_ > 0) --owed_;
    if (wake_at_ && *wake_at_ <= now) wake_at_.reset();
    // Whatever waited is on screen now; later answers are drawn as they come.
    waiting_until_.reset();
    follow_ups_.clear();
    // The first frame ever has nothing to compare with: one more shows
    // whether it was final.
    const bool changed = !last_digest_ || *last_digest_ != picture.digest;
    last_digest_ = picture.digest;
    unsettled_ = changed || picture.settling || picture.held;
}

std::optional<Instant> FrameClock::next_at(Instant now) const {
    if (owed_ > 0) return now;
    if (waiting_until_) return std::max(*waiting_until_, now);
    if (unsettled_) return now;
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
