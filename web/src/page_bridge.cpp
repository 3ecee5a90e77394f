// page_bridge.cpp: EM_JS glue between the wasm app and shell/page.js.
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

EM_JS(void, roomkey_js_publish_widgets, (const char* json), {
    var api = window['roomkey'];
    if (api && api['_publishWidgets']) api['_publishWidgets'](UTF8ToString(json));
});

EM_JS(void, roomkey_js_publish_frame, (double frame, int settled, double late), {
    var api = window['roomkey'];
    if (api && api['_publishFrame']) api['_publishFrame'](frame, settled !== 0, late);
});

EM_JS(void, roomkey_js_publish_scope_help, (const char* json), {
    var api = window['roomkey'];
    if (api && api['_publishScopeHelp']) api['_publishScopeHelp'](UTF8ToString(json));
});

EM_JS(int, roomkey_js_stage_actions, (), {
    return lengthBytesUTF8(window['roomkey']['_stageActions']());
});

EM_JS(void, roomkey_js_read_staged, (char* out, int capacity), {
    stringToUTF8(window['roomkey']['_staged'](), out, capacity);
});

EM_JS(void, roomkey_js_random, (unsigned char* out, int size), {
    // getRandomValues accepts at most 65536 bytes per call.
    for (var offset = 0; offset < size; offset += 65536) {
        var n = Math.min(65536, size - offset);
        crypto.getRandomValues(HEAPU8.subarray(out + offset, out + offset + n));
    }
});

EM_JS(void, roomkey_js_console_warn, (const char* text), {
    console.warn(UTF8ToString(text));
});
// clang-format on

}  // namespace

namespace roomkey::web {

void publish_state(const std::string& json) {
    roomkey_js_publish(json.c_str());
}

std::string detail::read_staged(int length) {
    if (length <= 0) {
        roomkey_js_read_staged(nullptr, 0);  // clears the stage
        return {};
    }
    std::string text(static_cast<std::size_t>(length) + 1, '\0');
    roomkey_js_read_staged(text.data(), length + 1);
    text.resize(static_cast<std::size_t>(length));
    return text;
}

void publish_widgets(const std::string& json) {
    roomkey_js_publish_widgets(json.c_str());
}

void publish_frame(long frame, bool settled, long late) {
    roomkey_js_publish_frame(static_cast<double>(frame), settled ? 1 : 0, static_cast<double>(late));
}

void publish_scope_help(const std::string& json) {
    roomkey_js_publish_scope_help(json.c_str());
}

std::string take_actions() {
    return detail::read_staged(roomkey_js_stage_actions());
}

void browser_random(unsigned char* out, std::size_t size) {
    roomkey_js_random(out, static_cast<int>(size));
}

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

void console_warn(const std::string& text) {
    roomkey_js_console_warn(text.c_str());
}

}  // namespace roomkey::web
