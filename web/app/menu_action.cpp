// menu_action.cpp: a chosen menu item to its owner (menu_action.hpp).
#include "app/menu_action.hpp"

#include "app/i18n.hpp"
#include "app/message_view.hpp"

namespace roomkey::app {

MenuAction choose_menu_item(Features& features, MenuItem item, Instant now) {
    MessageMenu& menu = features.message_menu;
    const RoomView& room = features.open_room.view();
    if (!menu.offers(item)) return {Told{Words{"menu.not_offered", "item", std::string(to_string(item))}, std::nullopt, std::nullopt}, {}};
    const MessageMenu::Target target = *menu.target();
    menu.close();
    const ChatMessage* message = nullptr;
    for (const ChatMessage& m : room.messages()) {
        if (m.message_id == target.message_id) message = &m;
    }
    if (!message || room.room_id() != target.room_id) return {};  // the room changed under the menu
    const auto& account = features.dashboard.account().value;
    const auto& contacts = features.contacts.contacts().value;
    const DrawnMessage drawn =
        drawn_message(*message, account ? account->account_id : "", account_names(room, contacts ? &*contacts : nullptr),
                      unix_ms(now) / 1000, features.workspace.user_time());
    MenuChoice choice = menu_choice(item, target.room_id, *message, drawn.text, target.selected);
    switch (item) {
        case MenuItem::reply:
            features.workspace.reply(room, choice.message_id);
            break;
        case MenuItem::quote:
            features.workspace.quote(room, choice.message_id, choice.text);
            break;
        case MenuItem::copy_text:
        case MenuItem::copy_link:
            return {Told{Words{item == MenuItem::copy_text ? "menu.copied_text" : "menu.copied_link"},
                         std::move(choice.text), std::nullopt},
                    {}};
        case MenuItem::remove:
            return {std::nullopt, intent::DeleteMessage{choice.room_id, choice.message_id}};
        case MenuItem::edit:
        case MenuItem::add_task:
            menu.hand_off(std::move(choice));
            break;
    }
    return {};
}

}  // namespace roomkey::app
