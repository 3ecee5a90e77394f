// message_view.cpp: a message as drawn (see message_view.hpp).
#include "app/message_view.hpp"

#include "app/dtext_words.hpp"
#include "app/i18n.hpp"
#include "roomkey/message_tags.hpp"

namespace roomkey::app {

notation::NameLookup account_names(const RoomView& room, const std::vector<Contact>* contacts) {
    return [&room, contacts](std::string_view id) -> std::string {
        for (const RoomMember& m : room.members()) {
            if (m.account_id == id) return m.name;
        }
        if (contacts) {
            for (const Contact& c : *contacts) {
                if (c.account_id == id) return c.name;
            }
        }
        for (const ChatMessage& m : room.messages()) {
            if (m.account.account_id == id && !m.account.name.empty()) return m.account.name;
        }
        return {};
    };
}

DrawnMessage drawn_message(const ChatMessage& message, const std::string& my_account_id,
                           const notation::NameLookup& names, std::int64_t now_unix, const UserTime& user) {
    DrawnMessage out;
    out.parts = notation::parse(message.body);
    out.text = plain_text(out.parts, names);
    out.mentions_me = !my_account_id.empty() && mentions_account(message.body, my_account_id);
    if (const auto target = reply_target(message.body)) {
        out.reply_to = ReplyTo{std::string(target->account_id), std::string(target->message_id)};
    }
    out.system = service_event_key(message.body).has_value();
    out.edited = message.update_time.value_or(0) > 0;
    out.time_text = message_time_text(message.send_time, now_unix, user);
    // A sender without a name in words; the id stays the page API's (account_id).
    out.sender = message.account.name.empty() ? tr("mentions.unknown") : message.account.name;
    // Made with the parse, not every frame: the log holds every message, drawn or not.
    out.spoken = tr("conversation.log_item", {{"name", out.sender}, {"time", out.time_text}, {"text", out.text}});
    return out;
}

}  // namespace roomkey::app
