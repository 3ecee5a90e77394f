// ui_room.cpp: the developer view's open room: Reload, Mark as read and
// tabs for its tasks (with Done), members and files (its messages are the
// workspace's conversation); plus my tasks, contacts and contact requests.
// Draws from the read-only App; every action is an intent.
#include <algorithm>
#include <cstdio>
#include <ctime>

#include "a11y.hpp"
#include "app/i18n.hpp"
#include "browser.hpp"
#include "roomkey/file_upload.hpp"
#include "ui_image_preview.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

// A file's upload time in the user's zone and locale, as the conversation writes times.
std::string format_time(std::int64_t unix_seconds) {
    return app::written_time(unix_seconds, app::TimeStyle::date_clock, browser_user_time());
}

}  // namespace

void tasks_tab(const app::RoomView& room, const app::Workspace& ws, Instant now, Intents& out) {
    if (room.tasks().empty()) text_dim(tr("room.no_tasks"));
    for (const ChatTask& t : room.tasks()) {
        ImGui::PushID(t.task_id.c_str());
        // The button first, so a long task body never pushes it out of view.
        if (t.status != "done") {
            if (tap_button(tr("room.task_done"))) out.push_back(app::intent::CompleteTask{room.room_id(), t.task_id});
        } else if (tap_button(tr("room.task_reopen"))) {
            out.push_back(app::intent::ReopenTask{room.room_id(), t.task_id});
        }
        ImGui::SameLine();
        // Its words, in words: the body (dim once done: its button says which it is), then for whom and by when.
        ImGui::BeginGroup();
        text_wrapped(t.status == "done" ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text), t.body);
        if (t.account) {
            text_dim(tr("room.task_for", {{"name", t.account->name.empty() ? t.account->account_id : t.account->name}}));
        }
        // The deadline in local time, overdue marked.
        const app::DeadlineText due = app::deadline_text(t.limit_time.value_or(0), t.limit_type.value_or("none"),
                                                         t.status == "done", unix_ms(now) / 1000, ws.user_time());
        if (!due.text.empty()) {
            text_wrapped(due.overdue ? kBad : kDim,
                         tr(due.overdue ? "room.task_due_overdue" : "room.task_due", {{"when", due.text}}));
        }
        ImGui::EndGroup();
        ImGui::PopID();
    }
}

void members_tab(const app::RoomView& room, UiState& ui, Intents& out) {
    if (room.members().empty()) text_dim(tr("room.no_members"));
    for (const RoomMember& m : room.members()) {
        const bool first = &m == &room.members().front();  // its controls noted, for the page API
        ImGui::PushID(m.account_id.c_str());
        // "To" inserts [To:id]Name into the composer. Its accessible name says whom, and their role in the
        // catalog's words (drawn beside it on the canvas only): the page's text holds them too.
        const std::string role = app::role_words(m.role);
        a11y::name_next(tr("room.to_member", {{"name", m.name}, {"role", role}}));
        if (tap_button(tr("room.to"))) out.push_back(app::intent::Mention{m.account_id});
        if (first) note_widget(ui, "member_to");
        ImGui::SameLine();
        ImGui::Text("%s", m.name.c_str());
        if (first) note_widget(ui, "member_name");
        ImGui::SameLine();
        text_dim(role);  // the page API keeps the service's word; the id is the developer view's log
        if (first) note_widget(ui, "member_role");
        ImGui::PopID();
    }
}

// Upload (the browser's file picker, or a file dropped on
// the page) with an optional message and its progress; a file's name opens
// it (a download link asked for at that moment: it lives 30 s).
void files_tab(const app::RoomView& room, const app::FilePreviews& previews, UiState& ui, Intents& out) {
    // The field leaves room for the button beside it; in a narrow pane the button goes under it, whole.
    const float button = ImGui::CalcTextSize(tr("room.upload")).x + ImGui::GetStyle().FramePadding.x * 2.0f;
    // Narrower than its hint, the field takes the whole line (a phone).
    const float room_left = ImGui::GetContentRegionAvail().x - button - ImGui::GetStyle().ItemSpacing.x;
    const float hint = ImGui::CalcTextSize(tr("room.upload_message_hint")).x + ImGui::GetStyle().FramePadding.x * 2.0f;
    ImGui::SetNextItemWidth(room_left < hint ? -FLT_MIN : std::min(ImGui::GetFontSize() * 16.0f, room_left));
    a11y::name_next(tr("room.upload_message_hint"));  // its hint, not its id, names it
    ImGui::InputTextWithHint("##upload_message", tr("room.upload_message_hint"), ui.upload_message.data(),
                             ui.upload_message.size());
    note_widget(ui, "upload_message");
    if (ImGui::Button(beside(tr("room.upload")))) {
        out.push_back(app::intent::PickFile{room.room_id(), ui.upload_message.data()});
        ui.upload_message[0] = '\0';
    }
    note_widget(ui, "upload_file");
    text_dim(tr("room.upload_drop"));
    const app::FileUploadState& up = room.upload();
    if (up.status == "sending") {
        const float done = up.total > 0 ? static_cast<float>(up.sent) / static_cast<float>(up.total) : 0.0f;
        const std::string label =
            tr("room.upload_progress", {{"sent", format_file_size(up.sent, true)}, {"total", format_file_size(up.total, true)}});
        ImGui::ProgressBar(done, ImVec2(ImGui::GetFontSize() * 16.0f, 0), label.c_str());
        ImGui::SameLine();
        text_dim(tr("room.upload_sending", {{"name", up.name}}));
    } else if (up.status == "done") {
        ImGui::TextColored(kGood, "%s", tr("room.uploaded", {{"name", up.name}}).c_str());
    } else if (up.status == "failed") {
        ImGui::TextColored(kBad, "%s", up.error.c_str());
    }
    if (!room.download().error.empty()) ImGui::TextColored(kBad, "%s", room.download().error.c_str());
    ImGui::Separator();
    if (room.files().empty()) text_dim(tr("room.no_files"));
    for (const ChatFile& f : room.files()) {
        ImGui::PushID(f.file_id.c_str());
        if (tap_button(f.filename.c_str())) out.push_back(app::intent::OpenFile{room.room_id(), f.file_id});
        ImGui::SameLine();
        // The size as people read it.
        text_dim(format_file_size(f.filesize, true) + (f.upload_time ? "  " + format_time(*f.upload_time) : ""));
        // An image as in a message (the same budget), a thumbnail's size.
        if (app::is_previewable(f.filename, f.filesize)) file_preview(previews, f.file_id, 6.0f);
        ImGui::PopID();
    }
}

void room_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (app.holder() == CredentialHolder::none) return;
    const app::RoomView& room = app.open_room().view();
    const std::string& selected = app.dashboard().selected_room();
    if (!room.is_open() || room.room_id() != selected) {
        if (selected.empty()) return;
        if (!ImGui::CollapsingHeader((std::string(tr("room.header")) + "###room").c_str(),
                                     ImGuiTreeNodeFlags_DefaultOpen))
            return;
        const std::string label = tr("room.open", {{"room", room_name(app, selected)}}) + "##open_room";
        if (ImGui::Button(label.c_str())) out.push_back(app::intent::OpenRoom{selected});
        note_widget(ui, "open_room");
        return;
    }
    const std::string title =
        tr("room.title", {{"room", room.name().empty() ? "#" + room.room_id() : room.name()}}) + "###room";
    if (!ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (ImGui::Button((std::string(tr("common.reload")) + "##room").c_str()))
        out.push_back(app::intent::LoadMessages{room.room_id()});
    ImGui::SameLine();
    if (ImGui::Button(tr("room.mark_read"))) out.push_back(app::intent::MarkRead{room.room_id()});
    note_widget(ui, "mark_read");
    ImGui::SameLine();
    if (room.loading()) loading_text(ui, tr("common.loading"), now);
    if (!room.error().empty()) ImGui::TextColored(kBad, "%s", room.error().c_str());
    room_tabs(app, room, ui, now, out, "room_tabs");
}

void room_tabs(const App& app, const app::RoomView& room, UiState& ui, Instant now, Intents& out, const char* id,
               void (*task_form)(const app::RoomView&, UiState&, Intents&)) {
    // The details' tab (not the developer view's) is a place: the app knows the one shown.
    const bool place = task_form != nullptr;
    // The developer view's tab is kept in its window's storage.
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID key = ImGui::GetID(id);
    app::DetailsTab shown = place ? ui.select_tab : static_cast<app::DetailsTab>(storage->GetInt(key));
    if (shown == app::DetailsTab::none) shown = app::DetailsTab::tasks;
    // Every tab whole and in sight at any width (from 360 px): a row of
    // buttons that wraps to a second line rather than cutting a name, the one shown marked.
    const auto tab = [&](const char* key, std::size_t n, app::DetailsTab which, const char* widget) {
        const std::string label = tr(key, {{"n", std::to_string(n)}});
        const bool on = shown == which;
        ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(on ? ImGuiCol_ButtonActive : ImGuiCol_FrameBg));
        // Under the mouse the one shown keeps its colour (the theme's hover grey made it look unselected).
        if (on) ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (tap_button(which == app::DetailsTab::tasks ? label.c_str() : beside(label.c_str()))) shown = which;
        ImGui::PopStyleColor(on ? 2 : 1);
        note_widget(ui, widget);
    };
    tab("room.tab_tasks", room.tasks().size(), app::DetailsTab::tasks, "tasks_tab");
    tab("room.tab_members", room.members().size(), app::DetailsTab::members, "members_tab");
    tab("room.tab_files", room.files().size(), app::DetailsTab::files, "files_tab");
    ImGui::Separator();
    if (shown == app::DetailsTab::tasks) {
        if (task_form) task_form(room, ui, out);
        tasks_tab(room, app.workspace(), now, out);
    } else if (shown == app::DetailsTab::members) {
        members_tab(room, ui, out);
    } else {
        files_tab(room, app.previews(), ui, out);
    }
    storage->SetInt(key, static_cast<int>(shown));
    if (!place) return;
    ui.select_tab = shown;
    if (shown != app.workspace().details() && ui.details_seq == app.workspace().details_seq()) {
        out.push_back(app::intent::ShowDetails{shown});
    }
}

void contacts_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (app.holder() == CredentialHolder::none) return;
    if (!ImGui::CollapsingHeader((std::string(tr("room.mine_header")) + "###mine").c_str())) return;
    if (ImGui::Button(tr("room.load_my_tasks"))) out.push_back(app::intent::LoadMyTasks{});
    ImGui::SameLine();
    if (ImGui::Button(tr("room.load_contacts"))) out.push_back(app::intent::LoadContacts{});
    ImGui::SameLine();
    if (app.my_tasks().tasks().loading || app.contacts().contacts().loading || app.contacts().incoming().loading) {
        loading_text(ui, tr("common.loading"), now);
    }
    for (const std::string* error :
         {&app.my_tasks().tasks().error, &app.contacts().contacts().error, &app.contacts().incoming().error}) {
        if (!error->empty()) ImGui::TextColored(kBad, "%s", error->c_str());
    }
    if (const auto& tasks = app.my_tasks().tasks().value) {
        ImGui::Separator();
        ImGui::TextColored(kAccent, "%s", tr("room.my_tasks"));
        if (tasks->empty()) text_dim(tr("room.no_my_tasks"));
        for (const ChatTask& t : *tasks) {
            ImGui::PushID(("my" + t.task_id).c_str());
            // Done first, as in the room's task list: after wrapped text it fell off a phone's edge.
            if (t.status != "done" && t.room) {
                if (tap_button(tr("room.task_done")))
                    out.push_back(app::intent::CompleteTask{t.room->room_id, t.task_id});
                ImGui::SameLine();
            }
            ImGui::TextWrapped("[%s] %s  (%s)", t.status.c_str(), t.body.c_str(), t.room ? t.room->name.c_str() : "");
            ImGui::PopID();
        }
    }
    if (const auto& requests = app.contacts().incoming().value) {
        ImGui::Separator();
        ImGui::TextColored(kAccent, "%s", tr("room.contact_requests"));
        if (requests->empty()) text_dim(tr("room.no_contact_requests"));
        for (const ContactRequest& r : *requests) {
            ImGui::PushID(("req" + r.request_id).c_str());
            ImGui::Text("%s", r.name.c_str());
            ImGui::SameLine();
            if (tap_button(tr("room.accept"))) out.push_back(app::intent::AcceptRequest{r.request_id});
            ImGui::SameLine();
            if (tap_button(tr("room.decline"))) out.push_back(app::intent::DeclineRequest{r.request_id});
            if (r.message && !r.message->empty()) text_dim(*r.message);
            ImGui::PopID();
        }
    }
    if (const auto& contacts = app.contacts().contacts().value) {
        ImGui::Separator();
        ImGui::TextColored(kAccent, "%s", tr("room.contacts"));
        if (contacts->empty()) text_dim(tr("room.no_contacts"));
        for (const Contact& c : *contacts) {
            ImGui::Text("%s", c.name.c_str());
            ImGui::SameLine();
            text_dim("#" + c.account_id);
        }
    }
}

}  // namespace roomkey::web::parts
