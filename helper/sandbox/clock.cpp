// clock.cpp: SandboxClock (see clock.hpp).
#include "sandbox/clock.hpp"

#include <cmath>

namespace roomkey::sandbox {

SandboxClock::SandboxClock(ClockSources sources)
    : sources_(std::move(sources)),
      real_anchor_(sources_.steady()),
      virtual_anchor_(std::chrono::time_point_cast<Millis>(sources_.wall())) {}

Instant SandboxClock::now_locked() const {
    const auto real_elapsed = std::chrono::duration_cast<Millis>(sources_.steady() - real_anchor_);
    const double scaled = static_cast<double>(real_elapsed.count()) * scale_;
    return virtual_anchor_ + Millis(static_cast<Millis::rep>(std::llround(scaled)));
}

Instant SandboxClock::now() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return now_locked();
}

void SandboxClock::advance(Millis amount) {
    if (amount.count() <= 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    virtual_anchor_ = now_locked() + amount;
    real_anchor_ = sources_.steady();
}

bool SandboxClock::set_scale(double factor) {
    if (!std::isfinite(factor) || factor < 0.0 || factor > kMaxScale) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    virtual_anchor_ = now_locked();
    real_anchor_ = sources_.steady();
    scale_ = factor;
    return true;
}

double SandboxClock::scale() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return scale_;
}

Instant SandboxClock::wall() const { return std::chrono::time_point_cast<Millis>(sources_.wall()); }

}  // namespace roomkey::sandbox
