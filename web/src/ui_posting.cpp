// ui_posting.cpp: posting: message, task, the queue with its progress.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "a11y.hpp"
#include "app/format.hpp"
#include "app/scope_help.hpp"
#include "roomkey/registration.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

namespace {

// "copies: 3 [fewer] [more]" (held, the buttons repeat). Not ImGui's
// SliderInt: its Ctrl+click text entry links sscanf and float parsing into
// the download (11 KB of code, bench/web_size.mjs), and two named buttons
// read better to a screen reader than a slider's bare number.
void copies_stepper(int& copies) {
    ImGui::AlignTextToFramePadding();
    ImGui::Text("copies: %d", copies);
    ImGui::SameLine();
    ImGui::PushButtonRepeat(true);
    if (ImGui::SmallButton("fewer##copies") && copies > 1) --copies;
    ImGui::SameLine();
    if (ImGui::SmallButton("more##copies") && copies < app::kMaxBurst) ++copies;
    ImGui::PopButtonRepeat();
}

}  // namespace

std::string room_name(const App& app, const std::string& room_id) {
    if (const auto& rooms = app.dashboard().rooms().value) {
        for (const Room& room : *rooms) {
            if (room.room_id == room_id) return room.name + " #" + room.room_id;
        }
    }
    return "#" + room_id;
}

void posting_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader("Post to a room", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const std::string& room = app.dashboard().selected_room();
    if (app.holder() == CredentialHolder::none || room.empty()) {
        text_dim("Choose a room to post messages and tasks (spec 4.6, 4.7).");
    } else {
        label_value("Room:", room_name(app, room));
        // Enter starts a new line; Ctrl+Enter queues the message.
        const bool ctrl_enter = ImGui::InputTextMultiline("##message", ui.message.data(), ui.message.size(),
                                                          ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.5f),
                                                          ImGuiInputTextFlags_EnterReturnsTrue);
        note_widget(ui, "message");
        ux::main_action();  // signed in: the first Tab lands in the message
        copies_stepper(ui.repeat);
        help_marker("Queue several numbered copies to see the pacing: at most 10 posts per 10 s per room (spec 8.2).");
        ImGui::SameLine();
        ImGui::BeginDisabled(ui.message[0] == '\0');
        a11y::shortcut_next("Control+Enter");
        if (primary_button("Queue message") || (ctrl_enter && ui.message[0] != '\0')) {
            out.push_back(app::intent::QueueMessage{room, std::string(ui.message.data()), ui.repeat});
        }
        ImGui::EndDisabled();
        note_widget(ui, "queue_message");
        // The shortcut is on the button for assistive technology
        // (aria-keyshortcuts): the hint may go when it does not fit.
        if (!ui.touch && short_hint("Ctrl+Enter")) note_widget(ui, "queue_hint");

        if (ImGui::TreeNode("Add a task")) {
            ImGui::InputTextWithHint("##task_body", "what to do", ui.task_body.data(), ui.task_body.size());
            ImGui::InputTextWithHint("assignees", "account ids: 12, 34", ui.task_assignees.data(),
                                     ui.task_assignees.size());
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
            ImGui::Combo("due", &ui.task_limit_type, "none\0date\0");
            if (ui.task_limit_type == 1) {
                ImGui::SameLine();
                ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
                ImGui::InputTextWithHint("due by the end of this day (your local time)##due", "YYYY-MM-DD",
                                         ui.task_due.data(), ui.task_due.size());
            }
            if (ImGui::Button("Add task")) {
                ui.form_error.clear();
                const auto ids = app::parse_id_list(ui.task_assignees.data());
                std::optional<std::int64_t> limit;
                if (ui.task_limit_type == 1) limit = app::parse_due_date(ui.task_due.data(), ui.utc_offset);
                if (!ids || ids->empty()) {
                    ui.form_error = "Assignees: one or more account ids, separated by commas.";
                } else if (ui.task_limit_type == 1 && !limit) {
                    ui.form_error = "Due date: a real date as YYYY-MM-DD.";
                } else {
                    out.push_back(app::intent::QueueTask{room, std::string(ui.task_body.data()), *ids, limit,
                                                         limit ? TaskLimitType::date : TaskLimitType::none});
                }
                // The form's own error goes to state() and the mirror too ("" clears it).
                out.push_back(app::intent::FormError{ui.form_error});
            }
            if (!ui.form_error.empty()) ImGui::TextColored(kBad, "%s", ui.form_error.c_str());
            ImGui::TreePop();
        }
    }

    const app::PostBatch& batch = app.posting().batch();
    if (batch.total == 0 && app.posting().posts().empty()) return;
    ImGui::Spacing();
    const long done = batch.delivered + batch.failed;
    const float fraction = batch.total > 0 ? static_cast<float>(done) / static_cast<float>(batch.total) : 0.0f;
    std::string overlay = std::to_string(batch.delivered) + " of " + std::to_string(batch.total) + " delivered";
    if (batch.failed > 0) overlay += ", " + std::to_string(batch.failed) + " failed";
    if (batch.first_sent && batch.last_done && done == batch.total) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, " in %.1f s",
                      static_cast<double>((*batch.last_done - *batch.first_sent).count()) / 1000.0);
        overlay += seconds;
    }
    ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), overlay.c_str());
    if (const auto next = app.next_send_at(now); next && *next > now) {
        text_dim("next post in " + countdown_to(ui, *next, now) + " (paced, spec 8.2)");
    }
    if (ImGui::SmallButton("Cancel waiting")) out.push_back(app::intent::CancelQueued{});
    ImGui::SameLine();
    if (ImGui::SmallButton("Clear finished")) out.push_back(app::intent::ClearFinishedPosts{});
    ImGui::BeginChild("queue", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 7.5f), ImGuiChildFlags_Border);
    for (auto it = app.posting().posts().rbegin(); it != app.posting().posts().rend(); ++it) {
        const app::PostJob& job = *it;
        ImVec4 colour = kDim;
        if (job.stage == app::PostStage::delivered) colour = kGood;
        if (job.stage == app::PostStage::failed) colour = kBad;
        if (job.stage == app::PostStage::sending) colour = kAccent;
        if (job.stage == app::PostStage::waiting && job.rate_limited > 0) colour = kWarn;
        if (job.stage == app::PostStage::retrying || job.stage == app::PostStage::checking) colour = kWarn;
        if (job.stage == app::PostStage::unknown || job.stage == app::PostStage::refused) colour = kBad;
        ImGui::TextColored(colour, "%-9s", std::string(to_string(job.stage)).c_str());
        ImGui::SameLine();
        ImGui::Text("%s %s: %s", job.kind == app::PostKind::message ? "msg " : "task",
                    room_name(app, job.room_id).c_str(), job.body.c_str());
        if (!job.note.empty()) {
            ImGui::SameLine();
            text_dim(job.note);
        }
        // The user decides where the outcome is unknown or refused.
        ImGui::PushID(static_cast<int>(job.id));
        const bool decide = job.stage == app::PostStage::unknown || job.stage == app::PostStage::refused;
        if (decide || job.stage == app::PostStage::retrying) {
            ImGui::Indent();
            if (ImGui::SmallButton(decide ? "Retry" : "Send now")) out.push_back(app::intent::RetryPost{job.id});
            if (decide && job.kind == app::PostKind::message) {
                ImGui::SameLine();
                if (ImGui::SmallButton("Edit")) {
                    // Back into the message field to change it; the queued copy goes.
                    std::snprintf(ui.message.data(), ui.message.size(), "%s", job.body.c_str());
                    out.push_back(app::intent::DiscardPost{job.id});
                }
            }
            ImGui::SameLine();
            if (ImGui::SmallButton("Discard")) out.push_back(app::intent::DiscardPost{job.id});
            ImGui::Unindent();
        }
        ImGui::PopID();
    }
    ImGui::EndChild();
}

}  // namespace roomkey::web::parts
