// chat_model.hpp: the sandbox's chat data (spec 1, 2.5, 2.6, 4.4-4.8): demo
// accounts, rooms with members and roles, messages, tasks, files, contacts
// and contact requests, and the unread/mention/task counts of /my/status.
// Plain data + operations; not thread-safe (callers hold the state mutex).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roomkey/api.hpp"

namespace roomkey::sandbox {

using AccountId = std::int64_t;
using RoomId = std::int64_t;

struct Account {
    AccountId account_id = 0;
    std::string name;
    std::string login_mail;     // login name on the sandbox's login screen
    std::string password;       // demo data only
    std::string api_token;      // demo data only (spec 5.1)
    std::string chatwork_id;    // the service's own handle field
    std::string organization_name;
    std::string department;
    std::string title;
    std::string introduction;
    RoomId my_room_id = 0;      // the account's own "my chat" room
    std::set<AccountId> contacts;
};

enum class RoomRole { admin, member, readonly };
enum class RoomType { my, direct, group };
std::string_view to_string(RoomRole role);
std::string_view to_string(RoomType type);
std::optional<RoomRole> parse_room_role(std::string_view text);

struct Message {
    std::string message_id;  // a decimal string beyond 2^53, kept as a string (spec 2.6 leaves it open)
    AccountId account_id = 0;
    std::string body;
    std::int64_t send_time = 0;
    std::int64_t update_time = 0;
};

struct Task {
    std::int64_t task_id = 0;
    RoomId room_id = 0;
    AccountId assignee = 0;
    AccountId assigned_by = 0;
    std::string message_id;
    std::string body;
    std::int64_t limit_time = 0;
    std::string limit_type = "none";  // none | date | time
    bool done = false;
};

struct FileRecord {
    std::int64_t file_id = 0;
    AccountId account_id = 0;
    std::string message_id;
    std::string filename;
    std::int64_t filesize = 0;
    std::int64_t upload_time = 0;
};

struct Membership {
    RoomRole role = RoomRole::member;
    std::int64_t unread = 0;
    std::int64_t mention = 0;
};

// A room's invitation link (GET/POST/PUT/DELETE /rooms/{room_id}/link,
// chatwork/api PR #7); a room without one answers {"public":false}.
struct InviteLink {
    std::string code;  // the URL's last segment, unique across rooms
    std::string description;
    bool need_acceptance = true;  // RAML: default true
};

// Not published: whether the cursor of GET /rooms/{room_id}/messages without
// force (or force=0: "only what the previous call did not return") is kept
// per account or per access token. The sandbox keeps it per account, so a
// new sign-in of the same person continues where the last one stopped; false
// keeps it per grant (an API token counts as its account's). docs/sandbox.md.
inline constexpr bool kMessageCursorPerAccount = true;
// Not published either: whether a call with force=1 moves that cursor. The
// sandbox says yes: what it returned has been returned.
inline constexpr bool kForcedReadMovesCursor = true;
// Cursors kept per room; past this the oldest key is dropped (a long-running
// sandbox's memory stays flat whatever the number of grants).
inline constexpr std::size_t kMaxCursorsPerRoom = 1000;
// GET /rooms/{room_id}/messages answers at most this many (RAML: 最大100件).
inline constexpr std::size_t kMessagesPerRead = 100;

struct Room {
    RoomId room_id = 0;
    std::string name;
    RoomType type = RoomType::group;
    std::string description;
    std::string icon_preset = "group";
    bool sticky = false;
    std::map<AccountId, Membership> members;
    std::vector<Message> messages;
    std::vector<FileRecord> files;
    std::int64_t last_update_time = 0;
    std::optional<InviteLink> link;
    // Cursor key (kMessageCursorPerAccount) -> the newest message_id returned.
    std::map<std::string, std::string> message_cursors;
};

struct IncomingRequest {
    std::int64_t request_id = 0;
    AccountId from = 0;
    AccountId to = 0;
    std::string message;
};

// Spec 2.5: the own status record, shared/'s MyStatus (the client reads it).
using StatusCounts = roomkey::MyStatus;

// Bounds that keep a long-running sandbox's memory flat.
inline constexpr std::size_t kMaxMessagesPerRoom = 5000;
inline constexpr std::size_t kMaxRooms = 2000;
inline constexpr std::size_t kMaxTasks = 50000;

// What changed since the state store last took the changes (store.hpp):
// rooms (with their members, files, link, cursors and messages) and tasks by
// id, a gone one to be deleted; accounts and contact requests as a whole.
// Every non-const way into a room or task marks it.
struct ChatChanges {
    std::set<RoomId> rooms;
    std::set<std::int64_t> tasks;
    bool accounts = false;
    bool requests = false;
    bool any() const { return !rooms.empty() || !tasks.empty() || accounts || requests; }
};

// The model's id counters, kept by the state store.
struct ChatCounters {
    RoomId next_room_id = 3000;
    std::int64_t next_task_id = 5000;
    std::int64_t next_request_id = 700;
    std::uint64_t next_message_seq = 1600000000000000001ULL;
};

// What PUT /messages/read and /messages/unread found.
enum class ReadMark { done, nothing_unread, no_such_message };

class ChatModel {
public:
    // The demo data set (see demo_data.cpp and docs/sandbox.md).
    static ChatModel demo(std::int64_t now_unix_seconds);

    // --- accounts ---
    const Account* account(AccountId id) const;
    const Account* account_by_login(std::string_view login) const;  // mail or account_id
    // Compares every token in constant time per token (no early exit on a prefix).
    const Account* account_by_api_token(std::string_view token) const;
    const std::map<AccountId, Account>& accounts() const { return accounts_; }
    std::vector<const Account*> contacts_of(AccountId id) const;
    StatusCounts status_of(AccountId id) const;

    // --- rooms ---
    std::vector<const Room*> rooms_of(AccountId id) const;
    Room* room(RoomId id);
    const Room* room(RoomId id) const;
    static const Membership* membership(const Room& room, AccountId id);
    // Posts the service's own "room created" message (service_messages.hpp).
    std::optional<RoomId> create_room(AccountId creator, std::string name, std::string description,
                                      std::string icon_preset, const std::map<AccountId, RoomRole>& members,
                                      std::int64_t now);
    // The invitation link with this code, in any room; nullptr if none.
    const Room* room_with_link_code(std::string_view code) const;
    // The caller leaves the room; an admin deleting removes it for everyone.
    void leave_room(RoomId id, AccountId account);
    void delete_room(RoomId id);

    // --- messages ---
    // Appends a message; other members get an unread (and a mention when the
    // body mentions them as shared/'s mentions_account reads it: [To:id],
    // a reply [rp aid=id ...] / [返信 aid=id ...], or [toall]); the poster
    // too with self_unread.
    const Message& post_message(Room& room, AccountId from, std::string body, bool self_unread, std::int64_t now);
    // GET /messages: with force, the latest kMessagesPerRead; without, those
    // newer than what this cursor key was last given (at most as many). The
    // cursor moves to the newest returned (with force too, if
    // kForcedReadMovesCursor).
    static std::vector<const Message*> read_messages(Room& room, const std::string& cursor_key, bool force);
    static const Message* find_message(const Room& room, std::string_view message_id);
    static Message* find_message(Room& room, std::string_view message_id);
    bool delete_message(Room& room, std::string_view message_id);
    static void mark_read(Room& room, AccountId id);
    // PUT /messages/read: everything, or up to and with message_id; nothing
    // newly read (already read that far) is nothing_unread (RAML: 400).
    static ReadMark mark_read_up_to(Room& room, AccountId id, const std::optional<std::string>& message_id);
    // PUT /messages/unread: message_id and everything after it unread again.
    static ReadMark mark_unread_from(Room& room, AccountId id, const std::string& message_id);

    // --- tasks ---
    // Posts the service's own "task added" message, one [task] per assignee.
    std::vector<std::int64_t> add_tasks(Room& room, AccountId by, const std::vector<AccountId>& to,
                                        const std::string& body, std::int64_t limit_time,
                                        const std::string& limit_type, std::int64_t now);
    std::vector<const Task*> tasks_of_room(RoomId room) const;
    std::vector<const Task*> tasks_assigned_to(AccountId id) const;
    Task* task(std::int64_t task_id);
    bool can_add_tasks() const { return tasks_.size() < kMaxTasks; }

    // --- contact requests ---
    std::vector<const IncomingRequest*> incoming_requests_to(AccountId id) const;
    // Accepting makes both accounts contacts; both remove the request.
    std::optional<IncomingRequest> take_incoming_request(std::int64_t request_id, AccountId to);
    void add_contact(AccountId a, AccountId b);

    // --- seeding ---
    Account& add_account(Account account);
    Room& add_room(Room room);
    void add_incoming_request(AccountId from, AccountId to, std::string message);
    // A message appended as it is, with nobody's unread counted (fixtures):
    // an empty message_id gets the next one; a given one (decimal) moves the
    // next past it.
    const Message& append_message(Room& room, Message message);
    // The member has read all but the newest `unread` messages of others;
    // the mentions are counted from those.
    static void set_unread(Room& room, AccountId id, std::int64_t unread);
    // A task record as it is (task_id 0 = the next one); returns its id.
    std::int64_t add_task(Task task);
    void add_request_record(IncomingRequest request);

    // --- persistence (store.cpp) ---
    ChatChanges take_changes() { return std::exchange(changes_, ChatChanges{}); }
    const std::map<RoomId, Room>& all_rooms() const { return rooms_; }
    const std::map<std::int64_t, Task>& all_tasks() const { return tasks_; }
    const std::map<std::int64_t, IncomingRequest>& all_requests() const { return requests_; }
    ChatCounters counters() const {
        return {next_room_id_, next_task_id_, next_request_id_, next_message_seq_};
    }
    void set_counters(const ChatCounters& c);

private:
    std::string next_message_id();

    std::map<AccountId, Account> accounts_;
    std::map<RoomId, Room> rooms_;
    std::map<std::int64_t, Task> tasks_;
    std::map<std::int64_t, IncomingRequest> requests_;
    RoomId next_room_id_ = 3000;
    std::int64_t next_task_id_ = 5000;
    std::int64_t next_request_id_ = 700;
    // Above 2^53 on purpose: a client that reads message_id as a double loses digits.
    std::uint64_t next_message_seq_ = 1600000000000000001ULL;
    ChatChanges changes_;
};

}  // namespace roomkey::sandbox
