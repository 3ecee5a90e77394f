// api_writers_test.cpp: the service's records written by shared/'s to_json
// (the sandbox's writer) and read back by the client's readers: each record
// round-trips, and the bytes are the service's (ids as numbers, message ids
// as strings, absent optional fields left out).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json_answer.hpp"
#include "roomkey/api.hpp"
#include "roomkey/api_records.hpp"
#include "roomkey/file_upload.hpp"

namespace roomkey {
namespace api_writers_test {
namespace {

using testing::json_answer;

TEST(ApiWriters, StatusIsTheSixCountsInTheSpecsOrder) {
    const MyStatus status{1, 2, 3, 4, 5, 6};
    const std::string text = to_json(status);
    EXPECT_EQ(text, R"({"unread_room_num":1,"mention_room_num":2,"mytask_room_num":3,"unread_num":4,"mention_num":5,)"
                    R"("mytask_num":6})");
    const auto back = read_status(json_answer(text));
    ASSERT_TRUE(back) << to_string(back.error());
    EXPECT_EQ(back->mytask_room_num, 3);
    EXPECT_EQ(back->mytask_num, 6);
}

TEST(ApiWriters, AccountWritesIdsAsNumbersAndReadsBack) {
    Account me;
    me.account_id = "201";
    me.room_id = "9001";
    me.name = "Alice";
    me.organization_id = "101";
    me.mail = "alice@example.test";
    me.skype = "";
    me.avatar_image_url = "https://a/201.png";
    const std::string text = to_json(me);
    EXPECT_EQ(text, R"({"account_id":201,"room_id":9001,"name":"Alice","organization_id":101,)"
                    R"("mail":"alice@example.test","skype":"","avatar_image_url":"https://a/201.png"})");
    const auto back = read_account(json_answer(text));
    ASSERT_TRUE(back) << to_string(back.error());
    EXPECT_EQ(back->account_id, "201");
    EXPECT_EQ(back->room_id, std::optional<std::string>("9001"));
    EXPECT_EQ(back->organization_id, std::optional<std::string>("101"));
    EXPECT_EQ(back->skype, std::optional<std::string>(""));
    EXPECT_FALSE(back->title) << "an absent field stays absent";
}

TEST(ApiWriters, AnIdBeyondSixtyFourBitsGoesBackAsTheSameString) {
    Account big;
    big.account_id = "99999999999999999999";  // 20 digits: over 2^64
    const auto back = read_account(json_answer(to_json(big)));
    ASSERT_TRUE(back) << to_string(back.error());
    EXPECT_EQ(back->account_id, big.account_id);
}

TEST(ApiWriters, RoomsReadBackFieldByField) {
    Room room;
    room.room_id = "2100";
    room.name = "General";
    room.type = "group";
    room.role = "admin";
    room.sticky = true;
    room.unread_num = 3;
    room.icon_path = "https://icons/group.png";
    room.last_update_time = 1'700'000'000;
    room.description = "about";
    const std::string text = to_json(std::vector<Room>{room});
    EXPECT_EQ(text.rfind(R"([{"room_id":2100,"name":"General","type":"group","role":"admin","sticky":true,)", 0), 0u)
        << text;
    const auto back = read_rooms(json_answer(text));
    ASSERT_TRUE(back) << to_string(back.error());
    ASSERT_EQ(back->size(), 1u);
    const Room& r = back->front();
    EXPECT_EQ(r.room_id, "2100");
    EXPECT_EQ(r.name, "General");
    EXPECT_EQ(r.sticky, std::optional<bool>(true));
    EXPECT_EQ(r.unread_num, std::optional<std::int64_t>(3));
    EXPECT_EQ(r.icon_path, room.icon_path);
    EXPECT_EQ(r.last_update_time, room.last_update_time);
    EXPECT_EQ(r.description, room.description);
    EXPECT_FALSE(r.mention_num);
}

TEST(ApiWriters, MessagesKeepTheirIdAStringAboveTwoToThe53) {
    ChatMessage m{"9007199254740993", AccountBrief{"201", "Bob", std::string("https://a/201.png")}, "hello",
                  1'700'000'000, 1'700'000'100};
    const std::string text = to_json(std::vector<ChatMessage>{m});
    EXPECT_EQ(text, R"([{"message_id":"9007199254740993","account":{"account_id":201,"name":"Bob",)"
                    R"("avatar_image_url":"https://a/201.png"},"body":"hello","send_time":1700000000,)"
                    R"("update_time":1700000100}])");
    const auto back = read_messages(json_answer(text));
    ASSERT_TRUE(back) << to_string(back.error());
    ASSERT_EQ(back->size(), 1u);
    EXPECT_EQ(back->front().message_id, m.message_id);
    EXPECT_EQ(back->front().account.account_id, "201");
    EXPECT_EQ(back->front().update_time, m.update_time);
    const auto one = read_message(json_answer(to_json(m)));
    ASSERT_TRUE(one) << to_string(one.error());
    EXPECT_EQ(one->body, "hello");
}

TEST(ApiWriters, TasksWithAnAssigneeOrARoomReadBack) {
    ChatTask room_task;
    room_task.task_id = "31";
    room_task.account = AccountBrief{"202", "Carol", std::nullopt};
    room_task.assigned_by_account = AccountBrief{"201", "Bob", std::nullopt};
    room_task.message_id = "9007199254740993";
    room_task.body = "do it";
    room_task.limit_time = 0;
    room_task.status = "open";
    room_task.limit_type = "none";
    ChatTask my_task = room_task;
    my_task.account.reset();
    my_task.room = TaskRoomBrief{"2100", "General", std::string("https://icons/group.png")};
    my_task.status = "done";
    const auto back = read_tasks(json_answer(to_json(std::vector<ChatTask>{room_task, my_task})));
    ASSERT_TRUE(back) << to_string(back.error());
    ASSERT_EQ(back->size(), 2u);
    const ChatTask& a = (*back)[0];
    EXPECT_EQ(a.task_id, "31");
    ASSERT_TRUE(a.account) << "the room task lost its account on the way back";
    EXPECT_EQ(a.account->account_id, "202");
    EXPECT_EQ(a.message_id, room_task.message_id);
    EXPECT_EQ(a.limit_type, room_task.limit_type);
    const ChatTask& b = (*back)[1];
    ASSERT_TRUE(b.room) << "my task lost its room on the way back";
    EXPECT_EQ(b.room->room_id, "2100");
    EXPECT_EQ(b.room->icon_path, my_task.room->icon_path);
    EXPECT_EQ(b.status, "done");
    const auto one = read_tasks(json_answer("[" + to_json(room_task) + "]"));
    ASSERT_TRUE(one) << to_string(one.error());
    EXPECT_EQ(one->front().body, "do it");
}

TEST(ApiWriters, FilesMembersContactsAndRequestsReadBack) {
    ChatFile file;
    file.file_id = "77";
    file.account = AccountBrief{"201", "Bob", std::nullopt};
    file.message_id = "9007199254740993";
    file.filename = "a.txt";
    file.filesize = 12;
    file.upload_time = 1'700'000'000;
    file.download_url = "https://dl/77";
    const auto files = read_files(json_answer(to_json(std::vector<ChatFile>{file})));
    ASSERT_TRUE(files) << to_string(files.error());
    ASSERT_EQ(files->size(), 1u);
    EXPECT_EQ(files->front().file_id, "77");
    EXPECT_EQ(files->front().download_url, file.download_url);
    EXPECT_EQ(files->front().filesize, 12);

    RoomMember member;
    member.account_id = "201";
    member.name = "Bob";
    member.role = "admin";
    member.chatwork_id = "bob";
    member.department = "R&D";
    const auto members = read_members(json_answer(to_json(std::vector<RoomMember>{member})));
    ASSERT_TRUE(members) << to_string(members.error());
    EXPECT_EQ(members->front().role, "admin");
    EXPECT_EQ(members->front().department, member.department);

    Contact contact;
    contact.account_id = "202";
    contact.room_id = "5000";
    contact.name = "Carol";
    contact.organization_name = "Org";
    const auto contacts = read_contacts(json_answer(to_json(std::vector<Contact>{contact})));
    ASSERT_TRUE(contacts) << to_string(contacts.error());
    EXPECT_EQ(contacts->front().room_id, contact.room_id);
    const auto accepted = read_accepted_request(json_answer(to_json(contact)));
    ASSERT_TRUE(accepted) << to_string(accepted.error());
    EXPECT_EQ(accepted->name, "Carol");

    ContactRequest request;
    request.request_id = "9";
    request.account_id = "203";
    request.name = "Dave";
    request.message = "hi";
    const auto requests = read_incoming_requests(json_answer(to_json(std::vector<ContactRequest>{request})));
    ASSERT_TRUE(requests) << to_string(requests.error());
    EXPECT_EQ(requests->front().request_id, "9");
    EXPECT_EQ(requests->front().message, request.message);
}

TEST(ApiWriters, PostAnswersAndCountsReadBack) {
    EXPECT_EQ(posted_message_json("9007199254740993"), R"({"message_id":"9007199254740993"})");
    const auto message = read_posted_message(json_answer(posted_message_json("9007199254740993")));
    ASSERT_TRUE(message) << to_string(message.error());
    EXPECT_EQ(*message, "9007199254740993");

    EXPECT_EQ(posted_tasks_json({"31", "32"}), R"({"task_ids":[31,32]})");
    const auto tasks = read_posted_tasks(json_answer(posted_tasks_json({"31", "32"})));
    ASSERT_TRUE(tasks) << to_string(tasks.error());
    EXPECT_EQ(*tasks, (std::vector<std::string>{"31", "32"}));

    const auto counts = read_unread_counts(json_answer(to_json(UnreadCounts{4, 1})));
    ASSERT_TRUE(counts) << to_string(counts.error());
    EXPECT_EQ(counts->unread_num, 4);
    EXPECT_EQ(counts->mention_num, 1);

    const auto task = read_task_status_answer(json_answer(task_status_answer_json("31")));
    ASSERT_TRUE(task) << to_string(task.error());
    EXPECT_EQ(*task, "31");
}

TEST(ApiWriters, AProfileComesFirstInMembersAndContactRequests) {
    const RoomMember member{"201",
                            "Bob",
                            "admin",
                            std::string("bob"),
                            std::string("Org"),
                            std::string("R&D"),
                            std::string("9001"),
                            std::string("101"),
                            std::string("https://a/201.png")};
    const std::string members = to_json(std::vector<RoomMember>{member});
    EXPECT_EQ(members, R"([{"account_id":201,"room_id":9001,"name":"Bob","chatwork_id":"bob","organization_id":101,)"
                       R"("organization_name":"Org","department":"R&D","avatar_image_url":"https://a/201.png",)"
                       R"("role":"admin"}])");
    const auto read_members_back = read_members(json_answer(members));
    ASSERT_TRUE(read_members_back) << to_string(read_members_back.error());
    EXPECT_EQ(read_members_back->front().room_id, member.room_id);
    EXPECT_EQ(read_members_back->front().organization_id, member.organization_id);
    EXPECT_EQ(read_members_back->front().avatar_image_url, member.avatar_image_url);

    ContactRequest request;
    request.request_id = "9";
    request.account_id = "203";
    request.name = "Dave";
    request.message = "hi";
    request.room_id = "9003";
    const std::string requests = to_json(std::vector<ContactRequest>{request});
    EXPECT_EQ(requests, R"([{"account_id":203,"room_id":9003,"name":"Dave","request_id":9,"message":"hi"}])");
    const auto read_requests_back = read_incoming_requests(json_answer(requests));
    ASSERT_TRUE(read_requests_back) << to_string(read_requests_back.error());
    EXPECT_EQ(read_requests_back->front().room_id, request.room_id);

    EXPECT_EQ(uploaded_file_json("77"), R"({"file_id":77})");
    const auto uploaded = read_uploaded_file(json_answer(uploaded_file_json("77")));
    ASSERT_TRUE(uploaded) << to_string(uploaded.error());
    EXPECT_EQ(*uploaded, "77");
}

}  // namespace
}  // namespace api_writers_test
}  // namespace roomkey
