// page_bridge.cpp: EM_JS glue between the wasm app and shell/roomkey.js.
// Property names are quoted so the closure compiler keeps them.
#include "page_bridge.hpp"

#include <emscripten.h>
#include <emscripten/html5.h>

namespace {

// clang-format off
EM_JS(void, roomkey_js_publish, (const char* json), {
    var api = window['roomkey'];
    if (api && api['_publish']) api['_publish'](UTF8ToString(json));
});

EM_JS(void, roomkey_js_random, (unsigned char* out, int size), {
    // getRandomValues accepts at most 65536 bytes per call.
    for (var offset = 0; offset < size; offset += 65536) {
        var n = Math.min(65536, size - offset);
        crypto.getRandomValues(HEAPU8.subarray(out + offset, out + offset + n));
    }
});
// clang-format on

}  // namespace

namespace roomkey::web {

void publish_state(const std::string& json) { roomkey_js_publish(json.c_str()); }

void browser_random(unsigned char* out, std::size_t size) { roomkey_js_random(out, static_cast<int>(size)); }

CanvasSize canvas_size() {
    CanvasSize size;
    double width = 0;
    double height = 0;
    emscripten_get_element_css_size("#canvas", &width, &height);
    size.css_width = static_cast<int>(width);
    size.css_height = static_cast<int>(height);
    size.device_pixel_ratio = emscripten_get_device_pixel_ratio();
    return size;
}

}  // namespace roomkey::web
