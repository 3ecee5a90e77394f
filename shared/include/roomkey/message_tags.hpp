// message_tags.hpp: what the service's message notation says about who a
// message is for and who wrote it, read the same way by the sandbox (which
// counts mentions as the service does) and the app (which marks them).
//   [To:1001]                         addressed to account 1001
//   [rp aid=1001 to=2100-123]         a reply to 1001's message 123 in room 2100;
//   [返信 aid=1001 to=2100-123]        the same tag as the service's Japanese UI writes it
//   [toall]                           addressed to every member
//   [info][title][dtext:KEY][/title]  written by the service itself (a task
//                                     added, a file uploaded, a room created, ...)
// All of it is read from notation.hpp's parts: a tag inside [code] is text,
// one in a quote counts (message_tags.cpp gives the rules and why).
// Sources: the service's notation guide; wlg-shinya/chatwork-converter
// (chatwork-tag-converter.ts); nnabeyang/unofficial-chatwork-parser.
#pragma once

#include <optional>
#include <string_view>

namespace roomkey {

// True when the body holds [To:<id>] or a reply tag ([rp ...] / [返信 ...])
// whose aid is <id>. Ids compare as the digits they are.
bool addresses_account(std::string_view body, std::string_view account_id);

// True when the body holds [toall].
bool addresses_everyone(std::string_view body);

// A mention of the account, as the service counts mention_num: addressed to
// it, or to everyone.
bool mentions_account(std::string_view body, std::string_view account_id);

// The reply tag's target, when the body has one: whose message it answers
// (aid) and which message (the part after '-' of to=ROOM-MESSAGE).
struct ReplyTarget {
    std::string_view account_id;
    std::string_view room_id;
    std::string_view message_id;
};
std::optional<ReplyTarget> reply_target(std::string_view body);

// The dtext key of a message the service wrote itself ("task_added",
// "file_uploaded", "chatroom_groupchat_created", "chatroom_chat_edited",
// ...): the body opens with [info][title][dtext:KEY][/title]. nullopt for a
// message a person wrote.
std::optional<std::string_view> service_event_key(std::string_view body);

}  // namespace roomkey
