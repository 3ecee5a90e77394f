// message_menu.cpp: see message_menu.hpp.
#include "app/message_menu.hpp"

#include <algorithm>

#include "roomkey/message_link.hpp"
#include "roomkey/message_tags.hpp"

namespace roomkey::app {

namespace {

constexpr std::string_view kNames[] = {"reply", "quote", "copy_text", "copy_link", "edit", "delete", "add_task"};


}  // namespace

std::string_view to_string(MenuItem item) {
    return kNames[static_cast<int>(item)];
}

std::optional<MenuItem> menu_item_named(std::string_view name) {
    for (int i = 0; i < static_cast<int>(std::size(kNames)); ++i) {
        if (kNames[i] == name) return static_cast<MenuItem>(i);
    }
    return std::nullopt;
}

std::vector<MenuItem> menu_items(bool mine, bool system) {
    std::vector<MenuItem> items{MenuItem::reply, MenuItem::quote, MenuItem::copy_text, MenuItem::copy_link};
    if (mine && !system) items.insert(items.end(), {MenuItem::edit, MenuItem::remove});
    items.push_back(MenuItem::add_task);
    return items;
}

MenuChoice menu_choice(MenuItem item, std::string_view room_id, const ChatMessage& message,
                       std::string_view drawn_text, std::string_view selected) {
    MenuChoice choice{item, std::string(room_id), message.message_id, {}};
    switch (item) {
        case MenuItem::quote:
            choice.text = selected;
            break;
        case MenuItem::copy_text:
            choice.text = selected.empty() ? drawn_text : selected;
            break;
        case MenuItem::copy_link:
            choice.text = message_link(room_id, message.message_id);
            break;
        case MenuItem::edit:
            choice.text = message.body;
            break;
        case MenuItem::add_task:
            choice.text = selected.empty() ? drawn_text : selected;
            break;
        default:
            break;
    }
    return choice;
}

bool MessageMenu::open(const RoomView& room, std::string_view room_id, std::string_view message_id,
                       std::string_view me) {
    target_.reset();
    if (room.room_id() != room_id) return false;
    const auto& messages = room.messages();
    const auto m = std::find_if(messages.begin(), messages.end(),
                                [&](const ChatMessage& x) { return x.message_id == message_id; });
    if (m == messages.end()) return false;
    const bool mine = !me.empty() && m->account.account_id == me;
    target_ = Target{std::string(room_id), std::string(message_id), menu_items(mine, service_event_key(m->body).has_value()),
                     ++opened_, std::string(selected_in(message_id))};
    return true;
}

bool MessageMenu::offers(MenuItem item) const {
    return target_ && std::find(target_->items.begin(), target_->items.end(), item) != target_->items.end();
}

void MessageMenu::set_selection(std::string text, std::vector<std::string> message_ids) {
    selected_ = std::move(text);
    selected_ids_ = std::move(message_ids);
}

std::string_view MessageMenu::selected_in(std::string_view message_id) const {
    return selected_ids_.size() == 1 && selected_ids_[0] == message_id ? std::string_view(selected_) : "";
}

void MessageMenu::hand_off(MenuChoice choice) {
    ++handoff_.seq;
    handoff_.choice = std::move(choice);
}

}  // namespace roomkey::app
