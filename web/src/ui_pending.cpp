// ui_pending.cpp: the conversation's own posts until the service has them,
// where the conversation reads: each post not yet delivered at the bottom
// ("Sending...", or why it is not sent with Retry now, Edit and Discard),
// the posts a session left unsent offered to the account that wrote them
// (Send / Review / Discard), the "New messages" line and "Jump to latest".
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "a11y.hpp"
#include "input_queue.hpp"
#include "app/i18n.hpp"
#include "app/post_words.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

void waiting_posts_offer(const App& app, UiState& ui, Intents& out) {
    const std::size_t waiting = app.posting().waiting_for_me().size();
    if (waiting == 0) return;
    const std::string text = tr_n("conversation.waiting", static_cast<long long>(waiting));
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(kWarn, "%s", text.c_str());
    using W = app::intent::WaitingPosts;
    if (tap_button(beside(tr("conversation.send")))) out.push_back(W{W::send});
    note_widget(ui, "waiting_send");
    if (tap_button(beside(tr("conversation.review")))) out.push_back(W{W::review});
    note_widget(ui, "waiting_review");
    if (tap_button(beside(tr("conversation.discard")))) out.push_back(W{W::discard});
    note_widget(ui, "waiting_discard");
}

std::size_t pending_rows(const App& app, UiState& ui, Intents& out) {
    const app::RoomView& room = app.open_room().view();
    const auto& account = app.dashboard().account().value;
    const std::string who = account && account->name ? *account->name : std::string(tr("conversation.you"));
    std::size_t shown = 0;
    for (const app::PostJob& job : app.posting().posts()) {
        const std::string_view pending = app::pending_name(job.stage);
        if (job.kind != app::PostKind::message || job.room_id != room.room_id() || pending.empty()) continue;
        ++shown;
        ImGui::PushID(job.local_id.c_str());
        const std::string line = app::pending_words(job, app.workspace().user_time());
        a11y::begin_log_item(("local-" + job.local_id).c_str(), who + ": " + job.body + ". " + line);
        ImGui::BeginGroup();
        ImGui::TextColored(kAccent, "%s", who.c_str());
        ImGui::PushStyleColor(ImGuiCol_Text, pending == "sending" ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text));
        const std::string edit_key = "local:" + job.local_id;
        if (ui.editing == edit_key) {
            ImGui::PopStyleColor();
            // Entered at the next frame, the caret after the text, so the next keys go on with it.
            if (ui.edit_focus) {
                a11y::keep_editing(ImGui::GetID("##edit_post"));
                redraw_at(ui, Instant{});
            }
            ui.edit_caret_end = ui.edit_caret_end || ui.edit_focus;
            ui.edit_focus = false;
            ImGui::InputTextMultiline("##edit_post", ui.edit_body.data(), ui.edit_body.size(),
                                      ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.5f),
                                      ImGuiInputTextFlags_CallbackAlways, caret_to_end, &ui.edit_caret_end);
            if (tap_button(tr("conversation.send"))) {
                out.push_back(app::intent::EditPost{0, ui.edit_body.data(), job.local_id});
                ui.editing.clear();
            }
            ImGui::SameLine();
            if (tap_button(tr("common.cancel"))) ui.editing.clear();
        } else {
            ImGui::TextWrapped("%s", job.body.c_str());
            ImGui::PopStyleColor();
            text_wrapped(pending == "sending" ? kDim : pending == "waiting" ? kWarn : kBad, line);
            if (pending != "sending") {
                if (tap_button(beside(tr("conversation.retry_now")))) {
                    out.push_back(app::intent::RetryPost{0, job.local_id});
                }
                note_widget(ui, "retry_post");
                if (tap_button(beside(tr("conversation.edit")))) {
                    ui.editing = edit_key;
                    std::snprintf(ui.edit_body.data(), ui.edit_body.size(), "%s", job.body.c_str());
                    ui.edit_focus = true;
                    input_queue::keys_for_field(ImGui::GetID("##edit_post"));
                }
                if (tap_button(beside(tr("conversation.discard")))) {
                    out.push_back(app::intent::DiscardPost{0, job.local_id});
                }
                note_widget(ui, "discard_post");
            }
        }
        ImGui::EndGroup();
        // A post seen sending that first waits or fails: the view goes to the newest (where it
        // stands), so its row with Retry now / Edit / Discard is whole in sight. Once: a later
        // automatic retry does not pull a reader who scrolled away back down.
        const ImGuiID seen = ImGui::GetID("stage");
        const int stage = pending == "sending" ? 1 : 2;
        const int before = ImGui::GetStateStorage()->GetInt(seen, stage);
        if (stage > before) ui.conv.to_end = true;
        ImGui::GetStateStorage()->SetInt(seen, std::max(stage, before));
        a11y::end_log_item();
        ImGui::Spacing();
        ImGui::PopID();
    }
    return shown;
}

namespace {
std::string unread_key(const App& app) {
    return app.open_room().view().room_id() + "/" + app.open_room().first_unread_id();
}
}  // namespace

bool take_open_at_unread(const App& app, UiState& ui) {
    if (app.open_room().first_unread_id().empty() || ui.conv.opened_at == unread_key(app)) return false;
    ui.conv.opened_at = unread_key(app);  // the room opens here, once
    return true;
}

void new_messages_line() { ImGui::TextColored(kWarn, "%s", tr("conversation.new_messages")); }

void conversation_end(const App& app, UiState& ui, std::size_t pending, bool behind, Instant now, Intents& out) {
    const app::RoomView& room = app.open_room().view();
    // Where the scroll stands is known only once a frame drew the same
    // content without a scroll asked for: until then, one more frame.
    const float end = ImGui::GetCursorPosY();
    bool settled = end == ui.conv.end && !ui.conv.scrolled;
    ui.conv.end = end;
    ui.conv.scrolled = false;
    // After a send the conversation shows it, even when scrolled up (the conversation scrolls).
    if (pending > ui.conv.pending || ui.conv.to_end) settled = false;
    ui.conv.pending = pending;
    ui.conv.to_end = false;
    if (!settled) redraw_at(ui, now);
    const bool at_end = ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 1.0f;
    // Seen to its newest message: read, as the service's own client does.
    if (settled && at_end && !room.messages().empty() && app.open_room().wants_mark_read(room.room_id()))
        out.push_back(app::intent::SeenLatest{room.room_id()});
    // Behind: the reader's place is not the newest (not a frame where the
    // end grew before the view followed it), and the end is not in view.
    behind = behind && !at_end;
    if (ui.conv.behind == behind) return;
    ui.conv.behind = behind;  // the log's height follows at the next frame
    redraw_at(ui, now);
}

void jump_to_latest(UiState& ui, float strip, Instant now) {
    if (strip <= 0.0f) return;
    if (!ui.conv.behind) {
        ImGui::Dummy(ImVec2(1.0f, strip - ImGui::GetStyle().ItemSpacing.y));  // this frame's layout, then none
        return;
    }
    // Not at the newest: "Jump to latest" at the log's bottom right, under it.
    const char* label = tr("conversation.jump_latest");
    const float w = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
    if (ImGui::Button(label)) {
        ui.conv.to_end = true;
        redraw_at(ui, now);
    }
    note_widget(ui, "jump_latest");
}

}  // namespace roomkey::web::parts
