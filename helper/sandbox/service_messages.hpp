// service_messages.hpp: the messages the service writes into a room itself
// when something happens there, in its own notation: an [info] box whose
// title is a [dtext:KEY] placeholder the service's clients put into words.
// The sandbox writes the same bodies, so the app meets them here first.
//   task added     [info][title][dtext:task_added][/title][task aid=1001 st=open lt=1385996399 ltype=date]Review[/task][/info]
//                  (the issue "The real service, not our picture of it"; wlg-shinya/chatwork-converter)
//   room created   [info][title][dtext:chatroom_groupchat_created][/title][dtext:chatroom_chatname_is]NAME
//                  [dtext:chatroom_set]\n\n[dtext:chatroom_member_is][piconname:1002][dtext:chatroom_added][/info]
//                  (a GET /rooms/{id}/messages answer quoted in a public Python client's README)
//   members        [info][title][dtext:chatroom_chat_edited][/title][dtext:chatroom_member_is][piconname:1003]
//                  [dtext:chatroom_added][/info] (and [dtext:chatroom_deleted] for removed members), as bots
//                  that welcome new members match them
// service_event_key() in shared/'s message_tags.hpp reads the KEY back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sandbox/chat_model.hpp"

namespace roomkey::sandbox {

// One [task ...] per assignee, all in one message (one POST /tasks).
std::string task_added_message(const std::vector<AccountId>& assignees, const std::string& body,
                               std::int64_t limit_time, const std::string& limit_type);

// The room's name and the members other than its creator (none: no member line).
std::string room_created_message(const std::string& name, const std::vector<AccountId>& members);

// Members added to or removed from a room; empty when neither list has any.
std::string members_changed_message(const std::vector<AccountId>& added, const std::vector<AccountId>& removed);

}  // namespace roomkey::sandbox
