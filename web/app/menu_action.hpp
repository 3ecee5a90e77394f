// menu_action.hpp: an item chosen in a message's menu, carried out by the
// part that owns its action: Reply and Quote by the workspace's composer
// fill, the copies by the clipboard, Delete by the console's question
// (asked first), Edit and "Add as task" handed to the UI's fields. Kept
// apart from the App so the App only forwards the intent.
#pragma once

#include <optional>
#include <string>

#include "app/features.hpp"
#include "app/feedback.hpp"
#include "app/intents.hpp"

namespace roomkey::app {

// What is left for the App: what to tell the user (a copy), a delete to ask.
struct MenuAction {
    std::optional<Told> told;
    std::optional<intent::DeleteMessage> remove;
};
MenuAction choose_menu_item(Features& features, MenuItem item, Instant now);

}  // namespace roomkey::app
