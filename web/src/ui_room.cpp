// ui_room.cpp: the open room: messages (oldest first, newest at
// the bottom, each with sender and time), Mark as read, and tabs for its
// tasks (with Done), members and files; plus my tasks, contacts and contact
// requests. Draws from the read-only App; every action is an intent.
#include <algorithm>
#include <cstdio>
#include <ctime>

#include "browser.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

// A file's upload time in the user's zone and locale, as the conversation writes times.
std::string format_time(std::int64_t unix_seconds) {
    return app::written_time(unix_seconds, app::TimeStyle::date_clock, browser_user_time());
}

void messages_child(const app::RoomView& room) {
    const float height = ImGui::GetTextLineHeightWithSpacing() * 12.0f;
    ImGui::BeginChild("room_messages", ImVec2(0, height), ImGuiChildFlags_Border);
    if (room.messages().empty()) text_dim(room.loading() ? "Loading messages..." : "No messages in this room.");
    for (const ChatMessage& m : room.messages()) {
        const std::string who = m.account.name.empty() ? "account " + m.account.account_id : m.account.name;
        ImGui::TextColored(kAccent, "%s", who.c_str());
        ImGui::SameLine();
        text_dim(format_time(m.send_time));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("message_id %s", m.message_id.c_str());
        ImGui::TextWrapped("%s", m.body.c_str());
        ImGui::Spacing();
    }
    follow_bottom();
    ImGui::EndChild();
}

}  // namespace

void tasks_tab(const app::RoomView& room, const app::Workspace& ws, Instant now, Intents& out) {
    if (room.tasks().empty()) text_dim("No tasks in this room.");
    for (const ChatTask& t : room.tasks()) {
        ImGui::PushID(t.task_id.c_str());
        // The button first, so a long task body never pushes it out of view.
        if (t.status != "done") {
            if (ImGui::SmallButton("Done")) out.push_back(app::intent::CompleteTask{room.room_id(), t.task_id});
        } else if (ImGui::SmallButton("Reopen")) {
            out.push_back(app::intent::ReopenTask{room.room_id(), t.task_id});
        }
        ImGui::SameLine();
        const std::string who = t.account ? (t.account->name.empty() ? t.account->account_id : t.account->name) : "";
        ImGui::TextWrapped("[%s] %s%s%s", t.status.c_str(), t.body.c_str(), who.empty() ? "" : "  -> ", who.c_str());
        // The deadline in local time, overdue marked.
        const app::DeadlineText due = app::deadline_text(t.limit_time.value_or(0), t.limit_type.value_or("none"),
                                                         t.status == "done", unix_ms(now) / 1000, ws.user_time());
        if (!due.text.empty()) {
            ImGui::Indent();
            ImGui::TextColored(due.overdue ? kBad : kDim, "due %s%s", due.text.c_str(), due.overdue ? " (overdue)" : "");
            ImGui::Unindent();
        }
        ImGui::PopID();
    }
}

void members_tab(const app::RoomView& room, Intents& out) {
    if (room.members().empty()) text_dim("No members read yet.");
    for (const RoomMember& m : room.members()) {
        ImGui::PushID(m.account_id.c_str());
        // "To" inserts [To:id]Name into the composer.
        if (ImGui::SmallButton("To")) out.push_back(app::intent::Mention{m.account_id});
        ImGui::SameLine();
        ImGui::Text("%s", m.name.c_str());
        ImGui::SameLine();
        text_dim("#" + m.account_id + "  " + m.role);
        ImGui::PopID();
    }
}

// Upload (the browser's file picker, or a file dropped on
// the page) with an optional message and its progress; a file's name opens
// it (a download link asked for at that moment: it lives 30 s).
void files_tab(const app::RoomView& room, UiState& ui, Intents& out) {
    // The field leaves room for the button beside it; in a narrow pane the button goes under it, whole.
    const float button = ImGui::CalcTextSize("Upload a file...").x + ImGui::GetStyle().FramePadding.x * 2.0f;
    const float room_left = ImGui::GetContentRegionAvail().x - button - ImGui::GetStyle().ItemSpacing.x;
    ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 16.0f, std::max(room_left, ImGui::GetFontSize() * 8.0f)));
    ImGui::InputTextWithHint("##upload_message", "message with the file (optional)", ui.upload_message.data(),
                             ui.upload_message.size());
    if (ImGui::Button(beside("Upload a file..."))) {
        out.push_back(app::intent::PickFile{room.room_id(), ui.upload_message.data()});
        ui.upload_message[0] = '\0';
    }
    note_widget(ui, "upload_file");
    text_dim("or drop a file on the page; up to 5 MB");
    const app::FileUploadState& up = room.upload();
    if (up.status == "sending") {
        const float done = up.total > 0 ? static_cast<float>(up.sent) / static_cast<float>(up.total) : 0.0f;
        const std::string label = std::to_string(up.sent) + " / " + std::to_string(up.total) + " bytes";
        ImGui::ProgressBar(done, ImVec2(ImGui::GetFontSize() * 16.0f, 0), label.c_str());
        ImGui::SameLine();
        text_dim("sending " + up.name);
    } else if (up.status == "done") {
        ImGui::TextColored(kGood, "Uploaded %s (file %s).", up.name.c_str(), up.file_id.c_str());
    } else if (up.status == "failed") {
        ImGui::TextColored(kBad, "%s", up.error.c_str());
    }
    if (!room.download().error.empty()) ImGui::TextColored(kBad, "%s", room.download().error.c_str());
    ImGui::Separator();
    if (room.files().empty()) text_dim("No files in this room.");
    for (const ChatFile& f : room.files()) {
        ImGui::PushID(f.file_id.c_str());
        if (ImGui::SmallButton(f.filename.c_str())) out.push_back(app::intent::OpenFile{room.room_id(), f.file_id});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Open (download) file %s", f.file_id.c_str());
        ImGui::SameLine();
        text_dim(std::to_string(f.filesize) + " bytes" + (f.upload_time ? "  " + format_time(*f.upload_time) : ""));
        ImGui::PopID();
    }
}

void room_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (app.holder() == CredentialHolder::none) return;
    const app::RoomView& room = app.open_room().view();
    const std::string& selected = app.dashboard().selected_room();
    if (!room.is_open() || room.room_id() != selected) {
        if (selected.empty()) return;
        if (!ImGui::CollapsingHeader("Room", ImGuiTreeNodeFlags_DefaultOpen)) return;
        const std::string label = "Open " + room_name(app, selected) + "##open_room";
        if (ImGui::Button(label.c_str())) out.push_back(app::intent::OpenRoom{selected});
        note_widget(ui, "open_room");
        return;
    }
    const std::string title = "Room: " + (room.name().empty() ? "#" + room.room_id() : room.name()) + "###room";
    if (!ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (ImGui::Button("Reload##room")) out.push_back(app::intent::LoadMessages{room.room_id()});
    ImGui::SameLine();
    if (ImGui::Button("Mark as read")) out.push_back(app::intent::MarkRead{room.room_id()});
    note_widget(ui, "mark_read");
    ImGui::SameLine();
    if (room.loading()) {
        loading_text(ui, "Loading", now);
    } else if (auto at = app.open_room().poll_at()) {
        text_dim("next check in " + countdown_to(ui, *at, now));
    } else if (!app.page_visible()) {
        text_dim("paused while the tab is hidden");
    }
    if (!room.error().empty()) ImGui::TextColored(kBad, "%s", room.error().c_str());
    messages_child(room);
    room_tabs(app, room, ui, now, out, "room_tabs", 0);
}

void room_tabs(const App& app, const app::RoomView& room, UiState& ui, Instant now, Intents& out, const char* id,
               int tab_bar_flags, void (*task_form)(const app::RoomView&, UiState&, Intents&)) {
    if (!ImGui::BeginTabBar(id, tab_bar_flags)) return;
    const std::string tasks = "Tasks (" + std::to_string(room.tasks().size()) + ")###tasks";
    if (ImGui::BeginTabItem(tasks.c_str())) {
        if (task_form) task_form(room, ui, out);
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

void contacts_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (app.holder() == CredentialHolder::none) return;
    if (!ImGui::CollapsingHeader("My tasks and contacts")) return;
    if (ImGui::Button("Load my tasks")) out.push_back(app::intent::LoadMyTasks{});
    ImGui::SameLine();
    if (ImGui::Button("Load contacts")) out.push_back(app::intent::LoadContacts{});
    ImGui::SameLine();
    if (app.my_tasks().tasks().loading || app.contacts().contacts().loading || app.contacts().incoming().loading) {
        loading_text(ui, "Loading", now);
    }
    for (const std::string* error :
         {&app.my_tasks().tasks().error, &app.contacts().contacts().error, &app.contacts().incoming().error}) {
        if (!error->empty()) ImGui::TextColored(kBad, "%s", error->c_str());
    }
    if (const auto& tasks = app.my_tasks().tasks().value) {
        ImGui::Separator();
        ImGui::TextColored(kAccent, "My tasks");
        if (tasks->empty()) text_dim("No tasks assigned to you.");
        for (const ChatTask& t : *tasks) {
            ImGui::PushID(("my" + t.task_id).c_str());
            ImGui::TextWrapped("[%s] %s  (%s)", t.status.c_str(), t.body.c_str(), t.room ? t.room->name.c_str() : "");
            if (t.status != "done" && t.room) {
                ImGui::SameLine();
                if (ImGui::SmallButton("Done")) out.push_back(app::intent::CompleteTask{t.room->room_id, t.task_id});
            }
            ImGui::PopID();
        }
    }
    if (const auto& requests = app.contacts().incoming().value) {
        ImGui::Separator();
        ImGui::TextColored(kAccent, "Contact requests");
        if (requests->empty()) text_dim("No contact requests.");
        for (const ContactRequest& r : *requests) {
            ImGui::PushID(("req" + r.request_id).c_str());
            ImGui::Text("%s", r.name.c_str());
            ImGui::SameLine();
            if (ImGui::SmallButton("Accept")) out.push_back(app::intent::AcceptRequest{r.request_id});
            ImGui::SameLine();
            if (ImGui::SmallButton("Decline")) out.push_back(app::intent::DeclineRequest{r.request_id});
            if (r.message && !r.message->empty()) text_dim(*r.message);
            ImGui::PopID();
        }
    }
    if (const auto& contacts = app.contacts().contacts().value) {
        ImGui::Separator();
        ImGui::TextColored(kAccent, "Contacts");
        if (contacts->empty()) text_dim("No contacts yet.");
        for (const Contact& c : *contacts) {
            ImGui::Text("%s", c.name.c_str());
            ImGui::SameLine();
            text_dim("#" + c.account_id);
        }
    }
}

}  // namespace roomkey::web::parts
