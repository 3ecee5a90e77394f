// ux_frame.cpp: see ux_frame.hpp.
#include "ux_frame.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "a11y.hpp"
#include "browser_font.hpp"
#include "gesture_copy.hpp"

namespace {

struct Keyboard {
    ImGuiID main_action = 0;       // this frame's
    ImGuiID last_main_action = 0;  // the last frame's
    bool tab_was_down = false;
    bool had_pending = false;
    std::size_t published_missing = SIZE_MAX;
    std::size_t published_size = SIZE_MAX;
};

Keyboard g_keys;

}  // namespace

namespace roomkey::web::ux {

void init() {
    ImGuiIO& io = ImGui::GetIO();
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    install_glyph_hook();
    a11y::install();
}

bool take_dom_requests() {
    return a11y::take_dom_requests();
}

bool atlas_stale() {
    return font_atlas_stale();
}

void before_new_frame() {
    ImGuiIO& io = ImGui::GetIO();
    ImGuiContext& g = *GImGui;
    const bool tab_down = io.KeysDown[GLFW_KEY_TAB];
    const bool tab_pressed = tab_down && !g_keys.tab_was_down;
    g_keys.tab_was_down = tab_down;
    // The first Tab (nothing focused yet, or focus shown nowhere) goes to the
    // main action instead of the first widget in drawing order.
    const bool nothing_focused = g.NavId == 0 || g.NavDisableHighlight;
    if (tab_pressed && !io.KeyShift && nothing_focused && g.ActiveId == 0 && g_keys.last_main_action != 0) {
        a11y::focus(g_keys.last_main_action);
        io.KeysDown[GLFW_KEY_TAB] = false;  // this Tab is spent
    }
    // Enter activates buttons and checkboxes too, as on the web.
    const bool enter = io.KeysDown[GLFW_KEY_ENTER] || io.KeysDown[GLFW_KEY_KP_ENTER];
    if (enter && g.ActiveId == 0 && !io.KeyCtrl && g.NavId != 0 && !g.NavDisableHighlight) {
        io.NavInputs[ImGuiNavInput_Activate] = 1.0f;
    }
}

void main_action() {
    g_keys.main_action = ImGui::GetItemID();
}

void begin_list(const char* name) {
    a11y::begin_list(name);
}

void end_list() {
    a11y::end_list();
}

void describe_last_item(const char* id, const std::string& description) {
    a11y::describe_last_item(id, description);
}

void after_draw() {
    a11y::draw_composition();
}

bool after_render(float scale) {
    a11y::publish(scale);
    gesture_copy::publish(scale);
    g_keys.last_main_action = g_keys.main_action;
    g_keys.main_action = 0;
    const app::GlyphCache& cache = glyph_cache();
    const bool notice_changed = take_font_notice_changed();
    if (notice_changed || cache.missing() != g_keys.published_missing || cache.size() != g_keys.published_size) {
        publish_font_stats();
        g_keys.published_missing = cache.missing();
        g_keys.published_size = cache.size();
    }
    const bool stale = font_atlas_stale() || notice_changed;
    font_frame_done();
    return stale;
}

bool imgui_may_paste() {
    return !a11y::dom_text_focused();
}

}  // namespace roomkey::web::ux
