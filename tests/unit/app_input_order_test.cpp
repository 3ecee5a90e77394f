// app_input_order_test.cpp: input reaches ImGui in the order the page
// delivered it, and each press is seen by a frame (web/app/input_order.hpp).
// The frames are simulated: what a frame "sees" is what the sink was given
// since the frame before.
#include "app/input_order.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_input_order_test {
namespace {

struct Event {
    InputKind type;
    int code;
    std::string label;
    InputKind kind() const { return type; }
    int key() const { return code; }
};

constexpr int kCtrl = 341;
constexpr int kA = 65;
constexpr int kBackspace = 259;
constexpr int kT = 84;

Event press(int key, std::string label) {
    return {InputKind::Press, key, std::move(label)};
}
Event release(int key, std::string label) {
    return {InputKind::Release, key, std::move(label)};
}
Event text(std::string label) {
    return {InputKind::Discrete, -1, std::move(label)};
}

// Records what each frame would see; discrete events wait while
// `wait_left` > 0 (a field not yet being edited) or are dropped.
struct Sink {
    std::vector<std::vector<std::string>> frames{{}};
    int wait_left = 0;
    bool drop = false;
    void forward(const Event& e) { frames.back().push_back(e.label); }
    Readiness ready(Event&) {
        if (drop) return Readiness::Drop;
        if (wait_left > 0) {
            --wait_left;
            return Readiness::Wait;
        }
        return Readiness::Ready;
    }
};

// Runs frames until nothing waits: each frame sees what was forwarded
// before it, then what waited is drained.
void run_frames(InputOrder<Event>& order, Sink& sink, int limit = 100) {
    while ((order.pending() || !sink.frames.back().empty()) && limit-- > 0) {
        sink.frames.emplace_back();
        order.frame_began();
        order.drain(sink);
    }
    if (sink.frames.back().empty()) sink.frames.pop_back();
}

using Frames = std::vector<std::vector<std::string>>;

// The failure CI saw: "typed 16, " arrived as "d 16, " because the typed
// text reached the field before the Backspace that was pressed first.
TEST(InputOrder, TextTypedAfterKeysIsSeenAfterThem) {
    InputOrder<Event> order;
    Sink sink;
    for (Event e :
         {press(kCtrl, "ctrl"), press(kA, "a"), release(kA, "a up"), release(kCtrl, "ctrl up"), press(kBackspace, "bs"),
          release(kBackspace, "bs up"), press(kT, "t key"), text("t"), release(kT, "t up")}) {
        order.push(e, sink);
    }
    run_frames(order, sink);
    EXPECT_EQ(sink.frames, (Frames{{"ctrl", "a"}, {"a up", "ctrl up", "bs"}, {"bs up", "t key"}, {"t"}, {"t up"}}));
    EXPECT_FALSE(order.pending());
}

// Two quick taps of Backspace: ImGui 1.86 sees a press only when a frame
// finds the key down after a frame that found it up. Were "up" and the
// second "down" given in one batch, no frame would see the key up, and the
// second Backspace would delete nothing (a mobile keyboard's two deletions
// in a row did just that).
TEST(InputOrder, EachTapOfTheSameKeyIsSeenDownAndUpByFramesOfTheirOwn) {
    InputOrder<Event> order;
    Sink sink;
    order.push(press(kBackspace, "bs"), sink);
    order.push(release(kBackspace, "bs up"), sink);
    order.push(press(kBackspace, "bs again"), sink);
    order.push(release(kBackspace, "bs up again"), sink);
    run_frames(order, sink);
    EXPECT_EQ(sink.frames, (Frames{{"bs"}, {"bs up"}, {"bs again"}, {"bs up again"}}));
}

// Only the same key waits: another key's press shares the release's frame.
TEST(InputOrder, APressOfAnotherKeyGoesWithARelease) {
    InputOrder<Event> order;
    Sink sink;
    order.push(press(kA, "a"), sink);
    order.push(release(kA, "a up"), sink);
    order.push(press(kT, "t"), sink);
    run_frames(order, sink);
    EXPECT_EQ(sink.frames, (Frames{{"a"}, {"a up", "t"}}));
}

TEST(InputOrder, EachTextGetsAFrameOfItsOwn) {
    InputOrder<Event> order;
    Sink sink;
    order.push(text("x"), sink);
    order.push(text("y"), sink);
    order.push(press(kA, "a"), sink);
    run_frames(order, sink);
    // "a" after "y" in the same frame is fine for ImGui (text first, then
    // keys), but a press after text must not share its frame either: a Ctrl
    // down would make ImGui 1.86 drop the text.
    EXPECT_EQ(sink.frames, (Frames{{"x"}, {"y"}, {"a"}}));
}

// A paste comes while Ctrl+V is held: it waits for the frame after the
// press, and the releases wait behind it, in order.
TEST(InputOrder, PasteWhileCtrlIsHeldKeepsItsPlace) {
    InputOrder<Event> order;
    Sink sink;
    order.push(press(kCtrl, "ctrl"), sink);
    order.push(press(86, "v"), sink);
    order.push(text("pasted"), sink);
    order.push(release(86, "v up"), sink);
    order.push(release(kCtrl, "ctrl up"), sink);
    run_frames(order, sink);
    EXPECT_EQ(sink.frames, (Frames{{"ctrl", "v"}, {"pasted"}, {"v up", "ctrl up"}}));
}

// A click on "Queue message" right after typing must not overtake the text.
TEST(InputOrder, APressWaitsBehindTextStillOnItsWay) {
    InputOrder<Event> order;
    Sink sink;
    sink.wait_left = 2;  // the field is not being edited yet
    order.push(text("hello"), sink);
    order.push(press(-1, "mouse"), sink);
    EXPECT_TRUE(order.pending());
    EXPECT_EQ(sink.frames, (Frames{{}}));
    run_frames(order, sink);
    EXPECT_EQ(sink.frames, (Frames{{}, {"hello"}, {"mouse"}}));
}

TEST(InputOrder, TextWhoseFieldIsGoneIsDroppedAndTheRestGoesOn) {
    InputOrder<Event> order;
    Sink sink;
    sink.drop = true;
    order.push(text("lost"), sink);
    order.push(press(kA, "a"), sink);
    EXPECT_EQ(sink.frames, (Frames{{"a"}}));
    EXPECT_FALSE(order.pending());
}

TEST(InputOrder, UntrackedKeysAreNeverHeldForTheirPress) {
    InputOrder<Event> order;
    Sink sink;
    order.push(press(9999, "odd"), sink);
    order.push(release(9999, "odd up"), sink);
    EXPECT_EQ(sink.frames, (Frames{{"odd", "odd up"}}));
}

}  // namespace
}  // namespace app_input_order_test
}  // namespace roomkey::app
