// api_json.hpp: the fuzz targets' writers of service records, as the
// service sends them (ids as strings of digits), so a target can check that
// what a reader accepted reads back to the same record. Only the fuzz
// targets use these: the app never writes service data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roomkey/api.hpp"

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

}  // namespace roomkey::fuzz
