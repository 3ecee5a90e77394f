// app_intents_test.cpp: the page API's JSON actions read into the intents the
// UI also produces (web/app/intents.hpp).
#include "app/intents.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_intents_test {
namespace {

TEST(AppIntents, SignInReadsAScopeList) {
    auto intent = parse_action(R"({"type":"sign_in","scope":"users.all:read rooms.all:read_write"})");
    ASSERT_TRUE(intent) << intent.error();
    const auto* sign_in = std::get_if<intent::SignIn>(&*intent);
    ASSERT_NE(sign_in, nullptr);
    EXPECT_EQ(sign_in->scopes, (ScopeSet{"users.all:read", "rooms.all:read_write"}));
}

// spec 5.5: only catalog scope names.
TEST(AppIntents, UnknownScopeIsRefused) {
    auto intent = parse_action(R"({"type":"sign_in","scope":"users.all:read nope:write"})");
    ASSERT_FALSE(intent) << "an unknown scope was accepted";
    EXPECT_NE(intent.error().find("nope:write"), std::string::npos) << intent.error();
}

TEST(AppIntents, PostMessageTakesIdsAsStringsOrNumbers) {
    auto a = parse_action(R"({"type":"post_message","room_id":"7","body":"hi","count":30})");
    ASSERT_TRUE(a) << a.error();
    const auto* message = std::get_if<intent::QueueMessage>(&*a);
    ASSERT_NE(message, nullptr);
    EXPECT_EQ(message->room_id, "7");
    EXPECT_EQ(message->count, 30);
    auto b = parse_action(R"({"type":"post_message","room_id":12345678901234,"body":"x"})");
    ASSERT_TRUE(b) << b.error();
    EXPECT_EQ(std::get<intent::QueueMessage>(*b).room_id, "12345678901234") << "large ids kept exactly";
    EXPECT_EQ(std::get<intent::QueueMessage>(*b).count, 1);
}

TEST(AppIntents, BurstIsBounded) {
    EXPECT_FALSE(parse_action(R"({"type":"post_message","room_id":"7","body":"x","count":0})"));
    EXPECT_FALSE(parse_action(R"({"type":"post_message","room_id":"7","body":"x","count":101})"));
    EXPECT_FALSE(parse_action(R"({"type":"post_message","room_id":-1,"body":"x"})"));
}

// Any script on the page can call act(): an id that is not the service's
// (digits) is refused with the field named, before a path is built from it.
TEST(AppIntents, IdsMustBeTheServicesIds) {
    for (const char* room : {R"("../me")", R"("7/messages")", R"("007")", R"("")", R"("1e3")", "1.5", "true"}) {
        const auto parsed = parse_action(std::string(R"({"type":"post_message","body":"x","room_id":)") + room + "}");
        ASSERT_FALSE(parsed) << room;
        EXPECT_NE(parsed.error().find("\"room_id\" must be an id"), std::string::npos) << parsed.error();
    }
    const auto task = parse_action(R"({"type":"post_task","room_id":"7","body":"do","to_ids":["1","x"]})");
    ASSERT_FALSE(task) << "a non-numeric to_id was accepted";
    EXPECT_NE(task.error().find("to_ids"), std::string::npos) << task.error();
    EXPECT_TRUE(parse_action(R"({"type":"post_message","room_id":"18446744073709551615","body":"x"})"));
}

TEST(AppIntents, PostTaskReadsAssigneesAndDueDate) {
    auto a = parse_action(
        R"({"type":"post_task","room_id":"7","body":"do","to_ids":["1",2],"limit":1700000000,"limit_type":"time"})");
    ASSERT_TRUE(a) << a.error();
    const auto& task = std::get<intent::QueueTask>(*a);
    EXPECT_EQ(task.to_ids, (std::vector<std::string>{"1", "2"}));
    EXPECT_EQ(task.limit, 1700000000);
    EXPECT_EQ(task.limit_type, TaskLimitType::time);
    auto b = parse_action(R"({"type":"post_task","room_id":"7","body":"do","to_ids":["1"],"limit_type":"later"})");
    EXPECT_FALSE(b);
}

TEST(AppIntents, MalformedActionsSayWhy) {
    EXPECT_FALSE(parse_action("not json"));
    EXPECT_FALSE(parse_action("[1]"));
    EXPECT_FALSE(parse_action(R"({"kind":"sign_out"})"));
    auto unknown = parse_action(R"({"type":"launch_rockets"})");
    ASSERT_FALSE(unknown) << "an unknown type was accepted";
    EXPECT_NE(unknown.error().find("launch_rockets"), std::string::npos);
    EXPECT_FALSE(parse_action(R"({"type":"use_api_token","token":""})"));
    EXPECT_FALSE(parse_action(R"({"type":"set_reveal","on":"yes"})"));
}

// Revealing secrets is reachable from the UI only: the page API is open to
// every script on the page, so it must not switch the log to unmasked text.
TEST(AppIntents, PageApiCannotRevealSecrets) {
    auto reveal = parse_action(R"({"type":"set_reveal","on":true})");
    ASSERT_FALSE(reveal) << "set_reveal is not a page API action";
    EXPECT_NE(reveal.error().find("not available through the page API"), std::string::npos) << reveal.error();
    std::vector<std::string> errors;
    const auto intents = parse_actions(R"([{"type":"set_reveal","on":true},{"type":"copy_curl","entry":3}])", errors);
    ASSERT_EQ(intents.size(), 1u);
    ASSERT_EQ(errors.size(), 1u);
    const auto* copy = std::get_if<intent::CopyCurl>(&intents[0]);
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->entry_id, 3u);
    EXPECT_FALSE(copy->may_reveal) << "a copy the page API asks for is always masked";
}

TEST(AppIntents, ListSkipsBadItemsAndReportsThem) {
    std::vector<std::string> errors;
    auto intents = parse_actions(R"([{"type":"sign_out"},{"type":"??"},{"type":"refresh_now"}])", errors);
    EXPECT_EQ(intents.size(), 2u);
    EXPECT_EQ(errors.size(), 1u);
    errors.clear();
    EXPECT_TRUE(parse_actions("{}", errors).empty());
    EXPECT_EQ(errors.size(), 1u);
}

// The workspace's actions, spelled as the page API (shell/page.js) spells them.
TEST(AppIntents, WorkspaceActions) {
    auto view = parse_action(R"({"type":"show_view","view":"developer"})");
    ASSERT_TRUE(view) << view.error();
    EXPECT_TRUE(std::get<intent::ShowView>(*view).developer);
    EXPECT_FALSE(parse_action(R"({"type":"show_view","view":"other"})"));
    auto filter = parse_action(R"({"type":"set_room_filter","text":"launch"})");
    ASSERT_TRUE(filter) << filter.error();
    EXPECT_EQ(std::get<intent::SetRoomFilter>(*filter).text, "launch");
    auto reply = parse_action(R"({"type":"reply","room_id":"2100","message_id":5})");
    ASSERT_TRUE(reply) << reply.error();
    EXPECT_EQ(std::get<intent::Reply>(*reply).message_id, "5");
    ASSERT_TRUE(parse_action(R"({"type":"quote","room_id":"2100","message_id":"5"})")) << "quote was refused";
    ASSERT_TRUE(parse_action(R"({"type":"mention","account_id":"1002"})")) << "mention was refused";
    auto edit = parse_action(R"({"type":"edit_message","room_id":"2100","message_id":"5","body":"new"})");
    ASSERT_TRUE(edit) << edit.error();
    EXPECT_EQ(std::get<intent::EditMessage>(*edit).body, "new");
    EXPECT_FALSE(parse_action(R"({"type":"edit_message","room_id":"2100","message_id":"5"})")) << "no body";
    ASSERT_TRUE(parse_action(R"({"type":"delete_message","room_id":"2100","message_id":"5"})"))
        << "delete_message was refused";
    auto reopen = parse_action(R"({"type":"reopen_task","room_id":"2100","task_id":"9"})");
    ASSERT_TRUE(reopen) << reopen.error();
    EXPECT_EQ(std::get<intent::ReopenTask>(*reopen).task_id, "9");
    auto notify = parse_action(R"({"type":"set_notifications","on":true})");
    ASSERT_TRUE(notify) << notify.error();
    EXPECT_TRUE(std::get<intent::SetNotifications>(*notify).on);
    EXPECT_FALSE(parse_action(R"({"type":"reply","room_id":"../me","message_id":"5"})"));
}

// The conversation's selection, as a script asks for it: positions in the
// message's text, never backwards, never negative; a refusal says which.
TEST(AppIntents, SelectTextAndCopySelection) {
    auto select = parse_action(R"({"type":"select_text","room_id":"2100","message_id":5,"start":7,"end":11})");
    ASSERT_TRUE(select) << select.error();
    const auto& s = std::get<intent::SelectText>(*select);
    EXPECT_EQ(s.room_id, "2100");
    EXPECT_EQ(s.message_id, "5");
    EXPECT_EQ(s.start, 7u);
    EXPECT_EQ(s.end, 11u);
    auto backwards = parse_action(R"({"type":"select_text","room_id":"2100","message_id":"5","start":9,"end":2})");
    ASSERT_FALSE(backwards);
    EXPECT_NE(backwards.error().find("\"end\" is before \"start\""), std::string::npos) << backwards.error();
    auto negative = parse_action(R"({"type":"select_text","room_id":"2100","message_id":"5","start":-1,"end":2})");
    ASSERT_FALSE(negative);
    EXPECT_NE(negative.error().find("\"start\""), std::string::npos) << negative.error();
    EXPECT_FALSE(parse_action(R"({"type":"select_text","room_id":"2100","message_id":"5","start":0})")) << "no end";
    EXPECT_FALSE(parse_action(R"({"type":"select_text","room_id":"x","message_id":"5","start":0,"end":1})"));
    auto copy = parse_action(R"({"type":"copy_selection"})");
    ASSERT_TRUE(copy) << copy.error();
    EXPECT_TRUE(std::holds_alternative<intent::CopySelection>(*copy));
}

}  // namespace
}  // namespace app_intents_test
}  // namespace roomkey::app
