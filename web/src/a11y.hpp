// a11y.hpp: the accessibility tree beside the canvas and the DOM text path.
// Each frame the app's widgets are collected from ImGui's item hooks
// (web/imgui_hooks), diffed against the last frame (web/app/a11y_tree.hpp)
// and applied by shell/a11y.js to a visually hidden DOM subtree positioned
// over the canvas. Back from the DOM come: activation (a click or a screen
// reader's "press") as ImGui::ActivateItem, focus (both ways), and text:
// typed, pasted, composed by an IME or a mobile keyboard, all through the
// real DOM text input of the focused field, which follows its caret.
// Emscripten-only.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>

namespace roomkey::web::a11y {

// Turns the item hooks on. Call once, after ImGui::CreateContext.
void install();

// Takes what the DOM asked for (activation, focus, text, composition) the
// moment it is asked (shell/a11y.js dispatches "roomkey:a11y"): activation,
// focus and text join the input queue (input_queue.hpp) behind the keys
// that came before them; a copy or cut has those keys applied first
// (input_queue.hpp copy_first). True when anything was taken.
bool take_dom_requests();

// Moves keyboard focus and the focus ring to the widget `id` (a text
// field also starts editing). Call between frames.
void focus(unsigned int id);

// The link `url` drawn over [min, max] (device px) is under the pointer
// this frame: publish() lays a real <a> of the page over it, so the
// browser's own click, middle-click, Ctrl+click and link menu work on it.
void hover_link(const std::string& url, ImVec2 min, ImVec2 max);

// Opens `url` (http or https: shared/links.hpp) in a new tab, without
// opener or referrer: a click on a link that reached the canvas.
void open_link(const std::string& url);

// Right after the text field `id` ended its edit (Enter sent it): editing
// starts again at the next frame, so the caret and the DOM focus stay.
void keep_editing(unsigned int id);

// Activates the widget `id` as a click would. Call between frames.
void activate(unsigned int id);

// The text field `id` is being edited: text for it can go in now.
bool text_field_ready(unsigned int id);

// Selects all of the field `id`'s text (the next text replaces it).
void select_all(unsigned int id);

// Selects from the caret of the field `id` to the start of its text, or
// to the end when `forward` (the next Backspace or Delete removes it).
void select_to_edge(unsigned int id, bool forward);

// Names the next widget's keyboard shortcut for assistive technology
// (aria-keyshortcuts, e.g. "Control+Enter"); call just before the widget.
void shortcut_next(const char* keys);

// Names the next widget for assistive technology when its label draws no
// text (an expander arrow "##id"): said instead of the id made into words.
void name_next(std::string name);

// The controls drawn between begin_list and end_list are the items of a
// list named `name` (ul > li > control), e.g. the rooms.
void begin_list(const char* name);
void end_list();

// The conversation: the controls drawn between begin_log and
// end_log belong to a log named `name` (ARIA role log: a live region, so a
// message that arrives is announced). Each message is one of its items,
// opened with begin_log_item before it is drawn: an article that reads as
// `text` (the message as drawn, no tags), holding the controls drawn until
// end_log_item (Reply, Quote, ...), called right after the ImGui group that
// drew the message ends: the item is placed over it. `id` names it uniquely
// in the log.
// `texts`: a key of the messages' texts (keyed items below): while it
// stays, an item's text is not copied again (log_texts_changed).
void begin_log(const char* name, std::uint64_t texts = 0);
bool log_texts_changed();
// A modal question (ImGui's popup modal): the controls drawn between
// begin_dialog and end_dialog are inside a dialog named by its `title`
// (ARIA role dialog, aria-modal).
void begin_dialog(const std::string& title);
void end_dialog();
void end_log();
// `keyed`: `text` is one of the texts begin_log's key names.
void begin_log_item(const char* id, const std::string& text, bool keyed = false);
void end_log_item();
// A message of the log that is not drawn (only the rows on screen are):
// an item that reads as `text`, without controls or a place on the canvas,
// so the log still holds every message in order.
void log_item_not_drawn(const char* id, const std::string& text);

// The item just drawn (a plot) is an image described by `description` (its
// axes, values and labels as words); `id` names it uniquely in the window.
void describe_last_item(const char* id, const std::string& description);

// After the UI is drawn, before ImGui::Render: draws the IME composition in
// progress underlined at the caret of the field being edited.
void draw_composition();

// After ImGui::Render: publishes the operations that bring the DOM tree up
// to date, the focus and the caret. `scale`: device pixels per CSS pixel.
void publish(float scale);

// True when a DOM text input has focus: ImGui's own Ctrl+V must not paste
// then (the paste event brings the text through the DOM path, once).
bool dom_text_focused();

}  // namespace roomkey::web::a11y
