// ui_details.cpp: the open room's details (issue 27): its tasks (Done,
// Reopen, deadlines), members (To) and files (upload, open): the room
// panel's own tabs (ui_room.cpp), beside the conversation or as a drawer.
#include <imgui.h>

#include "ui_parts.hpp"

namespace roomkey::web::parts {

void details_pane(const App& app, UiState& ui, Instant now, Intents& out) {
    const app::RoomView& room = app.room();
    if (ui.show_back) {
        if (ImGui::Button("< Conversation")) ui.nav = app::navigate_back(ui.nav);
        note_widget(ui, "back");
        ImGui::SameLine();
    }
    if (ImGui::SmallButton("Close")) ui.nav.details_open = false;
    if (!room.is_open()) return;
    if (ImGui::BeginTabBar("details_tabs")) {
        const std::string tasks = "Tasks (" + std::to_string(room.tasks().size()) + ")###tasks";
        if (ImGui::BeginTabItem(tasks.c_str())) {
            tasks_tab(room, app.workspace(), now, out);
            ImGui::EndTabItem();
        }
        const std::string members = "Members (" + std::to_string(room.members().size()) + ")###members";
        if (ImGui::BeginTabItem(members.c_str())) {
            members_tab(room, out);
            ImGui::EndTabItem();
        }
        const std::string files = "Files (" + std::to_string(room.files().size()) + ")###files";
        const bool files_open = ImGui::BeginTabItem(files.c_str());
        note_widget(ui, "files_tab");
        if (files_open) {
            files_tab(room, ui, out);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
}

}  // namespace roomkey::web::parts
