// ui_conversation.cpp: the open room's conversation: newest at the
// bottom, a separator above each local day, each message's notation drawn
// from its parts (app/message_view.hpp: mentions of you highlighted, a reply
// naming whom it answers, quotes, info boxes, the service's events and code
// as boxes, tasks with assignee and deadline, unknown tags as text), Reply
// and Quote on every message, Edit and Delete on your own; the composer
// directly beneath (ui_composer.cpp).
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "a11y.hpp"
#include "app/message_view.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

using notation::Part;
using notation::PartKind;

struct Drawing {
    const notation::Parts& parts;
    const notation::NameLookup& names;
    const app::UserTime& offset;
    std::int64_t now = 0;
    std::string* jump = nullptr;       // a reply's label was clicked: the message it answers
    std::string* open_file = nullptr;  // a file card was clicked: its file_id
};

std::string name_of(const Drawing& d, std::string_view id) {
    std::string name = d.names(id);
    return name.empty() ? "account " + std::string(id) : name;
}

bool is_block(PartKind kind) {
    return kind == PartKind::quote || kind == PartKind::info || kind == PartKind::service_event ||
           kind == PartKind::code || kind == PartKind::rule || kind == PartKind::task;
}

void draw_parts(const Drawing& d, const std::vector<Part>& parts);

// A box around what `draw` puts inside, in `colour`.
template <class Draw>
void boxed(ImVec4 colour, Draw draw) {
    ImGui::BeginGroup();
    ImGui::Indent(ImGui::GetFontSize() * 0.6f);
    draw();
    ImGui::Unindent(ImGui::GetFontSize() * 0.6f);
    ImGui::EndGroup();
    const ImVec2 min = ImGui::GetItemRectMin();
    ImVec2 max = ImGui::GetItemRectMax();
    max.x = std::max(max.x, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x);
    ImGui::GetWindowDrawList()->AddRect(ImVec2(min.x, min.y - 2), ImVec2(max.x - 2, max.y + 2),
                                        ImGui::GetColorU32(colour), 3.0f);
    ImGui::Spacing();
}

void draw_block(const Drawing& d, const Part& part) {
    switch (part.kind) {
        case PartKind::quote:
            boxed(kDim, [&] {
                std::string head = "Quote";
                if (!part.account_id.empty()) head += ": " + name_of(d, d.parts.of(part.account_id));
                if (part.time) head += "  " + app::message_time_text(*part.time, d.now, d.offset);
                text_dim(head);
                draw_parts(d, part.children);
            });
            break;
        case PartKind::info:
            boxed(kAccent, [&] {
                if (!part.name.empty()) ImGui::TextColored(kAccent, "%s", std::string(d.parts.of(part.name)).c_str());
                draw_parts(d, part.children);
            });
            break;
        case PartKind::service_event:
            boxed(kGood, [&] {
                ImGui::TextColored(kGood, "%s", notation::dtext_words(d.parts.of(part.key)).c_str());
                draw_parts(d, part.children);
            });
            break;
        case PartKind::code:
            boxed(kDim, [&] {
                const std::string_view code = d.parts.of(part.inner);
                ImGui::TextUnformatted(code.data(), code.data() + code.size());
            });
            break;
        case PartKind::rule:
            ImGui::Separator();
            break;
        case PartKind::task:
            boxed(kWarn, [&] {
                std::string head = "Task";
                if (!part.account_id.empty()) head += " for " + name_of(d, d.parts.of(part.account_id));
                if (part.task_state == notation::TaskState::done) head += " (done)";
                ImGui::TextColored(kWarn, "%s", head.c_str());
                draw_parts(d, part.children);
                if (part.time) {
                    const char* type = part.limit_type == notation::LimitType::time ? "time" : "date";
                    const app::DeadlineText due = app::deadline_text(
                        *part.time, type, part.task_state == notation::TaskState::done, d.now, d.offset);
                    if (!due.text.empty()) {
                        ImGui::TextColored(due.overdue ? kBad : kDim, "due %s%s", due.text.c_str(),
                                           due.overdue ? " (overdue)" : "");
                    }
                }
            });
            break;
        default:
            break;
    }
}

// Inline parts gather into one wrapped paragraph; mentions and replies are
// labels of their own, blocks stand on lines of their own.
void draw_parts(const Drawing& d, const std::vector<Part>& parts) {
    std::string line;
    auto flush = [&] {
        while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
        std::size_t start = 0;
        while (start < line.size() && (line[start] == '\n' || line[start] == ' ')) ++start;
        if (start < line.size()) ImGui::TextWrapped("%s", line.c_str() + start);
        line.clear();
    };
    for (const Part& part : parts) {
        if (is_block(part.kind)) {
            flush();
            draw_block(d, part);
        } else if (part.kind == PartKind::download && d.open_file) {
            // A file card: a click downloads the file (open_file: a fresh download_url).
            flush();
            const std::string id(d.parts.of(part.file_id));
            const std::string label =
                "File: " + notation::plain_text(d.parts.body, std::vector<Part>{part}, d.names) + "##file" + id;
            if (ImGui::Button(label.c_str())) *d.open_file = id;
        } else if (part.kind == PartKind::mention || part.kind == PartKind::reply || part.kind == PartKind::to_all) {
            flush();
            std::string label = part.kind == PartKind::to_all  ? "To all"
                                : part.kind == PartKind::reply ? "Re " + name_of(d, d.parts.of(part.account_id))
                                                               : "To " + name_of(d, d.parts.of(part.account_id));
            if (part.kind == PartKind::reply && d.jump) {
                // A reply names whom it answers; a click shows that message when it is loaded.
                ImGui::PushStyleColor(ImGuiCol_Text, kAccent);
                ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0, 0, 0, 0));
                if (ImGui::SmallButton(label.c_str())) *d.jump = std::string(d.parts.of(part.message_id));
                ImGui::PopStyleColor(2);
            } else {
                ImGui::TextColored(kAccent, "%s", label.c_str());
            }
            const std::string name = d.names(d.parts.of(part.account_id));
            line += std::string(notation::written_after_name(d.parts.of(part.name), name));
        } else {
            line += notation::plain_text(d.parts.body, std::vector<Part>{part}, d.names);
        }
    }
    flush();
}

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
            ui.edit_focus = true;  // the caret goes into the edit field (next frame)
        }
        if (ImGui::SmallButton(beside("Delete")))
            out.push_back(app::intent::DeleteMessage{room.room_id(), m.message_id});
    }
    if (ui.editing == m.message_id) {
        if (ui.edit_focus) ImGui::SetKeyboardFocusHere();
        ui.edit_focus = false;
        ImGui::InputTextMultiline("##edit", ui.edit_body.data(), ui.edit_body.size(),
                                  ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.5f));
        if (ImGui::SmallButton("Save")) {
            out.push_back(app::intent::EditMessage{room.room_id(), m.message_id, ui.edit_body.data()});
            ui.editing.clear();
        }
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) ui.editing.clear();
    } else {
        std::string open_file;
        const Drawing d{drawn.parts, names, app.workspace().user_time(), now, &ui.jump_to, &open_file};
        draw_parts(d, drawn.parts.parts);
        if (!open_file.empty()) out.push_back(app::intent::OpenFile{room.room_id(), open_file});
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
    const bool jumped = !ui.jump_to.empty();
    std::int64_t last = 0;
    bool first = true;
    for (const ChatMessage& m : room.messages()) {
        if (first || !app::same_local_day(last, m.send_time, offset)) {
            ImGui::Spacing();
            text_dim("--- " + app::date_separator_text(m.send_time, now_unix, offset) + " ---");
        }
        first = false;
        last = m.send_time;
        const app::DrawnMessage drawn = app::drawn_message(m, me, names, now_unix, offset);
        message_row(app, ui, m, drawn, names, now_unix, out);
    }
    if (!jumped) follow_bottom();
    ImGui::EndChild();
    a11y::end_log();
    note_widget(ui, "conversation");
    composer(app, ui, out);
}

}  // namespace roomkey::web::parts
