// chat_message.hpp: a message record as the service's reader gives it
// (id, sender, body, send time), which the app's unit tests build their
// rooms and mentions from.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "roomkey/api_records.hpp"

namespace roomkey::testing {

inline ChatMessage chat_message(std::string id, std::string account, std::string name, std::string body,
                                std::int64_t at) {
    ChatMessage m;
    m.message_id = std::move(id);
    m.account.account_id = std::move(account);
    m.account.name = std::move(name);
    m.body = std::move(body);
    m.send_time = at;
    return m;
}

}  // namespace roomkey::testing
