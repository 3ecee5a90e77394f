// room_order_test.cpp: the room list's order and filter (web/app/room_order.hpp).
#include "app/room_order.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey::app {
namespace room_order_test {
namespace {

Room room(std::string id, std::string name, bool sticky, std::int64_t mentions, std::int64_t unread,
          std::int64_t updated) {
    Room r;
    r.room_id = std::move(id);
    r.name = std::move(name);
    r.sticky = sticky;
    r.mention_num = mentions;
    r.unread_num = unread;
    r.last_update_time = updated;
    return r;
}

std::string names_in_order(const std::vector<Room>& rooms, std::string_view filter = {}) {
    std::string out;
    for (std::size_t i : room_order(rooms, filter)) {
        if (!out.empty()) out += ",";
        out += rooms[i].name;
    }
    return out;
}

TEST(RoomOrder, StickyThenMentionsThenUnreadThenMostRecent) {
    const std::vector<Room> rooms = {
        room("1", "old quiet", false, 0, 0, 100), room("2", "recent quiet", false, 0, 0, 900),
        room("3", "unread", false, 0, 4, 50),     room("4", "mentioned", false, 1, 1, 10),
        room("5", "sticky quiet", true, 0, 0, 1), room("6", "sticky unread", true, 0, 2, 1),
    };
    EXPECT_EQ(names_in_order(rooms), "sticky unread,sticky quiet,mentioned,unread,recent quiet,old quiet");
}

TEST(RoomOrder, TiesGoByNameThenIdAsANumber) {
    const std::vector<Room> rooms = {room("100", "b", false, 0, 0, 5), room("99", "b", false, 0, 0, 5),
                                     room("7", "a", false, 0, 0, 5)};
    const auto order = room_order(rooms, "");
    ASSERT_EQ(order.size(), 3u);
    EXPECT_EQ(rooms[order[0]].room_id, "7");
    EXPECT_EQ(rooms[order[1]].room_id, "99") << "99 < 100 as numbers, not as text";
    EXPECT_EQ(rooms[order[2]].room_id, "100");
}

TEST(RoomOrder, MissingCountsAndTimesCountAsZero) {
    Room bare;
    bare.room_id = "1";
    bare.name = "bare";
    const std::vector<Room> rooms = {bare, room("2", "unread", false, 0, 1, 0)};
    EXPECT_EQ(names_in_order(rooms), "unread,bare");
    EXPECT_FALSE(room_drawn_before(bare, bare)) << "irreflexive, as std::sort needs";
}

TEST(RoomOrder, FilterIsASubstringCaseInsensitiveForAscii) {
    const std::vector<Room> rooms = {
        room("1", "Design Review", false, 0, 0, 3),
        room("2", "\xE9\x96\x8B\xE7\x99\xBA\xE3\x83\x81\xE3\x83\xBC\xE3\x83\xA0", false, 0, 0, 2),  // 開発チーム
        room("3", "API \xE9\x96\x8B\xE7\x99\xBA", false, 0, 0, 1),                                  // API 開発
    };
    EXPECT_EQ(names_in_order(rooms, "review"), "Design Review");
    EXPECT_EQ(names_in_order(rooms, "  DESIGN "), "Design Review");
    EXPECT_EQ(names_in_order(rooms, "\xE9\x96\x8B\xE7\x99\xBA"),
              "\xE9\x96\x8B\xE7\x99\xBA\xE3\x83\x81\xE3\x83\xBC\xE3\x83\xA0,API \xE9\x96\x8B\xE7\x99\xBA");
    EXPECT_EQ(names_in_order(rooms, "api"), "API \xE9\x96\x8B\xE7\x99\xBA");
    EXPECT_EQ(names_in_order(rooms, "nothing"), "");
    EXPECT_EQ(room_order(rooms, "").size(), 3u);
}

// The list drawn every frame is sorted again only when the rooms or the filter changed.
TEST(RoomOrder, KeptUntilARoomOrTheFilterChanges) {
    std::vector<Room> rooms = {room("1", "b", false, 0, 0, 5), room("2", "a", false, 0, 1, 1),
                               room("3", "c", false, 0, 0, 9)};
    KeptRoomOrder kept;
    EXPECT_EQ(kept.of(rooms, ""), room_order(rooms, ""));
    const std::uint64_t before = room_list_digest(rooms, "");
    rooms[0].unread_num = 2;  // a poll: "b" now has unread messages
    EXPECT_NE(room_list_digest(rooms, ""), before);
    EXPECT_EQ(kept.of(rooms, ""), room_order(rooms, ""));
    EXPECT_EQ(kept.of(rooms, "c"), room_order(rooms, "c"));
    rooms[2].name = "renamed";
    EXPECT_EQ(kept.of(rooms, "c"), room_order(rooms, "c")) << "a new name leaves the filtered list";
    EXPECT_TRUE(kept.of(rooms, "c").empty());
}

// A frame asks with the dashboard's version of the rooms: while it and the
// filter are the same, no room is read (the list drawn is the one kept).
TEST(RoomOrder, KeptByVersionReadsNoRoomUntilTheVersionOrTheFilterChanges) {
    std::vector<Room> rooms = {room("1", "b", false, 0, 0, 5), room("2", "a", false, 0, 1, 1),
                               room("3", "c", false, 0, 0, 9)};
    KeptRoomOrder kept;
    const std::vector<std::size_t> first = room_order(rooms, "");
    EXPECT_EQ(kept.of(rooms, 1, ""), first);
    rooms[0].unread_num = 2;  // changed where the version does not say so
    EXPECT_EQ(kept.of(rooms, 1, ""), first) << "the same version: the rooms were not read again";
    EXPECT_EQ(kept.of(rooms, 2, ""), room_order(rooms, "")) << "a new version is read";
    EXPECT_NE(kept.of(rooms, 2, ""), first);
    EXPECT_EQ(kept.of(rooms, 2, "c"), room_order(rooms, "c")) << "another filter is read";
}

}  // namespace
}  // namespace room_order_test
}  // namespace roomkey::app
