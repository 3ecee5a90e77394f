// ui_message_menu.cpp: a message's menu (app/message_menu.hpp) on screen.
// It opens on a right-click over the message, its "⋯" control, or Shift+F10
// and the context-menu key on the message last clicked or holding the
// keyboard focus (else the one under the pointer); a popup lists the items
// the message offers. Edit and "Add as task" come back as hand-offs: the
// edit field and the details' task form take them here.
#include "ui_message_menu.hpp"

#include <imgui.h>

#include <cstdio>
#include <string>
#include <utility>

#include "a11y.hpp"
#include "app/i18n.hpp"
#include "app/message_menu.hpp"
#include "app/message_view.hpp"
#include "gesture_copy.hpp"
#include "roomkey/message_link.hpp"

namespace roomkey::web::parts {

namespace {

// The menu as last placed (one conversation is on screen).
struct MenuUi {
    std::uint64_t placed = 0;        // the opening (Target::seq) last placed
    bool shown = false;              // the popup was up last frame
    std::uint64_t handoff = 0;       // the hand-off last taken
    std::string anchor_for;          // the message the anchor is for
    ImVec2 anchor{-1.0f, -1.0f};     // where the menu opens (screen)
    std::string current;             // the message last clicked or focused: Shift+F10's
    bool by_keys = false;            // opened from the keyboard: its first item takes the focus
};
MenuUi& menu_ui() {
    static MenuUi m;
    return m;
}

void open_at(const std::string& room_id, const std::string& message_id, ImVec2 at, Intents& out, bool by_keys = false) {
    MenuUi& m = menu_ui();
    m.anchor_for = message_id;
    m.anchor = at;
    m.by_keys = by_keys;
    out.push_back(app::intent::MessageMenu{room_id, message_id, {}});
}

// Shift+F10 or the context-menu key, while no text field takes the keys.
bool menu_keys() {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return false;
    return (io.KeyShift && ImGui::IsKeyPressed(ImGuiKey_F10, false)) || ImGui::IsKeyPressed(ImGuiKey_Menu, false);
}

// What Copy text and Copy link put on the clipboard (app/message_menu.hpp's
// menu_choice), written in the click's own handler (gesture_copy.hpp):
// WebKit refuses a write a frame later.
std::string copied(const App& app, const app::MessageMenu::Target& t, app::MenuItem item) {
    if (item == app::MenuItem::copy_link) return message_link(t.room_id, t.message_id);
    if (!t.selected.empty()) return t.selected;
    const app::RoomView& room = app.open_room().view();
    for (const ChatMessage& m : room.messages()) {
        if (m.message_id != t.message_id) continue;
        const auto& account = app.dashboard().account().value;
        const auto& contacts = app.contacts().contacts().value;
        return app::drawn_message(m, account ? account->account_id : "",
                                  app::account_names(room, contacts ? &*contacts : nullptr), 0,
                                  app.workspace().user_time())
            .text;
    }
    return {};
}

}  // namespace

void begin_edit(UiState& ui, const std::string& message_id, const std::string& body) {
    ui.editing = message_id;
    std::snprintf(ui.edit_body.data(), ui.edit_body.size(), "%s", body.c_str());
    ui.edit_focus = true;  // the caret goes into the edit field (next frame)
}

bool message_more(UiState& ui, const std::string& room_id, const std::string& message_id, Intents& out) {
    // On every message, beside its other controls or on the next line when
    // they fill it; as tall and wide as a finger on a touch screen.
    const char* label = kMoreLabel;
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(2.0f, ui.touch ? ImGui::GetStyle().FramePadding.y : 0.0f));
    const float width = ui.touch ? ImGui::GetFrameHeight() : ImGui::CalcTextSize(label, nullptr, true).x + 4.0f;
    ImGui::SameLine();
    if (ImGui::GetCursorPosX() + width > ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
    a11y::name_next(tr("menu.label"));
    a11y::shortcut_next("Shift+F10");  // i18n: not shown (aria-keyshortcuts: a key's DOM name)
    const bool pressed = ui.touch ? ImGui::Button(label, ImVec2(width, 0.0f)) : ImGui::SmallButton(label);
    ImGui::PopStyleVar();
    // No hover on a touch screen: a tap left the pointer there, and the tip stayed over the next message.
    if (!ui.touch && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.label"));
    note_widget(ui, "message_more");
    if (pressed) open_at(room_id, message_id, ImVec2(ImGui::GetItemRectMin().x, ImGui::GetItemRectMax().y), out);
    return ImGui::IsItemFocused();
}

void message_menu_opener(const std::string& room_id, const std::string& message_id, bool focused, Intents& out) {
    MenuUi& m = menu_ui();
    // The message's group is the last item.
    const bool hovered = ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
    // A control focused from the keyboard (the focus a click leaves behind does not count).
    if ((focused && ImGui::GetIO().NavVisible) || (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left))) {
        m.current = message_id;
    }
    if (hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Right)) {
        open_at(room_id, message_id, ImGui::GetMousePos(), out);
    } else if (menu_keys() && (m.current == message_id || (m.current.empty() && hovered))) {
        open_at(room_id, message_id, ImVec2(ImGui::GetItemRectMin().x + ImGui::GetFontSize(), ImGui::GetItemRectMin().y),
                out, true);
    }
}

void message_menu(const App& app, UiState& ui, Intents& out) {
    MenuUi& m = menu_ui();
    const app::MessageMenu& menu = app.message_menu();
    const auto& target = menu.target();
    // Edit and "Add as task" chosen: their fields take the message.
    const app::MenuHandoff& handoff = menu.handoff();
    if (handoff.seq != m.handoff) {
        m.handoff = handoff.seq;
        if (handoff.choice.item == app::MenuItem::edit) {
            begin_edit(ui, handoff.choice.message_id, handoff.choice.text);
        } else if (handoff.choice.item == app::MenuItem::add_task) {
            std::snprintf(ui.task_body.data(), ui.task_body.size(), "%s", handoff.choice.text.c_str());
            ui.nav.details_open = true;  // the details' task form, with the text in it
        }
    }
    if (target && target->seq != m.placed) {
        m.placed = target->seq;
        // Opened by the page API: beside the pointer when it is over the conversation, else at its middle.
        ImVec2 at = m.anchor_for == target->message_id ? m.anchor : ImGui::GetMousePos();
        if (m.anchor_for != target->message_id && !ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) {
            at = ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowWidth() * 0.4f,
                        ImGui::GetWindowPos().y + ImGui::GetWindowHeight() * 0.3f);
        }
        m.anchor_for.clear();
        ImGui::SetNextWindowPos(at);
        ImGui::OpenPopup("message_menu");
    }
    if (ImGui::BeginPopup("message_menu")) {
        m.shown = true;
        if (!target) {
            ImGui::CloseCurrentPopup();  // chosen, or closed by the page API
        } else {
            note_window(ui, "message_menu");
            // From the keys: on its first item, the arrows move and Enter chooses.
            if (std::exchange(m.by_keys, false)) ImGui::SetKeyboardFocusHere();
            for (const app::MenuItem item : target->items) {
                const std::string key = "menu." + std::string(app::to_string(item));
                const bool chosen = ImGui::Selectable(tr(key));
                if (item == app::MenuItem::copy_text || item == app::MenuItem::copy_link) {
                    gesture_copy::arm_last_item(copied(app, *target, item));
                }
                note_widget(ui, ("menu_" + std::string(app::to_string(item))).c_str());
                if (chosen) out.push_back(app::intent::MessageMenu{"", "", item});
            }
        }
        ImGui::EndPopup();
    } else if (m.shown) {
        m.shown = false;
        // Escape or a click elsewhere closed it.
        if (target && target->seq == m.placed) out.push_back(app::intent::MessageMenu{});
    }
}

}  // namespace roomkey::web::parts
