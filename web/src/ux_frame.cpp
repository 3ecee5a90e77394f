// ux_frame.cpp: see ux_frame.hpp.
#include "ux_frame.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include "a11y.hpp"
#include "browser_font.hpp"
#include "gesture_copy.hpp"
#include "input_queue.hpp"

namespace {

struct Keyboard {
    ImGuiID main_action = 0;       // this frame's
    ImGuiID last_main_action = 0;  // the last frame's
    bool nothing_focused = false;  // before this frame's NewFrame
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
    const ImGuiContext& g = *GImGui;
    g_keys.nothing_focused = (g.NavId == 0 || g.NavDisableHighlight) && g.ActiveId == 0;
}

void after_new_frame() {
    ImGuiContext& g = *GImGui;
    // The first Tab (nothing focused yet, or focus shown nowhere) goes to the
    // main action instead of the first widget in drawing order: the tabbing
    // request NewFrame made of it is dropped.
    const bool tabbing = g.NavMoveSubmitted && (g.NavMoveFlags & ImGuiNavMoveFlags_IsTabbing) && g.NavTabbingDir >= 0;
    if (tabbing && g_keys.nothing_focused && g_keys.last_main_action != 0) {
        ImGui::NavMoveRequestCancel();
        a11y::focus(g_keys.last_main_action);
    }
    input_queue::frame_began();
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
