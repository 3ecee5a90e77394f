// message_link.cpp: see message_link.hpp.
#include "roomkey/message_link.hpp"

namespace roomkey {

std::string message_link(std::string_view room_id, std::string_view message_id) {
    std::string link(kServiceWebClient);
    link.append("#!rid").append(room_id).append("-").append(message_id);
    return link;
}

}  // namespace roomkey
