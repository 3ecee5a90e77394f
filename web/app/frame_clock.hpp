// frame_clock.hpp: draw on change (STYLE.md). The frame runner (web/src/main.cpp)
// asks this clock whether a frame is due and when the next one is, and asks
// the browser for an animation frame only then: no ImGui frame, no GL work,
// no callback at all while nothing changes. Pure, so the rule is tested
// natively (tests/unit/app_frame_clock_test.cpp).
//
// What makes a frame due:
//   - a change from outside the picture (a fetch completed, a page API
//     action, a resize or devicePixelRatio change, the app's timer): one frame;
//   - input (mouse, keys, wheel, paste, focus): at least kInputFrames frames,
//     counted in frames, not in time, so a loaded machine that draws slowly
//     still gets them: ImGui 1.86 sees a press and a release that arrived
//     between two frames as "down" in one frame and "up" in the next;
//   - a picture that has not settled: after every frame, while its digest
//     (draw lists and published widget positions) differs from the frame
//     before, or ImGui says it is still measuring (a window hidden for one
//     frame to size itself, a scroll or auto-fit applied next frame), or a
//     mouse button is held (drags, repeat buttons), one more frame;
//   - a time something asked for: the app's next_wake_at(), the next second
//     of a visible countdown, the next step of an animation (UiState::redraw_at).
#pragma once

#include <cstdint>
#include <optional>

#include "roomkey/time.hpp"

namespace roomkey::app {

// Frames drawn after the last input event, whatever they show.
inline constexpr int kInputFrames = 2;

// What a drawn frame showed, for the settle rule.
struct FramePicture {
    std::uint64_t digest = 0;  // of the draw lists and the widget positions
    bool settling = false;     // ImGui changes the picture by itself next frame (measuring, scrolling)
    bool held = false;         // a mouse button is down
};

class FrameClock {
public:
    // A change from outside the picture: a frame is due now.
    void on_change();
    // Input: frames are due for the next kInputFrames frames.
    void on_input();
    // A frame is due at `at` (kept: the earliest of every request since the
    // last frame).
    void request_at(std::optional<Instant> at);
    bool due(Instant now) const;
    // A frame was drawn at `now` showing `picture`: what was owed is paid,
    // requests for `now` or earlier are done, and another frame is due at
    // once if the picture has not settled. The caller then asks again for
    // what the new picture needs (request_at).
    void on_frame(Instant now, const FramePicture& picture);
    // The next instant a frame is due (now when one is due now), nullopt
    // when none is asked for.
    std::optional<Instant> next_at(Instant now) const;

private:
    int owed_ = 0;            // frames due whatever they show
    bool unsettled_ = false;  // the last frame differed from the one before
    std::optional<std::uint64_t> last_digest_;
    std::optional<Instant> wake_at_;  // one frame at or after this instant
};

// When the text of a countdown to `at` (app::format_countdown, whole seconds)
// next changes, seen at `now`; nullopt once it reads "expired" for good.
std::optional<Instant> next_countdown_change(Instant at, Instant now);

}  // namespace roomkey::app
