// browser.cpp: EM_JS glue for the launch URL, sessionStorage, navigation,
// clipboard and time (see browser.hpp).
#include "browser.hpp"

#include <emscripten.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "input_queue.hpp"
#include "page_bridge.hpp"

namespace {

// clang-format off
EM_JS(int, roomkey_js_stage_launch_url, (), {
    var url = window['roomkey']['_stageLaunchUrl']();
    return lengthBytesUTF8(url);
});

EM_JS(int, roomkey_js_stage_pending, (const char* key), {
    // Single use: page.js took the record out of storage at load and gives it
    // once; whatever storage still holds is read and removed in one step.
    var api = window['roomkey'];
    var text = api['_takePending'] ? api['_takePending']() : "";
    try {
        var name = UTF8ToString(key);
        var stored = window.sessionStorage.getItem(name);
        window.sessionStorage.removeItem(name);
        if (!text && stored) text = stored;
    } catch (e) {
    }
    return lengthBytesUTF8(api['_stageText'](text || ""));
});

EM_JS(void, roomkey_js_store, (const char* key, const char* value), {
    try {
        window.sessionStorage.setItem(UTF8ToString(key), UTF8ToString(value));
    } catch (e) {
        console.warn('roomkey: sessionStorage is not available: sign-in cannot complete in this browser mode');
    }
});

// A record kept for the tab (not single use): staged for read_staged.
EM_JS(int, roomkey_js_stage_stored, (const char* key), {
    var text = "";
    try {
        text = window.sessionStorage.getItem(UTF8ToString(key)) || "";
    } catch (e) {
    }
    return lengthBytesUTF8(window['roomkey']['_stageText'](text));
});

EM_JS(void, roomkey_js_navigate, (const char* url), {
    window.location.assign(UTF8ToString(url));
});

// The listener writes the pasted text into `buffer` (wasm memory) and its
// length into *length, then calls `on_paste` at once, in the same event: the
// text goes into the focused field from that event, so no later frame can
// read a stale buffer (Ctrl+V reached ImGui before Chromium fired
// `paste`, which it may do a task later). The closure holding them is
// reachable by no script.
// `on_paste` is the wasm table index of a void() function (EM_JS cannot
// name a function-pointer parameter).
EM_JS(void, roomkey_js_install_paste, (char* buffer, int capacity, int* length, int on_paste), {
    document.addEventListener('paste', function (event) {
        if (!event.clipboardData) return;
        // A paste into the accessibility tree's text input (shell/a11y.js)
        // reaches the field through that input's beforeinput, from this same
        // event: taking it here as well would drop or double it.
        var target = event.target;
        if (target && target.closest && target.closest('#a11y')) return;
        var text = event.clipboardData.getData('text/plain') || "";
        if (!text) return;
        event.preventDefault();
        HEAP32[length >> 2] = stringToUTF8(text, buffer, capacity);
        wasmTable.get(on_paste)();
    });
});

EM_JS(void, roomkey_js_forget_pending, (const char* key), {
    try {
        window.sessionStorage.removeItem(UTF8ToString(key));
    } catch (e) {
    }
});

// The system clipboard. A copy replaces it; sign-out's clear writes "".
// Firefox and WebKit allow a write only with a recent user activation (a
// click or key press), so a clear after a scripted sign-out, or one long
// after the last click, is refused: it then waits, and runs again inside
// the next click or key press, where the engine allows it. `on_outcome(1)`
// says it was cleared, `on_outcome(0)` that it waits. A new copy ends the
// wait (the clipboard is the user's new text then). Listeners only while
// a clear waits: nothing runs otherwise.
EM_JS(void, roomkey_js_install_clipboard, (int on_outcome), {
    var GESTURES = ['keydown', 'mousedown', 'pointerup', 'touchend', 'click'];
    var waiting = false;
    var writing = false;
    var report = function(cleared) { wasmTable.get(on_outcome)(cleared ? 1 : 0); };
    var stopWaiting = function() {
        if (!waiting) return;
        waiting = false;
        GESTURES.forEach(function(type) { window.removeEventListener(type, onGesture, true); });
    };
    var clear = function() {
        if (!navigator.clipboard || !navigator.clipboard.writeText) return;  // nothing could have been copied
        writing = true;
        navigator.clipboard.writeText("").then(function() {
            writing = false;
            stopWaiting();
            report(true);
        }, function() {
            writing = false;
            if (waiting) return;
            waiting = true;
            GESTURES.forEach(function(type) { window.addEventListener(type, onGesture, true); });
            report(false);
        });
    };
    // In the gesture's own handler: that is where the engine allows the write.
    var onGesture = function(event) {
        if (event.isTrusted && !writing) clear();
    };
    var write = function(value, quiet) {
        stopWaiting();
        if (!navigator.clipboard || !navigator.clipboard.writeText) return;
        // Written already in the click's own handler (web/src/gesture_copy.hpp).
        var gesture = Module['roomkeyGestureCopy'];
        if (gesture && gesture['wrote'](value)) return;
        navigator.clipboard.writeText(value).catch(function() {
            if (!quiet) {
                console.warn('roomkey: the browser refused clipboard access; the text stays available for pasting inside the app');
            }
        });
    };
    Module['roomkeyClipboard'] = {'clear': clear, 'write': write};
});

EM_JS(void, roomkey_js_write_clipboard, (const char* text), {
    Module['roomkeyClipboard']['write'](UTF8ToString(text), false);
});

EM_JS(void, roomkey_js_clear_clipboard, (), {
    Module['roomkeyClipboard']['clear']();
});

EM_JS(int, roomkey_js_utc_offset_minutes, (int year, int month, int day), {
    return -new Date(year, month - 1, day, 23, 59, 59).getTimezoneOffset();
});

EM_JS(void, roomkey_js_set_title, (const char* title), {
    document.title = UTF8ToString(title);
});

EM_JS(int, roomkey_js_stage_permission, (), {
    var p = typeof Notification === 'function' ? Notification.permission : 'unsupported';
    return lengthBytesUTF8(window['roomkey']['_stageText'](p));
});

// EM_JS takes a function pointer's type by a name of its own.
using IntCallback = void (*)(int);

EM_JS(void, roomkey_js_request_permission, (IntCallback done), {
    if (typeof Notification !== 'function') { wasmTable.get(done)(0); return; }
    Promise.resolve(Notification.requestPermission()).then(function(p) { wasmTable.get(done)(p === 'granted' ? 1 : 0); },
                                                           function() { wasmTable.get(done)(0); });
});

EM_JS(void, roomkey_js_notify, (const char* title, const char* body, int tag, IntCallback click), {
    if (typeof Notification !== 'function' || Notification.permission !== 'granted') return;
    var n = new Notification(UTF8ToString(title), {body : UTF8ToString(body)});
    n.onclick = function() {
        window.focus();
        wasmTable.get(click)(tag);
        n.close();
    };
});

EM_JS(int, roomkey_js_stage_origin, (), {
    return lengthBytesUTF8(window['roomkey']['_stageText'](window.location.origin));
});

EM_JS(void, roomkey_js_cannot_draw, (), {
    window['roomkey']['_cannotDraw']();
});

EM_JS(double, roomkey_js_now, (), {
    return Date.now();
});
// clang-format on

// The app's paste buffer: what the last paste event or copy held, in wasm
// memory only.
struct PasteBuffer {
    std::array<char, 65536> text{};
    int length = 0;
};
PasteBuffer g_paste;

// The DOM paste event's text, for the focused ImGui text field (none
// focused: dropped, as a paste into nothing). ImGui's own Ctrl+V reads an
// empty clipboard (clipboard_text), so the text arrives once, in order after
// the keys typed before it.
void on_paste() {
    const auto size =
        static_cast<std::size_t>(std::clamp(g_paste.length, 0, static_cast<int>(g_paste.text.size() - 1)));
    std::string text(g_paste.text.data(), size);
    std::fill(g_paste.text.begin(), g_paste.text.end(), '\0');
    g_paste.length = 0;
    roomkey::web::input_queue::push_text(std::move(text));
}

}  // namespace

namespace roomkey::web {

std::string take_launch_url() {
    return detail::read_staged(roomkey_js_stage_launch_url());
}

std::optional<std::string> take_pending_authorization() {
    const int length = roomkey_js_stage_pending(kPendingKey);
    std::string text = detail::read_staged(length);
    if (text.empty()) return std::nullopt;
    return text;
}

void store_pending_authorization(const std::string& record) {
    roomkey_js_store(kPendingKey, record.c_str());
}

std::string stored_posts() {
    return detail::read_staged(roomkey_js_stage_stored(kPostsKey));
}

void store_posts(const std::string& record) {
    if (record == "[]") {
        roomkey_js_forget_pending(kPostsKey);  // nothing waits: nothing kept
        return;
    }
    roomkey_js_store(kPostsKey, record.c_str());
}

void navigate(const std::string& url) {
    roomkey_js_navigate(url.c_str());
}

void install_paste_listener() {
    void (*callback)() = on_paste;
    roomkey_js_install_paste(g_paste.text.data(), static_cast<int>(g_paste.text.size()), &g_paste.length,
                             static_cast<int>(reinterpret_cast<std::intptr_t>(callback)));
}

void forget_pending_authorization() {
    roomkey_js_forget_pending(kPendingKey);
}

void install_clipboard(void (*on_outcome)(int cleared)) {
    roomkey_js_install_clipboard(static_cast<int>(reinterpret_cast<std::intptr_t>(on_outcome)));
}

void copy_to_clipboard(const std::string& text) {
    roomkey_js_write_clipboard(text.c_str());
}

std::string clipboard_text() {
    return {};
}

void forget_clipboard(bool system) {
    std::fill(g_paste.text.begin(), g_paste.text.end(), '\0');
    g_paste.length = 0;
    input_queue::forget_text();
    if (system) roomkey_js_clear_clipboard();
}

Seconds local_utc_offset(const app::CivilDate& date) {
    return Seconds(60LL *
                   roomkey_js_utc_offset_minutes(date.year, static_cast<int>(date.month), static_cast<int>(date.day)));
}

void set_title(const std::string& title) {
    roomkey_js_set_title(title.c_str());
}

std::string notification_permission() {
    return detail::read_staged(roomkey_js_stage_permission());
}

void request_notification_permission(void (*on_permission)(int granted)) {
    roomkey_js_request_permission(on_permission);
}

void show_notification(const std::string& title, const std::string& body, int tag, void (*on_click)(int tag)) {
    roomkey_js_notify(title.c_str(), body.c_str(), tag, on_click);
}

std::string page_origin() {
    return detail::read_staged(roomkey_js_stage_origin());
}

Instant now() {
    return instant_from_unix_ms(static_cast<std::int64_t>(roomkey_js_now()));
}

void report_cannot_draw() {
    roomkey_js_cannot_draw();
}

}  // namespace roomkey::web
