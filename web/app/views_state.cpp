// views_state.cpp: the views' page API state (see views_state.hpp).
#include "app/views_state.hpp"

#include <algorithm>

#include "app/dialog.hpp"
#include "app/message_view.hpp"
#include "app/room_order.hpp"
#include "roomkey/json_text.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

json brief_or_null(const std::optional<AccountBrief>& account) {
    if (!account) return nullptr;
    return {{"account_id", account->account_id}, {"name", account->name}};
}

template <class T, class Each>
json loadable_list(const Loadable<std::vector<T>>& loadable, Each each) {
    json items = json::array();
    if (loadable.value) {
        for (const T& item : *loadable.value) items.push_back(each(item));
    }
    return items;
}

// The workspace's view, the room list in the order drawn, and the
// open room's messages as a reader sees them.
void add_workspace_state(const App& app, Instant now, json& state) {
    const Workspace& ws = app.workspace();
    state["view"] = std::string(to_string(ws.view()));
    state["room_filter"] = ws.room_filter();
    state["notifications"] = {{"enabled", ws.notifications_enabled()}, {"permission", ws.permission()}};
    state["title"] = ws.title();
    const std::string& open = app.open_room().view().room_id();
    state["composer"] = {{"text", open.empty() ? "" : ws.drafts().text(open)}, {"room_id", open}};
    if (const auto q = ws.view() == View::workspace ? open_question(app) : std::nullopt) {
        state["dialog"] = {
            {"title", q->title}, {"quote", q->quote}, {"detail", q->detail}, {"yes", q->yes}, {"no", q->no}};
    } else {
        state["dialog"] = nullptr;
    }
    state["settings"] = {{"send_key", std::string(to_string(ws.settings().send_key()))},
                         {"mark_read_on_view", ws.settings().mark_read_on_view()}};
    json rooms = json::array();
    if (const auto& list = app.dashboard().rooms().value) {
        for (std::size_t i : room_order(*list, ws.room_filter())) {
            const Room& r = (*list)[i];
            rooms.push_back({{"room_id", r.room_id},
                             {"name", r.name},
                             {"unread_num", r.unread_num.value_or(0)},
                             {"mention_num", r.mention_num.value_or(0)},
                             {"sticky", r.sticky.value_or(false)},
                             {"last_update_time", r.last_update_time.value_or(0)}});
            if (rooms.size() >= 50) break;
        }
    }
    state["rooms"] = std::move(rooms);
    json& room = state["room"];
    if (!room.is_object()) return;
    const RoomView& view = app.open_room().view();
    const std::string me =
        app.dashboard().account().value ? app.dashboard().account().value->account_id : std::string();
    const auto names =
        account_names(view, app.contacts().contacts().value ? &*app.contacts().contacts().value : nullptr);
    const std::int64_t now_unix = unix_ms(now) / 1000;
    json& messages = room["messages"];
    for (std::size_t i = 0; i < view.messages().size() && i < messages.size(); ++i) {
        const DrawnMessage drawn = drawn_message(view.messages()[i], me, names, now_unix, ws.user_time());
        json& m = messages[i];
        m["text"] = drawn.text;
        m["mentions_me"] = drawn.mentions_me;
        m["reply_to"] = drawn.reply_to ? json{{"account_id", drawn.reply_to->account_id},
                                              {"message_id", drawn.reply_to->message_id}}
                                       : json(nullptr);
        m["system"] = drawn.system;
        m["edited"] = drawn.edited;
        m["time_text"] = drawn.time_text;
    }
    json& tasks = room["tasks"];
    for (std::size_t i = 0; i < view.tasks().size() && i < tasks.size(); ++i) {
        const ChatTask& t = view.tasks()[i];
        tasks[i]["limit_time"] = t.limit_time.value_or(0);
        tasks[i]["limit_type"] = t.limit_type.value_or("none");
    }
}

}  // namespace

void add_views_state(const App& app, Instant now, json& state) {
    state["room"] = roomkey::parse_json_text(room_json(app.open_room().view()));
    if (auto at = app.open_room().poll_at()) {
        state["room"]["poll_in_ms"] = std::max<std::int64_t>(0, (*at - now).count());
    } else if (state["room"].is_object()) {
        state["room"]["poll_in_ms"] = nullptr;
    }
    add_workspace_state(app, now, state);
    state["my_tasks"] = loadable_list(app.my_tasks().tasks(), [](const ChatTask& t) {
        return json{{"task_id", t.task_id},
                    {"body", t.body},
                    {"status", t.status},
                    {"room_id", t.room ? t.room->room_id : std::string()},
                    {"room_name", t.room ? t.room->name : std::string()},
                    {"assigned_by", brief_or_null(t.assigned_by_account)}};
    });
    state["contacts"] = loadable_list(app.contacts().contacts(), [](const Contact& c) {
        return json{{"account_id", c.account_id}, {"name", c.name}, {"room_id", c.room_id.value_or("")}};
    });
    state["incoming_requests"] = loadable_list(app.contacts().incoming(), [](const ContactRequest& r) {
        return json{{"request_id", r.request_id},
                    {"account_id", r.account_id},
                    {"name", r.name},
                    {"message", r.message.value_or("")}};
    });
    // Per-room unread numbers, so a script sees mark_read's effect on the list.
    json unread = json::object();
    if (const auto& rooms = app.dashboard().rooms().value) {
        for (const Room& room : *rooms) {
            if (room.unread_num) unread[room.room_id] = *room.unread_num;
        }
    }
    state["room_unread"] = std::move(unread);
    // Whether each list is being read (their errors are in state.errors).
    state["views_loading"] = {{"my_tasks", app.my_tasks().tasks().loading},
                              {"contacts", app.contacts().contacts().loading},
                              {"incoming_requests", app.contacts().incoming().loading}};
    json console = roomkey::parse_json_text(console_json(app.api_console().console()));
    state["announce"] = {{"room", app.open_room().announcement()}, {"console", console["announce"]}};
    console.erase("announce");
    state["console"] = std::move(console);
}

}  // namespace roomkey::app
