// api_records.hpp: readers for the room, task and contact endpoints (spec
// 4.8, Chatwork-style API v2): messages, tasks, members, files, contacts,
// incoming contact requests, my tasks, and the answers of mark-read and task
// status. Ids stay exact strings of digits (message ids exceed 2^53). An empty
// list may come as 204 No Content; it reads as an empty list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "roomkey/api.hpp"

namespace roomkey {

// The "account" object inside messages, tasks and files.
struct AccountBrief {
    std::string account_id;
    std::string name;  // "" when absent
    std::optional<std::string> avatar_image_url;
};

// One element of GET /rooms/{room_id}/messages, or GET .../messages/{message_id}.
struct ChatMessage {
    std::string message_id;
    AccountBrief account;
    std::string body;
    std::int64_t send_time = 0;  // Unix seconds
    std::optional<std::int64_t> update_time;
};

// One element of GET /rooms/{room_id}/tasks (with `account`, the assignee) or
// of GET /my/tasks (with `room`).
struct TaskRoomBrief {
    std::string room_id;
    std::string name;
    std::optional<std::string> icon_path;
};
struct ChatTask {
    std::string task_id;
    std::optional<AccountBrief> account;  // the assignee (room tasks)
    std::optional<TaskRoomBrief> room;    // the room (my tasks)
    std::optional<AccountBrief> assigned_by_account;
    std::optional<std::string> message_id;
    std::string body;
    std::optional<std::int64_t> limit_time;
    std::string status;  // "open" | "done"
    std::optional<std::string> limit_type;
};

// One element of GET /rooms/{room_id}/members.
struct RoomMember {
    std::string account_id;
    std::string name;
    std::string role;  // "admin" | "member" | "readonly"
    std::optional<std::string> chatwork_id;
    std::optional<std::string> organization_name;
    std::optional<std::string> department;
    std::optional<std::string> room_id;  // the member's own "my chat" room
    std::optional<std::string> organization_id;
    std::optional<std::string> avatar_image_url;
};

// One element of GET /rooms/{room_id}/files (file metadata only).
struct ChatFile {
    std::string file_id;
    std::optional<AccountBrief> account;
    std::optional<std::string> message_id;
    std::string filename;
    std::int64_t filesize = 0;
    std::optional<std::int64_t> upload_time;
    std::optional<std::string> download_url;  // only when asked for (create_download_url=1)
};

// One element of GET /contacts.
struct Contact {
    std::string account_id;
    std::optional<std::string> room_id;  // the direct chat with that contact
    std::string name;
    std::optional<std::string> chatwork_id;
    std::optional<std::string> organization_name;
    std::optional<std::string> department;
    std::optional<std::string> organization_id;
    std::optional<std::string> avatar_image_url;
};

// One element of GET /incoming_requests.
struct ContactRequest {
    std::string request_id;
    std::string account_id;
    std::string name;
    std::optional<std::string> message;
    std::optional<std::string> organization_name;
    std::optional<std::string> room_id;
    std::optional<std::string> chatwork_id;
    std::optional<std::string> organization_id;
    std::optional<std::string> department;
    std::optional<std::string> avatar_image_url;
};

// PUT /rooms/{room_id}/messages/read (and /unread): the room's counts after it.
struct UnreadCounts {
    std::int64_t unread_num = 0;
    std::int64_t mention_num = 0;
};

Result<std::vector<ChatMessage>, ApiReadError> read_messages(const HttpResponse& response);
Result<ChatMessage, ApiReadError> read_message(const HttpResponse& response);
// GET /rooms/{room_id}/tasks and GET /my/tasks.
Result<std::vector<ChatTask>, ApiReadError> read_tasks(const HttpResponse& response);
Result<std::vector<RoomMember>, ApiReadError> read_members(const HttpResponse& response);
Result<std::vector<ChatFile>, ApiReadError> read_files(const HttpResponse& response);
Result<std::vector<Contact>, ApiReadError> read_contacts(const HttpResponse& response);
Result<std::vector<ContactRequest>, ApiReadError> read_incoming_requests(const HttpResponse& response);
// PUT /incoming_requests/{request_id}: the new contact.
Result<Contact, ApiReadError> read_accepted_request(const HttpResponse& response);
Result<UnreadCounts, ApiReadError> read_unread_counts(const HttpResponse& response);
// The answer to PUT /rooms/{room_id}/messages/read sent without message_id.
// The service answers 400 when nothing was unread (RAML: "すでに既読済みの場合は
// エラー(400)"): the room is read all the same, so that is counts 0 and 0,
// not an error. Any other non-2xx is http_status.
Result<UnreadCounts, ApiReadError> read_mark_read_answer(const HttpResponse& response);
// True for that 400: the room was already read.
bool is_already_read_answer(const HttpResponse& response);
// PUT /rooms/{room_id}/tasks/{task_id}/status: {"task_id": ...}.
Result<std::string, ApiReadError> read_task_status_answer(const HttpResponse& response);

// Writers (as api.hpp's): what the sandbox answers with, read by the above.
std::string to_json(const ChatMessage& message);
std::string to_json(const std::vector<ChatMessage>& messages);
std::string to_json(const ChatTask& task);
std::string to_json(const std::vector<ChatTask>& tasks);
std::string to_json(const std::vector<RoomMember>& members);
std::string to_json(const ChatFile& file);
std::string to_json(const std::vector<ChatFile>& files);
std::string to_json(const Contact& contact);
std::string to_json(const std::vector<Contact>& contacts);
std::string to_json(const std::vector<ContactRequest>& requests);
std::string to_json(const UnreadCounts& counts);
// {"task_id": ...}, the answer read_task_status_answer reads.
std::string task_status_answer_json(const std::string& task_id);

}  // namespace roomkey
