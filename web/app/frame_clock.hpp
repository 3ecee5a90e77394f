// frame_clock.hpp: draw on change (STYLE.md). The frame runner (web/src/main.cpp)
// asks this clock on every animation frame whether a frame is due, and draws
// nothing otherwise: no ImGui frame, no GL work. Pure, so the rule is tested
// natively (tests/unit/frame_clock_test.cpp).
//
// What makes a frame due:
//   - input (mouse, keys, wheel, paste, focus): frames until a short tail
//     after the last event, for what ImGui does after input (hover, the
//     active item, a layout that settles over two frames);
//   - a change from outside (a fetch completed, a page API action, a resize
//     or devicePixelRatio change, the wake timer's tick): the same tail;
//   - a time something asked for: the app's next_wake_at(), the next second
//     of a visible countdown, the next step of an animation (UiState::redraw_at).
#pragma once

#include <optional>

#include "roomkey/time.hpp"

namespace roomkey::app {

// Long enough for ImGui's after-input frames, short enough to cost nothing idle.
inline constexpr Millis kFrameTail{300};

class FrameClock {
public:
    explicit FrameClock(Millis tail = kFrameTail) : tail_(tail) {}

    // Input or an outside change at `now`: frames are due until now + tail.
    void on_event(Instant now);
    // A frame is due at `at` (kept: the earliest of every request since the
    // last frame).
    void request_at(std::optional<Instant> at);
    bool due(Instant now) const;
    // A frame was drawn at `now`: requests for `now` or earlier are done; the
    // caller then asks again for what the new picture needs (request_at).
    void on_frame(Instant now);
    // The next instant a frame is due, nullopt when none is asked for.
    std::optional<Instant> next_at(Instant now) const;

private:
    Millis tail_;
    std::optional<Instant> dirty_until_;  // every frame up to here is drawn
    std::optional<Instant> wake_at_;      // one frame at or after this instant
};

// When the text of a countdown to `at` (app::format_countdown, whole seconds)
// next changes, seen at `now`; nullopt once it reads "expired" for good.
std::optional<Instant> next_countdown_change(Instant at, Instant now);

}  // namespace roomkey::app
