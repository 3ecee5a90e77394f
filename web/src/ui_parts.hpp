// ui_parts.hpp: what the panel files (ui_*.cpp) share: the theme's colours,
// small widgets (ui_widgets.cpp) and each panel's entry point. Internal to
// web/src: ui.cpp places the panels; nothing else includes this.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "ui.hpp"

namespace roomkey::web::parts {

using app::App;
using app::Intent;
using Intents = std::vector<Intent>;

// The palette of the current theme (dark or light, prefers-color-scheme):
// apply_theme (ui.cpp) sets these, between frames only.
inline ImVec4 kAccent{0.36f, 0.62f, 0.98f, 1.0f};
inline ImVec4 kGood{0.40f, 0.80f, 0.50f, 1.0f};
inline ImVec4 kWarn{0.98f, 0.76f, 0.30f, 1.0f};
inline ImVec4 kBad{1.00f, 0.45f, 0.42f, 1.0f};
inline ImVec4 kDim{0.62f, 0.65f, 0.70f, 1.0f};
inline ImVec4 kErrorBg{0.35f, 0.12f, 0.12f, 1.0f};
inline bool kDarkTheme = true;
// A progress bar's fill for `colour`: the colour itself on the dark theme, a
// pale tint of it on the light one, so the bar's text stays readable on it.
inline ImVec4 bar_fill(const ImVec4& colour) {
    if (kDarkTheme) return colour;
    return ImVec4(colour.x * 0.45f + 0.55f, colour.y * 0.45f + 0.55f, colour.z * 0.45f + 0.55f, 1.0f);
}

// ---- ui_widgets.cpp ----
// Text in `colour`, wrapped at the window's edge: what the app says runs
// longer than a phone's line in any language.
void text_wrapped(const ImVec4& colour, const std::string& text);
inline void text_dim(const std::string& text) { text_wrapped(kDim, text); }
// A short dim hint ("Ctrl+Enter") after the last item, never wrapped: beside
// it when the line has room, else on a line of its own, else (a panel
// narrower than the hint) not drawn. Returns whether it was drawn.
bool short_hint(const char* text);
void label_value(const char* label, const std::string& value);
// The next item goes beside the last one when `label` (a small
// button's text) still fits on the line, else on a line of its own, so a
// row of controls wraps instead of running off a narrow pane. Returns the
// label, for the button call.
const char* beside(const char* label);
void help_marker(const std::string& text);
// Remembers where the last item was drawn, under `name`.
void note_widget(UiState& ui, const char* name);
// Remembers where the current window (a dialog) is, under `name`.
void note_window(UiState& ui, const char* name);
bool primary_button(const char* label);
// A small button, full height (44 CSS px: finger_sized) when the pointer is a finger.
bool tap_button(const char* label);
int tap_tree();  // a tree node's flags: as tall as a finger (framed height) on a touch screen
float tap_height();  // a row's height for a finger (44 CSS px), 0 (as tall as its text) for a mouse
void set_touch(bool touch);  // the header sets it, each frame
// "Loading" with dots that move, so a wait is visibly alive (asks for the
// frame of the next step: UiState::redraw_at).
void loading_text(UiState& ui, const char* what, Instant now);
// The text of a countdown; asks for a frame when it next changes.
std::string countdown_to(UiState& ui, Instant at, Instant now);
// A frame is wanted at `at` (draw on change: the picture changes by itself).
void redraw_at(UiState& ui, std::optional<Instant> at);
// Called after a list's last item, in its child window: newest at the
// bottom, and the view stays there while it is scrolled to the end.
void follow_bottom();
ImVec4 session_colour(const std::string& label);
// The session's words for the page API's value `label` ("signed in" -> the
// catalog's session.signed_in: "ログイン済み").
const char* session_words(std::string label);
const std::string& field(const std::optional<std::string>& value);
// The room's name when the rooms are loaded, else its id.
std::string room_name(const App& app, const std::string& room_id);

// ---- ui_pending.cpp: the conversation's own posts, new messages, jump to latest ----
void waiting_posts_offer(const App& app, UiState& ui, Intents& out);
std::size_t pending_rows(const App& app, UiState& ui, Intents& out);  // how many it drew
// The room opens at its first unread message (not at the bottom) this frame.
// True once per room and first unread: the frame that opens the room there.
bool take_open_at_unread(const App& app, UiState& ui);
void new_messages_line();
// `behind`: the reader's place is not the newest ("Jump to latest" while the end is out of view).
void conversation_end(const App& app, UiState& ui, std::size_t pending, bool behind, Instant now, Intents& out);
// After the log, in the `strip` of height its frame left under it: "Jump to latest" when behind.
void jump_to_latest(UiState& ui, float strip, Instant now);

// ---- one panel per file ----
void header(const App& app, UiState& ui, Instant now, Intents& out);            // ui_header.cpp
void connection_panel(const App& app, UiState& ui, Instant now, Intents& out);  // ui_sign_in.cpp
void sign_in_screen(const App& app, UiState& ui, Instant now, Intents& out);    // ui_sign_in.cpp
void session_panel(const App& app, UiState& ui, Instant now, Intents& out);     // ui_sign_in.cpp
// The session's "Refresh now" (off while one runs) and "Sign out", in both
// modes' session panels.
void refresh_and_sign_out(const App& app, UiState& ui, Intents& out);  // ui_sign_in.cpp
void account_panel(const App& app, UiState& ui, Instant now, Intents& out);     // ui_dashboard.cpp
void rooms_panel(const App& app, UiState& ui, Instant now, Intents& out);       // ui_dashboard.cpp
void posting_panel(const App& app, UiState& ui, Instant now, Intents& out);     // ui_posting.cpp
// The session panel in roomkey-helper's BFF mode (ui_bff_session.cpp).
void bff_session_details(const App& app, UiState& ui, Instant now, Intents& out);
// "Refresh with fewer scopes", inside the session panel (ui_scope_refresh.cpp).
void scope_refresh_controls(const App& app, UiState& ui, Intents& out);
void rate_panel(const App& app, UiState& ui, Instant now);                      // ui_rate.cpp
// A deadline as the user reads it: "14:07 (in 3:12)" in their zone and
// locale, the date too when not today (ui_rate.cpp).
std::string local_deadline(const App& app, UiState& ui, Instant at, Instant now);
void log_panel(const App& app, UiState& ui, Instant now, Intents& out);         // ui_http_log.cpp
// "Copy as" curl for the service, fetch and Python, of log entry `entry` or
// of the console's call (none) (ui_http_log.cpp).
void copy_as_buttons(const App& app, std::optional<std::uint64_t> entry, Intents& out);
void room_panel(const App& app, UiState& ui, Instant now, Intents& out);        // ui_room.cpp
void contacts_panel(const App& app, UiState& ui, Instant now, Intents& out);    // ui_room.cpp
void console_panel(const App& app, UiState& ui, Instant now, Intents& out);     // ui_console.cpp
// The room's tabs, shared by the developer view's room panel and the
// workspace's details pane (ui_room.cpp).
void tasks_tab(const app::RoomView& room, const app::Workspace& ws, Instant now, Intents& out);
void members_tab(const app::RoomView& room, UiState& ui, Intents& out);
void files_tab(const app::RoomView& room, const app::FilePreviews& previews, UiState& ui, Intents& out);
// The room's Tasks, Members and Files tabs, in the developer view's room
// panel and in the workspace's details alike; `task_form` draws first in the
// Tasks tab when given (the details' "add a task" form).
// A text field's callback (ImGuiInputTextFlags_CallbackAlways, UserData a
// bool*): while the bool is set, the caret goes to the end of the text and
// the bool is cleared. With a11y::keep_editing: a field entered with its
// caret where the user goes on typing.
int caret_to_end(ImGuiInputTextCallbackData* data);

// Reply, Quote, To (composer_fill) and Edit: the keys typed from the
// press on wait for the field they put the caret in (input_queue.hpp).
void keys_to_composer(const UiState& ui);
// Which key sends, a choice of two (Enter / Ctrl+Enter to send): the
// composer's menu and the header's settings.
void send_key_choice(const app::Settings& settings, Intents& out);

// The details pane follows a place asked for (the address, Back, a script),
// and tells the app when the user closes it (called before the panes and
// after them); its tabs tell the one shown (room_tabs).
void follow_details(const App& app, UiState& ui, Intents& out);
void room_tabs(const App& app, const app::RoomView& room, UiState& ui, Instant now, Intents& out, const char* id,
               void (*task_form)(const app::RoomView&, UiState&, Intents&) = nullptr);

// ---- the workspace, one region per file ----
// The developer view: today's instrument panels in columns (ui.cpp).
void developer_view(const App& app, UiState& ui, Instant now, float scale, Intents& out);
// Signed out: signing in; signed in: the panes workspace_layout chooses (ui_workspace.cpp).
void workspace_view(const App& app, UiState& ui, Instant now, float scale, Intents& out);
void room_list_pane(const App& app, UiState& ui, Intents& out);                    // ui_room_list.cpp
void conversation_pane(const App& app, UiState& ui, Instant now, Intents& out);   // ui_conversation.cpp
// The composer, beneath the conversation; `height` is what it may take (ui_composer.cpp).
void composer(const App& app, UiState& ui, Intents& out);
float composer_height();
void details_pane(const App& app, UiState& ui, Instant now, Intents& out);        // ui_details.cpp

}  // namespace roomkey::web::parts
