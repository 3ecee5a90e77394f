// views_state.cpp: the views' page API state (see views_state.hpp).
#include "app/views_state.hpp"

#include <algorithm>

#include "app/dialog.hpp"
#include "app/digest.hpp"
#include "app/i18n.hpp"
#include "app/message_view.hpp"
#include "app/post_words.hpp"
#include "app/room_order.hpp"
#include "roomkey/json_text.hpp"
#include "roomkey/links.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

json brief_or_null(const std::optional<AccountBrief>& account) {
    if (!account) return nullptr;
    return object_of({{"account_id", account->account_id}, {"name", account->name}});
}

template <class T, class Each>
json loadable_list(const Loadable<std::vector<T>>& loadable, Each each) {
    json items = json::array();
    if (loadable.value) {
        for (const T& item : *loadable.value) items.push_back(each(item));
    }
    return items;
}

std::string my_account_id(const App& app) {
    return app.dashboard().account().value ? app.dashboard().account().value->account_id : std::string();
}

void add_brief(Digest& d, const std::optional<AccountBrief>& a) {
    d.add(a.has_value());
    if (a) d.add(a->account_id).add(a->name);
}

// A delivered post's message carries its local_id; each post not yet
// delivered stands after the messages with `pending` and the line shown.
void add_pending_posts(const App& app, const std::string& me, json& messages) {
    const std::string room_id = app.open_room().view().room_id();
    for (const PostJob& job : app.posting().posts()) {
        if (job.kind != PostKind::message || job.room_id != room_id) continue;
        if (!job.message_id.empty()) {
            for (json& m : messages) {
                if (m["message_id"] == job.message_id) m["local_id"] = job.local_id;
            }
        }
        const std::string_view pending = pending_name(job.stage);
        if (pending.empty()) continue;
        messages.push_back(object_of({{"message_id", ""},
                                      {"local_id", job.local_id},
                                      {"account_id", me},
                                      {"body", job.body},
                                      {"text", job.body},
                                      {"send_time", unix_ms(job.queued_at) / 1000},
                                      {"pending", std::string(pending)},
                                      {"note", pending_words(job, app.workspace().user_time())}}));
    }
}

}  // namespace

json object_of(std::initializer_list<Field> fields) {
    json object = json::object();
    for (const Field& field : fields) object[field.first] = field.second;
    return object;
}

void add_views_small(const App& app, json& state) {
    const Workspace& ws = app.workspace();
    state["view"] = std::string(to_string(ws.view()));
    state["room_filter"] = ws.room_filter();
    state["notifications"] = object_of({{"enabled", ws.notifications_enabled()}, {"permission", ws.permission()}});
    state["title"] = ws.title();
    const std::string& open_id = app.open_room().view().room_id();
    state["composer"] = object_of({{"text", open_id.empty() ? "" : ws.drafts().text(open_id)}, {"room_id", open_id}});
    if (const auto q = ws.view() == View::workspace ? open_question(app) : std::nullopt) {
        state["dialog"] = object_of(
            {{"title", q->title}, {"quote", q->quote}, {"detail", q->detail}, {"yes", q->yes}, {"no", q->no}});
    } else {
        state["dialog"] = nullptr;
    }
    state["settings"] = object_of({{"send_key", std::string(to_string(ws.settings().send_key()))},
                                   {"mark_read_on_view", ws.settings().mark_read_on_view()}});
    // Where the user is, as the address says it (shell/page.js follows it).
    const RoomView& open = app.open_room().view();
    state["location"] = location(ws.view(), open.is_open() ? open.room_id() : std::string(), ws.details());
    // Whether each list is being read (their errors are in state.errors).
    state["views_loading"] = object_of({{"my_tasks", app.my_tasks().tasks().loading},
                                        {"contacts", app.contacts().contacts().loading},
                                        {"incoming_requests", app.contacts().incoming().loading}});
}

// The rooms by their version (bumped at each change, as the room list's
// KeptRoomOrder reads it): a publish reads no room when none changed.
std::uint64_t room_list_key(const App& app) {
    return Digest()
        .add(static_cast<std::int64_t>(app.dashboard().rooms_version()))
        .add(app.workspace().room_filter())
        .value();
}

// The room list in the order drawn (every room: a script may page it, never
// miss one), and per-room unread numbers, so a script sees mark_read's effect.
void add_room_list(const App& app, json& state) {
    json rooms = json::array();
    json unread = json::object();
    if (const auto& list = app.dashboard().rooms().value) {
        for (std::size_t i : room_order(*list, app.workspace().room_filter())) {
            const Room& r = (*list)[i];
            rooms.push_back(object_of({{"room_id", r.room_id},
                                       {"name", r.name},
                                       {"unread_num", r.unread_num.value_or(0)},
                                       {"mention_num", r.mention_num.value_or(0)},
                                       {"sticky", r.sticky.value_or(false)},
                                       {"last_update_time", r.last_update_time.value_or(0)}}));
        }
        for (const Room& room : *list) {
            if (room.unread_num) unread[room.room_id] = *room.unread_num;
        }
    }
    state["rooms"] = std::move(rooms);
    state["room_unread"] = std::move(unread);
}

std::uint64_t open_room_key(const App& app) {
    const RoomView& view = app.open_room().view();
    return Digest()
        .add(static_cast<std::int64_t>(view.details_version()))  // any change but the messages' (room_view.hpp)
        .add(app.open_room().first_unread_id())                  // where it opens
        .value();
}

void add_open_room(const App& app, json& state) {
    state["room"] = room_details_value(app.open_room().view());
    json& room = state["room"];
    if (!room.is_object()) return;
    const RoomView& view = app.open_room().view();
    json& tasks = room["tasks"];
    for (std::size_t i = 0; i < view.tasks().size() && i < tasks.size(); ++i) {
        const ChatTask& t = view.tasks()[i];
        tasks[i]["limit_time"] = t.limit_time.value_or(0);
        tasks[i]["limit_type"] = t.limit_type.value_or("none");
    }
    const std::string& first_unread = app.open_room().first_unread_id();
    room["first_unread_id"] = first_unread.empty() ? json(nullptr) : json(first_unread);
}

std::uint64_t open_room_messages_key(const App& app, Instant now) {
    const RoomView& view = app.open_room().view();
    const std::vector<Contact>* contacts =
        app.contacts().contacts().value ? &*app.contacts().contacts().value : nullptr;
    // What the messages are read against (who is me, the day, the language, the names): the parse's own digests.
    const DrawnContext context =
        drawn_context(view, contacts, my_account_id(app), unix_ms(now) / 1000, app.workspace().user_time());
    Digest d;
    d.add(static_cast<std::int64_t>(view.messages_version()));
    d.add(static_cast<std::int64_t>(context.base)).add(static_cast<std::int64_t>(context.names));
    // The user's posts in this room not yet delivered.
    for (const PostJob& job : app.posting().posts()) {
        if (job.kind != PostKind::message || job.room_id != view.room_id()) continue;
        d.add(job.local_id).add(job.message_id).add(job.body).add(pending_words(job, app.workspace().user_time()));
        d.add(std::string_view(pending_name(job.stage))).add(unix_ms(job.queued_at));
    }
    return d.value();
}

// The open room's messages as a reader sees them.
json open_room_messages(const App& app, Instant now) {
    const RoomView& view = app.open_room().view();
    if (!view.is_open()) return nullptr;
    json messages = room_messages_value(view);
    const std::string me = my_account_id(app);
    const std::vector<Contact>* contacts =
        app.contacts().contacts().value ? &*app.contacts().contacts().value : nullptr;
    const auto names = account_names(view, contacts);
    const std::int64_t now_unix = unix_ms(now) / 1000;
    const UserTime& user = app.workspace().user_time();
    // As the conversation draws them: parsed once for both (message_layout.hpp).
    const DrawnContext context = drawn_context(view, contacts, me, now_unix, user);
    for (std::size_t i = 0; i < view.messages().size() && i < messages.size(); ++i) {
        const DrawnMessage& drawn = app.open_room().drawn().get(view.messages()[i], context, me, names, now_unix, user);
        json& m = messages[i];
        m["text"] = drawn.text;
        m["mentions_me"] = drawn.mentions_me;
        m["reply_to"] = drawn.reply_to ? object_of({{"account_id", drawn.reply_to->account_id},
                                                    {"message_id", drawn.reply_to->message_id}})
                                       : json(nullptr);
        m["system"] = drawn.system;
        m["edited"] = drawn.edited;
        m["time_text"] = drawn.time_text;
        json links = json::array();
        for (const TextLink& l : find_links(drawn.text)) {
            links.push_back(object_of({{"url", l.url}, {"text", drawn.text.substr(l.begin, l.end - l.begin)}}));
        }
        m["links"] = std::move(links);
    }
    add_pending_posts(app, me, messages);  // the user's posts in this room not yet delivered, at the bottom
    return messages;
}

json room_poll_in_ms(const App& app, Instant now) {
    if (auto at = app.open_room().poll_at()) return std::max<std::int64_t>(0, (*at - now).count());
    return nullptr;
}

std::uint64_t lists_key(const App& app) {
    Digest d;
    auto loadable = [&d](const auto& l) {
        d.add(l.value.has_value()).add(static_cast<std::int64_t>(l.value ? l.value->size() : 0));
    };
    loadable(app.my_tasks().tasks());
    if (const auto& tasks = app.my_tasks().tasks().value) {
        for (const ChatTask& t : *tasks) {
            d.add(t.task_id).add(t.body).add(t.status);
            d.add(t.room.has_value());
            if (t.room) d.add(t.room->room_id).add(t.room->name);
            add_brief(d, t.assigned_by_account);
        }
    }
    loadable(app.contacts().contacts());
    if (const auto& contacts = app.contacts().contacts().value) {
        for (const Contact& c : *contacts) d.add(c.account_id).add(c.name).add(c.room_id);
    }
    loadable(app.contacts().incoming());
    if (const auto& requests = app.contacts().incoming().value) {
        for (const ContactRequest& r : *requests) d.add(r.request_id).add(r.account_id).add(r.name).add(r.message);
    }
    return d.value();
}

void add_lists(const App& app, json& state) {
    state["my_tasks"] = loadable_list(app.my_tasks().tasks(), [](const ChatTask& t) {
        return object_of({{"task_id", t.task_id},
                          {"body", t.body},
                          {"status", t.status},
                          {"room_id", t.room ? t.room->room_id : std::string()},
                          {"room_name", t.room ? t.room->name : std::string()},
                          {"assigned_by", brief_or_null(t.assigned_by_account)}});
    });
    state["contacts"] = loadable_list(app.contacts().contacts(), [](const Contact& c) {
        return object_of({{"account_id", c.account_id}, {"name", c.name}, {"room_id", c.room_id.value_or("")}});
    });
    state["incoming_requests"] = loadable_list(app.contacts().incoming(), [](const ContactRequest& r) {
        return object_of({{"request_id", r.request_id},
                          {"account_id", r.account_id},
                          {"name", r.name},
                          {"message", r.message.value_or("")}});
    });
}

std::uint64_t console_key(const App& app, const std::string& console_text) {
    return Digest()
        .add(console_text)
        .add(app.open_room().announcement())
        .add(static_cast<std::int64_t>(i18n::language()))
        .value();
}

void add_console(const App& app, const std::string& console_text, json& state) {
    json console = roomkey::parse_json_text(console_text);
    state["announce"] = object_of({{"room", app.open_room().announcement()}, {"console", console["announce"]}});
    console.erase("announce");
    state["console"] = std::move(console);
}

void add_views_state(const App& app, Instant now, json& state) {
    add_open_room(app, state);
    if (state["room"].is_object()) {
        state["room"]["messages"] = open_room_messages(app, now);
        state["room"]["poll_in_ms"] = room_poll_in_ms(app, now);
    }
    add_views_small(app, state);
    add_room_list(app, state);
    add_lists(app, state);
    add_console(app, console_json(app.api_console().console()), state);
}

}  // namespace roomkey::app
