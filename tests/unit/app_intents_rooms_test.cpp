// app_intents_rooms_test.cpp: the rooms' page API actions, spelled as the
// page (shell/page.js) sends them, read into intents; bad ones get an error naming the field.
#include <gtest/gtest.h>

#include "app/intents.hpp"

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_intents_rooms_test {
namespace {

template <class T>
T parsed(std::string_view text) {
    auto intent = parse_action(text);
    EXPECT_TRUE(intent) << text << ": " << (intent ? "" : intent.error());
    if (!intent) return T{};
    EXPECT_TRUE(std::holds_alternative<T>(*intent)) << text;
    return std::holds_alternative<T>(*intent) ? std::get<T>(*intent) : T{};
}

TEST(IntentsRooms, RoomActionsTakeIdsAsStringsOrNumbers) {
    EXPECT_EQ(parsed<intent::OpenRoom>(R"({"type":"open_room","room_id":"2100"})").room_id, "2100");
    EXPECT_EQ(parsed<intent::LoadMessages>(R"({"type":"load_messages","room_id":2100})").room_id, "2100");
    EXPECT_EQ(parsed<intent::MarkRead>(R"({"type":"mark_read","room_id":"2100"})").room_id, "2100");
    const auto done = parsed<intent::CompleteTask>(R"({"type":"complete_task","room_id":"2100","task_id":77})");
    EXPECT_EQ(done.room_id, "2100");
    EXPECT_EQ(done.task_id, "77");
    (void)parsed<intent::LoadMyTasks>(R"({"type":"load_my_tasks"})");
    (void)parsed<intent::LoadContacts>(R"({"type":"load_contacts"})");
    EXPECT_EQ(parsed<intent::AcceptRequest>(R"({"type":"accept_request","request_id":"9"})").request_id, "9");
    EXPECT_EQ(parsed<intent::DeclineRequest>(R"({"type":"decline_request","request_id":9})").request_id, "9");
}

TEST(IntentsRooms, MissingIdsAreNamed) {
    auto bad = parse_action(R"({"type":"complete_task","room_id":"2100"})");
    ASSERT_FALSE(bad) << "complete_task without task_id was accepted";
    EXPECT_NE(bad.error().find("task_id"), std::string::npos);
    bad = parse_action(R"({"type":"open_room"})");
    ASSERT_FALSE(bad) << "open_room without room_id was accepted";
    EXPECT_NE(bad.error().find("room_id"), std::string::npos);
}

TEST(IntentsRooms, ApiCallReadsMethodPathAndParams) {
    const auto call = parsed<intent::ConsoleCall>(
        R"({"type":"api_call","method":"POST","path":"/rooms/{room_id}/messages","params":{"room_id":2100,"body":"hi"}})");
    EXPECT_EQ(call.method, Method::Post);
    EXPECT_EQ(call.path, "/rooms/{room_id}/messages");
    EXPECT_EQ(call.params, (FormFields{{"body", "hi"}, {"room_id", "2100"}}));
    EXPECT_FALSE(call.confirmed);
    EXPECT_TRUE(parsed<intent::ConsoleCall>(
                    R"({"type":"api_call","method":"DELETE","path":"/rooms/1","params":{},"confirmed":true})")
                    .confirmed);

    auto bad = parse_action(R"({"type":"api_call","method":"PATCH","path":"/me"})");
    ASSERT_FALSE(bad) << "api_call with PATCH was accepted";
    EXPECT_NE(bad.error().find("GET, POST, PUT or DELETE"), std::string::npos);
    bad = parse_action(R"({"type":"api_call","method":"GET","path":"/me","params":{"x":[1]}})");
    ASSERT_FALSE(bad) << "an array parameter was accepted";
    EXPECT_NE(bad.error().find("\"x\""), std::string::npos);
}

TEST(IntentsRooms, AddScopesAndTheConsoleQuestion) {
    EXPECT_EQ(parsed<intent::AddScopes>(R"({"type":"add_scopes","scope":"contacts.all:read"})").scope,
              "contacts.all:read");
    (void)parsed<intent::ConfirmConsoleCall>(R"({"type":"confirm_api_call"})");
    (void)parsed<intent::CancelConsoleCall>(R"({"type":"cancel_api_call"})");
    EXPECT_FALSE(parse_action(R"({"type":"add_scopes","scope":""})"));
    EXPECT_FALSE(parse_action(R"({"type":"set_page_visible","visible":false})")) << "the platform's, not the page's";
}

}  // namespace
}  // namespace app_intents_rooms_test
}  // namespace roomkey::app
