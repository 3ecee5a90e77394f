// mention_text.hpp: what a desktop notification says about a mention:
// the newest message of a room that mentions you, as a
// reader sees it ("Bob Example: To Alice Example lunch is ready", the
// notation drawn, no tags), short enough for a notification. Pure: the
// messages come from a read of that room (mentions.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/api_records.hpp"
#include "roomkey/notation.hpp"

namespace roomkey::app {

// Notifications show a few lines; the rest of a long message is cut here
// (on a character boundary) and marked with an ellipsis.
inline constexpr std::size_t kMentionTextMaxBytes = 200;

// The newest of `messages` (by send time; the later one of equal times)
// that mentions account `me` (a To, a reply to you, To all: shared/'s one
// mention rule), as "Sender: text". Names of accounts: `names` first, then
// the senders of `messages`. Nothing when no message mentions `me`.
std::optional<std::string> mention_text(const std::vector<ChatMessage>& messages, std::string_view me,
                                        const notation::NameLookup& names);

}  // namespace roomkey::app
