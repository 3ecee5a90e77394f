// ui_composer.cpp: the composer beneath the conversation: the
// message field (the page API's `message`, as in the posting panel: one
// text for both), Send (`queue_message`, through the same post queue and
// pacing), a To picker from the room's members, and Info and Code helpers
// that wrap what was typed. Replies, quotes and mentions asked for
// elsewhere (Workspace::composer_fill) are taken in here, once each.
#include <imgui.h>

#include <cstdio>
#include <cstring>

#include "a11y.hpp"
#include "roomkey/composer.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

namespace {

void set_message(UiState& ui, const std::string& text) {
    std::snprintf(ui.message.data(), ui.message.size(), "%s", text.c_str());
}

void take_fill(const App& app, UiState& ui) {
    const app::ComposerFill& fill = app.workspace().composer_fill();
    if (fill.seq == ui.fill_seq) return;
    ui.fill_seq = fill.seq;
    std::string typed = ui.message.data();
    if (fill.replace) {
        set_message(ui, fill.text + typed);
    } else {
        if (!typed.empty() && typed.back() != '\n') typed += '\n';
        set_message(ui, typed + fill.text);
    }
}

}  // namespace

float composer_height() {
    const ImGuiStyle& style = ImGui::GetStyle();
    return ImGui::GetTextLineHeight() * 3.5f + style.FramePadding.y * 2 + ImGui::GetFrameHeightWithSpacing() +
           style.ItemSpacing.y * 2 + style.WindowPadding.y * 2;
}

void composer(const App& app, UiState& ui, Intents& out) {
    take_fill(app, ui);
    const app::RoomView& room = app.open_room().view();
    ImGui::BeginChild("composer_box", ImVec2(0, composer_height()), ImGuiChildFlags_Border,
                      ImGuiWindowFlags_NoScrollbar);
    // Enter starts a new line; Ctrl+Enter sends.
    const bool ctrl_enter = ImGui::InputTextMultiline("##message", ui.message.data(), ui.message.size(),
                                                      ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.5f),
                                                      ImGuiInputTextFlags_EnterReturnsTrue);
    if (ctrl_enter) a11y::keep_editing(ImGui::GetItemID());  // the caret stays for the next message
    note_widget(ui, "message");
    ux::main_action();  // signed in: the first Tab lands in the message
    ImGui::BeginDisabled(ui.message[0] == '\0');
    a11y::shortcut_next("Control+Enter");
    if (primary_button("Send") || (ctrl_enter && ui.message[0] != '\0')) {
        out.push_back(app::intent::QueueMessage{room.room_id(), std::string(ui.message.data()), 1});
        ui.message[0] = '\0';
    }
    ImGui::EndDisabled();
    note_widget(ui, "queue_message");
    ImGui::SameLine();
    if (ImGui::SmallButton("To...")) ImGui::OpenPopup("to_picker");
    if (ImGui::BeginPopup("to_picker")) {
        if (room.members().empty()) text_dim("No members read yet.");
        for (const RoomMember& m : room.members()) {
            const std::string label = m.name + "##to" + m.account_id;
            if (ImGui::Selectable(label.c_str())) out.push_back(app::intent::Mention{m.account_id});
        }
        ImGui::EndPopup();
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Info")) {
        if (auto box = composer::info_box("", ui.message.data())) set_message(ui, *box);
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Code")) {
        if (auto code = composer::code_block(ui.message.data())) set_message(ui, *code);
    }
    if (short_hint("Ctrl+Enter")) note_widget(ui, "queue_hint");
    ImGui::EndChild();
    note_widget(ui, "composer");
}

}  // namespace roomkey::web::parts
