// ui_posting.cpp: posting: message, task, the queue with its progress.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "a11y.hpp"
#include "app/format.hpp"
#include "app/i18n.hpp"
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
    ImGui::Text("%s", tr("posting.copies", {{"n", std::to_string(copies)}}).c_str());
    ImGui::SameLine();
    ImGui::PushButtonRepeat(true);
    if (tap_button((std::string(tr("posting.fewer")) + "##fewer").c_str()) && copies > 1) --copies;
    ImGui::SameLine();
    if (tap_button((std::string(tr("posting.more")) + "##more").c_str()) && copies < app::kMaxBurst) ++copies;
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
    if (!ImGui::CollapsingHeader((std::string(tr("posting.header")) + "###post").c_str(),
                                 ImGuiTreeNodeFlags_DefaultOpen))
        return;
    const std::string& room = app.dashboard().selected_room();
    if (app.holder() == CredentialHolder::none || room.empty()) {
        text_dim(tr("posting.choose_room"));
    } else {
        label_value(tr("posting.room"), room_name(app, room));
        // Enter starts a new line; Ctrl+Enter queues the message.
        const bool ctrl_enter = ImGui::InputTextMultiline("##message", ui.message.data(), ui.message.size(),
                                                          ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.5f),
                                                          ImGuiInputTextFlags_EnterReturnsTrue);
        note_widget(ui, "message");
        ux::main_action();  // signed in: the first Tab lands in the message
        copies_stepper(ui.repeat);
        help_marker(tr("posting.copies_help"));
        ImGui::BeginDisabled(ui.message[0] == '\0');
        a11y::shortcut_next("Control+Enter");  // i18n: not shown (aria-keyshortcuts names)
        if (primary_button(beside(tr("posting.queue_message"))) || (ctrl_enter && ui.message[0] != '\0')) {
            out.push_back(app::intent::QueueMessage{room, std::string(ui.message.data()), ui.repeat});
        }
        ImGui::EndDisabled();
        note_widget(ui, "queue_message");
        // The shortcut is on the button for assistive technology
        // (aria-keyshortcuts): the hint may go when it does not fit.
        if (!ui.touch && short_hint(tr("composer.hint_ctrl_enter"))) note_widget(ui, "queue_hint");

        if (ImGui::TreeNodeEx((std::string(tr("posting.add_a_task")) + "###add_task").c_str(), tap_tree())) {
            ImGui::InputTextWithHint("##task_body", tr("posting.task_hint"), ui.task_body.data(), ui.task_body.size());
            ImGui::InputTextWithHint((std::string(tr("posting.assignees")) + "###assignees").c_str(),
                                     tr("posting.assignees_hint"), ui.task_assignees.data(), ui.task_assignees.size());
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
            // The items are the service's limit_type values (wire words).
            ImGui::Combo((std::string(tr("posting.due")) + "###due").c_str(), &ui.task_limit_type,
                         "none\0date\0");  // i18n: not shown (wire values)
            if (ui.task_limit_type == 1) {
                ImGui::SameLine();
                ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
                ImGui::InputTextWithHint((std::string(tr("posting.due_date")) + "###due_date").c_str(), "YYYY-MM-DD",
                                         ui.task_due.data(), ui.task_due.size());
            }
            if (ImGui::Button(tr("details.add_task"))) {
                ui.form_error.clear();
                const auto ids = app::parse_id_list(ui.task_assignees.data());
                std::optional<std::int64_t> limit;
                if (ui.task_limit_type == 1) limit = app::parse_due_date(ui.task_due.data(), ui.utc_offset);
                if (!ids || ids->empty()) {
                    ui.form_error = tr("posting.assignees_error");
                } else if (ui.task_limit_type == 1 && !limit) {
                    ui.form_error = tr("posting.due_error");
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
    std::string overlay =
        tr("posting.delivered_of", {{"n", std::to_string(batch.delivered)}, {"total", std::to_string(batch.total)}});
    if (batch.failed > 0) overlay += tr("posting.failed_count", {{"n", std::to_string(batch.failed)}});
    if (batch.first_sent && batch.last_done && done == batch.total) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f",
                      static_cast<double>((*batch.last_done - *batch.first_sent).count()) / 1000.0);
        overlay += tr("posting.in_seconds", {{"s", seconds}});
    }
    ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), overlay.c_str());
    if (const auto next = app.next_send_at(now); next && *next > now) {
        text_dim(tr("posting.next_post", {{"in", countdown_to(ui, *next, now)}}));
    }
    if (tap_button(tr("posting.cancel_waiting"))) out.push_back(app::intent::CancelQueued{});
    ImGui::SameLine();
    if (tap_button(tr("posting.clear_finished"))) out.push_back(app::intent::ClearFinishedPosts{});
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
            if (tap_button(tr(decide ? "posting.retry" : "posting.send_now")))
                out.push_back(app::intent::RetryPost{job.id});
            if (decide && job.kind == app::PostKind::message) {
                ImGui::SameLine();
                if (tap_button(tr("conversation.edit"))) {
                    // Back into the message field to change it; the queued copy goes.
                    std::snprintf(ui.message.data(), ui.message.size(), "%s", job.body.c_str());
                    out.push_back(app::intent::DiscardPost{job.id});
                }
            }
            ImGui::SameLine();
            if (tap_button(tr("conversation.discard"))) out.push_back(app::intent::DiscardPost{job.id});
            ImGui::Unindent();
        }
        ImGui::PopID();
    }
    ImGui::EndChild();
}

}  // namespace roomkey::web::parts
