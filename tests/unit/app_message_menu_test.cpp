// app_message_menu_test.cpp: a message's menu (web/app/message_menu.hpp):
// the items each message offers (Edit and Delete on your own only, never on
// the service's events), what each choice hands on (the text as read, the
// service's link, the selected part for Quote), the page API's names and
// the workspace's quote of a selected part.
#include "app/message_menu.hpp"

#include <gtest/gtest.h>

#include "app/intents.hpp"
#include "app/workspace.hpp"
#include "chat_message.hpp"
#include "roomkey/links.hpp"
#include "roomkey/notation.hpp"

namespace roomkey::app {
namespace message_menu_test {

const auto& message = roomkey::testing::chat_message;  // tests/support/chat_message.hpp

RoomView room() {
    RoomView view;
    view.open("2100", "Launch");
    view.merge_messages({message("5", "1002", "Bob", "[To:1001]Alice さん\nhello there", 1700000000),
                         message("6", "1001", "Alice", "mine", 1700000100),
                         message("7", "1001", "Alice", "[info][title][dtext:chatroom_chat_edited][/title]Plans[/info]",
                                 1700000200)});
    return view;
}

using Items = std::vector<MenuItem>;

TEST(MessageMenu, EditAndDeleteOnYourOwnMessagesOnly) {
    MessageMenu menu;
    const RoomView view = room();
    ASSERT_TRUE(menu.open(view, "2100", "5", "1001"));
    EXPECT_EQ(menu.target()->items, (Items{MenuItem::reply, MenuItem::quote, MenuItem::copy_text,
                                           MenuItem::copy_link, MenuItem::add_task}));
    EXPECT_FALSE(menu.offers(MenuItem::edit));
    ASSERT_TRUE(menu.open(view, "2100", "6", "1001"));
    EXPECT_EQ(menu.target()->items,
              (Items{MenuItem::reply, MenuItem::quote, MenuItem::copy_text, MenuItem::copy_link, MenuItem::edit,
                     MenuItem::remove, MenuItem::add_task}));
    EXPECT_TRUE(menu.offers(MenuItem::remove));
    ASSERT_TRUE(menu.open(view, "2100", "7", "1001"));
    EXPECT_FALSE(menu.offers(MenuItem::edit)) << "the service's own event is not the user's to edit";
    EXPECT_FALSE(menu.offers(MenuItem::remove));
}

TEST(MessageMenu, OpensOnlyOnALoadedMessageOfTheOpenRoomAndEachOpeningIsNew) {
    MessageMenu menu;
    const RoomView view = room();
    ASSERT_TRUE(menu.open(view, "2100", "5", "1001"));
    const std::uint64_t first = menu.target()->seq;
    ASSERT_TRUE(menu.open(view, "2100", "5", "1001"));
    EXPECT_GT(menu.target()->seq, first) << "the UI places each opening once";
    EXPECT_FALSE(menu.open(view, "2100", "99", "1001")) << "a message not loaded";
    EXPECT_FALSE(menu.target());
    EXPECT_FALSE(menu.open(view, "2200", "5", "1001")) << "a room not open";
    EXPECT_FALSE(menu.offers(MenuItem::reply)) << "nothing is offered while closed";
}

TEST(MessageMenu, EachChoiceCarriesWhatItsOwnerTakes) {
    const RoomView view = room();
    const ChatMessage& m = view.messages()[0];
    const std::string drawn = "To Alice さん\nhello there";
    EXPECT_EQ(menu_choice(MenuItem::copy_text, "2100", m, drawn, "").text, drawn) << "the text as the reader sees it";
    EXPECT_EQ(menu_choice(MenuItem::copy_text, "2100", m, drawn, "hello").text, "hello") << "the selection";
    const std::string link = menu_choice(MenuItem::copy_link, "2100", m, drawn, "").text;
    EXPECT_EQ(link, "https://www.chatwork.com/#!rid2100-5");
    ASSERT_EQ(find_links(link).size(), 1u) << "the link reads back as a link";
    EXPECT_EQ(menu_choice(MenuItem::edit, "2100", m, drawn, "hello").text, m.body) << "edit takes the body as written";
    EXPECT_EQ(menu_choice(MenuItem::add_task, "2100", m, drawn, "").text, drawn);
    EXPECT_EQ(menu_choice(MenuItem::quote, "2100", m, drawn, "").text, "") << "the whole message";
    const MenuChoice reply = menu_choice(MenuItem::reply, "2100", m, drawn, "");
    EXPECT_EQ(reply.room_id, "2100");
    EXPECT_EQ(reply.message_id, "5");
}

TEST(MessageMenu, TheSelectionCountsOnlyInsideTheMenusMessage) {
    MessageMenu menu;
    menu.set_selection("hello", {"5"});
    EXPECT_EQ(menu.selected_in("5"), "hello");
    EXPECT_EQ(menu.selected_in("6"), "");
    menu.set_selection("there mine", {"5", "6"});
    EXPECT_EQ(menu.selected_in("5"), "") << "a selection across two messages is not a quote of one";
}

TEST(MessageMenu, TheMenuKeepsWhatWasSelectedWhenItOpened) {
    // A press on the menu's own item clears the page's selection before the
    // choice arrives: Quote still takes the part the user had selected.
    const RoomView view = room();
    MessageMenu menu;
    menu.set_selection("hello", {"5"});
    ASSERT_TRUE(menu.open(view, "2100", "5", "1001"));
    menu.set_selection("", {});
    ASSERT_TRUE(menu.target().has_value());
    EXPECT_EQ(menu.target()->selected, "hello");
    ASSERT_TRUE(menu.open(view, "2100", "5", "1001"));
    EXPECT_EQ(menu.target()->selected, "") << "a menu opened with nothing selected quotes the whole message";
}

TEST(MessageMenu, HandOffsMoveOn) {
    MessageMenu menu;
    EXPECT_EQ(menu.handoff().seq, 0u);
    menu.hand_off(MenuChoice{MenuItem::edit, "2100", "6", "mine"});
    EXPECT_EQ(menu.handoff().seq, 1u);
    EXPECT_EQ(menu.handoff().choice.item, MenuItem::edit);
    EXPECT_EQ(menu.handoff().choice.text, "mine");
}

TEST(MessageMenu, QuoteOfASelectedPartKeepsTheAuthorAndTime) {
    Workspace ws;
    const RoomView view = room();
    ASSERT_TRUE(ws.quote(view, "5", "hello"));
    EXPECT_EQ(ws.composer_fill().text, "[qt][qtmeta aid=1002 time=1700000000]hello[/qt]\n");
    const notation::Parts parts = notation::parse(ws.composer_fill().text);
    ASSERT_FALSE(parts.parts.empty());
    EXPECT_EQ(parts.parts[0].kind, notation::PartKind::quote);
}

TEST(MessageMenu, PageApiNamesReadBackAndABadItemIsNamed) {
    for (const char* name : {"reply", "quote", "copy_text", "copy_link", "edit", "delete", "add_task"}) {
        const auto item = menu_item_named(name);
        ASSERT_TRUE(item) << name;
        EXPECT_EQ(to_string(*item), name);
        auto parsed = parse_action(std::string(R"({"type":"message_menu_choose","item":")") + name + "\"}");
        ASSERT_TRUE(parsed) << parsed.error();
        EXPECT_EQ(std::get<intent::MessageMenu>(*parsed).item, item);
    }
    auto bad = parse_action(R"({"type":"message_menu_choose","item":"remove"})");
    ASSERT_FALSE(bad) << "not a page API name";
    EXPECT_NE(bad.error().find("copy_link"), std::string::npos) << bad.error();
    auto open = parse_action(R"({"type":"message_menu","room_id":2100,"message_id":"5"})");
    ASSERT_TRUE(open) << open.error();
    EXPECT_EQ(std::get<intent::MessageMenu>(*open).room_id, "2100");
    EXPECT_EQ(std::get<intent::MessageMenu>(*open).message_id, "5");
    EXPECT_FALSE(std::get<intent::MessageMenu>(*open).item) << "opening chooses nothing";
    bad = parse_action(R"({"type":"message_menu","room_id":"2100"})");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("message_id"), std::string::npos);
}

}  // namespace message_menu_test
}  // namespace roomkey::app
