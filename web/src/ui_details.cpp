// ui_details.cpp: the open room's details: its tasks (Done,
// Reopen, deadlines), members (To) and files (upload, open): the room
// panel's own tabs (ui_room.cpp), beside the conversation, or the whole pane on a phone.
#include <imgui.h>

#include "app/i18n.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

// A task for a member picked from the room's members (not typed as an id).
void task_form(const app::RoomView& room, UiState& ui, Intents& out) {
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::InputTextWithHint("##details_task", tr("details.task_hint"), ui.task_body.data(), ui.task_body.size());
    note_widget(ui, "task_body");
    const auto& members = room.members();
    if (ui.task_assignee >= static_cast<int>(members.size())) ui.task_assignee = -1;
    const char* who = ui.task_assignee >= 0 ? members[static_cast<std::size_t>(ui.task_assignee)].name.c_str()
                                            : tr("details.choose_member");
    // The line's width, as the field above: "choose a member" or a long name whole from 360 px.
    // 10 em cut it on a phone to "choose a memb": there the arrow is a finger wide.
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool open = ImGui::BeginCombo("##assignee", who);
    note_widget(ui, "assignee");
    if (open) {
        for (std::size_t i = 0; i < members.size(); ++i) {
            const std::string label = members[i].name + "##a" + members[i].account_id;
            if (ImGui::Selectable(label.c_str(), static_cast<int>(i) == ui.task_assignee)) {
                ui.task_assignee = static_cast<int>(i);
            }
        }
        ImGui::EndCombo();
    }
    ImGui::BeginDisabled(ui.task_assignee < 0 || ui.task_body[0] == '\0');
    const bool add = tap_button(beside(tr("details.add_task")));
    note_widget(ui, "add_task");
    if (add) {
        out.push_back(app::intent::QueueTask{room.room_id(),
                                             ui.task_body.data(),
                                             {members[static_cast<std::size_t>(ui.task_assignee)].account_id},
                                             std::nullopt,
                                             TaskLimitType::none});
        ui.task_body[0] = '\0';
    }
    ImGui::EndDisabled();
    ImGui::Separator();
}

}  // namespace

void follow_details(const App& app, UiState& ui, Intents& out) {
    const app::Workspace& ws = app.workspace();
    if (ws.details_seq() != ui.details_seq) {
        ui.details_seq = ws.details_seq();
        const bool open = ws.details() != app::DetailsTab::none;
        if (open && app.open_room().view().is_open()) ui.nav.room_open = true;
        if (open) ui.select_tab = ws.details();
        ui.nav.details_open = open;
        return;
    }
    // Closed here (Close, Back, another room): the app hears it. An open pane tells its tab as it draws it.
    if (!ui.nav.details_open && ws.details() != app::DetailsTab::none) {
        out.push_back(app::intent::ShowDetails{app::DetailsTab::none});
    }
}

void details_pane(const App& app, UiState& ui, Instant now, Intents& out) {
    const app::RoomView& room = app.open_room().view();
    // One way back: to the conversation on a phone, Close beside it.
    if (ui.show_back) {
        if (ImGui::Button(tr("details.back"))) ui.nav = app::navigate_back(ui.nav);
        note_widget(ui, "back");
    } else if (tap_button(tr("details.close"))) {
        ui.nav.details_open = false;
    }
    if (!room.is_open()) return;
    room_tabs(app, room, ui, now, out, "details_tabs", task_form);
}

}  // namespace roomkey::web::parts
