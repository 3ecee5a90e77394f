// chat_model.cpp: ChatModel operations (see chat_model.hpp).
#include "sandbox/chat_model.hpp"

#include <algorithm>

#include "roomkey/message_tags.hpp"
#include "roomkey/pkce.hpp"  // constant_time_equals
#include "sandbox/service_messages.hpp"

namespace roomkey::sandbox {

std::string_view to_string(RoomRole role) {
    switch (role) {
        case RoomRole::admin: return "admin";
        case RoomRole::member: return "member";
        case RoomRole::readonly: return "readonly";
    }
    return "member";
}

std::string_view to_string(RoomType type) {
    switch (type) {
        case RoomType::my: return "my";
        case RoomType::direct: return "direct";
        case RoomType::group: return "group";
    }
    return "group";
}

std::optional<RoomRole> parse_room_role(std::string_view text) {
    for (RoomRole r : {RoomRole::admin, RoomRole::member, RoomRole::readonly}) {
        if (to_string(r) == text) return r;
    }
    return std::nullopt;
}

// ---------------------------------------------------------------------------
// accounts
// ---------------------------------------------------------------------------
const Account* ChatModel::account(AccountId id) const {
    auto it = accounts_.find(id);
    return it == accounts_.end() ? nullptr : &it->second;
}

const Account* ChatModel::account_by_login(std::string_view login) const {
    for (const auto& [id, a] : accounts_) {
        if (a.login_mail == login || std::to_string(id) == login) return &a;
    }
    return nullptr;
}

const Account* ChatModel::account_by_api_token(std::string_view token) const {
    const Account* found = nullptr;
    for (const auto& [id, a] : accounts_) {
        if (constant_time_equals(a.api_token, token) && !a.api_token.empty()) found = &a;
    }
    return found;
}

std::vector<const Account*> ChatModel::contacts_of(AccountId id) const {
    std::vector<const Account*> out;
    const Account* me = account(id);
    if (!me) return out;
    for (AccountId c : me->contacts) {
        if (const Account* a = account(c)) out.push_back(a);
    }
    return out;
}

StatusCounts ChatModel::status_of(AccountId id) const {
    StatusCounts s;
    std::set<RoomId> task_rooms;
    for (const auto& [rid, room] : rooms_) {
        const Membership* m = membership(room, id);
        if (!m) continue;
        s.unread_num += m->unread;
        s.mention_num += m->mention;
        if (m->unread > 0) ++s.unread_room_num;
        if (m->mention > 0) ++s.mention_room_num;
    }
    for (const auto& [tid, t] : tasks_) {
        if (t.assignee != id || t.done) continue;
        const Room* r = room(t.room_id);
        if (!r || !membership(*r, id)) continue;
        ++s.mytask_num;
        task_rooms.insert(t.room_id);
    }
    s.mytask_room_num = static_cast<std::int64_t>(task_rooms.size());
    return s;
}

// ---------------------------------------------------------------------------
// rooms
// ---------------------------------------------------------------------------
std::vector<const Room*> ChatModel::rooms_of(AccountId id) const {
    std::vector<const Room*> out;
    for (const auto& [rid, room] : rooms_) {
        if (membership(room, id)) out.push_back(&room);
    }
    return out;
}

Room* ChatModel::room(RoomId id) {
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return nullptr;
    changes_.rooms.insert(id);  // the caller may change it
    return &it->second;
}

const Room* ChatModel::room(RoomId id) const {
    auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : &it->second;
}

const Membership* ChatModel::membership(const Room& room, AccountId id) {
    auto it = room.members.find(id);
    return it == room.members.end() ? nullptr : &it->second;
}

std::optional<RoomId> ChatModel::create_room(AccountId creator, std::string name, std::string description,
                                             std::string icon_preset,
                                             const std::map<AccountId, RoomRole>& members, std::int64_t now) {
    if (rooms_.size() >= kMaxRooms) return std::nullopt;
    Room r;
    r.room_id = next_room_id_++;
    r.name = std::move(name);
    r.description = std::move(description);
    r.icon_preset = icon_preset.empty() ? "group" : std::move(icon_preset);
    r.type = RoomType::group;
    r.last_update_time = now;
    for (const auto& [id, role] : members) {
        if (account(id)) r.members[id] = Membership{role, 0, 0};
    }
    r.members[creator] = Membership{RoomRole::admin, 0, 0};
    std::vector<AccountId> others;
    for (const auto& [member, m] : r.members) {
        if (member != creator) others.push_back(member);
    }
    const std::string announcement = room_created_message(r.name, others);
    const RoomId id = r.room_id;
    changes_.rooms.insert(id);
    Room& created = rooms_.emplace(id, std::move(r)).first->second;
    post_message(created, creator, announcement, false, now);
    return id;
}

const Room* ChatModel::room_with_link_code(std::string_view code) const {
    for (const auto& [id, room] : rooms_) {
        if (room.link && room.link->code == code) return &room;
    }
    return nullptr;
}

void ChatModel::leave_room(RoomId id, AccountId account_id) {
    Room* r = room(id);
    if (!r) return;
    changes_.rooms.insert(id);
    r->members.erase(account_id);
    if (r->members.empty()) delete_room(id);
}

void ChatModel::delete_room(RoomId id) {
    rooms_.erase(id);
    changes_.rooms.insert(id);
    for (auto it = tasks_.begin(); it != tasks_.end();) {
        if (it->second.room_id == id) changes_.tasks.insert(it->first);
        it = it->second.room_id == id ? tasks_.erase(it) : std::next(it);
    }
}

// ---------------------------------------------------------------------------
// messages
// ---------------------------------------------------------------------------
std::string ChatModel::next_message_id() { return std::to_string(next_message_seq_++); }

const Message& ChatModel::post_message(Room& room, AccountId from, std::string body, bool self_unread,
                                       std::int64_t now) {
    changes_.rooms.insert(room.room_id);
    Message m;
    m.message_id = next_message_id();
    m.account_id = from;
    m.send_time = now;
    m.update_time = 0;
    for (auto& [id, membership] : room.members) {
        if (id == from && !self_unread) continue;
        ++membership.unread;
        if (id != from && mentions_account(body, std::to_string(id))) ++membership.mention;
    }
    m.body = std::move(body);
    room.last_update_time = now;
    if (room.messages.size() >= kMaxMessagesPerRoom) room.messages.erase(room.messages.begin());
    room.messages.push_back(std::move(m));
    return room.messages.back();
}

const Message* ChatModel::find_message(const Room& room, std::string_view message_id) {
    for (const auto& m : room.messages) {
        if (m.message_id == message_id) return &m;
    }
    return nullptr;
}

Message* ChatModel::find_message(Room& room, std::string_view message_id) {
    for (auto& m : room.messages) {
        if (m.message_id == message_id) return &m;
    }
    return nullptr;
}

bool ChatModel::delete_message(Room& room, std::string_view message_id) {
    auto it = std::find_if(room.messages.begin(), room.messages.end(),
                           [&](const Message& m) { return m.message_id == message_id; });
    if (it == room.messages.end()) return false;
    room.messages.erase(it);
    return true;
}

void ChatModel::mark_read(Room& room, AccountId id) {
    auto it = room.members.find(id);
    if (it == room.members.end()) return;
    it->second.unread = 0;
    it->second.mention = 0;
}

namespace {

// Message ids are decimal strings: a shorter one is smaller.
bool id_less(const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

std::optional<std::size_t> index_of(const Room& room, const std::string& message_id) {
    for (std::size_t i = 0; i < room.messages.size(); ++i) {
        if (room.messages[i].message_id == message_id) return i;
    }
    return std::nullopt;
}

// The counts of a member who has read everything before `first_unread`.
void count_unread_from(const Room& room, Membership& m, AccountId id, std::size_t first_unread) {
    m.unread = 0;
    m.mention = 0;
    const std::string account = std::to_string(id);
    for (std::size_t i = first_unread; i < room.messages.size(); ++i) {
        if (room.messages[i].account_id == id) continue;  // one's own messages are read
        ++m.unread;
        if (room.messages[i].account_id != id && mentions_account(room.messages[i].body, account)) ++m.mention;
    }
}

// Where a member's unread messages start: `unread` messages of others back
// from the end (one's own messages are never unread, and may sit between).
std::size_t first_unread_index(const Room& room, const Membership& m, AccountId id) {
    std::size_t index = room.messages.size();
    std::int64_t left = m.unread;
    while (index > 0 && left > 0) {
        --index;
        if (room.messages[index].account_id != id) --left;
    }
    return left > 0 ? 0 : index;
}

}  // namespace

std::vector<const Message*> ChatModel::read_messages(Room& room, const std::string& cursor_key, bool force) {
    std::size_t first = room.messages.size() > kMessagesPerRead ? room.messages.size() - kMessagesPerRead : 0;
    auto cursor = room.message_cursors.find(cursor_key);
    if (!force && cursor != room.message_cursors.end()) {
        // Deleted messages leave no gap: compare ids, not positions.
        std::size_t after = 0;
        while (after < room.messages.size() && !id_less(cursor->second, room.messages[after].message_id)) ++after;
        first = std::max(first, after);
    }
    std::vector<const Message*> out;
    for (std::size_t i = first; i < room.messages.size(); ++i) out.push_back(&room.messages[i]);
    if (!out.empty() && (!force || kForcedReadMovesCursor)) {
        if (cursor == room.message_cursors.end() && room.message_cursors.size() >= kMaxCursorsPerRoom) {
            room.message_cursors.erase(room.message_cursors.begin());
        }
        room.message_cursors[cursor_key] = out.back()->message_id;
    }
    return out;
}

ReadMark ChatModel::mark_read_up_to(Room& room, AccountId id, const std::optional<std::string>& message_id) {
    auto it = room.members.find(id);
    if (it == room.members.end()) return ReadMark::no_such_message;
    Membership& m = it->second;
    const std::size_t total = room.messages.size();
    const std::size_t first_unread = first_unread_index(room, m, id);
    std::size_t read_to = total;  // one past the last message read
    if (message_id) {
        const auto i = index_of(room, *message_id);
        if (!i) return ReadMark::no_such_message;
        read_to = *i + 1;
    }
    if (m.unread <= 0 || read_to <= first_unread) return ReadMark::nothing_unread;
    count_unread_from(room, m, id, read_to);
    return ReadMark::done;
}

ReadMark ChatModel::mark_unread_from(Room& room, AccountId id, const std::string& message_id) {
    auto it = room.members.find(id);
    const auto i = index_of(room, message_id);
    if (it == room.members.end() || !i) return ReadMark::no_such_message;
    count_unread_from(room, it->second, id, *i);
    return ReadMark::done;
}

// ---------------------------------------------------------------------------
// tasks
// ---------------------------------------------------------------------------
std::vector<std::int64_t> ChatModel::add_tasks(Room& room, AccountId by, const std::vector<AccountId>& to,
                                               const std::string& body, std::int64_t limit_time,
                                               const std::string& limit_type, std::int64_t now) {
    std::vector<std::int64_t> ids;
    // A task is announced in the room by the service's own message.
    const Message& announcement = post_message(room, by, task_added_message(to, body, limit_time, limit_type), false,
                                               now);
    const std::string message_id = announcement.message_id;
    for (AccountId assignee : to) {
        Task t;
        t.task_id = next_task_id_++;
        t.room_id = room.room_id;
        t.assignee = assignee;
        t.assigned_by = by;
        t.message_id = message_id;
        t.body = body;
        t.limit_time = limit_time;
        t.limit_type = limit_type;
        ids.push_back(t.task_id);
        changes_.tasks.insert(t.task_id);
        tasks_.emplace(t.task_id, std::move(t));
    }
    return ids;
}

std::vector<const Task*> ChatModel::tasks_of_room(RoomId room_id) const {
    std::vector<const Task*> out;
    for (const auto& [id, t] : tasks_) {
        if (t.room_id == room_id) out.push_back(&t);
    }
    return out;
}

std::vector<const Task*> ChatModel::tasks_assigned_to(AccountId id) const {
    std::vector<const Task*> out;
    for (const auto& [tid, t] : tasks_) {
        if (t.assignee == id) out.push_back(&t);
    }
    return out;
}

Task* ChatModel::task(std::int64_t task_id) {
    changes_.tasks.insert(task_id);  // the caller may change it
    auto it = tasks_.find(task_id);
    return it == tasks_.end() ? nullptr : &it->second;
}

// ---------------------------------------------------------------------------
// contact requests
// ---------------------------------------------------------------------------
std::vector<const IncomingRequest*> ChatModel::incoming_requests_to(AccountId id) const {
    std::vector<const IncomingRequest*> out;
    for (const auto& [rid, r] : requests_) {
        if (r.to == id) out.push_back(&r);
    }
    return out;
}

std::optional<IncomingRequest> ChatModel::take_incoming_request(std::int64_t request_id, AccountId to) {
    auto it = requests_.find(request_id);
    if (it == requests_.end() || it->second.to != to) return std::nullopt;
    IncomingRequest r = it->second;
    requests_.erase(it);
    changes_.requests = true;
    return r;
}

void ChatModel::add_contact(AccountId a, AccountId b) {
    auto ia = accounts_.find(a);
    auto ib = accounts_.find(b);
    if (ia == accounts_.end() || ib == accounts_.end() || a == b) return;
    changes_.accounts = true;
    ia->second.contacts.insert(b);
    ib->second.contacts.insert(a);
}

// ---------------------------------------------------------------------------
// seeding
// ---------------------------------------------------------------------------
Account& ChatModel::add_account(Account account) {
    const AccountId id = account.account_id;
    changes_.accounts = true;
    return accounts_.insert_or_assign(id, std::move(account)).first->second;
}

Room& ChatModel::add_room(Room room) {
    const RoomId id = room.room_id;
    changes_.rooms.insert(id);
    if (id >= next_room_id_) next_room_id_ = id + 1;
    return rooms_.insert_or_assign(id, std::move(room)).first->second;
}

void ChatModel::add_incoming_request(AccountId from, AccountId to, std::string message) {
    IncomingRequest r;
    r.request_id = next_request_id_++;
    r.from = from;
    r.to = to;
    r.message = std::move(message);
    changes_.requests = true;
    requests_.emplace(r.request_id, std::move(r));
}

const Message& ChatModel::append_message(Room& room, Message message) {
    if (message.message_id.empty()) {
        message.message_id = next_message_id();
    } else {
        const std::uint64_t seq = std::stoull(message.message_id);
        if (seq >= next_message_seq_) next_message_seq_ = seq + 1;
    }
    room.last_update_time = std::max(room.last_update_time, std::max(message.send_time, message.update_time));
    room.messages.push_back(std::move(message));
    return room.messages.back();
}

void ChatModel::set_unread(Room& room, AccountId id, std::int64_t unread) {
    auto it = room.members.find(id);
    if (it == room.members.end()) return;
    it->second.unread = unread;
    count_unread_from(room, it->second, id, first_unread_index(room, it->second, id));
}

std::int64_t ChatModel::add_task(Task task) {
    if (task.task_id == 0) task.task_id = next_task_id_++;
    next_task_id_ = std::max(next_task_id_, task.task_id + 1);
    const std::int64_t id = task.task_id;
    changes_.tasks.insert(id);
    tasks_.insert_or_assign(id, std::move(task));
    return id;
}

void ChatModel::add_request_record(IncomingRequest request) {
    changes_.requests = true;
    next_request_id_ = std::max(next_request_id_, request.request_id + 1);
    const std::int64_t id = request.request_id;
    requests_.insert_or_assign(id, std::move(request));
}

void ChatModel::set_counters(const ChatCounters& c) {
    next_room_id_ = c.next_room_id;
    next_task_id_ = c.next_task_id;
    next_request_id_ = c.next_request_id;
    next_message_seq_ = c.next_message_seq;
}

}  // namespace roomkey::sandbox
