// app_stable_order_test.cpp: the one sort the app's lists share
// (web/app/stable_order.hpp): rooms, messages and accessibility operations
// that tie keep the order they came in.
#include "app/stable_order.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace roomkey::app {
namespace stable_order_test {
namespace {

struct Item {
    int key;
    std::string name;
};

std::string names(const std::vector<Item>& items) {
    std::string out;
    for (const Item& item : items) out += item.name;
    return out;
}

std::vector<Item> sorted_by_key(std::vector<Item> items) {
    const std::vector<std::size_t> order =
        stable_order(items.size(), [&](std::size_t a, std::size_t b) { return items[a].key < items[b].key; });
    return in_order(std::move(items), order);
}

TEST(StableOrder, SortsByTheRuleAndKeepsTiesInTheirOrder) {
    // Messages sent within one second keep their arrival order (RoomView).
    EXPECT_EQ(names(sorted_by_key({{3, "a"}, {1, "b"}, {2, "c"}, {1, "d"}, {3, "e"}, {2, "f"}, {1, "g"}})), "bdgcfae");
}

TEST(StableOrder, ALongListOfTiesIsLeftAsItCame) {
    // Beyond the few elements a sort handles by insertion.
    std::vector<Item> items;
    std::string expected;
    for (int i = 0; i < 200; ++i) {
        items.push_back({i % 2, std::string(1, static_cast<char>('A' + i % 26))});
    }
    for (int i = 0; i < 200; i += 2) expected += static_cast<char>('A' + i % 26);
    for (int i = 1; i < 200; i += 2) expected += static_cast<char>('A' + i % 26);
    EXPECT_EQ(names(sorted_by_key(std::move(items))), expected);
}

TEST(StableOrder, NothingToSortGivesNothing) {
    EXPECT_TRUE(stable_order(0, [](std::size_t, std::size_t) { return false; }).empty());
    EXPECT_TRUE(in_order(std::vector<Item>{}, {}).empty());
}

}  // namespace
}  // namespace stable_order_test
}  // namespace roomkey::app
