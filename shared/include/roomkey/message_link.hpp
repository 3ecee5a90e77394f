// message_link.hpp: the service's link to one message, as its own web client
// writes it in the address bar ("https://www.chatwork.com/#!rid2100-5": room
// 2100, message 5); find_links (links.hpp) reads it as a link. Pure.
#pragma once

#include <string>
#include <string_view>

namespace roomkey {

// The service's web client, where its links to a room or a message lead.
inline constexpr std::string_view kServiceWebClient = "https://www.chatwork.com/";

std::string message_link(std::string_view room_id, std::string_view message_id);

}  // namespace roomkey
