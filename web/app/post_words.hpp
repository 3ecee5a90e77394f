// post_words.hpp: a post not yet delivered, as the conversation shows it
// where it stands: the page API's `pending` ('sending', 'waiting' after a
// fault while it goes again by itself, 'failed' when the user decides) and
// the line beneath it ("Not sent: the service can't be reached. Retrying at
// 10:42:05").
#pragma once

#include <string>
#include <string_view>

#include "app/posting.hpp"
#include "app/time_text.hpp"

namespace roomkey::app {

// "" for a post that is not pending (delivered, cancelled).
std::string_view pending_name(PostStage stage);
// Why a post may not have arrived, in words ("the service did not answer in time").
std::string doubt_words(PostDoubt doubt);
// A refused post in words by its cause, with what to do ("Not sent: the room
// was not found ... Discard."): its row's line and its error box's words.
std::string refusal_words(PostRefusal refusal);
// The line the conversation draws under a pending post.
std::string pending_words(const PostJob& job, const UserTime& user);

}  // namespace roomkey::app
