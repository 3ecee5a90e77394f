// view_prefs.cpp: see view_prefs.hpp.
#include "view_prefs.hpp"

#include <emscripten.h>

#include "ui.hpp"

namespace {

// clang-format off
EM_JS(int, roomkey_js_prefers_light, (), {
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches ? 1 : 0;
});

EM_JS(int, roomkey_js_coarse_pointer, (), {
    return window.matchMedia && window.matchMedia('(pointer: coarse)').matches ? 1 : 0;
});

// -1: nothing stored (or no storage).
EM_JS(int, roomkey_js_read_int, (const char* key), {
    try {
        var text = window.sessionStorage.getItem(UTF8ToString(key));
        var n = text ? Number(text) : NaN;
        return Number.isInteger(n) && n >= 0 && n < 1000 ? n : -1;
    } catch (e) {
        return -1;
    }
});

EM_JS(void, roomkey_js_write_int, (const char* key, int value), {
    try {
        window.sessionStorage.setItem(UTF8ToString(key), String(value));
    } catch (e) {
        // Storage off (a private mode): the size simply lasts until the reload.
    }
});
// clang-format on

}  // namespace

namespace roomkey::web {

bool prefers_dark_scheme() {
    return roomkey_js_prefers_light() == 0;
}

bool coarse_pointer() {
    return roomkey_js_coarse_pointer() != 0;
}

std::optional<int> stored_text_size() {
    const int index = roomkey_js_read_int(kTextSizeKey);
    if (index < 0 || index >= kTextSizeCount) return std::nullopt;
    return index;
}

void store_text_size(int index) {
    roomkey_js_write_int(kTextSizeKey, index);
}

}  // namespace roomkey::web
