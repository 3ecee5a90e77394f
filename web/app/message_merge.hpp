// message_merge.hpp: how an answer of GET /rooms/{room_id}/messages joins the
// messages already shown. A first read (force=1) brings the latest 100; a
// poll (force=0) brings only what the service did not return before (204, an
// empty answer, when nothing is new), so the merge must hold whatever comes:
// repeats, edits, answers out of order. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "roomkey/api_records.hpp"

namespace roomkey::app {

struct MessageMerge {
    std::vector<ChatMessage> fresh;   // not shown before, oldest first as they came
    std::vector<std::string> edited;  // shown before, and the answer's copy was edited since
};

// Adds what `answer` holds that `shown` lacks (by message_id, exact strings),
// takes the body of an edited copy (a newer update_time), keeps `shown`
// oldest first (send_time; arrival order within one second) and at most
// `keep` messages (the oldest go).
MessageMerge merge_message_answer(std::vector<ChatMessage>& shown, const std::vector<ChatMessage>& answer,
                                  std::size_t keep);

// Whether the open room's next poll reads the latest 100 (force=1) rather
// than what is new (force=0). The service keeps one force=0 cursor per
// account and room (docs/sandbox.md), and every read of the account moves
// it: another tab, a script, or the app's own read of a mention's text may
// have taken messages this room never showed. The room list tells: the room
// changed (`room_updated`, its last_update_time) after the newest message
// shown. `read_for` is the change already read that way (so a change that
// brought no message, a new name, costs one such read, not every poll).
bool poll_reads_latest(const std::vector<ChatMessage>& shown, const std::vector<Room>* rooms,
                       const std::string& room_id, std::int64_t& read_for);

}  // namespace roomkey::app
