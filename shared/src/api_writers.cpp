// api_writers.cpp: the service's records written as the service sends them
// (api.hpp, api_records.hpp "Writers"): the sandbox answers with these and
// the readers in api.cpp and api_records.cpp read them back.
#include <charconv>
#include <nlohmann/json.hpp>

#include "roomkey/api.hpp"
#include "roomkey/api_records.hpp"
#include "roomkey/file_upload.hpp"

namespace roomkey {

namespace {

using Json = nlohmann::ordered_json;

std::string dump_record(const Json& value) {
    // `replace`: a text need not be UTF-8 (the readers keep any bytes).
    return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Ids go out as JSON numbers, as the service sends them, when they are
// digits that fit 64 bits; any other id text (read from a string) goes
// back as the same string, so a record reads back exactly.
Json id_json(const std::string& id) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), n);
    if (ec == std::errc() && end == id.data() + id.size() && !id.empty() && (id == "0" || id[0] != '0')) return n;
    return id;
}

template <class T>
void put(Json& object, const char* name, const std::optional<T>& value) {
    if (value) object[name] = *value;
}

void put_id(Json& object, const char* name, const std::optional<std::string>& id) {
    if (id) object[name] = id_json(*id);
}

Json brief_json(const AccountBrief& a) {
    Json o = Json::object();
    o["account_id"] = id_json(a.account_id);
    o["name"] = a.name;
    put(o, "avatar_image_url", a.avatar_image_url);
    return o;
}

Json record_json(const Room& r) {
    Json o = Json::object();
    o["room_id"] = id_json(r.room_id);
    o["name"] = r.name;
    put(o, "type", r.type);
    put(o, "role", r.role);
    put(o, "sticky", r.sticky);
    put(o, "unread_num", r.unread_num);
    put(o, "mention_num", r.mention_num);
    put(o, "mytask_num", r.mytask_num);
    put(o, "message_num", r.message_num);
    put(o, "file_num", r.file_num);
    put(o, "task_num", r.task_num);
    put(o, "icon_path", r.icon_path);
    put(o, "last_update_time", r.last_update_time);
    put(o, "description", r.description);
    return o;
}

Json record_json(const ChatMessage& m) {
    Json o = Json::object();
    o["message_id"] = m.message_id;  // a string: message ids exceed 2^53
    o["account"] = brief_json(m.account);
    o["body"] = m.body;
    o["send_time"] = m.send_time;
    put(o, "update_time", m.update_time);
    return o;
}

Json record_json(const ChatTask& t) {
    Json o = Json::object();
    o["task_id"] = id_json(t.task_id);
    if (t.account) o["account"] = brief_json(*t.account);
    if (t.room) {
        Json room = Json::object();
        room["room_id"] = id_json(t.room->room_id);
        room["name"] = t.room->name;
        put(room, "icon_path", t.room->icon_path);
        o["room"] = std::move(room);
    }
    if (t.assigned_by_account) o["assigned_by_account"] = brief_json(*t.assigned_by_account);
    put(o, "message_id", t.message_id);
    o["body"] = t.body;
    put(o, "limit_time", t.limit_time);
    o["status"] = t.status;
    put(o, "limit_type", t.limit_type);
    return o;
}

// A member, a contact and a contact request carry the account's public
// profile in the same order, the record's own fields after it.
template <class Profile>
Json profile_json(const Profile& p) {
    Json o = Json::object();
    o["account_id"] = id_json(p.account_id);
    put_id(o, "room_id", p.room_id);
    o["name"] = p.name;
    put(o, "chatwork_id", p.chatwork_id);
    put_id(o, "organization_id", p.organization_id);
    put(o, "organization_name", p.organization_name);
    put(o, "department", p.department);
    put(o, "avatar_image_url", p.avatar_image_url);
    return o;
}

Json record_json(const RoomMember& m) {
    Json o = profile_json(m);
    o["role"] = m.role;
    return o;
}

Json record_json(const ChatFile& f) {
    Json o = Json::object();
    o["file_id"] = id_json(f.file_id);
    if (f.account) o["account"] = brief_json(*f.account);
    put(o, "message_id", f.message_id);
    o["filename"] = f.filename;
    o["filesize"] = f.filesize;
    put(o, "upload_time", f.upload_time);
    put(o, "download_url", f.download_url);
    return o;
}

Json record_json(const Contact& c) { return profile_json(c); }

Json record_json(const ContactRequest& r) {
    Json o = profile_json(r);
    o["request_id"] = id_json(r.request_id);
    put(o, "message", r.message);
    return o;
}

template <class Record>
std::string list_json(const std::vector<Record>& records) {
    Json list = Json::array();
    for (const auto& r : records) list.push_back(record_json(r));
    return dump_record(list);
}

}  // namespace

std::string to_json(const Account& a) {
    Json o = Json::object();
    o["account_id"] = id_json(a.account_id);
    put_id(o, "room_id", a.room_id);
    put(o, "name", a.name);
    put(o, "chatwork_id", a.chatwork_id);
    put_id(o, "organization_id", a.organization_id);
    put(o, "organization_name", a.organization_name);
    put(o, "department", a.department);
    put(o, "title", a.title);
    put(o, "url", a.url);
    put(o, "introduction", a.introduction);
    put(o, "mail", a.mail);
    put(o, "tel_organization", a.tel_organization);
    put(o, "tel_extension", a.tel_extension);
    put(o, "tel_mobile", a.tel_mobile);
    put(o, "skype", a.skype);
    put(o, "facebook", a.facebook);
    put(o, "twitter", a.twitter);
    put(o, "avatar_image_url", a.avatar_image_url);
    put(o, "login_mail", a.login_mail);
    return dump_record(o);
}

std::string to_json(const MyStatus& s) {
    const Json o = {{"unread_room_num", s.unread_room_num}, {"mention_room_num", s.mention_room_num},
                    {"mytask_room_num", s.mytask_room_num}, {"unread_num", s.unread_num},
                    {"mention_num", s.mention_num},         {"mytask_num", s.mytask_num}};
    return dump_record(o);
}

std::string to_json(const Room& room) {
    return dump_record(record_json(room));
}
std::string to_json(const std::vector<Room>& rooms) {
    return list_json(rooms);
}

std::string posted_message_json(const std::string& message_id) {
    return dump_record(Json{{"message_id", message_id}});
}

std::string posted_tasks_json(const std::vector<std::string>& task_ids) {
    Json ids = Json::array();
    for (const auto& id : task_ids) ids.push_back(id_json(id));
    return dump_record(Json{{"task_ids", std::move(ids)}});
}

std::string to_json(const ChatMessage& message) {
    return dump_record(record_json(message));
}
std::string to_json(const std::vector<ChatMessage>& messages) {
    return list_json(messages);
}
std::string to_json(const ChatTask& task) {
    return dump_record(record_json(task));
}
std::string to_json(const std::vector<ChatTask>& tasks) {
    return list_json(tasks);
}
std::string to_json(const std::vector<RoomMember>& members) {
    return list_json(members);
}
std::string to_json(const ChatFile& file) {
    return dump_record(record_json(file));
}
std::string to_json(const std::vector<ChatFile>& files) {
    return list_json(files);
}
std::string to_json(const Contact& contact) {
    return dump_record(record_json(contact));
}
std::string to_json(const std::vector<Contact>& contacts) {
    return list_json(contacts);
}
std::string to_json(const std::vector<ContactRequest>& requests) {
    return list_json(requests);
}

std::string uploaded_file_json(const std::string& file_id) {
    return dump_record(Json{{"file_id", id_json(file_id)}});
}

std::string task_status_answer_json(const std::string& task_id) {
    return dump_record(Json{{"task_id", id_json(task_id)}});
}

std::string to_json(const UnreadCounts& c) {
    return dump_record(Json{{"unread_num", c.unread_num}, {"mention_num", c.mention_num}});
}

}  // namespace roomkey
