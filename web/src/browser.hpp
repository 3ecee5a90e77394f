// browser.hpp: the small browser glue the app needs beyond drawing: the URL
// the page was opened at (shell/page.js already took code/state out of the
// address bar, once, before the app's files loaded), the single-use pending
// authorization in sessionStorage, navigation to the consent screen, the
// clipboard, the page origin and the wall clock. Emscripten-only.
//
// Tokens never pass through here: only the PendingAuthorization (state and
// code_verifier, spec 4.2) is stored, in sessionStorage, until the callback.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/format.hpp"
#include "app/time_text.hpp"
#include "roomkey/time.hpp"

namespace roomkey::web {

// The sessionStorage key of the pending authorization (shell/page.js names
// it too: it takes the record out of storage before anything else loads).
inline constexpr const char* kPendingKey = "roomkey.pending_authorization";

// The URL the page was opened at, as it was before shell/page.js stripped
// the address bar; single use. roomkey::read_launch_url says what it holds.
std::string take_launch_url();

// The pending authorization, single use: shell/page.js took it out of
// sessionStorage when the page loaded and hands it over once; anything still
// in storage is read and removed here as well.
std::optional<std::string> take_pending_authorization();
void store_pending_authorization(const std::string& record);
// Removes it from sessionStorage (the sign-in it belonged to was abandoned).
void forget_pending_authorization();

// The posts not yet sent, with the account that wrote them (never a token):
// kept for the tab across a reload and the session's end (app/waiting_posts.hpp).
inline constexpr const char* kPostsKey = "roomkey.waiting_posts";
std::string stored_posts();
void store_posts(const std::string& record);

// location.assign(url): leaves the app (for the consent screen).
void navigate(const std::string& url);

// Listens for paste events on the canvas. The pasted text joins the input
// queue from the event itself (input_queue.hpp), behind the keys typed
// before it, through wasm memory only: no page object keeps it (the page
// API is open to every script on the page). Call once, at start.
void install_paste_listener();
// Sets up the system clipboard's glue; `on_outcome` hears what became of
// each clear (1: cleared, 0: refused, waiting for the next click or key
// press, where it is tried again). Call once, at start.
void install_clipboard(void (*on_outcome)(int cleared));
// Writes to the system clipboard; Ctrl+V brings it back through the paste event.
void copy_to_clipboard(const std::string& text);
// Always empty: ImGui's own Ctrl+V must not paste (the paste event does, at
// once, with the text of that very paste). Kept for ImGui's clipboard hook.
std::string clipboard_text();
// Empties the paste buffer; with `system` also overwrites the system
// clipboard. The engine may refuse without a recent click or key press
// (Firefox, WebKit) or without focus: the clear then waits for the next
// one (install_clipboard).
void forget_clipboard(bool system);

// How far local time is ahead of UTC at the end of `date` (Date's
// getTimezoneOffset, so daylight saving time on that day counts).
Seconds local_utc_offset(const app::CivilDate& date);

// The user's zone and locale, as the conversation writes times:
// Date's offset at each instant and Intl.DateTimeFormat with the browser's
// own locale (web/src/user_time.cpp).
app::UserTime browser_user_time();

// The tab's title; the notification permission ("granted",
// "denied", "default", "unsupported"); asking for it (on a click: the
// answer comes back through `on_permission`); a desktop notification whose
// click calls `on_click` with its `tag`.
void set_title(const std::string& title);
std::string notification_permission();
void request_notification_permission(void (*on_permission)(int granted));
void show_notification(const std::string& title, const std::string& body, int tag, void (*on_click)(int tag));

// "https://127.0.0.1:8443"
std::string page_origin();

// Date.now(): the wall clock the token expiries are measured against.
Instant now();

// The page shows that the app cannot draw (no WebGL 2 context: hardware
// acceleration off, WebGL disabled or blocklisted), in its overlay, in
// window.roomkey.error() and in the text mirror. shell/page.js words it.
void report_cannot_draw();

}  // namespace roomkey::web
