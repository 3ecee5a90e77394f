// app_workspace_test.cpp: the workspace's own state (web/app/workspace.hpp):
// the view, the composer's fills for a reply, a quote and a mention (read
// back with the notation parser), mention counts that rise making alerts
// and the title's count.
#include "app/workspace.hpp"

#include <gtest/gtest.h>

#include "chat_message.hpp"
#include "roomkey/message_tags.hpp"

namespace roomkey::app {
namespace workspace_test {

const auto& message = roomkey::testing::chat_message;  // tests/support/chat_message.hpp

Room room(std::string id, std::string name, std::int64_t mentions) {
    Room r;
    r.room_id = std::move(id);
    r.name = std::move(name);
    r.mention_num = mentions;
    return r;
}

RoomView open_room() {
    RoomView view;
    view.open("2100", "Launch");
    view.merge_messages({message("5", "1002", "Bob", "hello there", 1700000000)});
    RoomMember bob;
    bob.account_id = "1002";
    bob.name = "Bob";
    view.set_members({bob});
    return view;
}

TEST(Workspace, StartsInTheWorkspaceAndSwitchesViews) {
    Workspace ws;
    EXPECT_EQ(ws.view(), View::workspace);
    EXPECT_EQ(to_string(ws.view()), "workspace");
    ws.show(View::developer);
    EXPECT_EQ(to_string(ws.view()), "developer");
}

TEST(Workspace, ReplyFillsTheComposerWithTheReplyTagFirst) {
    Workspace ws;
    const RoomView view = open_room();
    ASSERT_TRUE(ws.reply(view, "5")) << "no reply to message 5 in the open room";
    const ComposerFill& fill = ws.composer_fill();
    EXPECT_EQ(fill.seq, 1u);
    EXPECT_TRUE(fill.replace);
    const auto target = reply_target(fill.text);
    ASSERT_TRUE(target) << fill.text;
    EXPECT_EQ(target->account_id, "1002");
    EXPECT_EQ(target->room_id, "2100");
    EXPECT_EQ(target->message_id, "5");
    EXPECT_FALSE(ws.reply(view, "6")) << "a message not loaded";
    EXPECT_EQ(ws.composer_fill().seq, 1u);
}

TEST(Workspace, QuoteAndMentionAppend) {
    Workspace ws;
    const RoomView view = open_room();
    ASSERT_TRUE(ws.quote(view, "5")) << "no quote of message 5 in the open room";
    EXPECT_FALSE(ws.composer_fill().replace);
    EXPECT_EQ(ws.composer_fill().text, "[qt][qtmeta aid=1002 time=1700000000]hello there[/qt]\n");
    ASSERT_TRUE(ws.mention(view, "1002")) << "no mention of account 1002 in the open room";
    EXPECT_EQ(ws.composer_fill().text, "[To:1002]Bob\n");
    EXPECT_EQ(ws.composer_fill().seq, 2u);
}

TEST(Workspace, RisingMentionsMakeRisesOnlyWhenEnabledAndGranted) {
    Workspace ws;
    ws.on_rooms({room("1", "Launch", 0), room("2", "Ops", 1)});
    EXPECT_EQ(ws.title(), "(1) roomkey");
    EXPECT_TRUE(ws.take_rises().empty()) << "the first list is the baseline";
    ws.on_rooms({room("1", "Launch", 1), room("2", "Ops", 1)});
    EXPECT_TRUE(ws.take_rises().empty()) << "notifications are off";
    EXPECT_EQ(ws.title(), "(2) roomkey");
    ws.set_notifications(true);
    ws.set_permission("granted");
    ws.on_rooms({room("1", "Launch", 3), room("2", "Ops", 0)});
    const auto rises = ws.take_rises();
    ASSERT_EQ(rises.size(), 1u);
    EXPECT_EQ(rises[0].room_id, "1");
    EXPECT_EQ(rises[0].name, "Launch");
    EXPECT_EQ(rises[0].more, 2);
    EXPECT_TRUE(ws.take_alerts().empty()) << "an alert waits for the mention's text";
    ws.alert(rises[0], std::string("Bob: To Alice lunch"));
    ws.alert(rises[0], std::nullopt);
    const auto alerts = ws.take_alerts();
    ASSERT_EQ(alerts.size(), 2u);
    EXPECT_EQ(alerts[0].title, "Launch");
    EXPECT_EQ(alerts[0].text, "Bob: To Alice lunch");
    EXPECT_EQ(alerts[1].text, "2 new mentions in Launch") << "unread: the count";
    ws.on_rooms({room("1", "Launch", 0), room("2", "Ops", 0)});
    EXPECT_EQ(ws.title(), "roomkey");
}

}  // namespace workspace_test
}  // namespace roomkey::app
