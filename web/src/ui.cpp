// ui.cpp: the theme and the layout: the workspace (ui_workspace.cpp) or the
// developer view, whose columns place each instrument panel (see ui.hpp). The
// panels live one per file (ui_header.cpp, ui_sign_in.cpp, ui_dashboard.cpp,
// ui_posting.cpp, ui_rate.cpp, ui_http_log.cpp; shared widgets in
// ui_widgets.cpp, declared in ui_parts.hpp). A new view adds its own
// ui_<view>.cpp, declares its panel in ui_parts.hpp and takes one line here.
#include "ui.hpp"

#include <imgui.h>

#include "ui_image_preview.hpp"
#include "ui_parts.hpp"

namespace roomkey::web {

using app::App;
using app::Intent;
using namespace parts;

void apply_theme(float scale, bool dark) {
    ImGuiStyle style;
    style.WindowPadding = ImVec2(12, 10);
    style.FramePadding = ImVec2(8, 4);
    style.ItemSpacing = ImVec2(8, 6);
    style.ItemInnerSpacing = ImVec2(6, 4);
    style.IndentSpacing = 16;
    style.ScrollbarSize = 14;
    style.FrameRounding = 4;
    style.ChildRounding = 4;
    style.GrabRounding = 4;
    style.WindowRounding = 0;
    style.WindowBorderSize = 0;
    ImVec4* c = style.Colors;
    if (dark) {
        ImGui::StyleColorsDark(&style);
        kAccent = ImVec4(0.36f, 0.62f, 0.98f, 1.0f);
        kGood = ImVec4(0.40f, 0.80f, 0.50f, 1.0f);
        kWarn = ImVec4(0.98f, 0.76f, 0.30f, 1.0f);
        kBad = ImVec4(1.00f, 0.45f, 0.42f, 1.0f);
        kDim = ImVec4(0.62f, 0.65f, 0.70f, 1.0f);
        kErrorBg = ImVec4(0.35f, 0.12f, 0.12f, 1.0f);
        c[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.0f);
        c[ImGuiCol_ChildBg] = ImVec4(0.13f, 0.14f, 0.17f, 1.0f);
        c[ImGuiCol_Header] = ImVec4(0.20f, 0.24f, 0.30f, 1.0f);
        c[ImGuiCol_HeaderHovered] = ImVec4(0.25f, 0.32f, 0.42f, 1.0f);
        c[ImGuiCol_HeaderActive] = ImVec4(0.28f, 0.38f, 0.52f, 1.0f);
        c[ImGuiCol_FrameBg] = ImVec4(0.18f, 0.20f, 0.24f, 1.0f);
        c[ImGuiCol_Button] = ImVec4(0.22f, 0.26f, 0.32f, 1.0f);
        c[ImGuiCol_ButtonHovered] = ImVec4(0.28f, 0.34f, 0.42f, 1.0f);
        c[ImGuiCol_TableHeaderBg] = ImVec4(0.17f, 0.19f, 0.23f, 1.0f);
        // The keyboard focus ring: a colour nothing else uses, clearly visible.
        c[ImGuiCol_NavHighlight] = ImVec4(1.00f, 0.78f, 0.20f, 1.0f);
    } else {
        // Light: every text colour keeps at least 4.5:1 against the
        // background (WCAG 1.4.3), the ring 3:1 (1.4.11).
        ImGui::StyleColorsLight(&style);
        kAccent = ImVec4(0.10f, 0.36f, 0.78f, 1.0f);
        kGood = ImVec4(0.06f, 0.45f, 0.20f, 1.0f);
        kWarn = ImVec4(0.62f, 0.36f, 0.00f, 1.0f);
        kBad = ImVec4(0.72f, 0.10f, 0.10f, 1.0f);
        kDim = ImVec4(0.33f, 0.35f, 0.40f, 1.0f);
        kErrorBg = ImVec4(1.00f, 0.90f, 0.89f, 1.0f);
        c[ImGuiCol_Text] = ImVec4(0.08f, 0.09f, 0.11f, 1.0f);
        c[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.98f, 1.0f);
        c[ImGuiCol_ChildBg] = ImVec4(0.93f, 0.94f, 0.96f, 1.0f);
        c[ImGuiCol_Header] = ImVec4(0.82f, 0.87f, 0.94f, 1.0f);
        c[ImGuiCol_HeaderHovered] = ImVec4(0.74f, 0.82f, 0.93f, 1.0f);
        c[ImGuiCol_HeaderActive] = ImVec4(0.64f, 0.75f, 0.91f, 1.0f);
        c[ImGuiCol_FrameBg] = ImVec4(0.88f, 0.89f, 0.92f, 1.0f);
        c[ImGuiCol_Button] = ImVec4(0.84f, 0.87f, 0.92f, 1.0f);
        c[ImGuiCol_ButtonHovered] = ImVec4(0.75f, 0.80f, 0.89f, 1.0f);
        c[ImGuiCol_TableHeaderBg] = ImVec4(0.88f, 0.90f, 0.93f, 1.0f);
        c[ImGuiCol_NavHighlight] = ImVec4(0.80f, 0.36f, 0.00f, 1.0f);
    }
    c[ImGuiCol_CheckMark] = kAccent;
    c[ImGuiCol_PlotLines] = kAccent;
    kDarkTheme = dark;
    c[ImGuiCol_PlotHistogram] = bar_fill(kAccent);
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

std::vector<Intent> draw_ui(const App& app, UiState& ui, Instant now, float scale) {
    Intents out;
    ui.widgets.clear();
    ui.redraw_at.reset();
    if (app.holder() == CredentialHolder::none && ui.last_mode != CredentialHolder::none) {
        ui.message.fill('\0');
        ui.task_body.fill('\0');
        ui.task_assignees.fill('\0');
        ui.task_due.fill('\0');
        ui.form_error.clear();
        ui.selected_log = 0;
    }
    ui.last_mode = app.holder();
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("roomkey", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus);
    header(app, ui, now, out);
    if (app.workspace().view() == app::View::developer) {
        developer_view(app, ui, now, scale, out);
    } else {
        workspace_view(app, ui, now, scale, out);  // ui_workspace.cpp
    }
    previews_drawn(app.open_room().view().room_id(), out);  // those of every pane (ui_image_preview.hpp)
    ImGui::End();
    return out;
}

// The developer view: the instrument panels, as many columns as
// fit at a readable width; they follow resizes.
void parts::developer_view(const App& app, UiState& ui, Instant now, float scale, Intents& out) {
    const float width = ImGui::GetContentRegionAvail().x;
    const int columns = width >= 1100.0f * scale ? 3 : width >= 700.0f * scale ? 2 : 1;
    if (ImGui::BeginTable("layout", columns, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV,
                          ImVec2(0, ImGui::GetContentRegionAvail().y))) {
        auto column = [&](const char* id) {
            ImGui::TableNextColumn();
            ImGui::BeginChild(id, ImVec2(0, ImGui::GetContentRegionAvail().y), ImGuiChildFlags_None);
        };
        column("col1");
        connection_panel(app, ui, now, out);
        session_panel(app, ui, now, out);
        if (columns == 3) {
            ImGui::EndChild();
            column("col2");
        }
        account_panel(app, ui, now, out);
        rooms_panel(app, ui, now, out);
        // The message field right under the room list, where the open
        // room's messages cannot push it out of view (and out of the
        // accessibility tree, which only holds what ImGui drew).
        posting_panel(app, ui, now, out);
        room_panel(app, ui, now, out);  // ui_room.cpp
        contacts_panel(app, ui, now, out);
        if (columns == 2) {
            ImGui::EndChild();
            column("col2");
        }
        if (columns == 3) {
            ImGui::EndChild();
            column("col3");
        }
        rate_panel(app, ui, now);
        console_panel(app, ui, now, out);  // ui_console.cpp
        log_panel(app, ui, now, out);
        ImGui::EndChild();
        ImGui::EndTable();
    }
}

}  // namespace roomkey::web
