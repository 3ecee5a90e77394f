// input_queue.cpp: see input_queue.hpp.
#include "input_queue.hpp"

#include <GLFW/glfw3.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <utility>

#include "a11y.hpp"
#include "app/input_order.hpp"
#include "app/wheel_steps.hpp"

namespace roomkey::web::input_queue {

namespace {

using app::InputKind;
using app::Readiness;

struct Event {
    enum class Type { Key, MouseButton, Text, Deletion, Activate, Focus };
    Type type = Type::Key;
    int code = -1;  // GLFW key or mouse button
    int scancode = 0;
    int action = 0;
    int mods = 0;
    std::string text;
    unsigned int field = 0;  // Text, Deletion: the tree's field (0: the one being edited); Activate/Focus: the widget
    bool replace = false;
    bool forward = false;  // Deletion: Delete rather than Backspace
    DeletionSpan span = DeletionSpan::Character;
    long first_wait_frame = -1;  // Text for a tree field: the frame it began to wait for it

    InputKind kind() const {
        switch (type) {
            case Type::Key:
                return action == GLFW_RELEASE ? InputKind::Release : InputKind::Press;
            case Type::MouseButton:
                // Its release needs no pairing: the backend reads the button's
                // state, and a press it was given is seen down for a frame.
                return action == GLFW_RELEASE ? InputKind::Release : InputKind::Press;
            default:
                return InputKind::Discrete;
        }
    }
    int key() const { return type == Type::Key ? code : -1; }
};

// A field that does not become editable within this many frames is gone
// (another view): its text has nowhere to go.
constexpr long kFieldWaitFrames = 30;

GLFWwindow* g_window = nullptr;
app::InputOrder<Event> g_order;
long g_frame = 0;
// Presses not yet given to the backend, per mouse button: NewFrame reads
// the live button state too, which must not run ahead of the queue.
std::array<int, 8> g_mouse_presses_waiting{};
// The frame after text went to a field runs with Ctrl and Cmd up: ImGui
// 1.86 ignores typed characters while they are down, and a paste arrives
// while Ctrl+V is still held.
bool g_mask_modifiers = false;
bool g_saved_ctrl = false;
bool g_saved_super = false;

bool mouse_button_in_range(int button) {
    return button >= 0 && button < static_cast<int>(g_mouse_presses_waiting.size());
}

// A deletion's first part, once its field is being edited: selects what a
// whole-text or line deletion takes. The keys that follow it in the queue
// (push_deletion) do the deleting, with ImGui's own editing.
void select_for_deletion(const Event& e) {
    if (e.replace) {
        a11y::select_all(e.field);
    } else if (e.span == DeletionSpan::Line) {
        a11y::select_to_edge(e.field, e.forward);
    }
}

struct Sink {
    Readiness ready(Event& e) {
        const bool for_a_field = e.type == Event::Type::Text || e.type == Event::Type::Deletion;
        if (!for_a_field || e.field == 0) return Readiness::Ready;
        if (a11y::text_field_ready(e.field)) return Readiness::Ready;
        if (e.first_wait_frame < 0) {
            e.first_wait_frame = g_frame;
            a11y::focus(e.field);
        }
        if (g_frame - e.first_wait_frame > kFieldWaitFrames) {
            a11y::text_field_gone();
            return Readiness::Drop;
        }
        return Readiness::Wait;
    }

    void forward(const Event& e) {
        switch (e.type) {
            case Event::Type::Key:
                ImGui_ImplGlfw_KeyCallback(g_window, e.code, e.scancode, e.action, e.mods);
                break;
            case Event::Type::MouseButton:
                if (e.action == GLFW_PRESS && mouse_button_in_range(e.code)) --g_mouse_presses_waiting[e.code];
                ImGui_ImplGlfw_MouseButtonCallback(g_window, e.code, e.action, e.mods);
                break;
            case Event::Type::Text:
                if (e.field != 0 && e.replace) a11y::select_all(e.field);
                ImGui::GetIO().AddInputCharactersUTF8(e.text.c_str());
                g_mask_modifiers = true;
                break;
            case Event::Type::Deletion:
                select_for_deletion(e);
                break;
            case Event::Type::Activate:
                a11y::activate(e.field);
                break;
            case Event::Type::Focus:
                a11y::focus(e.field);
                break;
        }
    }
};

Sink g_sink;

void push(Event e) {
    g_order.push(std::move(e), g_sink);
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

void on_mouse_button(GLFWwindow*, int button, int action, int mods) {
    Event e;
    e.type = Event::Type::MouseButton;
    e.code = button;
    e.action = action;
    e.mods = mods;
    if (action == GLFW_PRESS && mouse_button_in_range(button)) ++g_mouse_presses_waiting[button];
    push(std::move(e));
}

// A character typed while the canvas has focus.
void on_char(GLFWwindow*, unsigned int codepoint) {
    char utf8[5] = {};
    push_text(ImTextCharToUtf8(utf8, codepoint));
}

app::WheelAccumulator g_wheel;

// The wheel over the canvas, in ImGui's steps (app/wheel_steps.hpp). ImGui
// sums the wheel over a frame, so it needs no place in the queue. Handled:
// the page itself does not scroll.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* event, void*) {
    const app::WheelSteps steps = g_wheel.add(
        app::wheel_steps(event->deltaX, event->deltaY, static_cast<int>(event->deltaMode)));
    ImGuiIO& io = ImGui::GetIO();
    if (event->mouse.shiftKey) {
        // With Shift, ImGui scrolls sideways by MouseWheel; browsers give
        // Shift+wheel as deltaX on some systems and as deltaY on others.
        io.MouseWheel += steps.x + steps.y;
    } else {
        io.MouseWheelH += steps.x;
        io.MouseWheel += steps.y;
    }
    return EM_TRUE;
}

}  // namespace

void install(GLFWwindow* window) {
    g_window = window;
    // Replaces the backend's callbacks (installed with the window); every
    // event still goes to them, in order.
    glfwSetKeyCallback(window, on_key);
    glfwSetMouseButtonCallback(window, on_mouse_button);
    glfwSetCharCallback(window, on_char);
    // Emscripten's GLFW gives the wheel as the browser's pixels, upside
    // down; the DOM's wheel event, with its delta mode, is taken instead.
    if (emscripten_set_wheel_callback("#canvas", nullptr, EM_FALSE, on_wheel) == EMSCRIPTEN_RESULT_SUCCESS) {
        glfwSetScrollCallback(window, nullptr);
    }
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

void push_deletion(unsigned int field, bool forward, DeletionSpan span, bool replace) {
    Event e;
    e.type = Event::Type::Deletion;
    e.field = field;
    e.forward = forward;
    e.span = span;
    e.replace = replace;
    push(std::move(e));
    // Then a tap of Backspace or Delete (with Ctrl for a word), which the
    // queue's rule gives frames of their own.
    const bool word = span == DeletionSpan::Word && !replace;
    const int key = forward ? GLFW_KEY_DELETE : GLFW_KEY_BACKSPACE;
    if (word) on_key(g_window, GLFW_KEY_LEFT_CONTROL, 0, GLFW_PRESS, GLFW_MOD_CONTROL);
    on_key(g_window, key, 0, GLFW_PRESS, word ? GLFW_MOD_CONTROL : 0);
    on_key(g_window, key, 0, GLFW_RELEASE, word ? GLFW_MOD_CONTROL : 0);
    if (word) on_key(g_window, GLFW_KEY_LEFT_CONTROL, 0, GLFW_RELEASE, 0);
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

void before_new_frame() {
    ImGuiIO& io = ImGui::GetIO();
    for (std::size_t b = 0; b < g_mouse_presses_waiting.size(); ++b) {
        if (g_mouse_presses_waiting[b] > 0) io.MouseDown[b] = false;
    }
    if (g_mask_modifiers) {
        g_saved_ctrl = io.KeyCtrl;
        g_saved_super = io.KeySuper;
        io.KeyCtrl = false;
        io.KeySuper = false;
    }
}

void frame_began() {
    ++g_frame;
    g_order.frame_began();
}

bool after_frame() {
    if (g_mask_modifiers) {
        ImGuiIO& io = ImGui::GetIO();
        io.KeyCtrl = g_saved_ctrl;
        io.KeySuper = g_saved_super;
        g_mask_modifiers = false;
    }
    g_order.drain(g_sink);
    return g_order.pending();
}

bool pending() {
    return g_order.pending();
}

void forget_text() {
    g_order.erase_if([](Event& e) {
        if (e.type != Event::Type::Text) return false;
        std::fill(e.text.begin(), e.text.end(), '\0');
        return true;
    });
}

}  // namespace roomkey::web::input_queue
