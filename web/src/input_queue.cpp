// input_queue.cpp: see input_queue.hpp.
//
// The rule. Dear ImGui's queue (1.87+) orders and trickles what it holds:
// presses and releases of one key or button land in separate frames, and
// text behind a key press (in a field being edited) in a later frame. What
// it cannot hold waits in this file's queue, a DOM event:
//   - it goes only once ImGui's queue is empty (a frame has seen every
//     event before it), and then nothing else goes before the next frame
//     (an activation or focus takes effect at the next NewFrame);
//   - text and deletions for a tree field wait until the field is being
//     edited (it is focused first); when it never is (it closed first),
//     the header says how much was lost (lost_text_notice), never silently;
//   - while anything waits here, GLFW's events wait behind it.
// Text goes with Ctrl and Cmd up: ImGui ignores typed characters while they
// are down, and a paste arrives while Ctrl+V is still held.
//
// Keys keep what they said. A key or button that waited here goes on with
// the modifiers it was pressed with, not those held when it goes (the GLFW
// backend reads them from the keyboard's state: a Ctrl+Enter behind a burst
// of text became a plain Enter once Ctrl was up). And a burst of text lands
// at once: while a field is edited, a character key pressed without Ctrl,
// Alt or Super brings nothing its text does not (ImGui would trickle each
// press and release into frames of their own, one character per frame), so
// only its modifiers go on; text behind text for the same field joins it in
// the same frame.
#include "input_queue.hpp"

#include <GLFW/glfw3.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_internal.h>

#include <algorithm>
#include <bitset>
#include <cmath>
#include <utility>
#include <vector>

#include "a11y.hpp"
#include "app/i18n.hpp"
#include "app/wheel_steps.hpp"
#include "page_bridge.hpp"

namespace roomkey::web::input_queue {

namespace {

struct Event {
    enum class Type { Key, MouseButton, Char, ImKey, Text, Deletion, Activate, Focus };
    Type type = Type::Key;
    int code = -1;  // Key, MouseButton: GLFW's code; Char: the codepoint; ImKey: ImGui's key
    int scancode = 0;
    int action = 0;
    int mods = 0;
    std::string text;
    unsigned int field = 0;  // Text, Deletion: the tree's field (0: the one being edited); Activate/Focus: the widget
    bool replace = false;
    bool forward = false;  // Deletion: Delete rather than Backspace
    DeletionSpan span = DeletionSpan::Character;
    long first_wait_frame = -1;  // Text for a tree field: the frame it began to wait for it
    long not_before_frame = -1;  // MouseButton: goes to ImGui only once this frame has begun

    bool from_glfw() const { return type <= Type::ImKey; }  // ImKey: a key ImGui held, given back
};

// A field that does not become editable within this many frames is gone
// (another view): its text has nowhere to go.
constexpr long kFieldWaitFrames = 30;

GLFWwindow* g_window = nullptr;
std::bitset<GLFW_KEY_LAST + 1> g_down;  // presses that went to ImGui: their releases go too
unsigned int g_text_field = 0;           // the field text went to this frame, plus one (0: none)
std::vector<Event> g_waiting;  // a few events at most: a vector, not a deque (web size)
long g_frame = 0;
bool g_dom_event_this_frame = false;

bool imgui_queue_empty() {
    return GImGui->InputEventsQueue.empty();
}

bool imgui_queue_only_text() {
    for (const ImGuiInputEvent& e : GImGui->InputEventsQueue) {
        if (e.Type != ImGuiInputEventType_Text) return false;
    }
    return true;
}

// The backend reads the modifiers from GLFW's key state (glfwGetKey): for
// the length of one call, that state says what the event said.
// clang-format off
EM_JS(int, roomkey_js_glfw_mods, (int mods), {
    var keys = GLFW.active ? GLFW.active.keys : null;
    if (!keys) return mods;
    var was = 0;
    for (var bit = 0; bit < 4; bit++) {
        if (keys[340 + bit]) was |= 1 << bit;
        keys[340 + bit] = mods & (1 << bit) ? 1 : 0;
    }
    return was;
});
// clang-format on

void add_mods(int mods) {
    ImGuiIO& io = ImGui::GetIO();
    io.AddKeyEvent(ImGuiMod_Ctrl, (mods & GLFW_MOD_CONTROL) != 0);
    io.AddKeyEvent(ImGuiMod_Shift, (mods & GLFW_MOD_SHIFT) != 0);
    io.AddKeyEvent(ImGuiMod_Alt, (mods & GLFW_MOD_ALT) != 0);
    io.AddKeyEvent(ImGuiMod_Super, (mods & GLFW_MOD_SUPER) != 0);
}

// A key whose press only types its character (see the rule).
bool types_only(const Event& e) {
    const int k = e.code;
    const bool character = (k >= GLFW_KEY_SPACE && k <= GLFW_KEY_WORLD_2) ||
                           (k >= GLFW_KEY_KP_0 && k <= GLFW_KEY_KP_EQUAL && k != GLFW_KEY_KP_ENTER);
    return character && (e.mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) == 0 &&
           ImGui::GetIO().WantTextInput;
}

void forward_key(const Event& e) {
    const bool known = e.code >= 0 && e.code <= GLFW_KEY_LAST;
    const bool press = e.action != GLFW_RELEASE;
    if (known && (press ? types_only(e) : !g_down[static_cast<std::size_t>(e.code)])) {
        add_mods(e.mods);
        return;
    }
    if (known) g_down[static_cast<std::size_t>(e.code)] = press;
    const int was = roomkey_js_glfw_mods(e.mods);
    ImGui_ImplGlfw_KeyCallback(g_window, e.code, e.scancode, e.action, e.mods);
    roomkey_js_glfw_mods(was);
}

// Text into ImGui's queue with Ctrl and Cmd up around it (see the rule).
// Their state as ImGui sees it, not as GLFW does: their releases may still
// wait here, behind this text. ImGui's queue is empty when text goes.
void add_text(const std::string& text) {
    ImGuiIO& io = ImGui::GetIO();
    const bool ctrl = io.KeyCtrl;
    const bool super = io.KeySuper;
    if (ctrl) io.AddKeyEvent(ImGuiMod_Ctrl, false);
    if (super) io.AddKeyEvent(ImGuiMod_Super, false);
    io.AddInputCharactersUTF8(text.c_str());
    if (ctrl) io.AddKeyEvent(ImGuiMod_Ctrl, true);
    if (super) io.AddKeyEvent(ImGuiMod_Super, true);
}

// A deletion, once its field is being edited: selects what a whole-text or
// line deletion takes, then a tap of Backspace or Delete (with Ctrl for a
// word) does the deleting with ImGui's own editing; ImGui's queue gives the
// press and the release frames of their own.
void add_deletion(const Event& e) {
    if (e.replace) {
        a11y::select_all(e.field);
    } else if (e.span == DeletionSpan::Line) {
        a11y::select_to_edge(e.field, e.forward);
    }
    ImGuiIO& io = ImGui::GetIO();
    const bool ctrl = io.KeyCtrl;
    const bool word = e.span == DeletionSpan::Word && !e.replace;
    const ImGuiKey key = e.forward ? ImGuiKey_Delete : ImGuiKey_Backspace;
    if (word) io.AddKeyEvent(ImGuiMod_Ctrl, true);
    io.AddKeyEvent(key, true);
    io.AddKeyEvent(key, false);
    if (word) io.AddKeyEvent(ImGuiMod_Ctrl, ctrl);
}

// Characters typed for a field that was gone before they
// reached it; shown by lost_text_notice until text reaches a field again.
long long g_lost = 0;

long long count_chars(const std::string& text) {
    return std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

enum class Readiness { Ready, Wait, Drop };

Readiness readiness(Event& e) {
    const bool for_a_field = e.type == Event::Type::Text || e.type == Event::Type::Deletion;
    if (!for_a_field || e.field == 0) return Readiness::Ready;
    if (a11y::text_field_ready(e.field)) return Readiness::Ready;
    if (e.first_wait_frame < 0) {
        e.first_wait_frame = g_frame;
        a11y::focus(e.field);
    }
    if (g_frame - e.first_wait_frame > kFieldWaitFrames) {
        // Said where the user looks (lost_text_notice), never silently.
        if (e.type == Event::Type::Text) g_lost += count_chars(e.text);
        return Readiness::Drop;
    }
    return Readiness::Wait;
}

void forward(const Event& e) {
    switch (e.type) {
        case Event::Type::Key:
            forward_key(e);
            break;
        case Event::Type::MouseButton: {
            const int was = roomkey_js_glfw_mods(e.mods);
            ImGui_ImplGlfw_MouseButtonCallback(g_window, e.code, e.action, e.mods);
            roomkey_js_glfw_mods(was);
            break;
        }
        case Event::Type::Char:
            ImGui_ImplGlfw_CharCallback(g_window, static_cast<unsigned int>(e.code));
            break;
        case Event::Type::ImKey:
            ImGui::GetIO().AddKeyEvent(static_cast<ImGuiKey>(e.code), e.action != 0);
            break;
        case Event::Type::Text:
            if (!e.text.empty()) g_lost = 0;  // typed again: it reached a field
            if (e.field != 0 && e.replace) a11y::select_all(e.field);
            add_text(e.text);
            break;
        case Event::Type::Deletion:
            add_deletion(e);
            break;
        case Event::Type::Activate:
            a11y::activate(e.field);
            break;
        case Event::Type::Focus:
            a11y::focus(e.field);
            break;
    }
}

// Gives on what the rule allows now.
void drain() {
    while (!g_waiting.empty()) {
        Event& next = g_waiting.front();
        if (next.not_before_frame > g_frame) return;
        if (!next.from_glfw()) {
            // Text right behind text for the same field joins it.
            const bool joins = next.type == Event::Type::Text && !next.replace && g_text_field == next.field + 1 &&
                               imgui_queue_only_text();
            if (!joins && (g_dom_event_this_frame || !imgui_queue_empty())) return;
            const Readiness ready = joins ? Readiness::Ready : readiness(next);
            if (ready == Readiness::Wait) return;
            if (ready == Readiness::Drop) {
                g_waiting.erase(g_waiting.begin());
                continue;
            }
            g_dom_event_this_frame = true;
            g_text_field = next.type == Event::Type::Text ? next.field + 1 : 0;
        }
        const Event event = std::move(next);
        g_waiting.erase(g_waiting.begin());
        forward(event);
    }
}

void push(Event e) {
    // Nothing waits: a GLFW event goes straight to ImGui's queue, unless it
    // must wait for a frame itself (a press behind its position).
    if (g_waiting.empty() && e.from_glfw() && e.not_before_frame <= g_frame) {
        forward(e);
        return;
    }
    g_waiting.push_back(std::move(e));
    drain();
}

void on_key(GLFWwindow*, int key, int scancode, int action, int mods) {
    Event e;
    e.type = Event::Type::Key;
    e.code = key;
    e.scancode = scancode;
    e.action = action;
    e.mods = mods;
    push(std::move(e));
}

// Dear ImGui 1.90 hovers an item that others may overlap (a tab, and any
// item after SetNextItemAllowOverlap) only when it was hovered the frame
// before. A press that arrives with its position (a tap on a touch screen, a
// click that comes without a move before it) would land on nothing there: a
// tab tapped once on a phone stayed unselected. Such a press waits one frame
// behind its position, as it would after a mouse that moved there first.
bool press_at_an_unseen_position(GLFWwindow* window) {
    double x = 0.0;
    double y = 0.0;
    glfwGetCursorPos(window, &x, &y);
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 seen = io.MousePos;  // where the last frame had the pointer
    if (std::abs(seen.x - static_cast<float>(x)) < 0.5f && std::abs(seen.y - static_cast<float>(y)) < 0.5f) {
        return false;
    }
    io.AddMousePosEvent(static_cast<float>(x), static_cast<float>(y));
    return true;
}

void on_mouse_button(GLFWwindow* window, int button, int action, int mods) {
    Event e;
    e.type = Event::Type::MouseButton;
    e.code = button;
    e.action = action;
    e.mods = mods;
    if (action == GLFW_PRESS && press_at_an_unseen_position(window)) e.not_before_frame = g_frame + 1;
    push(std::move(e));
}

// A character typed while the canvas has focus.
void on_char(GLFWwindow*, unsigned int codepoint) {
    Event e;
    e.type = Event::Type::Char;
    e.code = static_cast<int>(codepoint);
    push(std::move(e));
}

app::WheelAccumulator g_wheel;

// The wheel over the canvas, in ImGui's steps (app/wheel_steps.hpp). ImGui's
// queue orders it with the rest. Handled: the page itself does not scroll.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* event, void*) {
    const app::WheelSteps steps =
        g_wheel.add(app::wheel_steps(event->deltaX, event->deltaY, static_cast<int>(event->deltaMode)));
    // With Shift, ImGui scrolls sideways by the vertical wheel; browsers give
    // Shift+wheel as deltaX on some systems and as deltaY on others.
    if (event->mouse.shiftKey) {
        ImGui::GetIO().AddMouseWheelEvent(0.0f, steps.x + steps.y);
    } else {
        ImGui::GetIO().AddMouseWheelEvent(steps.x, steps.y);
    }
    return EM_TRUE;
}

// A finger dragged over the canvas scrolls the panel under it, as it
// scrolls any page: the drag is the wheel that page would get (in pixels,
// the finger's way reversed), so the content follows the finger. The page
// itself does not scroll or zoom meanwhile. A tap (no move) reaches the app
// as the browser's mouse events instead.
struct Finger {
    int id = -1;  // the touch that scrolls; -1: none
    double x = 0.0;
    double y = 0.0;
};
Finger g_finger;

EM_BOOL on_touch(int type, const EmscriptenTouchEvent* event, void*) {
    for (int i = 0; i < event->numTouches; ++i) {
        const EmscriptenTouchPoint& touch = event->touches[i];
        if (!touch.isChanged) continue;
        if (type == EMSCRIPTEN_EVENT_TOUCHSTART) {
            if (g_finger.id < 0) g_finger = {touch.identifier, static_cast<double>(touch.targetX), static_cast<double>(touch.targetY)};
            continue;
        }
        if (touch.identifier != g_finger.id) continue;
        if (type != EMSCRIPTEN_EVENT_TOUCHMOVE) {
            g_finger.id = -1;
            continue;
        }
        const double x = touch.targetX;
        const double y = touch.targetY;
        ImGuiIO& io = ImGui::GetIO();
        const auto ratio = static_cast<float>(canvas_size().device_pixel_ratio);
        io.AddMousePosEvent(static_cast<float>(x) * ratio, static_cast<float>(y) * ratio);  // what is under the finger
        const app::WheelSteps steps = g_wheel.add(
            app::wheel_steps(g_finger.x - x, g_finger.y - y, static_cast<int>(app::WheelDeltaMode::pixel)));
        io.AddMouseWheelEvent(steps.x, steps.y);
        g_finger.x = x;
        g_finger.y = y;
    }
    return type == EMSCRIPTEN_EVENT_TOUCHMOVE ? EM_TRUE : EM_FALSE;
}

// Emscripten 3.1.6's GLFW turns a touch into a press and a release at the
// pointer's last position, not the finger's (library_browser.js's
// calculateMouseEvent reads a `touch` field only its SDL sets). A tap then
// pressed whatever the last mouse event had pointed at, and the browser's
// own mouse events for the tap (mousemove, mousedown, mouseup where the
// finger was) came behind that press in ImGui's queue: a tab tapped once
// was pressed in the very frame the pointer reached it, which Dear ImGui
// 1.90 ignores (e2e app_touch). Without GLFW's touch listeners a tap
// reaches the app once, as those mouse events.
// clang-format off
EM_JS(void, roomkey_js_drop_glfw_touch, (), {
    var canvas = Module['canvas'];
    canvas.removeEventListener('touchmove', GLFW.onMousemove, true);
    canvas.removeEventListener('touchstart', GLFW.onMouseButtonDown, true);
    canvas.removeEventListener('touchcancel', GLFW.onMouseButtonUp, true);
    canvas.removeEventListener('touchend', GLFW.onMouseButtonUp, true);
});
// clang-format on

}  // namespace

void install(GLFWwindow* window) {
    g_window = window;
    // Replaces the backend's callbacks (installed with the window); every
    // event still goes to them, in order.
    glfwSetKeyCallback(window, on_key);
    glfwSetMouseButtonCallback(window, on_mouse_button);
    glfwSetCharCallback(window, on_char);
    // The backend listens to the whole document's wheel, without the Shift
    // and accumulation rules above: the canvas's own listener replaces it.
    // Emscripten's GLFW gives the wheel as the browser's pixels, upside down.
    emscripten_set_wheel_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_FALSE, nullptr);
    if (emscripten_set_wheel_callback("#canvas", nullptr, EM_FALSE, on_wheel) == EMSCRIPTEN_RESULT_SUCCESS) {
        glfwSetScrollCallback(window, nullptr);
    }
    roomkey_js_drop_glfw_touch();
    emscripten_set_touchstart_callback("#canvas", nullptr, EM_FALSE, on_touch);
    emscripten_set_touchmove_callback("#canvas", nullptr, EM_FALSE, on_touch);
    emscripten_set_touchend_callback("#canvas", nullptr, EM_FALSE, on_touch);
    emscripten_set_touchcancel_callback("#canvas", nullptr, EM_FALSE, on_touch);
}

void push_text(std::string text, unsigned int field, bool replace) {
    if (text.empty() && !replace) return;
    Event e;
    e.type = Event::Type::Text;
    e.text = std::move(text);
    e.field = field;
    e.replace = replace;
    push(std::move(e));
}

void keys_for_field(unsigned int field) {
    // What was typed since the press that ImGui still holds (it trickles
    // events behind a button's release into the next frames, where the
    // field is not edited yet: typed text was dropped, Backspace or an arrow
    // went nowhere) waits for the field too, in its order: every key and
    // character. A character key's press without Ctrl, Alt or Super brings
    // nothing its character does not (see the rule): only its character goes.
    std::vector<Event> typed;
    ImVector<ImGuiInputEvent>& held = GImGui->InputEventsQueue;
    const ImGuiIO& io = ImGui::GetIO();
    bool chord = io.KeyCtrl || io.KeyAlt || io.KeySuper;  // as the events so far leave them
    for (int i = 0; i < held.Size;) {
        const ImGuiInputEvent& h = held[i];
        Event c;
        bool keep = true;
        if (h.Type == ImGuiInputEventType_Text) {
            c.type = Event::Type::Char;
            c.code = static_cast<int>(h.Text.Char);
        } else if (h.Type == ImGuiInputEventType_Key) {
            const ImGuiKey key = h.Key.Key;
            if (key == ImGuiMod_Ctrl || key == ImGuiMod_Alt || key == ImGuiMod_Super) chord = h.Key.Down;
            const bool character = (key >= ImGuiKey_0 && key <= ImGuiKey_Z) || key == ImGuiKey_Space ||
                                   (key >= ImGuiKey_Apostrophe && key <= ImGuiKey_GraveAccent) ||
                                   (key >= ImGuiKey_Keypad0 && key <= ImGuiKey_KeypadEqual && key != ImGuiKey_KeypadEnter);
            keep = !(character && h.Key.Down && !chord);  // its release is harmless: the key is up
            c.type = Event::Type::ImKey;
            c.code = key;
            c.action = h.Key.Down ? 1 : 0;
        } else {
            ++i;
            continue;
        }
        if (keep) typed.push_back(c);
        held.erase(held.Data + i);
    }
    Event e;  // text with nothing in it: what waits for the field is the keys behind it
    e.type = Event::Type::Text;
    e.field = field;
    push(std::move(e));
    for (Event& c : typed) push(std::move(c));
}

void push_deletion(unsigned int field, bool forward, DeletionSpan span, bool replace) {
    Event e;
    e.type = Event::Type::Deletion;
    e.field = field;
    e.forward = forward;
    e.span = span;
    e.replace = replace;
    push(std::move(e));
}

void push_activate(unsigned int id) {
    Event e;
    e.type = Event::Type::Activate;
    e.field = id;
    push(std::move(e));
}

void push_focus(unsigned int id) {
    Event e;
    e.type = Event::Type::Focus;
    e.field = id;
    push(std::move(e));
}

void frame_began() {
    ++g_frame;
    g_dom_event_this_frame = false;
    g_text_field = 0;
}

bool after_frame() {
    const long long lost = g_lost;
    drain();
    // What drain() just gave ImGui is taken at the next NewFrame: a press
    // that waited one frame behind its position (a tap) sat in ImGui's
    // queue, with no frame asked for, until the next input came.
    // A loss just found is drawn (the header says so).
    return !g_waiting.empty() || !imgui_queue_empty() || g_lost != lost;
}

// Frames a copy may still draw to apply what waits before it. Each frame
// takes at least one event and the queue is finite (a field that never
// becomes editable drops its text), so this bound only guards a stall.
int g_copy_frames = 0;

void copy_first() {
    g_copy_frames = 1024;
}

bool catch_up() {
    const bool waits = g_copy_frames > 0 && (!g_waiting.empty() || !imgui_queue_empty());
    g_copy_frames = waits ? g_copy_frames - 1 : 0;
    return waits;
}

std::string lost_text_notice() {
    return g_lost > 0 ? app::tr_n("input.text_lost", g_lost) : std::string();
}

void forget_text() {
    g_lost = 0;
    for (auto it = g_waiting.begin(); it != g_waiting.end();) {
        if (it->type == Event::Type::Text) {
            std::fill(it->text.begin(), it->text.end(), '\0');
            it = g_waiting.erase(it);
        } else {
            ++it;
        }
    }
    ImVector<ImGuiInputEvent>& queued = GImGui->InputEventsQueue;
    for (int i = 0; i < queued.Size;) {
        if (queued[i].Type == ImGuiInputEventType_Text) {
            queued.erase(queued.Data + i);
        } else {
            ++i;
        }
    }
}

}  // namespace roomkey::web::input_queue
