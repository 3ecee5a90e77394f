// ui_message_menu.hpp: a message's menu on screen (ui_message_menu.cpp):
// the conversation's rows open it, the conversation pane draws it.
// web/src only (ui_conversation.cpp).
#pragma once

#include <string>

#include "ui_parts.hpp"

namespace roomkey::web::parts {

// The message's "⋯" control (beside its other controls): opens its menu.
inline constexpr const char* kMoreLabel = "\xE2\x8B\xAF##menu";  // "⋯"; with a mouse, its text plus 4 px wide
// Answers whether the control holds the keyboard focus.
bool message_more(UiState& ui, const std::string& room_id, const std::string& message_id, Intents& out);
// After the message's group (the last item): a right-click on it opens the
// menu there; Shift+F10 or the context-menu key opens it on the message last
// clicked or `focused` (one of its controls has the keyboard focus).
void message_menu_opener(const std::string& room_id, const std::string& message_id, bool focused, Intents& out);
// The open menu (once per frame, in the conversation pane), and the hand-offs
// of Edit and "Add as task".
void message_menu(const App& app, UiState& ui, Intents& out);
// The edit field opens on the message with `body` in it, the caret inside.
void begin_edit(UiState& ui, const std::string& message_id, const std::string& body);

}  // namespace roomkey::web::parts
