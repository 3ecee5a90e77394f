// clock.hpp: the sandbox's notion of "now": real time, moved forward by tests
// (advance) or sped up (scale), so codes, tokens and rate windows can expire
// without waiting. Thread-safe; every rule in the sandbox reads time here.
#pragma once

#include <chrono>
#include <mutex>

#include "roomkey/time.hpp"

namespace roomkey::sandbox {

class SandboxClock {
public:
    SandboxClock();

    Instant now() const;

    // Moves the sandbox's time forward; negative amounts are ignored (time
    // never runs backwards, so an expired token never becomes valid again).
    void advance(Millis amount);

    // From now on, sandbox time runs `factor` times as fast as real time
    // (1.0 = real time, 0 = frozen). Refused (false) for negative or
    // non-finite factors and for factors above kMaxScale.
    bool set_scale(double factor);
    double scale() const;

    static constexpr double kMaxScale = 1e6;

private:
    using RealClock = std::chrono::system_clock;
    Instant now_locked() const;

    mutable std::mutex mutex_;
    RealClock::time_point real_anchor_;  // real time when the current scale began
    Instant virtual_anchor_;             // sandbox time at real_anchor_
    double scale_ = 1.0;
};

}  // namespace roomkey::sandbox
