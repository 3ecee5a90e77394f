// record_writers.hpp: the fuzz targets' writers of service records, as the
// service sends them (ids as strings of digits), so a target can check that
// what a reader accepted reads back to the same record. Only the fuzz
// targets use these: the app never writes service data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roomkey/api.hpp"
#include "roomkey/api_records.hpp"

namespace roomkey::fuzz {

using json = nlohmann::ordered_json;

template <class T>
void put(json& object, const char* name, const std::optional<T>& value) {
    if (value) object[name] = *value;
}

inline std::string dump(const json& value) {
    return value.dump();
}

inline std::string to_json(const Account& a) {
    json o = json::object();
    o["account_id"] = a.account_id;
    put(o, "room_id", a.room_id);
    put(o, "name", a.name);
    put(o, "chatwork_id", a.chatwork_id);
    put(o, "organization_id", a.organization_id);
    put(o, "organization_name", a.organization_name);
    put(o, "department", a.department);
    put(o, "title", a.title);
    put(o, "url", a.url);
    put(o, "introduction", a.introduction);
    put(o, "mail", a.mail);
    put(o, "avatar_image_url", a.avatar_image_url);
    put(o, "login_mail", a.login_mail);
    return dump(o);
}

inline bool same(const Account& x, const Account& y) {
    return x.account_id == y.account_id && x.room_id == y.room_id && x.name == y.name &&
           x.chatwork_id == y.chatwork_id && x.organization_id == y.organization_id &&
           x.organization_name == y.organization_name && x.department == y.department && x.title == y.title &&
           x.url == y.url && x.introduction == y.introduction && x.mail == y.mail &&
           x.avatar_image_url == y.avatar_image_url && x.login_mail == y.login_mail;
}

inline std::string to_json(const MyStatus& s) {
    json o = {{"unread_room_num", s.unread_room_num}, {"mention_room_num", s.mention_room_num},
              {"mytask_room_num", s.mytask_room_num}, {"unread_num", s.unread_num},
              {"mention_num", s.mention_num},         {"mytask_num", s.mytask_num}};
    return dump(o);
}

inline bool same(const MyStatus& x, const MyStatus& y) {
    return x.unread_room_num == y.unread_room_num && x.mention_room_num == y.mention_room_num &&
           x.mytask_room_num == y.mytask_room_num && x.unread_num == y.unread_num && x.mention_num == y.mention_num &&
           x.mytask_num == y.mytask_num;
}

inline json room_json(const Room& r) {
    json o = json::object();
    o["room_id"] = r.room_id;
    o["name"] = r.name;
    put(o, "type", r.type);
    put(o, "role", r.role);
    put(o, "unread_num", r.unread_num);
    put(o, "mention_num", r.mention_num);
    put(o, "mytask_num", r.mytask_num);
    put(o, "message_num", r.message_num);
    put(o, "file_num", r.file_num);
    put(o, "task_num", r.task_num);
    put(o, "icon_path", r.icon_path);
    put(o, "last_update_time", r.last_update_time);
    put(o, "sticky", r.sticky);
    return o;
}

inline std::string to_json(const std::vector<Room>& rooms) {
    json a = json::array();
    for (const Room& r : rooms) a.push_back(room_json(r));
    return dump(a);
}

inline bool same(const Room& x, const Room& y) {
    return x.room_id == y.room_id && x.name == y.name && x.type == y.type && x.role == y.role &&
           x.unread_num == y.unread_num && x.mention_num == y.mention_num && x.mytask_num == y.mytask_num &&
           x.message_num == y.message_num && x.file_num == y.file_num && x.task_num == y.task_num &&
           x.icon_path == y.icon_path && x.last_update_time == y.last_update_time && x.sticky == y.sticky;
}

inline std::string posted_message_json(const std::string& id) {
    return dump(json{{"message_id", id}});
}

inline std::string posted_tasks_json(const std::vector<std::string>& ids) {
    json o = json::object();
    o["task_ids"] = ids;
    return dump(o);
}

// --- api_records.hpp ---

inline json brief_json(const AccountBrief& a) {
    json o = json::object();
    o["account_id"] = a.account_id;
    o["name"] = a.name;
    put(o, "avatar_image_url", a.avatar_image_url);
    return o;
}
inline bool same(const AccountBrief& x, const AccountBrief& y) {
    return x.account_id == y.account_id && x.name == y.name && x.avatar_image_url == y.avatar_image_url;
}
inline bool same(const TaskRoomBrief& x, const TaskRoomBrief& y) {
    return x.room_id == y.room_id && x.name == y.name;
}
// Declared after every record `same` it is used with (two-phase lookup).
template <class T>
bool same(const std::optional<T>& x, const std::optional<T>& y) {
    return x.has_value() == y.has_value() && (!x || same(*x, *y));
}

inline json record_json(const ChatMessage& m) {
    json o = json::object();
    o["message_id"] = m.message_id;
    o["account"] = brief_json(m.account);
    o["body"] = m.body;
    o["send_time"] = m.send_time;
    put(o, "update_time", m.update_time);
    return o;
}
inline bool same(const ChatMessage& x, const ChatMessage& y) {
    return x.message_id == y.message_id && same(x.account, y.account) && x.body == y.body &&
           x.send_time == y.send_time && x.update_time == y.update_time;
}

inline json record_json(const ChatTask& t) {
    json o = json::object();
    o["task_id"] = t.task_id;
    if (t.account) o["account"] = brief_json(*t.account);
    if (t.room) o["room"] = json{{"room_id", t.room->room_id}, {"name", t.room->name}};
    if (t.assigned_by_account) o["assigned_by_account"] = brief_json(*t.assigned_by_account);
    put(o, "message_id", t.message_id);
    o["body"] = t.body;
    put(o, "limit_time", t.limit_time);
    o["status"] = t.status;
    put(o, "limit_type", t.limit_type);
    return o;
}
inline bool same(const ChatTask& x, const ChatTask& y) {
    return x.task_id == y.task_id && same(x.account, y.account) && same(x.room, y.room) &&
           same(x.assigned_by_account, y.assigned_by_account) && x.message_id == y.message_id && x.body == y.body &&
           x.limit_time == y.limit_time && x.status == y.status && x.limit_type == y.limit_type;
}

inline json record_json(const RoomMember& m) {
    json o = json::object();
    o["account_id"] = m.account_id;
    o["name"] = m.name;
    o["role"] = m.role;
    put(o, "chatwork_id", m.chatwork_id);
    put(o, "organization_name", m.organization_name);
    put(o, "department", m.department);
    return o;
}
inline bool same(const RoomMember& x, const RoomMember& y) {
    return x.account_id == y.account_id && x.name == y.name && x.role == y.role && x.chatwork_id == y.chatwork_id &&
           x.organization_name == y.organization_name && x.department == y.department;
}

inline json record_json(const ChatFile& f) {
    json o = json::object();
    o["file_id"] = f.file_id;
    if (f.account) o["account"] = brief_json(*f.account);
    put(o, "message_id", f.message_id);
    o["filename"] = f.filename;
    o["filesize"] = f.filesize;
    put(o, "upload_time", f.upload_time);
    return o;
}
inline bool same(const ChatFile& x, const ChatFile& y) {
    return x.file_id == y.file_id && same(x.account, y.account) && x.message_id == y.message_id &&
           x.filename == y.filename && x.filesize == y.filesize && x.upload_time == y.upload_time;
}

inline json record_json(const Contact& c) {
    json o = json::object();
    o["account_id"] = c.account_id;
    put(o, "room_id", c.room_id);
    o["name"] = c.name;
    put(o, "chatwork_id", c.chatwork_id);
    put(o, "organization_name", c.organization_name);
    put(o, "department", c.department);
    return o;
}
inline bool same(const Contact& x, const Contact& y) {
    return x.account_id == y.account_id && x.room_id == y.room_id && x.name == y.name &&
           x.chatwork_id == y.chatwork_id && x.organization_name == y.organization_name && x.department == y.department;
}

inline json record_json(const ContactRequest& r) {
    json o = json::object();
    o["request_id"] = r.request_id;
    o["account_id"] = r.account_id;
    o["name"] = r.name;
    put(o, "message", r.message);
    put(o, "organization_name", r.organization_name);
    return o;
}
inline bool same(const ContactRequest& x, const ContactRequest& y) {
    return x.request_id == y.request_id && x.account_id == y.account_id && x.name == y.name && x.message == y.message &&
           x.organization_name == y.organization_name;
}

inline json record_json(const UnreadCounts& c) {
    return json{{"unread_num", c.unread_num}, {"mention_num", c.mention_num}};
}
inline bool same(const UnreadCounts& x, const UnreadCounts& y) {
    return x.unread_num == y.unread_num && x.mention_num == y.mention_num;
}

template <class Record>
std::string list_json(const std::vector<Record>& records) {
    json a = json::array();
    for (const auto& r : records) a.push_back(record_json(r));
    return dump(a);
}

}  // namespace roomkey::fuzz
