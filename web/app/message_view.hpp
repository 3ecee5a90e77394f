// message_view.hpp: a message of the open room as the conversation draws it:
// its notation parsed (shared/notation.hpp), the plain
// text a reader sees, whether it mentions you, whom it answers, whether the
// service wrote it, whether it was edited, and its local time. Pure: the
// conversation (web/src/ui_conversation.cpp) and the page API's
// room.messages[] (views_state.cpp) read the same values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/room_view.hpp"
#include "app/time_text.hpp"
#include "roomkey/api_records.hpp"
#include "roomkey/notation.hpp"

namespace roomkey::app {

struct ReplyTo {
    std::string account_id;
    std::string message_id;
};

struct DrawnMessage {
    notation::Parts parts;
    std::string text;  // plain_text: the notation drawn, no tags
    bool mentions_me = false;
    std::optional<ReplyTo> reply_to;
    bool system = false;
    bool edited = false;
    std::string time_text;  // local time, as drawn
    std::string sender;     // its sender's name, or "account <id>"
    std::string spoken;     // how the conversation's log reads it: who, when, the text
};

// Account names from the room's members, then the contacts.
notation::NameLookup account_names(const RoomView& room, const std::vector<Contact>* contacts);

DrawnMessage drawn_message(const ChatMessage& message, const std::string& my_account_id,
                           const notation::NameLookup& names, std::int64_t now_unix, const UserTime& user);

}  // namespace roomkey::app
