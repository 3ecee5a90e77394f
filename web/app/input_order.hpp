// input_order.hpp: every input event reaches ImGui in the order the page
// delivered it, and each one is seen by a frame. Pure, so the rule is tested
// natively (tests/unit/app_input_order_test.cpp); web/src/input_queue.cpp
// feeds it from the browser.
//
// Why a rule is needed. Dear ImGui 1.86 reads keys and mouse buttons as
// state at NewFrame, and inside a frame its text field takes typed
// characters before key presses. With draw on change (frame_clock.hpp) a
// frame comes only on demand, so between two frames the page may deliver
// "Ctrl+A, Backspace, t, y": given to ImGui at once, a quick tap goes down
// and up unseen, and "t" is inserted before the Backspace deletes it. Text
// also arrives by two roads (keys through GLFW; typed, pasted and composed
// text through the DOM), so only one queue for all of them keeps the order.
//
// The rule, per batch (what one frame will see):
//   - presses (a key, a mouse button) go through at once, many per batch;
//   - a release waits until a frame has seen its press, and a press until
//     a frame has seen the key's last release (a second tap of Backspace
//     given while the first is still seen down is no press to ImGui 1.86);
//   - a discrete event (text, an activation) needs a batch of its own: it
//     waits until nothing was pressed since the last frame, and nothing else
//     goes through after it until the next frame;
//   - the sink may ask a discrete event to wait (its field is not yet being
//     edited) or drop it (the field is gone);
//   - whatever waits, everything after it waits too.
// This is what ImGui 1.87's input queue does ("trickling"), kept here for
// 1.86 and for the DOM's text.
#pragma once

#include <bitset>
#include <deque>
#include <utility>

namespace roomkey::app {

enum class InputKind {
    Press,     // a key or mouse button went down (or a key repeats)
    Release,   // a key went up
    Discrete,  // text, or an action on a control: a frame of its own
};

enum class Readiness { Ready, Wait, Drop };

// Event: any type with `InputKind kind() const` and `int key() const`
// (a key code below kTrackedKeys for presses and releases to pair, or -1).
//
// Sink: `void forward(const Event&)` gives an event to ImGui;
// `Readiness ready(Event&)` says whether a discrete event can go now (it may
// change the event, say to count the frames it waited).
template <typename Event>
class InputOrder {
public:
    static constexpr int kTrackedKeys = 512;  // GLFW key codes are below this

    // An event the page delivered. Goes to the sink at once when nothing
    // waits before it and the rule allows.
    template <typename Sink>
    void push(Event event, Sink& sink) {
        queue_.push_back(std::move(event));
        drain(sink);
    }

    // Right after ImGui::NewFrame: that frame saw every press so far, and
    // the next batch begins.
    void frame_began() {
        unseen_.reset();
        released_unseen_.reset();
        pressed_in_batch_ = false;
        batch_closed_ = false;
    }

    // Gives the sink what the rule allows now. Call after each frame.
    template <typename Sink>
    void drain(Sink& sink) {
        while (!queue_.empty() && !batch_closed_) {
            Event& next = queue_.front();
            switch (next.kind()) {
                case InputKind::Press:
                    if (tracked(next.key())) {
                        const auto key = static_cast<std::size_t>(next.key());
                        if (released_unseen_.test(key)) return;
                        unseen_.set(key);
                    }
                    pressed_in_batch_ = true;
                    break;
                case InputKind::Release:
                    if (tracked(next.key())) {
                        const auto key = static_cast<std::size_t>(next.key());
                        if (unseen_.test(key)) return;
                        released_unseen_.set(key);
                    }
                    break;
                case InputKind::Discrete: {
                    if (pressed_in_batch_) return;
                    const Readiness readiness = sink.ready(next);
                    if (readiness == Readiness::Wait) return;
                    if (readiness == Readiness::Drop) {
                        queue_.pop_front();
                        continue;
                    }
                    batch_closed_ = true;
                    break;
                }
            }
            Event event = std::move(next);
            queue_.pop_front();
            sink.forward(event);
        }
    }

    // Something still waits: a frame must come for it.
    bool pending() const { return !queue_.empty(); }

    // Drops the waiting events `unwanted` names (text the user typed, when
    // they ask to forget it); the others keep their order.
    template <typename Predicate>
    void erase_if(Predicate unwanted) {
        for (auto it = queue_.begin(); it != queue_.end();) {
            it = unwanted(*it) ? queue_.erase(it) : it + 1;
        }
    }

private:
    static bool tracked(int key) { return key >= 0 && key < kTrackedKeys; }

    std::deque<Event> queue_;
    std::bitset<kTrackedKeys> unseen_;           // pressed, and no frame since
    std::bitset<kTrackedKeys> released_unseen_;  // released, and no frame since
    bool pressed_in_batch_ = false;
    bool batch_closed_ = false;
};

}  // namespace roomkey::app
