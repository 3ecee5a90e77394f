// app_message_layout_test.cpp: what the conversation keeps so that only what
// is on screen costs a frame (app/message_layout.hpp): heights kept per
// message and forgotten when the width or text size changes or the message
// is edited or deleted; the window of rows a scroll shows; messages parsed
// once per version.
#include <gtest/gtest.h>

#include "app/message_layout.hpp"

namespace roomkey::app {
namespace {

std::vector<RowKey> rows(std::size_t n) {
    std::vector<RowKey> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back({"m" + std::to_string(i), 1});
    return out;
}

TEST(RowHeights, OnlyTheRowsInViewAreInTheWindow) {
    RowHeights h;
    h.set_layout(600, 16, 50);
    h.set_rows(rows(100));
    for (std::size_t i = 0; i < 100; ++i) h.measured(i, 40);
    const RowWindow w = h.window(400, 200, 0);  // rows 10..14 (400..600)
    EXPECT_EQ(w.first, 10u);
    EXPECT_EQ(w.last, 15u);
    EXPECT_FLOAT_EQ(w.before, 400);
    EXPECT_FLOAT_EQ(w.after, 85 * 40);
    EXPECT_FLOAT_EQ(w.before + static_cast<float>(w.last - w.first) * 40 + w.after, h.total()) << "the list keeps its whole height";
    const RowWindow margin = h.window(400, 200, 80);
    EXPECT_EQ(margin.first, 8u);
    EXPECT_EQ(margin.last, 17u);
    const RowWindow bottom = h.window(h.total() - 200, 200, 0);
    EXPECT_EQ(bottom.last, 100u);
    EXPECT_FLOAT_EQ(bottom.after, 0);
}

TEST(RowHeights, UnmeasuredRowsTakeTheEstimateUntilDrawn) {
    RowHeights h;
    h.set_layout(600, 16, 50);
    h.set_rows(rows(10));
    EXPECT_FLOAT_EQ(h.total(), 500);
    EXPECT_FALSE(h.known(3));
    h.measured(3, 120);
    EXPECT_TRUE(h.known(3));
    EXPECT_FLOAT_EQ(h.total(), 570);
    EXPECT_FLOAT_EQ(h.top_of(4), 3 * 50 + 120);
}

TEST(RowHeights, AnotherWidthOrTextSizeForgetsEveryHeight) {
    RowHeights h;
    h.set_layout(600, 16, 50);
    h.set_rows(rows(3));
    h.measured(0, 80);
    h.set_layout(600, 16, 50);
    EXPECT_TRUE(h.known(0)) << "the same layout keeps it";
    h.set_layout(400, 16, 50);
    EXPECT_FALSE(h.known(0)) << "text wraps differently at another width";
    h.measured(0, 80);
    h.set_layout(400, 20, 50);
    EXPECT_FALSE(h.known(0)) << "and at another text size";
}

TEST(RowHeights, AnEditedMessageIsMeasuredAgainAndADeletedOneGoes) {
    RowHeights h;
    h.set_layout(600, 16, 50);
    h.set_rows({{"a", 1}, {"b", 1}, {"c", 1}});
    h.measured(0, 30);
    h.measured(1, 30);
    h.measured(2, 30);
    h.set_rows({{"a", 1}, {"b", 2}, {"c", 1}});  // b edited
    EXPECT_TRUE(h.known(0));
    EXPECT_FALSE(h.known(1));
    EXPECT_FLOAT_EQ(h.total(), 110);
    h.set_rows({{"a", 1}, {"c", 1}});  // b deleted
    EXPECT_TRUE(h.known(0));
    EXPECT_TRUE(h.known(1)) << "c keeps its height at its new place";
    EXPECT_FLOAT_EQ(h.total(), 60);
}

TEST(MessageVersion, ChangesWithAnEditAndTheSeparatorAbove) {
    ChatMessage m;
    m.message_id = "5";
    m.body = "hello";
    m.update_time = 0;
    const auto plain = message_version(m, false);
    EXPECT_EQ(plain, message_version(m, false));
    EXPECT_NE(plain, message_version(m, true));
    ChatMessage edited = m;
    edited.body = "hello, world";
    edited.update_time = 1700000000;
    EXPECT_NE(plain, message_version(edited, false));
}

TEST(DrawnMessages, AMessageIsParsedOncePerVersion) {
    DrawnMessages cache;
    const notation::NameLookup names = [](std::string_view) { return std::string("Bob"); };
    UserTime user;
    ChatMessage m;
    m.message_id = "5";
    m.body = "[To:1001]Alice hello";
    m.update_time = 0;
    const DrawnMessage* first = &cache.get(m, 1, "1001", names, 1'700'000'000, user);
    EXPECT_TRUE(first->mentions_me);
    EXPECT_EQ(&cache.get(m, 1, "1001", names, 1'700'000'000, user), first) << "kept, not parsed again";
    ChatMessage edited = m;
    edited.body = "plain now";
    edited.update_time = 1'700'000'100;
    const DrawnMessage& again = cache.get(edited, 1, "1001", names, 1'700'000'000, user);
    EXPECT_FALSE(again.mentions_me) << "an edit is parsed again";
    EXPECT_TRUE(again.edited);
    EXPECT_EQ(cache.get(edited, 2, "9999", names, 1'700'000'000, user).mentions_me, false)
        << "another context parses again";
    cache.keep_only({});
    EXPECT_EQ(cache.size(), 0u) << "a deleted message is forgotten";
}

}  // namespace
}  // namespace roomkey::app
