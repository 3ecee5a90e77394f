// same_records.hpp: equality of the service's records for the fuzz targets'
// round trips (a record a reader accepted, written back with shared/'s
// to_json, the sandbox's writer, must read again to the same record).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "roomkey/api.hpp"
#include "roomkey/api_records.hpp"

namespace roomkey::fuzz {

inline bool same(const Account& x, const Account& y) {
    return x.account_id == y.account_id && x.room_id == y.room_id && x.name == y.name &&
           x.chatwork_id == y.chatwork_id && x.organization_id == y.organization_id &&
           x.organization_name == y.organization_name && x.department == y.department && x.title == y.title &&
           x.url == y.url && x.introduction == y.introduction && x.mail == y.mail &&
           x.tel_organization == y.tel_organization && x.tel_extension == y.tel_extension &&
           x.tel_mobile == y.tel_mobile && x.skype == y.skype && x.facebook == y.facebook && x.twitter == y.twitter &&
           x.avatar_image_url == y.avatar_image_url && x.login_mail == y.login_mail;
}

inline bool same(const MyStatus& x, const MyStatus& y) {
    return x.unread_room_num == y.unread_room_num && x.mention_room_num == y.mention_room_num &&
           x.mytask_room_num == y.mytask_room_num && x.unread_num == y.unread_num && x.mention_num == y.mention_num &&
           x.mytask_num == y.mytask_num;
}

inline bool same(const Room& x, const Room& y) {
    return x.room_id == y.room_id && x.name == y.name && x.type == y.type && x.role == y.role &&
           x.unread_num == y.unread_num && x.mention_num == y.mention_num && x.mytask_num == y.mytask_num &&
           x.message_num == y.message_num && x.file_num == y.file_num && x.task_num == y.task_num &&
           x.icon_path == y.icon_path && x.last_update_time == y.last_update_time && x.sticky == y.sticky &&
           x.description == y.description;
}

inline bool same(const AccountBrief& x, const AccountBrief& y) {
    return x.account_id == y.account_id && x.name == y.name && x.avatar_image_url == y.avatar_image_url;
}

inline bool same(const TaskRoomBrief& x, const TaskRoomBrief& y) {
    return x.room_id == y.room_id && x.name == y.name && x.icon_path == y.icon_path;
}

// Declared after every record `same` it is used with (two-phase lookup).
template <class T>
bool same(const std::optional<T>& x, const std::optional<T>& y) {
    return x.has_value() == y.has_value() && (!x || same(*x, *y));
}

inline bool same(const ChatMessage& x, const ChatMessage& y) {
    return x.message_id == y.message_id && same(x.account, y.account) && x.body == y.body &&
           x.send_time == y.send_time && x.update_time == y.update_time;
}

inline bool same(const ChatTask& x, const ChatTask& y) {
    return x.task_id == y.task_id && same(x.account, y.account) && same(x.room, y.room) &&
           same(x.assigned_by_account, y.assigned_by_account) && x.message_id == y.message_id && x.body == y.body &&
           x.limit_time == y.limit_time && x.status == y.status && x.limit_type == y.limit_type;
}

inline bool same(const RoomMember& x, const RoomMember& y) {
    return x.account_id == y.account_id && x.name == y.name && x.role == y.role && x.chatwork_id == y.chatwork_id &&
           x.organization_name == y.organization_name && x.department == y.department && x.room_id == y.room_id &&
           x.organization_id == y.organization_id && x.avatar_image_url == y.avatar_image_url;
}

inline bool same(const ChatFile& x, const ChatFile& y) {
    return x.file_id == y.file_id && same(x.account, y.account) && x.message_id == y.message_id &&
           x.filename == y.filename && x.filesize == y.filesize && x.upload_time == y.upload_time &&
           x.download_url == y.download_url;
}

inline bool same(const Contact& x, const Contact& y) {
    return x.account_id == y.account_id && x.room_id == y.room_id && x.name == y.name &&
           x.chatwork_id == y.chatwork_id && x.organization_name == y.organization_name &&
           x.department == y.department && x.organization_id == y.organization_id &&
           x.avatar_image_url == y.avatar_image_url;
}

inline bool same(const ContactRequest& x, const ContactRequest& y) {
    return x.request_id == y.request_id && x.account_id == y.account_id && x.name == y.name && x.message == y.message &&
           x.organization_name == y.organization_name && x.room_id == y.room_id && x.chatwork_id == y.chatwork_id &&
           x.organization_id == y.organization_id && x.department == y.department &&
           x.avatar_image_url == y.avatar_image_url;
}

inline bool same(const UnreadCounts& x, const UnreadCounts& y) {
    return x.unread_num == y.unread_num && x.mention_num == y.mention_num;
}

}  // namespace roomkey::fuzz
