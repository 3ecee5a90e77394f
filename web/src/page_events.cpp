// page_events.cpp: the listeners behind page_events.hpp.
#include "page_events.hpp"

#include <emscripten.h>

// The page's events call `notify(kind)` in wasm. Listeners on window in the
// capture phase, so the ImGui backend's own (GLFW's) listeners still get
// every event, and they have by the time the animation frame runs. A
// devicePixelRatio change without a resize (browser zoom, a move to another
// display) is seen through a media query on the current ratio, renewed at
// each change. fit_canvas (main.cpp) reads the canvas's size only after one
// of these.
// clang-format off
EM_JS(void, roomkey_js_listen, (roomkey::web::PageListener notify), {
    var call = function(kind) { wasmTable.get(notify)(kind); };
    var input = function() { call(0); };
    [
        'mousemove', 'mousedown', 'mouseup', 'wheel', 'keydown', 'keyup', 'keypress', 'paste', 'focus', 'blur',
        'touchstart', 'touchmove', 'touchend', 'touchcancel', 'click', 'input', 'focusin', 'compositionstart',
        'compositionupdate', 'compositionend'
    ].forEach(function(type) { window.addEventListener(type, input, {capture : true, passive : true}); });
    window.addEventListener('resize', function() { call(1); }, {capture : true, passive : true});
    // The canvas's own size, which the window's resize does not always tell
    // (the stylesheet applied after the app started, a layout change).
    new ResizeObserver(function() { call(1); }).observe(document.getElementById('canvas'));
    var watchRatio = function() {
        var query = window.matchMedia('(resolution: ' + window.devicePixelRatio + 'dppx)');
        var changed = function() {
            query.removeEventListener('change', changed);
            call(1);
            watchRatio();
        };
        query.addEventListener('change', changed);
    };
    watchRatio();
    document.addEventListener('visibilitychange', function() { call(document.hidden ? 5 : 2); });
    window.addEventListener('roomkey:act', function() { call(3); });
    window.addEventListener('roomkey:a11y', function() { call(4); });
    // Back (or Forward) to this page from the back/forward cache
    // runs no start-up: the page resumes as it was when it was left.
    window.addEventListener('pageshow', function(event) { if (event.persisted) call(7); });
    if (window.matchMedia) {
        window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', function() { call(6); });
    }
});
// clang-format on

namespace roomkey::web {

void listen_page_events(PageListener notify) { roomkey_js_listen(notify); }

}  // namespace roomkey::web
