// app_workspace.cpp: issue 27's workspace intents as App members: the view
// shown, the room filter, the composer's fills (reply, quote, mention), an
// edit or delete of a message (through the console's one path for a call,
// so a delete asks first as every destructive call does), a task reopened,
// and the notification switch. The state itself lives in Workspace.
#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "roomkey/polling.hpp"

namespace roomkey::app {

void App::apply_view(const intent::ShowView& i, Instant) {
    workspace_.show(i.developer ? View::developer : View::workspace);
}

void App::apply_view(const intent::SetRoomFilter& i, Instant) {
    workspace_.set_room_filter(i.text);
}

void App::apply_view(const intent::Reply& i, Instant) {
    if (room_.room_id() == i.room_id) workspace_.reply(room_, i.message_id);
}

void App::apply_view(const intent::Quote& i, Instant) {
    if (room_.room_id() == i.room_id) workspace_.quote(room_, i.message_id);
}

void App::apply_view(const intent::Mention& i, Instant) {
    workspace_.mention(room_, i.account_id);
}

void App::apply_view(const intent::EditMessage& i, Instant now) {
    message_change_ = MessageChange{i.room_id, i.message_id, i.body};
    apply_view(
        intent::ConsoleCall{Method::Put, "/rooms/" + i.room_id + "/messages/" + i.message_id, {{"body", i.body}}, true},
        now);
}

void App::apply_view(const intent::DeleteMessage& i, Instant now) {
    message_change_ = MessageChange{i.room_id, i.message_id, std::nullopt};
    apply_view(intent::ConsoleCall{Method::Delete, "/rooms/" + i.room_id + "/messages/" + i.message_id, {}, false},
               now);
}

void App::on_message_changed(const HttpResponse& response) {
    if (!message_change_) return;
    const MessageChange change = *message_change_;
    message_change_.reset();
    if (response.status < 200 || response.status >= 300 || room_.room_id() != change.room_id) return;
    if (change.body) {
        // The service's own update_time comes with the next read; a mark now.
        room_.edit_message(change.message_id, *change.body, 1);
    } else {
        room_.remove_message(change.message_id);
    }
}

void App::apply_view(const intent::ReopenTask& i, Instant now) {
    if (has_pending_view(ViewCall::complete_task, i.task_id)) return;
    enqueue_view(ViewCall::complete_task, Method::Put, "/rooms/" + i.room_id + "/tasks/" + i.task_id + "/status",
                 {{"body", "open"}}, i.task_id, now);
}

void App::apply_view(const intent::SetNotifications& i, Instant) {
    workspace_.set_notifications(i.on);
}

void App::apply_view(const intent::NotificationPermission& i, Instant) {
    workspace_.set_permission(i.permission);
    if (i.permission != "granted") workspace_.set_notifications(false);
}

// The room list is read again (issue 27 item 5: mentions in rooms that are
// not open) at kRoomListPollFactor times the interval the room poll takes
// from the remaining budget (shared/polling.hpp): it follows the same rule
// and shrinks with the budget, adding a third of the room poll's rate (at
// most one read per 30 s with a full budget), while a room is open or
// notifications are on.
void App::schedule_rooms_poll(Instant now) {
    rooms_poll_at_ = now + room_poll_interval(scheduler_.overall(now), now) * kRoomListPollFactor;
}

std::optional<Instant> App::rooms_poll_at() const {
    if (!page_visible_ || !can_send() || !rooms_.value) return std::nullopt;
    // Only while someone is reading: a room is open (its poll runs anyway)
    // or desktop notifications are on. An idle app waits for nothing.
    if (!room_.is_open() && !workspace_.notifications_enabled()) return std::nullopt;
    return rooms_poll_at_;
}

void App::run_rooms_poll(Instant now) {
    const auto at = rooms_poll_at();
    if (!at || now < *at) return;
    rooms_poll_at_.reset();  // set again when this read answers
    if (!has_pending(CallKind::rooms)) enqueue(CallKind::rooms, std::nullopt, now);
}

}  // namespace roomkey::app
