// page_events.hpp: which of the browser's events call the app in, and why
// (main.cpp's on_page_event). There is no frame loop: these, fetch answers
// and the app's own timer are all that wake the page.
#pragma once

namespace roomkey::web {

// Why the page called in (roomkey_js_listen).
enum PageEvent : int {
    kInput = 0,     // mouse, keys, wheel, touch, paste, focus
    kResize = 1,    // the window's size or the devicePixelRatio changed
    kVisible = 2,   // the tab came to the front
    kAction = 3,    // window.roomkey.act() queued an action
    kDomInput = 4,  // the accessibility tree's DOM controls asked for something
    kHidden = 5,    // the tab went to the background (the open room stops polling)
    kScheme = 6,    // prefers-color-scheme changed (dark <-> light)
    kRestored = 7,  // shown again from the back/forward cache (pageshow, persisted)
};

using PageListener = void (*)(int);

// Listens from now on: each event calls `notify` with its PageEvent.
void listen_page_events(PageListener notify);

}  // namespace roomkey::web
