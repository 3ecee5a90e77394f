// clock.hpp: the sandbox's notion of "now": real time, moved forward by tests
// (advance) or sped up (scale), so codes, tokens and rate windows can expire
// without waiting. Thread-safe; every rule in the sandbox reads time here.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>

#include "roomkey/time.hpp"

namespace roomkey::sandbox {

// Where real time comes from. The wall clock is read once, for the Unix time
// the sandbox starts at; elapsed time comes from the steady clock, so an NTP
// or manual step of the wall clock cannot move sandbox time (tokens, codes,
// rate windows) backwards or forwards. Tests replace either source.
struct ClockSources {
    std::function<std::chrono::system_clock::time_point()> wall = [] { return std::chrono::system_clock::now(); };
    std::function<std::chrono::steady_clock::time_point()> steady = [] { return std::chrono::steady_clock::now(); };
};

class SandboxClock {
public:
    explicit SandboxClock(ClockSources sources = {});

    Instant now() const;

    // Moves the sandbox's time forward; negative amounts are ignored (time
    // never runs backwards, so an expired token never becomes valid again).
    void advance(Millis amount);

    // From now on, sandbox time runs `factor` times as fast as real time
    // (1.0 = real time, 0 = frozen). Refused (false) for negative or
    // non-finite factors and for factors above kMaxScale.
    bool set_scale(double factor);
    double scale() const;
    // The wall clock's time now (what a restart measures the stop against).
    Instant wall() const;

    static constexpr double kMaxScale = 1e6;

private:
    Instant now_locked() const;

    ClockSources sources_;
    mutable std::mutex mutex_;
    std::chrono::steady_clock::time_point real_anchor_;  // steady time when the current scale began
    Instant virtual_anchor_;                             // sandbox time at real_anchor_
    double scale_ = 1.0;
};

}  // namespace roomkey::sandbox
