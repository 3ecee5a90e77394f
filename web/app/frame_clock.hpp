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
//     still gets them: ImGui's input queue gives a press and a release that
//     arrived between two frames to one frame each;
//   - a picture that has not settled: after every frame, while its digest
//     (draw lists and published widget positions) differs from the frame
//     before, or ImGui says it is still measuring (a window hidden for one
//     frame to size itself, a scroll or auto-fit applied next frame), or a
//     mouse button is held (drags, repeat buttons), one more frame;
//   - a time something asked for: the app's next_wake_at(), the next second
//     of a visible countdown, the next step of an animation (UiState::redraw_at).
//
// One change waits: an answer whose handling sent more requests (the code
// exchange's answer sends the dashboard's three) is drawn when those are
// answered too, or kFollowUpWait after the wait began, whichever is first;
// the frames that would settle the last picture or tick a countdown wait
// with it. A frame in between would show only a step ("Signed in,
// loading"), and where drawing is slow (software WebGL: 60-170 ms a frame
// here) the answers that arrive meanwhile wait behind it. Input and other
// changes are never held back: they are drawn at once, with what waited.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "roomkey/time.hpp"

namespace roomkey::app {

// Frames drawn after the last input event, whatever they show.
inline constexpr int kInputFrames = 2;

// The longest a change waits for the answers to the requests it sent: under
// a tenth of a second still reads as at once, and a slow service's step is
// shown soon after.
inline constexpr Millis kFollowUpWait{100};

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
    // Fetch answers changed the app (`answered`: their request ids), and
    // handling them sent `sent` (may be empty). A frame is due now, unless
    // requests sent by earlier answers, or these, are still unanswered:
    // then it waits for them, up to kFollowUpWait from the first.
    void on_answers(const std::vector<std::uint64_t>& answered, const std::vector<std::uint64_t>& sent,
                    Instant now);
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
    // A change waiting for the answers to `follow_ups_`, drawn at the latest then.
    std::optional<Instant> waiting_until_;
    std::vector<std::uint64_t> follow_ups_;
};

// When the text of a countdown to `at` (app::format_countdown, whole seconds)
// next changes, seen at `now`; nullopt once it reads "expired" for good.
std::optional<Instant> next_countdown_change(Instant at, Instant now);

}  // namespace roomkey::app
