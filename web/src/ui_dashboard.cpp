// ui_dashboard.cpp: the account and status panel, and the rooms panel.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/i18n.hpp"
#include "app/format.hpp"
#include "app/scope_help.hpp"
#include "roomkey/registration.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

void account_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader(tr("dashboard.account_and_status"), ImGuiTreeNodeFlags_DefaultOpen)) return;
    const std::string& session = app.session_shown().session_label();  // the page API's value, compared
    if (app.holder() == CredentialHolder::none || session == "signing in" || session == "exchanging") {  // i18n: not shown
        text_dim(tr("dashboard.sign_in_to_see_account", {{"calls", "GET /me, GET /my/status"}}));
        return;
    }
    if (ImGui::Button((std::string(tr("common.reload")) + "##account").c_str())) out.push_back(app::intent::ReloadAccount{});
    ImGui::SameLine();
    if (app.dashboard().account().loading || app.dashboard().status().loading) loading_text(ui, tr("common.loading"), now);
    for (const std::string* note : {&app.dashboard().account().note, &app.dashboard().status().note}) {
        if (!note->empty()) text_wrapped(kWarn, *note);
    }
    if (const auto& account = app.dashboard().account().value) {
        label_value("account_id:", account->account_id);
        label_value("name:", field(account->name));
        label_value("chatwork_id:", field(account->chatwork_id));
        label_value("organization:", field(account->organization_name));
        label_value("mail:", field(account->mail));
    } else if (!app.dashboard().account().error.empty()) {
        text_wrapped(kBad, app.dashboard().account().error);
    }
    if (const auto& status = app.dashboard().status().value) {
        if (ImGui::BeginTable("status", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame)) {
            ImGui::TableSetupColumn("");
            ImGui::TableSetupColumn(tr("dashboard.messages"));
            ImGui::TableSetupColumn(tr("dashboard.rooms"));
            ImGui::TableHeadersRow();
            auto row = [](const char* name, std::int64_t count, std::int64_t rooms) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(name);
                ImGui::TableNextColumn();
                ImGui::Text("%lld", static_cast<long long>(count));
                ImGui::TableNextColumn();
                ImGui::Text("%lld", static_cast<long long>(rooms));
            };
            row(tr("dashboard.unread"), status->unread_num, status->unread_room_num);
            row(tr("dashboard.mentions"), status->mention_num, status->mention_room_num);
            row(tr("dashboard.my_tasks"), status->mytask_num, status->mytask_room_num);
            ImGui::EndTable();
        }
    } else if (!app.dashboard().status().error.empty()) {
        text_wrapped(kBad, app.dashboard().status().error);
    }
}

void rooms_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader(tr("dashboard.rooms_header"), ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (app.holder() == CredentialHolder::none) {
        text_dim(tr("dashboard.rooms_after_sign_in", {{"calls", "GET /rooms"}}));
        return;
    }
    if (ImGui::Button((std::string(tr("common.reload")) + "##rooms").c_str())) out.push_back(app::intent::ReloadRooms{});
    if (app.dashboard().rooms().loading) {
        ImGui::SameLine();  // only then: the list goes under the button, not beside it
        loading_text(ui, tr("common.loading"), now);
    }
    if (!app.dashboard().rooms().note.empty()) text_wrapped(kWarn, app.dashboard().rooms().note);
    const auto& rooms = app.dashboard().rooms().value;
    if (!rooms) {
        if (!app.dashboard().rooms().error.empty())
            ImGui::TextColored(kBad, "%s", app.dashboard().rooms().error.c_str());
        return;
    }
    if (rooms->empty()) {
        text_dim(tr("dashboard.no_rooms"));
        return;
    }
    const float height =
        std::min(static_cast<float>(rooms->size()) + 0.5f, 8.5f) *
        (std::max(tap_height(), ImGui::GetTextLineHeight()) + ImGui::GetStyle().ItemSpacing.y);
    ux::begin_list(tr("dashboard.rooms_header"));  // a list of rooms for assistive technology too
    ImGui::BeginChild("room_list", ImVec2(0, height), ImGuiChildFlags_Border);
    for (const Room& room : *rooms) {
        std::string text = room.name + "  #" + room.room_id;
        if (room.unread_num && *room.unread_num > 0) text += "  (" + tr_n("dashboard.room_unread", *room.unread_num) + ")";
        const bool selected = room.room_id == app.dashboard().selected_room();
        if (ImGui::Selectable(text.c_str(), selected, 0, ImVec2(0, tap_height()))) {
            out.push_back(app::intent::SelectRoom{room.room_id});
            out.push_back(app::intent::OpenRoom{room.room_id});  // its messages (ui_room.cpp)
        }
    }
    ImGui::EndChild();
    ux::end_list();
}

}  // namespace roomkey::web::parts
