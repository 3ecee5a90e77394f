// text_layer.hpp: the conversation's text as the page's own DOM text
// (shell/text_layer.js is its other half), the way pdf.js lays its text
// layer over a drawn page: each line the conversation draws becomes a
// transparent span at the same place and width, so the browser's own
// selection (drag, double- and triple-click, Shift+click, Ctrl+A), copy and
// find work on what the reader sees. Every loaded message is there, the
// ones not drawn as hidden text: find reaches them, and the page asks for
// the found one to be shown (take_shown). The page hears of the layer only
// when the drawn lines or their places change, never on an idle frame.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/effects.hpp"

namespace roomkey::web::text_layer {

// The conversation's list starts in the current window (its visible box
// clips the layer). `texts`: a key of every message's text (the room, its
// version, what the texts read): while it stays, the page holds them and
// no text is copied again. While a drag selecting its text is held beyond
// its top or bottom edge, it scrolls that way: true while it does (the next
// frame scrolls on).
bool begin(std::uint64_t texts);
// Whether this frame's texts differ from those the page holds: only then
// does every message need to be named (message() with drawn false).
bool texts_changed();
// The next message of the conversation, in order; `text` is what the page
// API calls its text (room.messages[].text). Lines drawn after this (run())
// belong to it, when `drawn`. Copies the text only when texts_changed().
void message(const std::string& id, const std::string& text, bool drawn);
// A line of the current message drawn at `at` (its top left), `width` wide,
// at text size `size`: of its text, or a label drawn with it (a To/Re label,
// a box's heading, a file card: the page finds it in the text only where
// the text goes on with it), `control` when it is on a button (no I-beam),
// `label_more` for a wrapped label's next line (copied after a space).
enum class Run { text, label, control, label_more };
void run(const char* begin, const char* end, ImVec2 at, float width, float size, Run kind = Run::text);
// The last item's text as a line (a label drawn by ImGui), `pad` inside its rectangle.
void item(std::string_view text, Run kind, ImVec2 pad = ImVec2(0, 0));

// After the frame: the page gets what changed (a drawn message only moved,
// as in a scroll: its place alone, not its lines). `scale`: device px per CSS px.
void publish(float scale);

// A message the page asked to show (found by the browser's find, or
// selected by the page API), once; "" when none.
std::string take_shown();
void show(std::string message_id);

// The page's selection as it changed (text_layer.js tells it), once; null
// when it did not change since the last take.
struct Selection {
    std::string text;
    std::vector<std::string> message_ids;
};
std::optional<Selection> take_selection();
void selection_changed(Selection selection);

// The page API's select_text (characters: UTF-16 code units of the
// message's text, as a script indexes it) and copy_selection.
void perform(const app::effect::SelectText& select);
void perform(const app::effect::CopySelection& copy);

}  // namespace roomkey::web::text_layer
