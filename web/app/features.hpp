// features.hpp: the app's features side by side, each owning its state, its
// requests and their answers, wired to the one host that routes for them.
#pragma once

#include <string>
#include <utility>

#include "app/api_console.hpp"
#include "app/contacts.hpp"
#include "app/dashboard.hpp"
#include "app/feature.hpp"
#include "app/intents.hpp"
#include "app/file_preview.hpp"
#include "app/mentions.hpp"
#include "app/message_menu.hpp"
#include "app/my_tasks.hpp"
#include "app/open_room.hpp"
#include "app/posting.hpp"
#include "app/workspace.hpp"
#include "roomkey/random.hpp"

namespace roomkey::app {

struct Features {
    Features(FeatureHost& host, const RandomSource& random)
        : dashboard(host),
          my_tasks(host),
          contacts(host),
          open_room(host, random, dashboard, my_tasks, page_visible),
          console(host, open_room.view()),
          posting(host, dashboard.account()),
          mentions(host, workspace, dashboard, contacts, open_room, page_visible),
          previews(host, page_visible) {
        // A delivered message is in its conversation at once, not after the next poll.
        posting.on_delivered([this](const PostJob& job) { open_room.show_posted(job, dashboard.account()); });
    }

    // Signed out: no request of any feature waits for an answer any more.
    void drop_all(const std::string& reason) {
        dashboard.drop_all();
        posting.drop_all(reason);
        open_room.drop_all();
        my_tasks.drop_all();
        contacts.drop_all();
        mentions.drop_all();
        previews.drop_all();
    }
    // Another account (or none): what the previous one's answers showed goes.
    void clear_account() {
        dashboard.clear();
        open_room.clear();
        my_tasks.clear();
        contacts.clear();
        console.clear();  // the last answer was the previous account's
        previews.clear();
    }

    // ---- the intents the features own (features.cpp; the App forwards them) ----
    template <class I>
    auto apply(const I& i, Instant now) -> decltype(std::declval<Posting&>().apply(i, now)) {
        posting.apply(i, now);
    }
    template <class I>
    auto apply(const I& i, Instant now) -> decltype(std::declval<ApiConsole&>().apply(i, now)) {
        console.apply(i, now);
    }
    void apply(const intent::ReloadAccount&, Instant now) { dashboard.reload_account(now); }
    void apply(const intent::ReloadRooms&, Instant now) { dashboard.reload_rooms(now); }
    void apply(const intent::SelectRoom& i, Instant) { dashboard.select_room(i.room_id); }
    void apply(const intent::LoadMyTasks&, Instant now) { my_tasks.load(now); }
    void apply(const intent::LoadContacts&, Instant now) { contacts.load(now); }
    void apply(const intent::AcceptRequest& i, Instant now) { contacts.accept(i.request_id, now); }
    void apply(const intent::DeclineRequest& i, Instant now) { contacts.decline(i.request_id, now); }
    // The open room and its files.
    void apply(const intent::OpenRoom& i, Instant now);
    void apply(const intent::LoadMessages& i, Instant now) { open_room.load_messages(i.room_id, now); }
    void apply(const intent::MarkRead& i, Instant now) { open_room.mark_read(i.room_id, now); }
    void apply(const intent::SeenLatest& i, Instant now) { open_room.seen_latest(i.room_id, now); }
    void apply(const intent::CompleteTask& i, Instant now) { open_room.set_task_status(i.room_id, i.task_id, "done", now); }
    void apply(const intent::ReopenTask& i, Instant now) { open_room.set_task_status(i.room_id, i.task_id, "open", now); }
    void apply(const intent::UploadFile& i, Instant now);
    void apply(const intent::OpenFile& i, Instant now) { open_room.open_file(i, now); }
    // The workspace: views, composer fills, settings, drafts, notifications, previews.
    void apply(const intent::SetPageVisible& i, Instant now);
    void apply(const intent::PreviewsOnScreen& i, Instant now) { previews.on_screen(i.room_id, i.file_ids, now); }
    void apply(const intent::ShowView& i, Instant) { workspace.show(i.developer ? View::developer : View::workspace); }
    void apply(const intent::ShowDetails& i, Instant) { workspace.show_details(i.tab); }
    void apply(const intent::SetRoomFilter& i, Instant) { workspace.set_room_filter(i.text); }
    void apply(const intent::Reply& i, Instant);
    void apply(const intent::Quote& i, Instant);
    void apply(const intent::Mention& i, Instant) { workspace.mention(open_room.view(), i.account_id); }
    void apply(const intent::SelectionChanged& i, Instant) { message_menu.set_selection(i.text, i.message_ids); }
    void apply(const intent::SetNotifications& i, Instant) { workspace.set_notifications(i.on); }
    void apply(const intent::SetSetting& i, Instant);
    void apply(const intent::RestoreSettings& i, Instant);
    void apply(const intent::SetDraft& i, Instant) { workspace.drafts().set(i.room_id, i.text); }
    void apply(const intent::RestoreDrafts& i, Instant) { workspace.drafts().restore(i.account_id, i.stored); }
    void apply(const intent::NotificationPermission& i, Instant);

    bool page_visible = true;  // a hidden tab does not poll
    Workspace workspace;       // views, filter, composer fills, notifications
    MessageMenu message_menu;  // a message's menu, open on one message at a time
    Dashboard dashboard;
    MyTasks my_tasks;
    Contacts contacts;
    OpenRoom open_room;
    ApiConsole console;
    Posting posting;
    Mentions mentions;
    FilePreviews previews;  // image previews in the conversation
};

}  // namespace roomkey::app
