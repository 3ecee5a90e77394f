// room_view_test.cpp: the open room's state (web/app/room_view.hpp): merging
// polls by exact message_id, newest at the bottom, the page API's `room`
// names, the mirror's line, and errors clearing when a load succeeds.
#include "app/room_view.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace room_view_test {
namespace {

ChatMessage msg(std::string id, std::string name, std::string body, std::int64_t at) {
    ChatMessage m;
    m.message_id = std::move(id);
    m.account.account_id = "201";
    m.account.name = std::move(name);
    m.body = std::move(body);
    m.send_time = at;
    return m;
}

TEST(RoomView, PollsMergeByExactMessageIdNewestAtTheBottom) {
    RoomView view;
    view.open("2100", "Launch");
    auto first =
        view.merge_messages({msg("9007199254740993", "Bob", "one", 100), msg("9007199254740994", "Bob", "two", 101)});
    EXPECT_EQ(first.size(), 2u);
    // The next poll repeats the last message and adds one; ids differing only above 2^53 stay apart.
    auto second = view.merge_messages(
        {msg("9007199254740994", "Bob", "two", 101), msg("9007199254740995", "Carol", "three", 102)});
    ASSERT_EQ(second.size(), 1u);
    EXPECT_EQ(second[0].message_id, "9007199254740995");
    ASSERT_EQ(view.messages().size(), 3u);
    EXPECT_EQ(view.messages().back().body, "three");
    EXPECT_EQ(announce_new_messages(view, second), "1 new message in Launch: Carol: three");
    EXPECT_EQ(announce_new_messages(view, {}), "");
}

TEST(RoomView, RoomJsonUsesThePageApiNames) {
    RoomView view;
    EXPECT_EQ(room_json(view), "null");
    view.open("2100", "Launch");
    view.merge_messages({msg("9007199254740993", "Bob", "hi", 100)});
    ChatTask task;
    task.task_id = "31";
    task.body = "Review";
    task.status = "open";
    task.account = AccountBrief{"101", "Alice", std::nullopt};
    view.set_tasks({task});
    view.set_task_status("31", "done");
    view.set_members({RoomMember{"101", "Alice", "admin", std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                 std::nullopt, std::nullopt}});
    const auto room = nlohmann::json::parse(room_json(view));
    EXPECT_EQ(room["room_id"], "2100");
    EXPECT_EQ(room["name"], "Launch");
    EXPECT_EQ(room["messages"][0]["message_id"], "9007199254740993") << "a string, not a rounded number";
    EXPECT_EQ(room["messages"][0]["account_id"], "201");
    EXPECT_EQ(room["messages"][0]["name"], "Bob");
    EXPECT_EQ(room["messages"][0]["body"], "hi");
    EXPECT_EQ(room["messages"][0]["send_time"], 100);
    EXPECT_EQ(room["tasks"][0]["status"], "done");
    EXPECT_EQ(room["tasks"][0]["account_id"], "101");
    EXPECT_EQ(room["members"][0]["role"], "admin");
    EXPECT_TRUE(room["files"].is_array());
    EXPECT_EQ(room["loading"], false);
    EXPECT_EQ(room["error"], "");
}

TEST(RoomView, ErrorClearsWhenTheLoadLaterSucceedsAndOtherRoomsStartEmpty) {
    RoomView view;
    view.open("2100", "Launch");
    view.set_error("403: the grant lacks rooms.messages:read");
    EXPECT_NE(room_json(view).find("rooms.messages:read"), std::string::npos);
    view.merge_messages({msg("5", "Bob", "hi", 1)});
    EXPECT_EQ(view.error(), "");
    view.open("2100", "Launch (renamed)");
    EXPECT_EQ(view.messages().size(), 1u) << "the same room keeps its messages";
    view.open("2200", "Other");
    EXPECT_TRUE(view.messages().empty());
    view.close();
    EXPECT_FALSE(view.is_open());
}

// An edit the service took shows in place (a poll's answer too);
// a delete takes the message away.
TEST(RoomView, EditsAndDeletesShowInPlace) {
    RoomView view;
    view.open("2100", "Launch");
    view.merge_messages({msg("1", "Bob", "one", 100), msg("2", "Bob", "two", 101)});
    view.edit_message("1", "one, edited", 150);
    EXPECT_EQ(view.messages()[0].body, "one, edited");
    EXPECT_EQ(view.messages()[0].update_time.value_or(0), 150);
    ChatMessage again = msg("2", "Bob", "two, edited by Bob", 101);
    again.update_time = 160;
    EXPECT_TRUE(view.merge_messages({again}).empty()) << "not a new message";
    EXPECT_EQ(view.messages()[1].body, "two, edited by Bob");
    view.remove_message("1");
    ASSERT_EQ(view.messages().size(), 1u);
    EXPECT_EQ(view.messages()[0].message_id, "2");
}

// The page state rebuilds `room` by version(): every change bumps it, and
// it never comes back to a value shown before (not even for another room).
TEST(RoomView, EveryChangeBumpsTheVersion) {
    RoomView view;
    std::uint64_t last = view.version();
    auto changed = [&](const char* what) {
        EXPECT_GT(view.version(), last) << what;
        last = view.version();
    };
    view.open("2100", "Launch");
    changed("open");
    view.merge_messages({msg("1", "Bob", "one", 100)});
    changed("messages merged");
    view.edit_message("1", "one, edited", 120);
    changed("an edit");
    view.remove_message("1");
    changed("a delete");
    view.set_tasks({});
    changed("tasks");
    view.set_task_status("7", "done");
    changed("a task's status");
    view.set_members({});
    changed("members");
    view.set_files({});
    changed("files");
    view.set_upload({});
    changed("an upload");
    view.upload().sent = 10;
    changed("the upload changed in place");
    view.set_download({});
    changed("a download link");
    view.set_loading(true);
    changed("loading");
    view.set_error("broken");
    changed("an error");
    view.clear_error();
    changed("the error cleared");
    view.set_loading(true);
    EXPECT_EQ(view.version(), last) << "setting what is already so is no change";
    view.open("2101", "Other");
    changed("another room");
    view.close();
    changed("closed");
}

}  // namespace
}  // namespace room_view_test
}  // namespace roomkey::app
