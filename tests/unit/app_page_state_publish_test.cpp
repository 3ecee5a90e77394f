// app_page_state_publish_test.cpp: the page state published by part
// (app/page_state.hpp PageStatePublisher): the parts given, applied as
// shell/page.js applies them, add up to the whole state; a change publishes
// that change; a countdown that ticks rebuilds neither the room list nor the
// open room; a task or a member changed does not send the messages again.
#include <algorithm>

#include "app/page_state.hpp"
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_page_state_publish_test {
namespace {

using json = nlohmann::json;
using app_test::AppHarness;

// What shell/page.js's _publish does with the parts: a top-level name
// replaces its part, a dotted one sets a field inside its part, and that
// field is set again inside a new copy of its part (`inner`).
void apply_parts(json& state, json& inner, const std::string& text) {
    if (text.empty()) return;
    const json parts = json::parse(text);
    auto set_inside = [&state](const std::string& name, const json& value) {
        const auto dot = name.find('.');
        if (state[name.substr(0, dot)].is_object()) state[name.substr(0, dot)][name.substr(dot + 1)] = value;
    };
    for (const auto& [name, value] : parts.items()) {
        if (name.find('.') == std::string::npos) {
            state[name] = value;
            for (const auto& [field, kept] : inner.items()) {
                if (field.substr(0, field.find('.')) == name) set_inside(field, kept);
            }
        } else {
            inner[name] = value;
            set_inside(name, value);
        }
    }
}

bool built(const PageStatePublisher& p, std::string_view group) {
    return std::find(p.built().begin(), p.built().end(), group) != p.built().end();
}

struct Publishing {
    AppHarness h;
    PageStatePublisher publisher;
    json page = json::object();   // what the page holds
    json inner = json::object();  // the fields it keeps inside their parts

    Publishing() {
        h.start();
        h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
        h.room_bodies["7"] = {"hello [To:4242] you"};
        h.room_bodies["8"] = {"over in ops"};
        h.apply(intent::OpenRoom{"7"});
        publish();
    }
    json publish(bool time_only = false) {
        const std::string text = publisher.changes(*h.app, h.now, time_only);
        apply_parts(page, inner, text);
        return text.empty() ? json::object() : json::parse(text);
    }
    json whole() const { return json::parse(page_state_json(*h.app, h.now)); }
};

TEST(PageStatePublisher, ThePartsAddUpToTheWholeState) {
    Publishing p;
    EXPECT_EQ(p.page, p.whole()) << "the first publish gives every part";
    ASSERT_TRUE(p.page["room"].is_object());
    ASSERT_EQ(p.page["room"]["messages"].size(), 1u);
    EXPECT_EQ(p.page["room"]["messages"][0]["mentions_me"], true);
    EXPECT_TRUE(p.page["room"]["poll_in_ms"].is_number()) << "the countdown is set inside room";
    p.h.apply(intent::SetRoomFilter{"ops"});
    p.publish();
    EXPECT_EQ(p.page, p.whole()) << "after a change";
    p.h.now += Millis(1500);
    p.publish(true);
    EXPECT_EQ(p.page, p.whole()) << "after time passed";
}

TEST(PageStatePublisher, ACountdownThatTicksRebuildsNeitherTheRoomsNorTheRoom) {
    Publishing p;
    p.h.now += Millis(700);
    const json ticked = p.publish(true);
    EXPECT_EQ(p.publisher.built(), std::vector<std::string>{"small"});
    ASSERT_TRUE(ticked.contains(kRoomPollInMs)) << ticked.dump();
    EXPECT_FALSE(ticked.contains("room")) << "the room is not sent again for its countdown";
    EXPECT_FALSE(ticked.contains("rooms"));
    EXPECT_LT(ticked.dump().size(), 200u) << ticked.dump();

    // A publish after something that changed nothing they read: nothing large built.
    p.h.now += Millis(700);
    const json again = p.publish();
    EXPECT_FALSE(built(p.publisher, "rooms"));
    EXPECT_FALSE(built(p.publisher, "room"));
    EXPECT_FALSE(built(p.publisher, "catalog"));
    EXPECT_FALSE(again.contains("room"));
    EXPECT_FALSE(again.contains("catalog"));
}

// A frame that only time changed (a scroll's, a countdown's) builds the
// parts that tick, not the log's titles and the other small parts; the
// next change of the app builds them and sends what changed.
TEST(PageStatePublisher, TheSmallPartsThatDoNotTickAreBuiltOnlyAfterAChange) {
    Publishing p;
    ASSERT_TRUE(built(p.publisher, "status")) << "the first publish builds every part";
    ASSERT_FALSE(p.page["log"].empty());
    const json last_logged = p.page["log"].back();
    p.h.now += Millis(1200);
    const json ticked = p.publish(true);
    EXPECT_FALSE(built(p.publisher, "status")) << "a frame that only time changed: no log titles built";
    EXPECT_TRUE(ticked.contains(kRoomPollInMs)) << "the countdown is sent: " << ticked.dump();
    EXPECT_FALSE(ticked.contains("log"));
    EXPECT_EQ(p.page, p.whole()) << "what the page holds is still the whole state";

    p.h.apply(intent::ReloadRooms{});  // a request logged: the app changed
    const json changed = p.publish();
    EXPECT_TRUE(built(p.publisher, "status"));
    ASSERT_TRUE(changed.contains("log")) << changed.dump();
    EXPECT_NE(p.page["log"].back(), last_logged) << "the new request's title is published";
    EXPECT_EQ(p.page, p.whole());
}

TEST(PageStatePublisher, AChangePublishesThatChange) {
    Publishing p;
    p.h.apply(intent::SetRoomFilter{"ops"});
    json changed = p.publish();
    EXPECT_TRUE(built(p.publisher, "rooms"));
    EXPECT_FALSE(built(p.publisher, "room")) << "the open room did not change";
    ASSERT_TRUE(changed.contains("rooms"));
    ASSERT_EQ(changed["rooms"].size(), 1u);
    EXPECT_EQ(changed["rooms"][0]["name"], "Ops");
    EXPECT_EQ(changed["room_filter"], "ops");
    EXPECT_FALSE(changed.contains("room"));

    // Another room opens: the room and its messages are sent, the list is not.
    p.h.apply(intent::OpenRoom{"8"});
    changed = p.publish();
    EXPECT_TRUE(built(p.publisher, "room"));
    EXPECT_FALSE(built(p.publisher, "rooms"));
    ASSERT_TRUE(changed.contains("room"));
    ASSERT_TRUE(changed.contains(kRoomMessages)) << changed.dump();
    EXPECT_EQ(changed[std::string(kRoomMessages)][0]["body"], "over in ops");
    EXPECT_FALSE(changed.contains("rooms"));
    EXPECT_EQ(p.page, p.whole());
}

// The messages are most of the state (a real room's 100 are about 260 KB):
// the room's other parts changing (a file's download link), or
// a poll that brought nothing new, do not build or send them again, and
// the page keeps them inside the new copy of `room`.
TEST(PageStatePublisher, TheRoomsOtherPartsOrAnEmptyPollDoNotSendTheMessagesAgain) {
    Publishing p;
    ASSERT_EQ(p.page["room"]["messages"].size(), 1u);
    p.h.apply(intent::OpenFile{"7", "9100"});  // a download link asked for: room.download changes
    p.h.run_for(Millis(1000));
    json changed = p.publish();
    ASSERT_TRUE(changed.contains("room")) << "room.download changed: " << changed.dump();
    EXPECT_FALSE(built(p.publisher, "room.messages"));
    EXPECT_FALSE(changed.contains(kRoomMessages)) << changed.dump();
    EXPECT_EQ(p.page["room"]["messages"].size(), 1u) << "the page keeps the messages inside the new room";
    EXPECT_EQ(p.page, p.whole());

    p.h.apply(intent::LoadMessages{"7"});  // the same one message again
    p.h.run_for(Millis(1000));
    changed = p.publish();
    EXPECT_FALSE(built(p.publisher, "room.messages")) << "nothing new: nothing built";
    EXPECT_FALSE(changed.contains(kRoomMessages)) << changed.dump();
    EXPECT_EQ(p.page, p.whole());

    // A post of the user's stands in the messages at once: they are sent.
    p.h.apply(intent::QueueMessage{"7", "a second one"});
    changed = p.publish();
    ASSERT_TRUE(changed.contains(kRoomMessages)) << changed.dump();
    ASSERT_EQ(p.page["room"]["messages"].size(), 2u);
    EXPECT_EQ(p.page["room"]["messages"][1]["body"], "a second one");
    EXPECT_EQ(p.page, p.whole());
}

// Opening a room parses each message once: the page state and the
// conversation (ui_conversation.cpp) read the open room's one cache.
TEST(PageStatePublisher, AMessageIsParsedOnceForTheStateAndTheConversation) {
    Publishing p;
    const App& app = *p.h.app;
    const DrawnMessages& drawn = app.open_room().drawn();
    EXPECT_EQ(drawn.parses(), 1u) << "the state parsed the room's one message";
    // The conversation asks as it draws, with the same context.
    const RoomView& room = app.open_room().view();
    const auto& contacts = app.contacts().contacts().value;
    const std::string me = app.dashboard().account().value ? app.dashboard().account().value->account_id : "";
    const std::int64_t now_unix = unix_ms(p.h.now) / 1000;
    const UserTime& user = app.workspace().user_time();
    const DrawnContext context = drawn_context(room, contacts ? &*contacts : nullptr, me, now_unix, user);
    ASSERT_EQ(room.messages().size(), 1u);
    for (int frame = 0; frame < 3; ++frame) {
        const DrawnMessage& m = app.open_room().drawn().get(
            room.messages()[0], context, me, account_names(room, contacts ? &*contacts : nullptr), now_unix, user);
        EXPECT_TRUE(m.mentions_me);
    }
    EXPECT_EQ(drawn.parses(), 1u) << "the conversation took the state's parse";
    p.h.apply(intent::SetRoomFilter{"ops"});
    p.publish();
    p.whole();
    EXPECT_EQ(drawn.parses(), 1u) << "publishing again parses nothing";
}

}  // namespace
}  // namespace app_page_state_publish_test
}  // namespace roomkey::app
