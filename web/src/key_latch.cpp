// key_latch.cpp: see key_latch.hpp.
#include "key_latch.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <deque>

namespace roomkey::web::key_latch {

namespace {

struct KeyEvent {
    int key;
    int scancode;
    int action;
    int mods;
};

GLFWwindow* g_window = nullptr;
bool g_unseen[512] = {};  // pressed, and no NewFrame since (GLFW key codes < 512)
// Events held back, in the order they came: once one waits, every later one
// waits behind it, so Ctrl+A is seen with Ctrl down and a key pressed twice
// is seen twice.
std::deque<KeyEvent> g_queue;

bool in_range(int key) {
    return key >= 0 && key < static_cast<int>(sizeof g_unseen / sizeof g_unseen[0]);
}

void forward(const KeyEvent& e) {
    if (e.action == GLFW_PRESS && in_range(e.key)) g_unseen[e.key] = true;
    ImGui_ImplGlfw_KeyCallback(g_window, e.key, e.scancode, e.action, e.mods);
}

void on_key(GLFWwindow*, int key, int scancode, int action, int mods) {
    const KeyEvent e{key, scancode, action, mods};
    const bool release_unseen = action == GLFW_RELEASE && in_range(key) && g_unseen[key];
    if (!g_queue.empty() || release_unseen) {
        g_queue.push_back(e);
        return;
    }
    forward(e);
}

}  // namespace

void install(GLFWwindow* window) {
    g_window = window;
    // Replaces the backend's callback (it was installed with the window);
    // every event still goes to it, in order, perhaps a frame later.
    glfwSetKeyCallback(window, on_key);
}

void frame_saw_keys() {
    for (bool& unseen : g_unseen) unseen = false;
}

bool release_held_keys() {
    if (g_queue.empty()) return false;
    // The frame just drawn saw every key down: replay what waited, up to a
    // release whose press no frame has seen yet (the next frame will).
    while (!g_queue.empty()) {
        const KeyEvent e = g_queue.front();
        if (e.action == GLFW_RELEASE && in_range(e.key) && g_unseen[e.key]) break;
        g_queue.pop_front();
        forward(e);
    }
    return true;
}

}  // namespace roomkey::web::key_latch
