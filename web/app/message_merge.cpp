// message_merge.cpp: an answer of GET .../messages joins the room (see message_merge.hpp).
#include "app/message_merge.hpp"

#include <algorithm>
#include <cstddef>
#include <set>

#include "app/stable_order.hpp"

namespace roomkey::app {

MessageMerge merge_message_answer(std::vector<ChatMessage>& shown, const std::vector<ChatMessage>& answer,
                                  std::size_t keep) {
    MessageMerge out;
    std::set<std::string> known;
    for (const ChatMessage& m : shown) known.insert(m.message_id);
    for (const ChatMessage& m : answer) {
        if (known.insert(m.message_id).second) {
            out.fresh.push_back(m);
            continue;
        }
        // A repeat: only an edit newer than the copy held counts (update_time 0: never edited).
        auto same = [&](const ChatMessage& c) { return c.message_id == m.message_id; };
        auto copy = std::find_if(shown.begin(), shown.end(), same);
        const bool in_shown = copy != shown.end();
        if (!in_shown) copy = std::find_if(out.fresh.begin(), out.fresh.end(), same);
        if (m.update_time.value_or(0) > copy->update_time.value_or(0)) {
            copy->body = m.body;
            copy->update_time = m.update_time;
            if (in_shown) out.edited.push_back(m.message_id);
        }
    }
    if (out.fresh.empty() && out.edited.empty()) return out;  // a 204: nothing moves
    shown.insert(shown.end(), out.fresh.begin(), out.fresh.end());
    const std::vector<std::size_t> order = stable_order(
        shown.size(), [&](std::size_t a, std::size_t b) { return shown[a].send_time < shown[b].send_time; });
    shown = in_order(std::move(shown), order);
    if (shown.size() > keep)
        shown.erase(shown.begin(), shown.begin() + static_cast<std::ptrdiff_t>(shown.size() - keep));
    return out;
}

bool poll_reads_latest(const std::vector<ChatMessage>& shown, const std::vector<Room>* rooms,
                       const std::string& room_id, std::int64_t& read_for) {
    if (!rooms) return false;
    std::int64_t updated = 0;
    for (const Room& r : *rooms) {
        if (r.room_id == room_id) updated = r.last_update_time.value_or(0);
    }
    std::int64_t newest = 0;
    for (const ChatMessage& m : shown) newest = std::max({newest, m.send_time, m.update_time.value_or(0)});
    if (updated <= newest || updated <= read_for) return false;
    read_for = updated;
    return true;
}

}  // namespace roomkey::app
