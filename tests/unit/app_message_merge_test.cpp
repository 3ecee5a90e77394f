// app_message_merge_test.cpp: the open room's merge of GET .../messages
// answers (app/message_merge.hpp): a poll's force=0 answers in order, a 204
// (nothing new), repeats, an edited message, and the cap; when a poll reads
// the latest instead. The live service's rule these answers follow is the
// RAML's (chatwork/api RAML/api-ja.raml, GET /rooms/{room_id}/messages):
// "パラメータ未指定だと前回取得分からの差分のみを返します" (force=0: only what
// the previous read did not return) and force=1 "未取得にかかわらず最新の100件";
// the 204 and the cursor per account are the sandbox's choices (docs/sandbox.md).
#include <gtest/gtest.h>

#include "app/message_merge.hpp"

namespace roomkey::app {
namespace {

ChatMessage msg(std::string id, std::int64_t sent, std::string body = "hi", std::int64_t updated = 0) {
    ChatMessage m;
    m.message_id = std::move(id);
    m.send_time = sent;
    m.body = std::move(body);
    m.update_time = updated;
    return m;
}

std::vector<std::string> ids(const std::vector<ChatMessage>& ms) {
    std::vector<std::string> out;
    for (const ChatMessage& m : ms) out.push_back(m.message_id);
    return out;
}

TEST(MessageMerge, PollAnswersJoinInOrderAfterTheFirstRead) {
    std::vector<ChatMessage> shown;
    auto first = merge_message_answer(shown, {msg("10", 100), msg("11", 101)}, 500);
    EXPECT_EQ(ids(first.fresh), (std::vector<std::string>{"10", "11"}));
    auto poll = merge_message_answer(shown, {msg("12", 102)}, 500);
    EXPECT_EQ(ids(poll.fresh), (std::vector<std::string>{"12"}));
    poll = merge_message_answer(shown, {msg("13", 103), msg("14", 103)}, 500);
    EXPECT_EQ(ids(shown), (std::vector<std::string>{"10", "11", "12", "13", "14"}))
        << "oldest first; within one second in arrival order";
}

TEST(MessageMerge, A204ChangesNothing) {
    std::vector<ChatMessage> shown{msg("10", 100), msg("11", 101)};
    const auto merged = merge_message_answer(shown, {}, 500);
    EXPECT_TRUE(merged.fresh.empty());
    EXPECT_TRUE(merged.edited.empty());
    EXPECT_EQ(ids(shown), (std::vector<std::string>{"10", "11"}));
}

TEST(MessageMerge, RepeatsAreNotNewAndALateAnswerSortsIn) {
    std::vector<ChatMessage> shown{msg("10", 100), msg("12", 102)};
    const auto merged = merge_message_answer(shown, {msg("12", 102), msg("11", 101), msg("11", 101)}, 500);
    EXPECT_EQ(ids(merged.fresh), (std::vector<std::string>{"11"})) << "each message once";
    EXPECT_EQ(ids(shown), (std::vector<std::string>{"10", "11", "12"}));
}

TEST(MessageMerge, AnEditedMessageTakesItsNewBodyInPlace) {
    std::vector<ChatMessage> shown{msg("10", 100, "before"), msg("11", 101)};
    auto merged = merge_message_answer(shown, {msg("10", 100, "after", 150)}, 500);
    EXPECT_TRUE(merged.fresh.empty()) << "an edit is not a new message";
    EXPECT_EQ(merged.edited, (std::vector<std::string>{"10"}));
    EXPECT_EQ(shown[0].body, "after");
    EXPECT_EQ(shown[0].update_time, 150);
    merged = merge_message_answer(shown, {msg("10", 100, "before")}, 500);
    EXPECT_EQ(shown[0].body, "after") << "an older copy does not undo the edit";
    EXPECT_TRUE(merged.edited.empty());
}

TEST(MessageMerge, KeepsTheNewestUpToTheCap) {
    std::vector<ChatMessage> shown{msg("10", 100), msg("11", 101)};
    merge_message_answer(shown, {msg("12", 102), msg("13", 103)}, 3);
    EXPECT_EQ(ids(shown), (std::vector<std::string>{"11", "12", "13"}));
}

// Another reader of the account moved the service's cursor past messages
// this room never showed: the room list says the room changed after them.
TEST(PollReadsLatest, OnlyWhenTheRoomListSaysTheRoomChangedAfterWhatIsShown) {
    std::vector<ChatMessage> shown{msg("10", 100), msg("11", 150)};
    Room room;
    room.room_id = "7";
    room.last_update_time = 150;
    std::vector<Room> rooms{room};
    std::int64_t read_for = 0;
    EXPECT_FALSE(poll_reads_latest(shown, nullptr, "7", read_for)) << "no room list yet";
    EXPECT_FALSE(poll_reads_latest(shown, &rooms, "7", read_for)) << "nothing after the newest shown";
    rooms[0].last_update_time = 200;
    EXPECT_TRUE(poll_reads_latest(shown, &rooms, "7", read_for)) << "the room changed after it: read the latest";
    EXPECT_FALSE(poll_reads_latest(shown, &rooms, "7", read_for)) << "that change is read once";
    EXPECT_FALSE(poll_reads_latest(shown, &rooms, "8", read_for)) << "another room's list entry";
    shown.push_back(msg("12", 250));
    rooms[0].last_update_time = 250;
    EXPECT_FALSE(poll_reads_latest(shown, &rooms, "7", read_for)) << "the poll brought it";
}

}  // namespace
}  // namespace roomkey::app
