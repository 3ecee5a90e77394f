// views_state.cpp: issue 10's page API state (see views_state.hpp).
#include "app/views_state.hpp"

#include <algorithm>

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

}  // namespace

void add_views_state(const App& app, Instant now, json& state) {
    state["room"] = roomkey::parse_json_text(room_json(app.room()));
    if (auto at = app.room_poll_at()) {
        state["room"]["poll_in_ms"] = std::max<std::int64_t>(0, (*at - now).count());
    } else if (state["room"].is_object()) {
        state["room"]["poll_in_ms"] = nullptr;
    }
    state["my_tasks"] = loadable_list(app.my_tasks(), [](const ChatTask& t) {
        return json{{"task_id", t.task_id},
                    {"body", t.body},
                    {"status", t.status},
                    {"room_id", t.room ? t.room->room_id : std::string()},
                    {"room_name", t.room ? t.room->name : std::string()},
                    {"assigned_by", brief_or_null(t.assigned_by_account)}};
    });
    state["contacts"] = loadable_list(app.contacts(), [](const Contact& c) {
        return json{{"account_id", c.account_id}, {"name", c.name}, {"room_id", c.room_id.value_or("")}};
    });
    state["incoming_requests"] = loadable_list(app.incoming_requests(), [](const ContactRequest& r) {
        return json{{"request_id", r.request_id},
                    {"account_id", r.account_id},
                    {"name", r.name},
                    {"message", r.message.value_or("")}};
    });
    // Per-room unread numbers, so a script sees mark_read's effect on the list.
    json unread = json::object();
    if (const auto& rooms = app.rooms().value) {
        for (const Room& room : *rooms) {
            if (room.unread_num) unread[room.room_id] = *room.unread_num;
        }
    }
    state["room_unread"] = std::move(unread);
    // Whether each list is being read (their errors are in state.errors).
    state["views_loading"] = {{"my_tasks", app.my_tasks().loading},
                              {"contacts", app.contacts().loading},
                              {"incoming_requests", app.incoming_requests().loading}};
    json console = roomkey::parse_json_text(console_json(app.console()));
    state["announce"] = {{"room", app.room_announcement()}, {"console", console["announce"]}};
    console.erase("announce");
    state["console"] = std::move(console);
}

}  // namespace roomkey::app
