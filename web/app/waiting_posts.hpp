// waiting_posts.hpp: the posts a session left unsent, as the tab keeps them
// in sessionStorage across the session's end and a reload: the text, its
// room and the account that wrote it (never a token). After signing in
// again as that account they are offered (Send / Review / Discard); another
// account never sees or sends them. Pure: the record is a JSON array.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace roomkey::app {

struct WaitingPost {
    std::string local_id;  // the post's id on this page, stable across reloads
    std::string room_id;
    std::string body;
    std::string account_id;  // who wrote it
};

// The record kept in sessionStorage: [{local_id, room_id, body, account_id}].
std::string waiting_posts_record(const std::vector<WaitingPost>& posts);
// Reads a record back; an entry that is not a post of a room (a bad room id,
// no text) is left out, a record that is not an array reads as none.
std::vector<WaitingPost> read_waiting_posts(std::string_view record);

}  // namespace roomkey::app
