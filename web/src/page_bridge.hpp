// page_bridge.hpp: the app's door to the page around it (shell/page.js): it
// publishes the app's state for the page JS API and the accessible text
// mirror, takes the actions the page API queued, and reads browser facts
// (canvas size, randomness). Emscripten-only.
#pragma once

#include <cstddef>
#include <string>

namespace roomkey::web {

// Hands the parts of the app's state that changed (a JSON object,
// app/page_state.hpp PageStatePublisher) to window.roomkey, which merges
// them into state() and the aria-live mirror. The page touches the DOM only
// when the text changed.
void publish_state(const std::string& json);

// Hands the scope catalog with its explanations (JSON array, see
// app/scope_help.hpp) to the page's scope description for assistive
// technology. Static: published once.
void publish_scope_help(const std::string& json);

// Hands the positions of the main controls (JSON object of name -> [x, y,
// w, h] in CSS pixels) to window.roomkey.widget(name).
void publish_widgets(const std::string& json);
// The number of the frame just drawn: widget(name).frame; `settled`: no
// frame is due after it (widget(name).settled); `late`: how many animation
// frames the browser withheld were run from the timer (frameStats().late).
void publish_frame(long frame, bool settled, long late);

// The actions queued by window.roomkey.act() since the last call, as a JSON
// array ("" when none).
std::string take_actions();

// Fills `out` with bytes from crypto.getRandomValues.
void browser_random(unsigned char* out, std::size_t size);

struct CanvasSize {
    int css_width = 0;
    int css_height = 0;
    double device_pixel_ratio = 1.0;
};
CanvasSize canvas_size();

// Writes a line to the browser console (warnings the page API caused).
void console_warn(const std::string& text);

namespace detail {
// Copies the text page.js staged (see its stage()) into a std::string.
std::string read_staged(int length);
}  // namespace detail

}  // namespace roomkey::web
