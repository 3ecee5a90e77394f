// api_records_test.cpp: readers of the room, task and contact endpoints, fed
// the JSON the sandbox (helper/sandbox/api_handlers.cpp) and the service send.
#include "roomkey/api_records.hpp"

#include <gtest/gtest.h>

#include "json_answer.hpp"

#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace api_records_test {
namespace {

using testing::json_answer;

HttpResponse no_content() {
    return HttpResponse{204, {}, ""};
}

TEST(ReadMessages, KeepsMessageIdsExactAboveTwoToThe53) {
    // 2^53 + 1 as a JSON number would round to 2^53 in a double; as a string it is text.
    const auto r = read_messages(json_answer(R"([
        {"message_id":"9007199254740993","account":{"account_id":201,"name":"Bob","avatar_image_url":"https://a/b.png"},
         "body":"hello","send_time":1700000000,"update_time":0},
        {"message_id":9007199254740995,"account":{"account_id":"202","name":"Carol"},"body":"[info]x[/info]",
         "send_time":1700000001}])"));
    ASSERT_TRUE(r) << to_string(r.error());
    ASSERT_EQ(r->size(), 2u);
    EXPECT_EQ((*r)[0].message_id, "9007199254740993");
    EXPECT_EQ((*r)[0].account.account_id, "201");
    EXPECT_EQ((*r)[0].account.name, "Bob");
    EXPECT_EQ((*r)[0].body, "hello");
    EXPECT_EQ((*r)[0].send_time, 1700000000);
    EXPECT_EQ((*r)[1].message_id, "9007199254740995") << "a JSON integer is read exactly too";
    EXPECT_EQ((*r)[1].account.account_id, "202");
}

TEST(ReadMessages, NoContentIsAnEmptyList) {
    const auto r = read_messages(no_content());
    ASSERT_TRUE(r) << to_string(r.error());
    EXPECT_TRUE(r->empty());
}

// chatwork-mcp-server commit bc8075c: the service's JSON text escapes every
// non-ASCII character (emoji as surrogate pairs) and '/'. The reader gives the
// text back as UTF-8.
TEST(ReadMessages, UnicodeEscapesAndEscapedSlashesAreReadAsText_mcp) {
    const auto read = read_messages(json_answer(
        R"([{"message_id":"1600000000000000001","account":{"account_id":1002,"name":"\u30dc\u30d6",)"
        R"("avatar_image_url":"https:\/\/example.com\/a.png"},"body":"\u4f1a\u8b70 14:00\/15:00 \ud83d\ude00",)"
        R"("send_time":1700000000,"update_time":0}])"));
    ASSERT_TRUE(read) << to_string(read.error());
    ASSERT_EQ(read->size(), 1u);
    EXPECT_EQ((*read)[0].body, "\xE4\xBC\x9A\xE8\xAD\xB0 14:00/15:00 \xF0\x9F\x98\x80");
    EXPECT_EQ((*read)[0].account.name, "\xE3\x83\x9C\xE3\x83\x96");
}

// RAML: PUT /messages/read is a 400 when nothing is unread; the room is read.
TEST(ReadAnswers, MarkReadOnAReadRoomIsZeroCounts_RAML) {
    HttpResponse already = json_answer(R"({"errors":["already read"]})");
    already.status = 400;
    EXPECT_TRUE(is_already_read_answer(already));
    const auto counts = read_mark_read_answer(already);
    ASSERT_TRUE(counts) << to_string(counts.error());
    EXPECT_EQ(counts->unread_num, 0);
    EXPECT_EQ(counts->mention_num, 0);
    const auto fresh = read_mark_read_answer(json_answer(R"({"unread_num":3,"mention_num":1})"));
    ASSERT_TRUE(fresh) << to_string(fresh.error());
    EXPECT_EQ(fresh->unread_num, 3);
    HttpResponse denied = json_answer(R"({"errors":["no"]})");
    denied.status = 403;
    EXPECT_FALSE(read_mark_read_answer(denied));
}

TEST(ReadMessages, RefusesWhatWouldShowWrong) {
    EXPECT_EQ(
        read_messages(json_answer(R"([{"message_id":1.5,"account":{"account_id":1},"body":"x","send_time":1}])")).error().field,
        "[0].message_id");
    EXPECT_EQ(read_messages(json_answer(R"([{"message_id":"5","body":"x","send_time":1}])")).error().kind,
              ApiReadErrorKind::missing_field);
    EXPECT_EQ(read_messages(json_answer(R"([{"message_id":"5","account":{"account_id":"01"},"body":"x","send_time":1}])"))
                  .error()
                  .field,
              "[0].account.account_id");
    EXPECT_EQ(read_messages(json_answer(R"({"message_id":"5"})")).error().kind, ApiReadErrorKind::not_array);
    EXPECT_EQ(read_messages(HttpResponse{403, {}, R"({"errors":["x"]})"}).error().kind, ApiReadErrorKind::http_status);
}

TEST(ReadTasks, RoomTasksAndMyTasks) {
    const auto room = read_tasks(json_answer(R"([{"task_id":31,"account":{"account_id":101,"name":"Alice"},
        "assigned_by_account":{"account_id":201,"name":"Bob"},"message_id":"77","body":"Review",
        "limit_time":0,"status":"open","limit_type":"none"}])"));
    ASSERT_TRUE(room) << to_string(room.error());
    ASSERT_EQ(room->size(), 1u);
    EXPECT_EQ((*room)[0].task_id, "31");
    ASSERT_TRUE((*room)[0].account) << "the task has no account";
    EXPECT_EQ((*room)[0].account->name, "Alice");
    EXPECT_EQ((*room)[0].status, "open");
    EXPECT_EQ((*room)[0].message_id, "77");
    EXPECT_FALSE((*room)[0].room);

    const auto mine = read_tasks(json_answer(R"([{"task_id":"32","room":{"room_id":2100,"name":"Launch"},"body":"Ship",
        "status":"done"}])"));
    ASSERT_TRUE(mine) << to_string(mine.error());
    ASSERT_TRUE((*mine)[0].room) << "the task has no room";
    EXPECT_EQ((*mine)[0].room->room_id, "2100");
    EXPECT_EQ((*mine)[0].room->name, "Launch");
    EXPECT_EQ((*mine)[0].status, "done");

    EXPECT_EQ(read_tasks(json_answer(R"([{"task_id":"32","body":"x","status":"finished"}])")).error().kind,
              ApiReadErrorKind::invalid_value)
        << "a status we cannot show as open or done";
}

TEST(ReadMembersFilesContacts, ReadTheSandboxShapes) {
    const auto members = read_members(json_answer(R"([{"account_id":101,"room_id":1,"name":"Alice","chatwork_id":"alice",
        "organization_id":101,"role":"admin"},{"account_id":201,"name":"Bob","role":"readonly"}])"));
    ASSERT_TRUE(members) << to_string(members.error());
    ASSERT_EQ(members->size(), 2u);
    EXPECT_EQ((*members)[0].role, "admin");
    EXPECT_EQ((*members)[1].name, "Bob");
    EXPECT_EQ(read_members(json_answer(R"([{"account_id":1,"name":"A"}])")).error().field, "[0].role");

    const auto files = read_files(json_answer(R"([{"file_id":5,"account":{"account_id":101,"name":"Alice"},
        "message_id":"9","filename":"plan.pdf","filesize":1024,"upload_time":1700000000}])"));
    ASSERT_TRUE(files) << to_string(files.error());
    EXPECT_EQ((*files)[0].file_id, "5");
    EXPECT_EQ((*files)[0].filename, "plan.pdf");
    EXPECT_EQ((*files)[0].filesize, 1024);
    EXPECT_TRUE(read_files(no_content())->empty());

    const auto contacts = read_contacts(json_answer(R"([{"account_id":301,"room_id":3001,"name":"Carol"}])"));
    ASSERT_TRUE(contacts) << to_string(contacts.error());
    EXPECT_EQ((*contacts)[0].account_id, "301");
    EXPECT_EQ((*contacts)[0].room_id, "3001");

    const auto requests = read_incoming_requests(
        json_answer(R"([{"request_id":7,"account_id":401,"name":"Dave","message":"Hi, add me","organization_name":"X"}])"));
    ASSERT_TRUE(requests) << to_string(requests.error());
    EXPECT_EQ((*requests)[0].request_id, "7");
    EXPECT_EQ((*requests)[0].name, "Dave");
    EXPECT_EQ((*requests)[0].message, "Hi, add me");
    EXPECT_EQ(read_incoming_requests(json_answer(R"([{"account_id":401,"name":"Dave"}])")).error().field, "[0].request_id");

    const auto accepted = read_accepted_request(json_answer(R"({"account_id":401,"name":"Dave"})"));
    ASSERT_TRUE(accepted) << to_string(accepted.error());
    EXPECT_EQ(accepted->name, "Dave");
}

TEST(ReadAnswers, MarkReadAndTaskStatus) {
    const auto counts = read_unread_counts(json_answer(R"({"unread_num":0,"mention_num":0})"));
    ASSERT_TRUE(counts) << to_string(counts.error());
    EXPECT_EQ(counts->unread_num, 0);
    EXPECT_EQ(read_unread_counts(json_answer(R"({"unread_num":-1,"mention_num":0})")).error().kind,
              ApiReadErrorKind::invalid_value);
    EXPECT_EQ(read_unread_counts(json_answer(R"({"mention_num":0})")).error().field, "unread_num");

    const auto task = read_task_status_answer(json_answer(R"({"task_id":31})"));
    ASSERT_TRUE(task) << to_string(task.error());
    EXPECT_EQ(*task, "31");
    EXPECT_FALSE(read_task_status_answer(json_answer("{}")));
}

}  // namespace
}  // namespace api_records_test
}  // namespace roomkey
