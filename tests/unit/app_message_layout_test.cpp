// app_message_layout_test.cpp: what the conversation keeps so that only what
// is on screen costs a frame (app/message_layout.hpp): heights kept per
// message and forgotten when the width or text size changes or the message
// is edited or deleted; the window of rows a scroll shows; messages parsed
// once per version; paragraphs broken into lines once per text and width.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "app/message_layout.hpp"

namespace roomkey::app {
namespace {

std::vector<RowKey> rows(std::size_t n) {
    std::vector<RowKey> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back({"m" + std::to_string(i), 1, {}});
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

// A frame draws the rows in view; the margin's rows only until measured.
TEST(RowHeights, AScrolledFrameDrawsOnlyTheRowsInViewOnceTheMarginIsMeasured) {
    RowHeights h;
    h.set_layout(600, 16, 50);
    std::vector<RowKey> keys = rows(100);
    h.set_rows(keys);
    const RowWindow first = h.drawn(2000, 200, 100);  // in view: rows 40..43; the margin 38..45
    EXPECT_EQ(first.first, 38u) << "not measured yet: drawn to be measured";
    EXPECT_EQ(first.last, 46u);
    for (std::size_t i = first.first; i < first.last; ++i) h.measured(i, 50);
    const RowWindow then = h.drawn(2000, 200, 100);
    EXPECT_EQ(then.first, 40u);
    EXPECT_EQ(then.last, 44u);
    EXPECT_EQ(then.last - then.first, 4u) << "only the 4 rows in view";
    EXPECT_FLOAT_EQ(then.before + 4 * 50 + then.after, h.total()) << "the list keeps its whole height";
    // A row in the margin edited: measured again, so drawn again.
    keys[45].version = 2;
    keys[39].version = 2;
    h.set_rows(keys);
    const RowWindow edited = h.drawn(2000, 200, 100);
    EXPECT_EQ(edited.first, 39u);
    EXPECT_EQ(edited.last, 46u);
    EXPECT_FLOAT_EQ(edited.before, 39 * 50);
    EXPECT_FLOAT_EQ(edited.after, 54 * 50);
    // The same frame at the very top and bottom stays in the list.
    EXPECT_EQ(h.drawn(0, 200, 100).first, 0u);
    EXPECT_EQ(h.drawn(h.total() - 200, 200, 100).last, 100u);
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

TEST(RowHeights, ARowNotMeasuredYetIsGivenTheFewestLinesItsTextTakes) {
    std::string long_text;
    for (int i = 0; i < 200; ++i) long_text += "日本語の長い文章";  // 1,600 characters
    RowHeights h;
    h.set_layout(600, 16, 50);
    std::vector<RowKey> keys = rows(3);
    keys[1].text = line_break::extent(long_text);
    keys[2].text = line_break::extent("短い");
    h.set_rows(keys);
    // 1,600 em of 16 px at 600 px: 43 lines at the fewest, 42 more than a short row's one.
    EXPECT_FLOAT_EQ(h.top_of(2) - h.top_of(1), 50 + 42 * 16);
    EXPECT_FLOAT_EQ(h.total() - h.top_of(2), 50);
    // Wider, it takes fewer lines; once drawn, its height is the one measured.
    h.set_layout(1200, 16, 50);
    EXPECT_FLOAT_EQ(h.top_of(2) - h.top_of(1), 50 + 21 * 16);
    h.measured(1, 400);
    EXPECT_FLOAT_EQ(h.top_of(2) - h.top_of(1), 400);
}

TEST(RowHeights, ARoomOfLongMessagesOpensDrawingTheFewThatFillTheView) {
    // 100 messages of 408 Japanese characters (the large account's median is
    // 340), 11 lines at the fewest at 600 px wide: 210 px each, in a view 600 high.
    std::string text;
    for (int i = 0; i < 34; ++i) text += "会議の資料を共有します。";
    std::vector<RowKey> keys = rows(100);
    for (RowKey& key : keys) key.text = line_break::extent(text);
    RowHeights h;
    h.set_layout(600, 16, 50);
    h.set_rows(keys);
    const float view = 600;
    const RowWindow at_newest = h.drawn(h.total() - view, view, view * 0.5f);
    // A short row's estimate alone (50 px) drew 18 of them (900 px of rows).
    EXPECT_LE(at_newest.last - at_newest.first, 6u);
    EXPECT_GE(at_newest.last - at_newest.first, 4u);  // still the view and the margin above it
    EXPECT_EQ(at_newest.last, 100u);
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
    h.set_rows({{"a", 1, {}}, {"b", 1, {}}, {"c", 1, {}}});
    h.measured(0, 30);
    h.measured(1, 30);
    h.measured(2, 30);
    h.set_rows({{"a", 1, {}}, {"b", 2, {}}, {"c", 1, {}}});  // b edited
    EXPECT_TRUE(h.known(0));
    EXPECT_FALSE(h.known(1));
    EXPECT_FLOAT_EQ(h.total(), 110);
    h.set_rows({{"a", 1, {}}, {"c", 1, {}}});  // b deleted
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
    const DrawnMessage* first = &cache.get(m, DrawnContext{1, 0}, "1001", names, 1'700'000'000, user);
    EXPECT_TRUE(first->mentions_me);
    EXPECT_EQ(&cache.get(m, DrawnContext{1, 0}, "1001", names, 1'700'000'000, user), first) << "kept, not parsed again";
    ChatMessage edited = m;
    edited.body = "plain now";
    edited.update_time = 1'700'000'100;
    const DrawnMessage& again = cache.get(edited, DrawnContext{1, 0}, "1001", names, 1'700'000'000, user);
    EXPECT_FALSE(again.mentions_me) << "an edit is parsed again";
    EXPECT_TRUE(again.edited);
    EXPECT_EQ(cache.get(edited, DrawnContext{2, 0}, "9999", names, 1'700'000'000, user).mentions_me, false)
        << "another context parses again";
    cache.keep_only({});
    EXPECT_EQ(cache.size(), 0u) << "a deleted message is forgotten";
}

TEST(DrawnMessages, TheLogLineIsMadeWithTheParseNotEachFrame) {
    DrawnMessages cache;
    const notation::NameLookup names = [](std::string_view) { return std::string("Bob"); };
    UserTime user;
    ChatMessage m;
    m.message_id = "6";
    m.body = "[info]deploy done[/info]";
    m.account.account_id = "1002";
    m.account.name = "Bob";
    const DrawnMessage& drawn = cache.get(m, DrawnContext{1, 0}, "1001", names, 1'700'000'000, user);
    EXPECT_EQ(drawn.sender, "Bob");
    EXPECT_NE(drawn.spoken.find("Bob"), std::string::npos) << drawn.spoken;
    EXPECT_NE(drawn.spoken.find("deploy done"), std::string::npos) << "the text as drawn: " << drawn.spoken;
    EXPECT_EQ(drawn.spoken.find("[info]"), std::string::npos) << "no tags: " << drawn.spoken;
    for (int frame = 0; frame < 10; ++frame) cache.get(m, DrawnContext{1, 0}, "1001", names, 1'700'000'000, user);
    EXPECT_EQ(cache.parses(), 1u) << "ten frames later, still the one parse";
    m.account.name.clear();
    m.update_time = 1'700'000'050;
    EXPECT_EQ(cache.get(m, DrawnContext{1, 0}, "1001", names, 1'700'000'000, user).sender, "Unknown member")
        << "a sender without a name is said in words, not by account id";
    EXPECT_EQ(cache.parses(), 2u);
}

// The members' answer often comes after the messages': the names it brings
// parse again only the messages that show a name it changed.
TEST(DrawnMessages, NewNamesParseAgainOnlyTheMessagesThatReadThem) {
    DrawnMessages cache;
    std::string bob = "Bob";
    const notation::NameLookup names = [&bob](std::string_view id) {
        return id == "1002" ? bob : std::string(id == "1003" ? "Carol" : "");
    };
    UserTime user;
    ChatMessage to_bob;
    to_bob.message_id = "1";
    to_bob.body = "[To:1002] hello";
    ChatMessage to_carol = to_bob;
    to_carol.message_id = "2";
    to_carol.body = "[To:1003] hi";
    ChatMessage plain = to_bob;
    plain.message_id = "3";
    plain.body = "no names here";
    const auto frame = [&](std::uint64_t names_key) {
        for (const ChatMessage* m : {&to_bob, &to_carol, &plain}) {
            cache.get(*m, DrawnContext{1, names_key}, "1001", names, 1'700'000'000, user);
        }
    };
    frame(10);
    EXPECT_EQ(cache.parses(), 3u);
    frame(11);  // the members came: the same names
    EXPECT_EQ(cache.parses(), 3u) << "the same names: nothing parsed again";
    bob = "Bob Builder";
    frame(12);  // a name changed
    EXPECT_EQ(cache.parses(), 4u) << "only the message naming Bob is parsed again";
    EXPECT_NE(cache.get(to_bob, DrawnContext{1, 12}, "1001", names, 1'700'000'000, user).text.find("Bob Builder"),
              std::string::npos);
    frame(12);
    EXPECT_EQ(cache.parses(), 4u);
    frame(12);
    cache.get(plain, DrawnContext{2, 12}, "1001", names, 1'700'000'000, user);
    EXPECT_EQ(cache.parses(), 5u) << "another day or language parses again";
}

// The open room as it loads: the messages' answer, then the members'. The
// members name who the messages already named: nothing is parsed again.
TEST(DrawnMessages, TheMembersAnswerAfterTheMessagesParsesNothingAgain) {
    RoomView room;
    room.open("7", "Team");
    ChatMessage m;
    m.message_id = "1";
    m.account = {"1002", "Bob", std::nullopt};
    m.body = "[To:1002]Bob hi [rp aid=1002 to=7-0]";
    m.send_time = 1'700'000'000;
    room.merge_messages({m});
    DrawnMessages cache;
    UserTime user;
    const auto frame = [&] {
        const DrawnContext context = drawn_context(room, nullptr, "1001", 1'700'000'000, user);
        for (const ChatMessage& message : room.messages()) {
            cache.get(message, context, "1001", account_names(room, nullptr), 1'700'000'000, user);
        }
    };
    frame();
    ASSERT_EQ(cache.parses(), 1u);
    const auto member = [](std::string id, std::string name) {
        RoomMember r;
        r.account_id = std::move(id);
        r.name = std::move(name);
        r.role = "member";
        return r;
    };
    room.set_members({member("1001", "Alice"), member("1002", "Bob")});
    frame();
    EXPECT_EQ(cache.parses(), 1u) << "the members' answer named Bob as the message did: nothing parsed again";
    room.set_members({member("1002", "Robert")});
    frame();
    EXPECT_EQ(cache.parses(), 2u) << "a member renamed: the message naming him is parsed again";
}

// A measure that counts its calls: every character is 10 wide.
float counted_width(std::string_view piece, const void* calls) {
    ++*static_cast<int*>(const_cast<void*>(calls));
    return 10.0f * static_cast<float>(piece.size());
}

TEST(ParagraphLayouts, AParagraphIsBrokenOncePerTextWidthAndTextSize) {
    ParagraphLayouts layouts;
    int calls = 0;
    const std::string text = "one two three four\n\nsee https://example.com/x now";
    const ParagraphLayout first = layouts.get(text, 105.0f, 13.0f, counted_width, &calls);
    // "one two" | "three four" | "" | "see" | the link, wider than a line, broken between characters | "now"
    ASSERT_GE(first.lines.size(), 5u);
    EXPECT_EQ(text.substr(first.lines[0].begin, first.lines[0].end - first.lines[0].begin), "one two");
    EXPECT_EQ(text.substr(first.lines[1].begin, first.lines[1].end - first.lines[1].begin), "three four");
    EXPECT_EQ(first.lines[2].begin, first.lines[2].end) << "the empty line stays a line";
    ASSERT_EQ(first.links.size(), 1u);
    EXPECT_EQ(first.links[0].url, "https://example.com/x");
    EXPECT_EQ(first.widths.size(), first.lines.size());
    EXPECT_EQ(first.widest, *std::max_element(first.widths.begin(), first.widths.end()));
    const int measured = calls;
    EXPECT_GT(measured, 0);

    // The next frames: nothing measured again.
    for (int frame = 0; frame < 3; ++frame) layouts.get(text, 105.0f, 13.0f, counted_width, &calls);
    EXPECT_EQ(calls, measured);
    // Another width or text size, or an edited text: laid out again.
    EXPECT_LT(layouts.get(text, 300.0f, 13.0f, counted_width, &calls).lines.size(), first.lines.size());
    EXPECT_GT(calls, measured);
    const int after_width = calls;
    layouts.get(text, 105.0f, 16.0f, counted_width, &calls);
    EXPECT_GT(calls, after_width);
    const int after_size = calls;
    const ParagraphLayout& edited = layouts.get(text + " more", 105.0f, 13.0f, counted_width, &calls);
    EXPECT_GT(calls, after_size);
    EXPECT_EQ(text.size() + 5, edited.lines.back().end);
}

TEST(ParagraphLayouts, KeepsTheParagraphsUsedLastAndForgetsTheOldest) {
    ParagraphLayouts layouts;
    int calls = 0;
    for (std::size_t i = 0; i < ParagraphLayouts::kKept * 2; ++i) {
        layouts.get("paragraph " + std::to_string(i), 500.0f, 13.0f, counted_width, &calls);
        layouts.get("on screen", 500.0f, 13.0f, counted_width, &calls);  // used every time
    }
    EXPECT_LE(layouts.size(), ParagraphLayouts::kKept);
    const int before = calls;
    layouts.get("on screen", 500.0f, 13.0f, counted_width, &calls);
    EXPECT_EQ(calls, before) << "the paragraph used all along is still kept";
    layouts.get("paragraph 0", 500.0f, 13.0f, counted_width, &calls);
    EXPECT_GT(calls, before) << "the one used longest ago was forgotten";
}

// A view as Dear ImGui's child window scrolls: a scroll asked for is
// applied at the next frame, rounded, and clamped to the end of the content
// the last frame drew; the reader's wheel moves it directly.
struct ScrolledView {
    float scroll = 0;
    float max = 0;
    float asked = -1.0f;
    float height = 400;
    void next_frame(float content_end) {
        max = std::max(0.0f, content_end - height);
        if (asked >= 0.0f) scroll = std::round(std::max(asked, 0.0f));
        scroll = std::min(scroll, max);
        asked = -1.0f;
    }
};

constexpr float kListTop = 8;

// One frame of the conversation: the place, the rows drawn measured at
// `real` px each, the scroll asked for. Returns where the content ended.
float frame(ReaderPlace& place, RowHeights& h, ScrolledView& v, float real, bool fresh = false) {
    const float scroll = place.begin(v.scroll, v.max, kListTop, v.height, h, fresh, false);
    const RowWindow w = h.drawn(scroll, v.height, v.height * 0.5f);
    for (std::size_t i = w.first; i < w.last; ++i) h.measured(i, real);
    const float end = kListTop + h.total();
    if (const float ask = place.end(end, false); ask >= 0.0f) v.asked = ask;
    return end;
}

// Frames until the view holds still (at most 30); the frames it took.
int settle(ReaderPlace& place, RowHeights& h, ScrolledView& v, float real) {
    for (int n = 1; n <= 30; ++n) {
        const float end = frame(place, h, v, real);
        const bool asked = v.asked >= 0.0f;
        v.next_frame(end);
        if (!asked) return n;
    }
    return 31;
}

void measure_all(RowHeights& h, float real) {
    for (std::size_t i = 0; i < h.size(); ++i) h.measured(i, real);
}

// Where row `id` stands below the view's top.
float below_top(const RowHeights& h, const ScrolledView& v, const std::string& id) {
    return h.top_of(h.find(id)) - (v.scroll - kListTop);
}

TEST(ReaderPlace, AWidthChangeKeepsTheMessageAtTheTopOfTheView) {
    RowHeights h;
    h.set_layout(600, 16, 30);
    h.set_rows(rows(30));
    measure_all(h, 100);  // scrolled through once
    ReaderPlace place;
    ScrolledView v;
    v.next_frame(frame(place, h, v, 100, true));
    EXPECT_LT(settle(place, h, v, 100), 30) << "the view holds still at the newest";
    EXPECT_TRUE(place.newest());
    EXPECT_FLOAT_EQ(v.scroll, v.max);
    // The reader scrolls up: row 22 is cut at the top, row 23 the first whole one, 50 px down.
    v.scroll = kListTop + 2250;
    EXPECT_LT(settle(place, h, v, 100), 30);
    EXPECT_FALSE(place.newest());
    EXPECT_EQ(place.row(), "m23");
    EXPECT_FLOAT_EQ(below_top(h, v, "m23"), 50);
    // Narrower (Details opened): every row is measured again, taller, the rows
    // off screen guessed at 30 px; then wider again, shorter than before.
    for (const auto& [width, real] : {std::pair{400.0f, 160.0f}, std::pair{700.0f, 80.0f}, std::pair{600.0f, 100.0f}}) {
        h.set_layout(width, 16, 30);
        EXPECT_LT(settle(place, h, v, real), 30) << width << " px: the view holds still";
        EXPECT_EQ(place.row(), "m23") << width << " px";
        EXPECT_NEAR(below_top(h, v, "m23"), 50, 1) << width << " px: the same message at the same place";
        EXPECT_FALSE(place.newest());
    }
}

// The end of the rows guessed short clamps the scroll the view asks for:
// the clamp is not the reader's scroll, and the place is reached once the
// rows below are measured.
TEST(ReaderPlace, TheViewsOwnClampIsNotTheReadersScroll) {
    RowHeights h;
    h.set_layout(600, 16, 30);
    h.set_rows(rows(30));
    measure_all(h, 100);
    ReaderPlace place;
    ScrolledView v;
    v.next_frame(frame(place, h, v, 100, true));
    settle(place, h, v, 100);
    v.scroll = kListTop + 2250;
    settle(place, h, v, 100);
    ASSERT_EQ(place.row(), "m23");
    h.set_layout(400, 16, 30);
    // The frame after the width change ends where the guessed rows end: the
    // place asks for no more than that end, where the view would clamp it.
    frame(place, h, v, 160);
    ASSERT_GE(v.asked, 0.0f);
    const float asked = v.asked;
    v.next_frame(kListTop + 30 * 30);
    ASSERT_FLOAT_EQ(v.scroll, std::round(asked)) << "within the end";
    ASSERT_GT(below_top(h, v, "m23"), 50) << "the place is not reached yet: m23 is lower in the view";
    frame(place, h, v, 160);
    EXPECT_EQ(place.row(), "m23") << "the clamp did not move the place";
    EXPECT_FALSE(place.newest()) << "nor read as the reader at the newest";
    v.next_frame(kListTop + h.total());
    settle(place, h, v, 160);
    EXPECT_NEAR(below_top(h, v, "m23"), 50, 1);
}

// At the newest the view follows the end as rows come; "Jump to latest"
// and a post bring a reader scrolled up back to it; a wheel to the end is
// the newest too.
TEST(ReaderPlace, AtTheNewestTheViewFollowsTheEnd) {
    RowHeights h;
    h.set_layout(600, 16, 30);
    std::vector<RowKey> keys = rows(30);
    h.set_rows(keys);
    ReaderPlace place;
    ScrolledView v;
    v.next_frame(frame(place, h, v, 100, true));
    settle(place, h, v, 100);
    keys.push_back({"new", 1, {}});
    h.set_rows(keys);
    settle(place, h, v, 100);
    EXPECT_TRUE(place.newest());
    EXPECT_FLOAT_EQ(v.scroll, v.max);
    EXPECT_FLOAT_EQ(v.max, kListTop + h.total() - v.height) << "the new row in view at the bottom";
    EXPECT_TRUE(h.known(30)) << "drawn and measured";
    v.scroll -= 300;  // the reader's wheel
    settle(place, h, v, 100);
    EXPECT_FALSE(place.newest());
    place.to_newest();
    settle(place, h, v, 100);
    EXPECT_TRUE(place.newest());
    EXPECT_FLOAT_EQ(v.scroll, v.max);
    v.scroll -= 300;
    settle(place, h, v, 100);
    v.scroll = v.max;  // wheeled back down to the end
    settle(place, h, v, 100);
    EXPECT_TRUE(place.newest());
    // Nothing asked while nothing moves: the view is idle.
    EXPECT_EQ(settle(place, h, v, 100), 1);
}

// A room opened at its first unread: the rows above and around it are
// guessed short and measured taller as they are drawn; the first unread
// stays at the view's top (it was ImGui's SetScrollHereY, read the next
// frame as the reader's scroll and so anchored at a later row).
TEST(ReaderPlace, AShownRowStaysAtTheTopWhileTheRowsAboveAreMeasured) {
    RowHeights h;
    h.set_layout(600, 16, 30);
    h.set_rows(rows(30));
    ReaderPlace place;
    ScrolledView v;
    v.next_frame(frame(place, h, v, 100, true));
    // The opening frame: shown, the rows around it drawn at 100 px (guessed 30).
    float scroll = place.begin(v.scroll, v.max, kListTop, v.height, h, false, false);
    scroll = place.show("m20", h);
    EXPECT_FLOAT_EQ(scroll, h.top_of(h.find("m20")));
    const RowWindow w = h.drawn(scroll, v.height, v.height * 0.5f);
    for (std::size_t i = w.first; i < w.last; ++i) h.measured(i, 100);
    if (const float ask = place.end(kListTop + h.total(), false); ask >= 0.0f) v.asked = ask;
    v.next_frame(kListTop + h.total());
    EXPECT_LT(settle(place, h, v, 100), 30) << "the view holds still";
    EXPECT_EQ(place.row(), "m20");
    EXPECT_FALSE(place.newest());
    EXPECT_NEAR(below_top(h, v, "m20"), 0, 1) << "the first unread at the view's top";
    place.show("nothing", h);
    EXPECT_EQ(place.row(), "m20") << "a row not in the list changes nothing";
    // A row too near the end to stand at the top: the view shows the end,
    // and the rows it shows are the ones drawn (not a view below the end).
    scroll = place.begin(v.scroll, v.max, kListTop, v.height, h, false, false);
    scroll = place.show("m29", h);
    EXPECT_FLOAT_EQ(scroll, h.total() - v.height) << "the last view's worth of rows";
    EXPECT_LT(settle(place, h, v, 100), 30);
    EXPECT_FLOAT_EQ(v.scroll, v.max) << "at the end";
    EXPECT_EQ(place.row(), "m29") << "the place is kept";
}

}  // namespace
}  // namespace roomkey::app
