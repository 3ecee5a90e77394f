// member_completion.hpp: "@bo" in the composer offers the room's members
// whose name (or a word of it, or the account id) starts with "bo"; taking
// one puts "[To:id]Name" in place of "@bo". Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/soft_wrap.hpp"
#include "roomkey/api_records.hpp"

namespace roomkey::app {

struct MentionQuery {
    std::size_t at = 0;  // the '@' in the text
    std::string query;   // what follows it, up to the caret
};

// The "@..." just before the caret: the '@' starts the text or follows a
// space or a line break, and nothing between it and the caret is a space.
std::optional<MentionQuery> mention_query(std::string_view text, std::size_t caret);
// The members that match, in the room's order, at most `most`.
std::vector<const RoomMember*> matching_members(const std::vector<RoomMember>& members, std::string_view query,
                                                std::size_t most = 6);
// `text` with "@query" (ending at `caret`) replaced by "[To:id]Name" and a
// space (a line break when the '@' started a line); the caret after it.
Edited complete_mention(std::string_view text, std::size_t caret, const MentionQuery& q, const RoomMember& member);

}  // namespace roomkey::app
