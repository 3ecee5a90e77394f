// room_order.cpp: the room list's order and filter (see room_order.hpp).
#include "app/room_order.hpp"

#include <algorithm>
#include <tuple>

#include "app/digest.hpp"
#include "app/stable_order.hpp"
#include "roomkey/ascii.hpp"

namespace roomkey::app {

namespace room_order_detail {
namespace {

std::string_view trim_spaces(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// Ids are digits; compared as numbers without converting (they may exceed 64 bits).
bool id_less(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return a.size() < b.size();
    return a < b;
}

}  // namespace
}  // namespace room_order_detail

bool room_drawn_before(const Room& a, const Room& b) {
    // Each key ranks "drawn first" as the smaller value.
    const auto rank = [](const Room& r) {
        return std::make_tuple(!r.sticky.value_or(false), !(r.mention_num.value_or(0) > 0),
                               !(r.unread_num.value_or(0) > 0), -r.last_update_time.value_or(0));
    };
    const auto ra = rank(a);
    const auto rb = rank(b);
    if (ra != rb) return ra < rb;
    if (a.name != b.name) return a.name < b.name;
    return room_order_detail::id_less(a.room_id, b.room_id);
}

bool room_matches_filter(const Room& room, std::string_view filter) {
    using namespace room_order_detail;
    const std::string_view needle = trim_spaces(filter);
    if (needle.empty()) return true;
    return ifind(room.name, needle) != std::string_view::npos;
}

std::vector<std::size_t> room_order(const std::vector<Room>& rooms, std::string_view filter) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < rooms.size(); ++i) {
        if (room_matches_filter(rooms[i], filter)) order.push_back(i);
    }
    const std::vector<std::size_t> drawn = stable_order(
        order.size(), [&](std::size_t a, std::size_t b) { return room_drawn_before(rooms[order[a]], rooms[order[b]]); });
    return in_order(std::move(order), drawn);
}

std::uint64_t room_list_digest(const std::vector<Room>& rooms, std::string_view filter) {
    Digest d;
    d.add(filter);
    for (const Room& r : rooms) {
        d.add(r.room_id).add(r.name).add(r.unread_num).add(r.mention_num).add(r.sticky).add(r.last_update_time);
    }
    return d.value();
}

const std::vector<std::size_t>& KeptRoomOrder::of(const std::vector<Room>& rooms, std::string_view filter) {
    return of(rooms, room_list_digest(rooms, filter), filter);
}

const std::vector<std::size_t>& KeptRoomOrder::of(const std::vector<Room>& rooms, std::uint64_t version,
                                                  std::string_view filter) {
    const std::uint64_t key = Digest().add(static_cast<std::int64_t>(version)).add(filter).value();
    if (!known_ || key != key_) {
        order_ = room_order(rooms, filter);
        key_ = key;
        known_ = true;
    }
    return order_;
}

}  // namespace roomkey::app
