// key_latch.cpp: see key_latch.hpp.
#include "key_latch.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <vector>

namespace roomkey::web::key_latch {

namespace {

struct HeldRelease {
    int key;
    int scancode;
    int mods;
};

GLFWwindow* g_window = nullptr;
bool g_unseen[512] = {};  // pressed since the last NewFrame (GLFW key codes < 512)
std::vector<HeldRelease> g_held;

bool in_range(int key) {
    return key >= 0 && key < static_cast<int>(sizeof g_unseen / sizeof g_unseen[0]);
}

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    if (action == GLFW_PRESS && in_range(key)) g_unseen[key] = true;
    // Held too once any release waits, so releases keep their order: for
    // Ctrl+A the frame must see A while Ctrl is still down.
    if (action == GLFW_RELEASE && in_range(key) && (g_unseen[key] || !g_held.empty())) {
        g_held.push_back({key, scancode, mods});
        return;
    }
    ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

}  // namespace

void install(GLFWwindow* window) {
    g_window = window;
    // Replaces the backend's callback (it was installed with the window);
    // on_key hands every event on to it, releases maybe one frame later.
    glfwSetKeyCallback(window, on_key);
}

void frame_saw_keys() {
    for (bool& unseen : g_unseen) unseen = false;
}

bool release_held_keys() {
    if (g_held.empty()) return false;
    std::vector<HeldRelease> held;
    held.swap(g_held);
    for (const HeldRelease& r : held) ImGui_ImplGlfw_KeyCallback(g_window, r.key, r.scancode, GLFW_RELEASE, r.mods);
    return true;
}

}  // namespace roomkey::web::key_latch
