// service_messages.cpp: the bodies of the service's own messages (see service_messages.hpp).
#include "sandbox/service_messages.hpp"

namespace roomkey::sandbox {

namespace {

std::string picon_names(const std::vector<AccountId>& ids) {
    std::string out;
    for (AccountId id : ids) out += "[piconname:" + std::to_string(id) + "]";
    return out;
}

std::string info(const std::string& key, const std::string& inside) {
    return "[info][title][dtext:" + key + "][/title]" + inside + "[/info]";
}

}  // namespace

std::string task_added_message(const std::vector<AccountId>& assignees, const std::string& body,
                               std::int64_t limit_time, const std::string& limit_type) {
    std::string tasks;
    for (AccountId id : assignees) {
        tasks += "[task aid=" + std::to_string(id) + " st=open lt=" + std::to_string(limit_time) +
                 " ltype=" + limit_type + "]" + body + "[/task]";
    }
    return info("task_added", tasks);
}

std::string room_created_message(const std::string& name, const std::vector<AccountId>& members) {
    std::string inside = "[dtext:chatroom_chatname_is]" + name + "[dtext:chatroom_set]";
    if (!members.empty()) {
        inside += "\n\n[dtext:chatroom_member_is]" + picon_names(members) + "[dtext:chatroom_added]";
    }
    return info("chatroom_groupchat_created", inside);
}

std::string members_changed_message(const std::vector<AccountId>& added, const std::vector<AccountId>& removed) {
    std::string inside;
    if (!added.empty()) inside += "[dtext:chatroom_member_is]" + picon_names(added) + "[dtext:chatroom_added]";
    if (!removed.empty()) {
        if (!inside.empty()) inside += "\n";
        inside += "[dtext:chatroom_member_is]" + picon_names(removed) + "[dtext:chatroom_deleted]";
    }
    return inside.empty() ? std::string() : info("chatroom_chat_edited", inside);
}

}  // namespace roomkey::sandbox
