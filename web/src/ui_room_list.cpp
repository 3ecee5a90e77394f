// ui_room_list.cpp: the workspace's room list: a filter box, the
// rooms in room_order's order (sticky, mentions, unread, recent) with their
// mention and unread badges. A click opens the room. Only the rows on
// screen are drawn (and listed for assistive technology).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "a11y.hpp"
#include "app/room_order.hpp"
#include "emoji_glyphs.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

namespace {

// A row over the Selectable just drawn from `min` (where its text goes): the badges (mentions, unread) at
// its right end, always on screen; the name in what is left, ending in an
// ellipsis when it does not fit.
void room_row(ImVec2 min, const std::string& name, std::int64_t mentions, std::int64_t unread) {
    const ImVec2 max = ImGui::GetItemRectMax();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImGuiStyle& style = ImGui::GetStyle();
    float right =
        std::min(max.x, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) - style.FramePadding.x * 0.5f;
    if (unread > 0) {
        const std::string text = std::to_string(unread);
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        const float pad = size.y * 0.35f;
        const ImVec2 at(right - size.x - pad * 2, min.y);
        draw->AddRectFilled(at, ImVec2(right, min.y + size.y), ImGui::GetColorU32(kAccent), size.y * 0.5f);
        draw->AddText(ImVec2(at.x + pad, at.y), IM_COL32(255, 255, 255, 255), text.c_str());
        right = at.x - style.ItemInnerSpacing.x;
    }
    if (mentions > 0) {
        const std::string text = "@" + std::to_string(mentions);
        const float width = ImGui::CalcTextSize(text.c_str()).x;
        draw->AddText(ImVec2(right - width, min.y), ImGui::GetColorU32(kWarn), text.c_str());
        right -= width + style.ItemInnerSpacing.x;
    }
    // The name, cut on a character boundary before an ellipsis when it does not fit.
    const ImU32 colour = ImGui::GetColorU32(mentions > 0 ? kWarn : ImGui::GetStyleColorVec4(ImGuiCol_Text));
    const float room = right - min.x;
    std::string shown = emoji_folded(name, false);  // each emoji one glyph (emoji_glyphs.hpp)
    if (ImGui::CalcTextSize(shown.c_str()).x > room) {
        const char* ellipsis = "\xE2\x80\xA6";  // …
        const float ellipsis_width = ImGui::CalcTextSize(ellipsis).x;
        std::size_t cut = shown.size();
        while (cut > 0) {
            do {
                --cut;
            } while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80);
            if (ImGui::CalcTextSize(shown.c_str(), shown.c_str() + cut).x + ellipsis_width <= room) break;
        }
        shown = shown.substr(0, cut) + ellipsis;
    }
    draw->AddText(min, colour, shown.c_str());
}

}  // namespace

void room_list_pane(const App& app, UiState& ui, Intents& out) {
    const std::string& filter = app.workspace().room_filter();
    ImGui::SetNextItemWidth(-FLT_MIN);
    // A filter set through the page API shows in the box (when not being typed in).
    if (!ImGui::IsWindowFocused() && filter != ui.room_filter.data()) {
        std::snprintf(ui.room_filter.data(), ui.room_filter.size(), "%s", filter.c_str());
    }
    if (ImGui::InputTextWithHint("##room_filter", tr("room_list.filter_hint"), ui.room_filter.data(), ui.room_filter.size())) {
        out.push_back(app::intent::SetRoomFilter{ui.room_filter.data()});
    }
    note_widget(ui, "room_filter");
    if (app.dashboard().rooms().loading && !app.dashboard().rooms().value) text_dim(tr("room_list.loading"));
    if (!app.dashboard().rooms().error.empty()) ImGui::TextColored(kBad, "%s", app.dashboard().rooms().error.c_str());
    const auto& rooms = app.dashboard().rooms().value;
    if (!rooms) return;
    if (rooms->empty()) text_dim(tr("dashboard.no_rooms"));
    ux::begin_list(tr("dashboard.rooms_header"));
    ImGui::BeginChild("room_rows", ImVec2(0, 0), ImGuiChildFlags_None);
    // Only the rows on screen are drawn (rows are one line each).
    static app::KeptRoomOrder kept;  // sorted again only when the rooms or the filter changed
    const std::vector<std::size_t>& order = kept.of(*rooms, app.dashboard().rooms_version(), ui.room_filter.data());
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(order.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const Room& room = (*rooms)[order[static_cast<std::size_t>(row)]];
            std::string name = room.name;
            if (room.sticky.value_or(false)) name = "* " + name;
            const std::int64_t mentions = room.mention_num.value_or(0);
            const std::int64_t unread = room.unread_num.value_or(0);
            const bool open = app.open_room().view().is_open() && app.open_room().view().room_id() == room.room_id;
            std::string spoken = name;
            if (mentions > 0) spoken += "  " + tr("room_list.spoken_mentions", {{"n", std::to_string(mentions)}});
            if (unread > 0) spoken += "  " + tr_n("room_list.spoken_unread", unread);
            a11y::name_next(spoken);
            const std::string id = "##" + room.room_id;
            const ImVec2 at = ImGui::GetCursorScreenPos();
            const float tall = tap_height();  // a finger's row; its text in the middle
            const bool chosen = ImGui::Selectable(id.c_str(), open, 0, ImVec2(0, tall));
            room_row(ImVec2(at.x, at.y + std::max(0.0f, tall - ImGui::GetFontSize()) * 0.5f), name, mentions, unread);
            if (chosen) {
                out.push_back(app::intent::SelectRoom{room.room_id});
                out.push_back(app::intent::OpenRoom{room.room_id});
                ui.nav.room_open = true;
                ui.nav.details_open = false;
            }
        }
    }
    ImGui::EndChild();
    ux::end_list();
}

}  // namespace roomkey::web::parts
