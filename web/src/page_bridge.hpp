// page_bridge.hpp: the app's only door to the page around it (shell/roomkey.js):
// it publishes the app's key state for the page JS API and the accessible text
// mirror, and reads browser facts (canvas size, randomness). Emscripten-only.
#pragma once

#include <cstddef>
#include <string>

namespace roomkey::web {

// Hands a JSON snapshot of the app's key state to window.roomkey (page API
// state() and the aria-live mirror). Cheap to call every frame: the page only
// touches the DOM when the text changed.
void publish_state(const std::string& json);

// Fills `out` with bytes from crypto.getRandomValues.
void browser_random(unsigned char* out, std::size_t size);

struct CanvasSize {
    int css_width = 0;
    int css_height = 0;
    double device_pixel_ratio = 1.0;
};
CanvasSize canvas_size();

}  // namespace roomkey::web
