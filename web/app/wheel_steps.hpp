// wheel_steps.hpp: a DOM wheel event as Dear ImGui's wheel steps.
//
// The browser says how far the page would scroll, right and down positive,
// in pixels, lines or pages (WheelEvent.deltaMode). ImGui counts notches of a
// mouse wheel, left and up positive, and scrolls a few lines of text per
// notch. Emscripten's GLFW hands the browser's figures on as notches with
// the sign kept, so in roomkey one notch down (Chromium: 100 px) scrolled a
// panel up, by 100 notches: to its top. web/src/input_queue.cpp takes the
// wheel from the DOM and converts it here.
#pragma once

namespace roomkey::app {

// WheelEvent.deltaMode.
enum class WheelDeltaMode { pixel = 0, line = 1, page = 2 };

// What one notch of a common mouse wheel reports in each mode: Chromium and
// Safari 100 px, Firefox 3 lines. A page (some settings and devices) counts
// as 10 notches, about the height of a panel.
constexpr double kPixelsPerStep = 100.0;
constexpr double kLinesPerStep = 3.0;
constexpr double kStepsPerPage = 10.0;

struct WheelSteps {
    float x = 0.0f;  // ImGui's MouseWheelH: positive scrolls left
    float y = 0.0f;  // ImGui's MouseWheel: positive scrolls up
};

// `delta_mode` as the DOM gives it; an unknown mode counts as pixels. A
// delta that is not a finite number moves nothing, and one beyond 1000
// notches is held to 1000 (a panel is never that long).
WheelSteps wheel_steps(double delta_x, double delta_y, int delta_mode);

// ImGui moves a panel by steps times five lines of text and drops the
// fraction of a pixel: a slow touchpad's 1 px deltas (0.01 step, under a
// pixel each) moved a panel up but never down. This holds steps back until
// they add up to kLeastStep (about 4 px) either way, and hands them over
// then, so many small pushes move a panel as far as one big one.
constexpr float kLeastStep = 0.05f;

class WheelAccumulator {
public:
    // The steps to hand to ImGui now (zero on an axis still held back).
    WheelSteps add(WheelSteps steps);

private:
    WheelSteps held_;
};

}  // namespace roomkey::app
