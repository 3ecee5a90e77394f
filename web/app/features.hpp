// features.hpp: the app's features side by side, each owning its state, its
// requests and their answers, wired to the one host that routes for them.
#pragma once

#include <string>

#include "app/api_console.hpp"
#include "app/contacts.hpp"
#include "app/dashboard.hpp"
#include "app/feature.hpp"
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
