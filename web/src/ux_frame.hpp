// ux_frame.hpp: the per-frame steps that make the canvas usable by every
// user: the glyph atlas that grows with the text on screen
// (browser_font.hpp), keyboard navigation with a visible focus ring (Tab,
// Shift+Tab, arrows, Enter, Space, Escape; the first Tab lands on the main
// action), and the accessibility tree with its DOM text path (a11y.hpp).
// main.cpp calls these at fixed points of its frame. Emscripten-only.
#pragma once

#include <string>

namespace roomkey::web::ux {

// After ImGui::CreateContext and the backends' init.
void init();

// When the DOM asks (activation, focus, typed, pasted or composed text):
// takes it into the input queue at once. True when a frame must be drawn.
bool take_dom_requests();

// The glyph atlas lacks glyphs the last frame drew: rebuild it before the
// next one (fit_canvas does, between frames).
bool atlas_stale();

// Around ImGui::NewFrame: the first Tab goes to the main action. (Enter
// activates the focused control like Space: ImGui 1.90 does so itself.)
void before_new_frame();
void after_new_frame();

// Marks the item just drawn as the main action of the current screen
// ("Sign in" when signed out, the message field when signed in).
void main_action();

// For the accessibility tree (a11y.hpp): the controls between begin_list
// and end_list form a list named `name`; describe_last_item makes the item
// just drawn (a plot) an image with that description.
void begin_list(const char* name);
void end_list();
void describe_last_item(const char* id, const std::string& description);

// After the UI is drawn, before ImGui::Render.
void after_draw();

// After ImGui::Render: publishes the accessibility tree, the focus, the
// caret and the atlas figures. True when another frame is needed (glyphs
// to add).
bool after_render(float scale);

// ImGui's Ctrl+V reads the clipboard only when no DOM text input has focus:
// there the paste event itself brings the text, once.
bool imgui_may_paste();

}  // namespace roomkey::web::ux
