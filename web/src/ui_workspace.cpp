// ui_workspace.cpp: the workspace: signed out, the sign-in; signed in,
// the panes app/workspace_layout.hpp chooses for the width (room list |
// conversation with its composer | details), each drawn by its own file
// (ui_room_list.cpp, ui_conversation.cpp, ui_composer.cpp, ui_details.cpp).
// Each pane is a child window noted under its page API name (room_list,
// conversation, composer, details), so scripts see where it is.
#include <imgui.h>

#include <algorithm>

#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

// The user's text size as a UI scale (1 at the default 15 px): a larger text
// moves to fewer panes, as a narrower window would.
float text_scale(const UiState& ui) {
    return kTextSizes[ui.text_size] / kTextSizes[1];
}

void signed_out(const App& app, UiState& ui, Instant now, Intents& out) {
    // One readable column, centred when the window is wide.
    const float avail = ImGui::GetContentRegionAvail().x;
    const float width = std::min(avail, ImGui::GetFontSize() * 40.0f);
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + (avail - width) * 0.5f);
    ImGui::BeginChild("sign_in_screen", ImVec2(width, ImGui::GetContentRegionAvail().y), ImGuiChildFlags_None);
    sign_in_screen(app, ui, now, out);  // ui_sign_in.cpp
    ImGui::EndChild();
}

}  // namespace

void workspace_view(const App& app, UiState& ui, Instant now, float scale, Intents& out) {
    // An ended session (the refresh refused) is the sign-in screen with why, never an empty workspace.
    const SessionState state = app.session().state();
    const bool ended = app.holder() == CredentialHolder::page_session &&
                       (state == SessionState::expired || state == SessionState::failed ||
                        state == SessionState::signed_out);
    if (app.holder() == CredentialHolder::none || ended) {
        signed_out(app, ui, now, out);
        return;
    }
    // A room opened by the list or by a script shows its conversation.
    const app::RoomView& room = app.open_room().view();
    if (room.is_open() && room.room_id() != ui.nav_room) {
        ui.nav_room = room.room_id();
        ui.nav.room_open = true;
        ui.nav.details_open = false;
    }
    if (!room.is_open()) ui.nav = {};
    follow_details(app, ui, out);  // ui_details.cpp: the details' tab and the address's place agree

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float css = scale > 0.0f ? scale : 1.0f;
    const app::WorkspaceLayout layout = app::workspace_layout(avail.x / css, text_scale(ui), ui.nav);
    ui.show_back = layout.back;
    ui.show_rooms = layout.to_rooms;
    const float gap = ImGui::GetStyle().ItemSpacing.x * 0.5f;
    auto place = [&](const app::PaneBox& box, const char* id, bool border) {
        const float x = box.x * css + (box.x > 0.0f ? gap : 0.0f);
        const float right = (box.x + box.width) * css;
        ImGui::SetCursorScreenPos(ImVec2(origin.x + x, origin.y));
        ImGui::BeginChild(id, ImVec2(std::max(1.0f, right - x), avail.y),
                          border ? ImGuiChildFlags_Border : ImGuiChildFlags_None);
    };
    for (const app::PaneBox& box : layout.panes) {
        switch (box.pane) {
            case app::Pane::room_list:
                place(box, "pane_room_list", true);
                room_list_pane(app, ui, out);
                ImGui::EndChild();
                note_widget(ui, "room_list");
                break;
            case app::Pane::conversation:
                place(box, "pane_conversation", false);
                conversation_pane(app, ui, now, out);
                ImGui::EndChild();
                break;
            case app::Pane::details:
                place(box, "pane_details", true);
                details_pane(app, ui, now, out);
                ImGui::EndChild();
                note_widget(ui, "details");
                break;
        }
    }
    follow_details(app, ui, out);  // closed in this frame (Hide details, Close, Back): the address follows now
}

}  // namespace roomkey::web::parts
