// ui_widgets.cpp: small widgets every panel uses (see ui_parts.hpp).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/format.hpp"
#include "app/frame_clock.hpp"
#include "app/i18n.hpp"
#include "app/scope_help.hpp"
#include "roomkey/registration.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

void text_wrapped(const ImVec4& colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

bool short_hint(const char* text) {
    // text_dim after SameLine wrapped at the little room left on
    // the line, one letter a line. A hint is one word: it moves, whole.
    const float width = ImGui::CalcTextSize(text).x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) {
        ImGui::NewLine();
        if (ImGui::GetContentRegionAvail().x < width) return false;
    }
    ImGui::TextColored(kDim, "%s", text);
    return true;
}

void label_value(const char* label, const std::string& value) {
    ImGui::TextColored(kDim, "%s", label);
    ImGui::SameLine();
    // A long value (an address, a token's place) wraps at the pane's edge
    // rather than running past it: at 390 px most of them would.
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(value.c_str());
    ImGui::PopTextWrapPos();
}

void help_marker(const std::string& text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// Remembers where the last item can be seen, under `name`: its rectangle
// clipped to what its panel shows. An item scrolled out of its panel's view
// is not remembered, so the page API's widget(name) is null rather than a
// place where a click would land on some other control, or off the page.
const char* beside(const char* label) {
    const float width = ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f;
    ImGui::SameLine();
    if (ImGui::GetCursorPosX() + width > ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
    return label;
}

void note_widget(UiState& ui, const char* name) {
    const ImVec2 item_min = ImGui::GetItemRectMin();
    const ImVec2 item_max = ImGui::GetItemRectMax();
    const ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 clip_min = draw->GetClipRectMin();
    const ImVec2 clip_max = draw->GetClipRectMax();
    const float left = std::max(item_min.x, clip_min.x);
    const float top = std::max(item_min.y, clip_min.y);
    const float right = std::min(item_max.x, clip_max.x);
    const float bottom = std::min(item_max.y, clip_max.y);
    if (right <= left || bottom <= top) return;
    ui.widgets[name] = {left, top, right - left, bottom - top};
}

void note_window(UiState& ui, const char* name) {
    const ImVec2 at = ImGui::GetWindowPos();
    const ImVec2 size = ImGui::GetWindowSize();
    ui.widgets[name] = {at.x, at.y, size.x, size.y};
}

namespace {
bool g_touch = false;  // this frame's pointer is a finger (set_touch)
}  // namespace

void set_touch(bool touch) {
    g_touch = touch;
}

bool tap_button(const char* label) {
    return g_touch ? ImGui::Button(label) : ImGui::SmallButton(label);
}

float tap_height() {
    return g_touch ? ImGui::GetFrameHeight() : 0.0f;
}

int tap_tree() {
    return g_touch ? ImGuiTreeNodeFlags_FramePadding : 0;
}

bool primary_button(const char* label) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.20f, 0.45f, 0.85f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.28f, 0.53f, 0.92f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImVec4(0.16f, 0.38f, 0.75f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 1.0f, 1.0f, 1.0f));  // on blue, in either theme
    const bool pressed = ImGui::Button(label);
    ImGui::PopStyleColor(4);
    return pressed;
}

// A scroll request keeps ImGui settling until the next frame applies it
// (frame_picture.cpp), so one made every frame, as the usual "if at the
// bottom, scroll to the bottom" does, drew an open room 60 times a second
// forever. It is made only when the list's end moved since the last frame
// (a message came, the first ones loaded), read from the window's storage.
void follow_bottom() {
    const float end = ImGui::GetCursorPosY();  // content coordinates: scrolling leaves it alone
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID key = ImGui::GetID("follow_bottom");
    const bool moved = storage->GetFloat(key, -1.0f) != end;
    storage->SetFloat(key, end);
    if (moved && ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 1.0f) ImGui::SetScrollHereY(1.0f);
}

void redraw_at(UiState& ui, std::optional<Instant> at) {
    if (at && (!ui.redraw_at || *at < *ui.redraw_at)) ui.redraw_at = at;
}

void loading_text(UiState& ui, const char* what, Instant now) {
    static const char* kDots[] = {"", ".", "..", "..."};
    constexpr std::int64_t kStepMs = 400;
    const auto phase = static_cast<std::size_t>((unix_ms(now) / kStepMs) % 4);
    ImGui::TextColored(kDim, "%s%s", what, kDots[phase]);
    redraw_at(ui, instant_from_unix_ms((unix_ms(now) / kStepMs + 1) * kStepMs));
}

std::string countdown_to(UiState& ui, Instant at, Instant now) {
    redraw_at(ui, app::next_countdown_change(at, now));
    return app::format_countdown(std::chrono::duration_cast<Millis>(at - now));
}

// `label`: the page API's session value (English), not the words shown.
ImVec4 session_colour(const std::string& label) {
    if (label == "signed in" || label == "api token") return kGood;  // i18n: not shown (page API values)
    if (label == "failed" || label == "expired") return kBad;
    if (label == "signed out") return kDim;  // i18n: not shown (a page API value)
    return kWarn;
}

const char* session_words(std::string label) {
    std::replace(label.begin(), label.end(), ' ', '_');
    return tr("session." + label);
}

const std::string& field(const std::optional<std::string>& value) {
    static const std::string kNone = "-";
    return value ? *value : kNone;
}

}  // namespace roomkey::web::parts
