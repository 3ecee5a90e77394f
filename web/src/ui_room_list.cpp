// ui_room_list.cpp: the workspace's room list: a filter box, the
// rooms in room_order's order (sticky, mentions, unread, recent) with their
// mention and unread badges. A click opens the room. Only the rows on
// screen are drawn (and listed for assistive technology).
#include <imgui.h>

#include <cstdio>
#include <cstring>

#include "app/room_order.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

void room_list_pane(const App& app, UiState& ui, Intents& out) {
    const std::string& filter = app.workspace().room_filter();
    ImGui::SetNextItemWidth(-FLT_MIN);
    // A filter set through the page API shows in the box (when not being typed in).
    if (!ImGui::IsWindowFocused() && filter != ui.room_filter.data()) {
        std::snprintf(ui.room_filter.data(), ui.room_filter.size(), "%s", filter.c_str());
    }
    if (ImGui::InputTextWithHint("##room_filter", "filter rooms", ui.room_filter.data(), ui.room_filter.size())) {
        out.push_back(app::intent::SetRoomFilter{ui.room_filter.data()});
    }
    note_widget(ui, "room_filter");
    if (app.dashboard().rooms().loading && !app.dashboard().rooms().value) text_dim("Loading rooms...");
    if (!app.dashboard().rooms().error.empty()) ImGui::TextColored(kBad, "%s", app.dashboard().rooms().error.c_str());
    const auto& rooms = app.dashboard().rooms().value;
    if (!rooms) return;
    if (rooms->empty()) text_dim("You are not a member of any room.");
    ux::begin_list("Rooms");
    ImGui::BeginChild("room_rows", ImVec2(0, 0), ImGuiChildFlags_None);
    // Only the rows on screen are drawn (rows are one line each).
    const std::vector<std::size_t> order = app::room_order(*rooms, ui.room_filter.data());
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(order.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const Room& room = (*rooms)[order[static_cast<std::size_t>(row)]];
            std::string label = room.name;
            if (room.sticky.value_or(false)) label = "* " + label;
            const std::int64_t mentions = room.mention_num.value_or(0);
            const std::int64_t unread = room.unread_num.value_or(0);
            if (mentions > 0) label += "  @" + std::to_string(mentions);
            if (unread > 0) label += "  (" + std::to_string(unread) + " unread)";
            label += "##" + room.room_id;
            const bool open = app.open_room().view().is_open() && app.open_room().view().room_id() == room.room_id;
            if (mentions > 0) ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
            if (ImGui::Selectable(label.c_str(), open)) {
                out.push_back(app::intent::SelectRoom{room.room_id});
                out.push_back(app::intent::OpenRoom{room.room_id});
                ui.nav.room_open = true;
                ui.nav.details_open = false;
            }
            if (mentions > 0) ImGui::PopStyleColor();
        }
    }
    ImGui::EndChild();
    ux::end_list();
}

}  // namespace roomkey::web::parts
