// ui_conversation.cpp: the open room's conversation: newest at the
// bottom, a separator above each local day, each message's notation drawn
// from its parts (app/message_view.hpp: mentions of you highlighted, a reply
// naming whom it answers, quotes, info boxes, the service's events and code
// as boxes, tasks with assignee and deadline, unknown tags as text:
// ui_message_body.cpp), Reply
// and Quote on every message, Edit and Delete on your own; the composer
// directly beneath (ui_composer.cpp).
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "a11y.hpp"
#include "app/message_view.hpp"
#include "ui_message_body.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

void message_row(const App& app, UiState& ui, const ChatMessage& m, const app::DrawnMessage& drawn,
                 const notation::NameLookup& names, std::int64_t now, Intents& out) {
    const app::RoomView& room = app.open_room().view();
    ImGui::PushID(m.message_id.c_str());
    if (ui.jump_to == m.message_id) {
        ImGui::SetScrollHereY(0.0f);
        ui.jump_to.clear();
    }
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const std::string who = m.account.name.empty() ? "account " + m.account.account_id : m.account.name;
    // For assistive technology: an item of the conversation's log that reads
    // as the message is drawn (no tags), its controls inside it.
    a11y::begin_log_item(m.message_id.c_str(), who + ", " + drawn.time_text + ": " + drawn.text);
    ImGui::BeginGroup();
    ImGui::TextColored(kAccent, "%s", who.c_str());
    const std::string when = drawn.time_text + (drawn.edited ? "  (edited)" : "");
    beside(when.c_str());
    text_dim(when);
    if (ImGui::SmallButton(beside("Reply"))) out.push_back(app::intent::Reply{room.room_id(), m.message_id});
    if (ImGui::SmallButton(beside("Quote"))) out.push_back(app::intent::Quote{room.room_id(), m.message_id});
    const bool mine =
        app.dashboard().account().value && app.dashboard().account().value->account_id == m.account.account_id;
    if (mine && !drawn.system) {
        if (ImGui::SmallButton(beside("Edit"))) {
            ui.editing = m.message_id;
            std::snprintf(ui.edit_body.data(), ui.edit_body.size(), "%s", m.body.c_str());
        }
        if (ImGui::SmallButton(beside("Delete")))
            out.push_back(app::intent::DeleteMessage{room.room_id(), m.message_id});
    }
    if (ui.editing == m.message_id) {
        ImGui::InputTextMultiline("##edit", ui.edit_body.data(), ui.edit_body.size(),
                                  ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.5f));
        if (ImGui::SmallButton("Save")) {
            out.push_back(app::intent::EditMessage{room.room_id(), m.message_id, ui.edit_body.data()});
            ui.editing.clear();
        }
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) ui.editing.clear();
    } else {
        const Drawing d{drawn.parts, names, app.workspace().user_time(), now, &ui.jump_to};
        draw_parts(d, drawn.parts.parts);
    }
    ImGui::EndGroup();
    a11y::end_log_item();
    if (drawn.mentions_me) {
        // Mentions of you: a band in the warning colour on the left.
        const ImVec2 bottom = ImGui::GetItemRectMax();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(top.x - 6.0f, top.y), ImVec2(top.x - 2.0f, bottom.y),
                                                  ImGui::GetColorU32(kWarn));
    }
    ImGui::Spacing();
    ImGui::PopID();
}

}  // namespace

void conversation_pane(const App& app, UiState& ui, Instant now, Intents& out) {
    const app::RoomView& room = app.open_room().view();
    waiting_posts_offer(app, ui, out);
    if (!room.is_open()) {
        text_dim(app.dashboard().rooms().value ? "Choose a room on the left to read it." : "Loading your rooms...");
        return;
    }
    if (ui.show_back) {
        if (ImGui::Button("< Rooms")) ui.nav = app::navigate_back(ui.nav);
        note_widget(ui, "back");
        ImGui::SameLine();
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(kAccent, "%s", (room.name().empty() ? "#" + room.room_id() : room.name()).c_str());
    if (ImGui::SmallButton(beside("Mark as read"))) out.push_back(app::intent::MarkRead{room.room_id()});
    note_widget(ui, "mark_read");
    if (ImGui::SmallButton(beside(ui.nav.details_open ? "Hide details" : "Details"))) {
        ui.nav.details_open = !ui.nav.details_open;
    }
    note_widget(ui, "details_toggle");
    if (room.loading()) {
        ImGui::SameLine();
        loading_text(ui, "Loading", now);
    }
    if (!room.error().empty()) ImGui::TextColored(kBad, "%s", room.error().c_str());

    const float composer_h = composer_height();
    const float height = std::max(ImGui::GetTextLineHeightWithSpacing() * 3.0f,
                                  ImGui::GetContentRegionAvail().y - composer_h - ImGui::GetStyle().ItemSpacing.y);
    a11y::begin_log("Conversation");  // its messages, each read as drawn (a11y.hpp)
    ImGui::BeginChild("conversation_log", ImVec2(0, height), ImGuiChildFlags_Border);
    const std::string me =
        app.dashboard().account().value ? app.dashboard().account().value->account_id : std::string();
    const notation::NameLookup names =
        app::account_names(room, app.contacts().contacts().value ? &*app.contacts().contacts().value : nullptr);
    const std::int64_t now_unix = unix_ms(now) / 1000;
    const app::UserTime& offset = app.workspace().user_time();
    if (room.messages().empty()) text_dim(room.loading() ? "Loading messages..." : "No messages in this room yet.");
    const bool jumped = !ui.jump_to.empty() || opens_at_unread(app, ui);
    std::int64_t last = 0;
    bool first = true;
    for (const ChatMessage& m : room.messages()) {
        if (first || !app::same_local_day(last, m.send_time, offset)) {
            ImGui::Spacing();
            text_dim("--- " + app::date_separator_text(m.send_time, now_unix, offset) + " ---");
        }
        first = false;
        last = m.send_time;
        if (m.message_id == app.open_room().first_unread_id()) new_messages_line(app, ui);
        const app::DrawnMessage drawn = app::drawn_message(m, me, names, now_unix, offset);
        message_row(app, ui, m, drawn, names, now_unix, out);
    }
    const std::size_t pending = pending_rows(app, ui, out);
    if (!jumped) follow_bottom();
    conversation_end(app, ui, pending, now, out);
    ImGui::EndChild();
    a11y::end_log();
    note_widget(ui, "conversation");
    composer(app, ui, out);
}

}  // namespace roomkey::web::parts
