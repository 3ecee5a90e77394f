// room_order.hpp: the order the room list draws rooms in, and its filter box.
// Sticky rooms first, then rooms that mention you, then unread ones, then the
// most recently updated; ties by name, then by room id, so the list never
// jumps between two polls that changed nothing.
#pragma once

#include <cstddef>
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

}  // namespace roomkey::app
