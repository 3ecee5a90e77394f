// message_menu.hpp: a message's menu (a right-click on the message, its "⋯"
// control, Shift+F10 or the context-menu key; the page API's message_menu
// and message_menu_choose): which items a message offers and what each
// choice asks of the part that carries it out. Pure: App hands Reply and
// Quote to the workspace, Delete to the console's question, the copies to
// the clipboard; Edit and "Add as task" are the UI's fields (a hand-off).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/room_view.hpp"

namespace roomkey::app {

enum class MenuItem { reply, quote, copy_text, copy_link, edit, remove, add_task };
// The page API's names: reply, quote, copy_text, copy_link, edit, delete, add_task.
std::string_view to_string(MenuItem item);
std::optional<MenuItem> menu_item_named(std::string_view name);

// In the menu's order. Edit and Delete on your own messages only, and never
// on what the service wrote itself (its events).
std::vector<MenuItem> menu_items(bool mine, bool system);

// A choice read against its message: what the part that carries it out takes.
struct MenuChoice {
    MenuItem item = MenuItem::reply;
    std::string room_id;
    std::string message_id;
    // quote: the part selected, "" for the whole message; copy_text: the text
    // as the reader sees it (notation drawn as text); copy_link: the
    // service's link to the message; edit: the body as written; add_task:
    // the text as read.
    std::string text;
};
// `drawn_text` is the message as drawn (message_view.hpp's text);
// `selected`, the part of it the user selected, if any.
MenuChoice menu_choice(MenuItem item, std::string_view room_id, const ChatMessage& message,
                       std::string_view drawn_text, std::string_view selected);

// A choice the UI carries out (the edit field, the task form): taken once,
// when `seq` moves on.
struct MenuHandoff {
    std::uint64_t seq = 0;
    MenuChoice choice;
};

class MessageMenu {
public:
    struct Target {
        std::string room_id;
        std::string message_id;
        std::vector<MenuItem> items;
        std::uint64_t seq = 0;  // each opening its own: the UI places the menu once
        // What was selected in the message when the menu opened: a press on
        // the menu's own item may clear the page's selection before the
        // choice arrives, and the choice is about what the user saw.
        std::string selected;
    };
    // Opens on a loaded message of the open room (false, and closed, for any
    // other); `me` decides Edit and Delete.
    bool open(const RoomView& room, std::string_view room_id, std::string_view message_id, std::string_view me);
    void close() { target_.reset(); }
    const std::optional<Target>& target() const { return target_; }
    // Whether the open menu offers `item`.
    bool offers(MenuItem item) const;
    // The page's selection (the text layer's state().selection): Quote,
    // Copy text and "Add as task" take its text when it lies in the menu's
    // message alone. Set it whenever the selection changes ("" and none when
    // nothing is selected).
    void set_selection(std::string text, std::vector<std::string> message_ids);
    // The selected text when the selection lies in `message_id` alone, else "".
    std::string_view selected_in(std::string_view message_id) const;
    void hand_off(MenuChoice choice);
    const MenuHandoff& handoff() const { return handoff_; }

private:
    std::optional<Target> target_;
    std::uint64_t opened_ = 0;
    std::string selected_;
    std::vector<std::string> selected_ids_;
    MenuHandoff handoff_;
};

}  // namespace roomkey::app
