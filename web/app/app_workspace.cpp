// app_workspace.cpp: issue 27's workspace intents as App members: the view
// shown, the room filter, the composer's fills (reply, quote, mention), an
// edit or delete of a message (through the console's one path for a call,
// so a delete asks first as every destructive call does), a task reopened,
// and the notification switch. The state itself lives in Workspace.
#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/mention_text.hpp"
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

// Rooms read for their mention's text after one room list read; a rise
// beyond these is told by its count (the budget is shared with the user).
constexpr std::size_t kMentionReadsPerList = 3;

// A room list was read: mentions that rose are read for their text. The
// read is GET /messages with force=1, the latest 100, as the open room's own
// reads are: without force the service answers only what is new since the
// account's last read of the room (docs/sandbox.md: a cursor per account,
// which force=1 reads move too), so it could answer nothing at all when the
// room was open a moment ago, and it would move the cursor of any other
// unread-only reader of the account. It goes through the one queue, pacer
// and session.
void App::on_room_list_read(Instant now) {
    if (rooms_.value) workspace_.on_rooms(*rooms_.value);
    std::size_t reads = 0;
    for (MentionRise& rise : workspace_.take_rises()) {
        auto pending = mention_reads_.find(rise.room_id);
        // (An entry whose call is gone, dropped at a sign-out, is stale.)
        if (pending != mention_reads_.end() && has_pending_view(ViewCall::mention_text, rise.room_id)) {
            pending->second.more += rise.more;  // one alert for both, when the read answers
        } else if (reads < kMentionReadsPerList) {
            ++reads;
            enqueue_view(ViewCall::mention_text, Method::Get, "/rooms/" + rise.room_id + "/messages", {{"force", "1"}},
                         rise.room_id, now);
            mention_reads_[rise.room_id] = std::move(rise);
        } else {
            workspace_.alert(rise, std::nullopt);
        }
    }
    schedule_rooms_poll(now);
}

void App::on_mention_text_answer(const ApiCall& call, const std::optional<HttpResponse>& response) {
    auto pending = mention_reads_.find(call.subject);
    if (pending == mention_reads_.end()) return;
    const MentionRise rise = std::move(pending->second);
    mention_reads_.erase(pending);
    std::optional<std::string> text;
    if (response && detail::is_success(response->status) && account_.value) {
        if (auto messages = read_messages(*response)) {
            const std::string me = account_.value->account_id;
            const std::string my_name = account_.value->name.value_or("");
            const std::vector<Contact>* contacts = contacts_.value ? &*contacts_.value : nullptr;
            const notation::NameLookup names = [&](std::string_view id) -> std::string {
                if (id == me) return my_name;
                if (contacts) {
                    for (const Contact& c : *contacts) {
                        if (c.account_id == id) return c.name;
                    }
                }
                return {};
            };
            text = mention_text(*messages, me, names);
        }
    }
    // Unread (a failure, or the mention already gone): the count says it.
    workspace_.alert(rise, std::move(text));
}

// The room list is read again (issue 27 item 5: mentions in rooms that are
// not open) while a room is open or notifications are on, at the interval
// of its part of the one poll share (shared/polling.hpp kRoomListPart): the
// open room's poll takes the rest, so both together stay within the share
// the room's poll alone kept before (one read per 40 s with a full budget).
void App::schedule_rooms_poll(Instant now) {
    rooms_poll_at_ = now + poll_interval(client_.scheduler().overall(now), now, kRoomListPart);
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
