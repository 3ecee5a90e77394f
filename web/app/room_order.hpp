// room_order.hpp: the order the room list draws rooms in, and its filter box.
// Sticky rooms first, then rooms that mention you, then unread ones, then the
// most recently updated; ties by name, then by room id, so the list never
// jumps between two polls that changed nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "roomkey/api.hpp"

namespace roomkey::app {

// True when `a` is drawn above `b` (a strict weak order: std::sort can use it).
// A count or time the service left out counts as 0; a room id of more digits
// is the larger number.
bool room_drawn_before(const Room& a, const Room& b);

// True when the filter text is in the room's name: a byte substring with ASCII
// letters compared case-insensitively, so Japanese names match as typed.
// Spaces around the filter are ignored; an empty filter matches every room.
bool room_matches_filter(const Room& room, std::string_view filter);

// The indices of `rooms` that match `filter`, in the order they are drawn.
std::vector<std::size_t> room_order(const std::vector<Room>& rooms, std::string_view filter);

// A digest of everything room_order and a room's row read (ids, names,
// counts, sticky, times) and the filter: equal digests, equal lists.
std::uint64_t room_list_digest(const std::vector<Room>& rooms, std::string_view filter);

// room_order, worked out again only when room_list_digest changed: the list
// is drawn every frame, and sorting hundreds of rooms each time was not free.
class KeptRoomOrder {
public:
    const std::vector<std::size_t>& of(const std::vector<Room>& rooms, std::string_view filter);
    // The same, known to be unchanged while `version` and the filter are
    // (Dashboard::rooms_version): a frame reads no room, only the rows it draws.
    const std::vector<std::size_t>& of(const std::vector<Room>& rooms, std::uint64_t version, std::string_view filter);

private:
    std::uint64_t key_ = 0;
    bool known_ = false;
    std::vector<std::size_t> order_;
};

}  // namespace roomkey::app
