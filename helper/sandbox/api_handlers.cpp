// api_handlers.cpp: the REST API endpoints (spec 4.4-4.8) over ChatModel, with
// the record fields the public API of the service returns (room_id, name,
// type, role, unread_num, ...; message_id as a string). Called by api.cpp
// after authentication, the overall limit and scopes; the state mutex is
// held. The per-room posting limit (spec 8.2) is applied here, after the
// membership and role checks, so only posts the room would accept count: a
// non-member or a readonly member cannot use up a room's budget.
// Sections: [json] record renderers, [params] field readers, [endpoints].
#include <charconv>

#include "roomkey/api_records.hpp"
#include "roomkey/errors.hpp"
#include "sandbox/app.hpp"
#include "sandbox/service_messages.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

namespace {

using nlohmann::ordered_json;

// ---------------------------------------------------------------------------
// [json]
// ---------------------------------------------------------------------------
std::string avatar_url(AccountId id) {
    return "https://avatars.sandbox.invalid/" + std::to_string(id) + ".png";
}

// The records are shared/'s (api.hpp, api_records.hpp), written by their
// to_json: the client's readers read these very bytes.
AccountBrief account_brief(const ChatModel& chat, AccountId id) {
    const Account* a = chat.account(id);
    return AccountBrief{std::to_string(id), a ? a->name : std::string(), avatar_url(id)};
}

// An account's public profile, as /me, a contact, a member and a contact
// request all carry it.
template <class Record>
Record with_profile(const Account& a) {
    Record r;
    r.account_id = std::to_string(a.account_id);
    r.room_id = std::to_string(a.my_room_id);
    r.name = a.name;
    r.chatwork_id = a.chatwork_id;
    r.organization_id = "101";
    r.organization_name = a.organization_name;
    r.department = a.department;
    r.avatar_image_url = avatar_url(a.account_id);
    return r;
}

Contact contact_record(const Account& a) { return with_profile<Contact>(a); }

roomkey::Account me_record(const Account& a) {
    roomkey::Account me = with_profile<roomkey::Account>(a);
    me.title = a.title;
    me.url = "";
    me.introduction = a.introduction;
    me.mail = a.login_mail;
    for (auto* unused : {&me.tel_organization, &me.tel_extension, &me.tel_mobile, &me.skype, &me.facebook, &me.twitter}) {
        *unused = "";
    }
    me.login_mail = a.login_mail;
    return me;
}

roomkey::Room room_record(const ChatModel& chat, const Room& r, AccountId viewer, bool with_description) {
    const Membership* m = ChatModel::membership(r, viewer);
    std::int64_t mytask = 0;
    std::int64_t tasks = 0;
    for (const Task* t : chat.tasks_of_room(r.room_id)) {
        ++tasks;
        if (t->assignee == viewer && !t->done) ++mytask;
    }
    roomkey::Room out;
    out.room_id = std::to_string(r.room_id);
    out.name = r.name;
    out.type = std::string(to_string(r.type));
    out.role = std::string(to_string(m ? m->role : RoomRole::member));
    out.sticky = r.sticky;
    out.unread_num = m ? m->unread : 0;
    out.mention_num = m ? m->mention : 0;
    out.mytask_num = mytask;
    out.message_num = static_cast<std::int64_t>(r.messages.size());
    out.file_num = static_cast<std::int64_t>(r.files.size());
    out.task_num = tasks;
    out.icon_path = "https://icons.sandbox.invalid/" + (r.icon_preset.empty() ? "direct" : r.icon_preset) + ".png";
    out.last_update_time = r.last_update_time;
    if (with_description) out.description = r.description;
    return out;
}

ChatMessage message_record(const ChatModel& chat, const Message& m) {
    return ChatMessage{m.message_id, account_brief(chat, m.account_id), m.body, m.send_time, m.update_time};
}

ChatTask task_record(const ChatModel& chat, const Task& t, bool with_room) {
    ChatTask out;
    out.task_id = std::to_string(t.task_id);
    if (with_room) {
        const Room* r = chat.room(t.room_id);
        out.room = TaskRoomBrief{std::to_string(t.room_id), r ? r->name : std::string(),
                                 "https://icons.sandbox.invalid/group.png"};
    } else {
        out.account = account_brief(chat, t.assignee);
    }
    out.assigned_by_account = account_brief(chat, t.assigned_by);
    out.message_id = t.message_id;
    out.body = t.body;
    out.limit_time = t.limit_time;
    out.status = t.done ? "done" : "open";
    out.limit_type = t.limit_type;
    return out;
}

ChatFile file_record(const ChatModel& chat, const FileRecord& f) {
    ChatFile out;
    out.file_id = std::to_string(f.file_id);
    out.account = account_brief(chat, f.account_id);
    out.message_id = f.message_id;
    out.filename = f.filename;
    out.filesize = f.filesize;
    out.upload_time = f.upload_time;
    return out;
}

// chatwork/api PR #7: {"public":false} without a link; with one, its URL,
// whether joining needs an admin's acceptance, and its description.
ordered_json link_json(const std::optional<InviteLink>& link, const std::string& url_prefix) {
    if (!link) return ordered_json{{"public", false}};
    return ordered_json{{"public", true},
                        {"url", url_prefix + link->code},
                        {"need_acceptance", link->need_acceptance},
                        {"description", link->description}};
}

template <class Record>
HttpResponse list_or_no_content(const std::vector<Record>& list) {
    // The service answers an empty list with 204 No Content.
    if (list.empty()) return no_content();
    return json_text_response(200, to_json(list));
}


// ---------------------------------------------------------------------------
// [params]
// ---------------------------------------------------------------------------
std::optional<std::int64_t> parse_id(std::string_view text) {
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || v < 0) return std::nullopt;
    return v;
}

// "1,2,3" -> ids; nullopt when any item is not a number.
std::optional<std::vector<std::int64_t>> parse_id_list(std::string_view text) {
    std::vector<std::int64_t> out;
    if (text.empty()) return out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos) comma = text.size();
        auto id = parse_id(text.substr(start, comma - start));
        if (!id) return std::nullopt;
        out.push_back(*id);
        start = comma + 1;
    }
    return out;
}

HttpResponse bad_param(std::string_view name, std::string_view rule) {
    return api_error(400, "Parameter `" + std::string(name) + "` " + std::string(rule));
}

// A room's create and its member update name members in three lists, one per role; an account
// named in two lists takes the later list's role, as before.
Result<std::map<AccountId, RoomRole>, HttpResponse> member_roles(const ChatModel& chat, const FormFields& form) {
    std::map<AccountId, RoomRole> roles;
    for (auto [key, role] : {std::pair{"members_admin_ids", RoomRole::admin},
                             std::pair{"members_member_ids", RoomRole::member},
                             std::pair{"members_readonly_ids", RoomRole::readonly}}) {
        auto ids = parse_id_list(form_get(form, key).value_or(""));
        if (!ids) return Err{bad_param(key, "must be a comma-separated list of account IDs.")};
        for (auto id : *ids) {
            if (!chat.account(id)) return Err{bad_param(key, "names an unknown account.")};
            roles[id] = role;
        }
    }
    return roles;
}

HttpResponse room_not_found() {
    return api_error(404, "The room does not exist or you are not a member of it.");
}

}  // namespace

// ---------------------------------------------------------------------------
// [endpoints]
// ---------------------------------------------------------------------------
HttpResponse SandboxApp::api_endpoint(const RequestContext& ctx, const Caller& caller, const EndpointMatch& match,
                                      const FormFields& form) {
    const std::int64_t now = unix_seconds(ctx.now);
    const Account* me = chat_.account(caller.account);
    if (!me) return api_error(401, kInvalidApiTokenMessage);
    auto field = [&form](std::string_view name) { return form_get(form, name); };
    auto query = [&ctx](std::string_view name) { return form_get(ctx.query, name); };

    Room* room = nullptr;
    const Membership* membership = nullptr;
    if (!match.room_id.empty()) {
        const auto id = parse_id(match.room_id);
        room = id ? chat_.room(*id) : nullptr;
        membership = room ? ChatModel::membership(*room, caller.account) : nullptr;
        if (!membership) return room_not_found();
    }
    const bool admin = membership && membership->role == RoomRole::admin;
    const bool can_write = membership && membership->role != RoomRole::readonly;
    auto forbidden = [] { return api_error(403, "Your role in this room does not allow this operation."); };
    // Spec 8.2: messages and tasks of one room share 10 POSTs per 10 s.
    auto room_posts_exhausted = [&] { return !room_limiter_.hit("room:" + std::to_string(room->room_id), ctx.now); };

    switch (match.endpoint) {
        case Endpoint::me:
            return json_text_response(200, to_json(me_record(*me)));

        case Endpoint::my_status: {
            return json_text_response(200, to_json(chat_.status_of(caller.account)));
        }

        case Endpoint::my_tasks: {
            const std::string status = query("status").value_or("open");
            if (status != "open" && status != "done") return bad_param("status", "must be open or done.");
            std::optional<std::int64_t> by;
            if (auto v = query("assigned_by_account_id")) {
                by = parse_id(*v);
                if (!by) return bad_param("assigned_by_account_id", "must be an account ID.");
            }
            std::vector<ChatTask> list;
            for (const Task* t : chat_.tasks_assigned_to(caller.account)) {
                if ((status == "done") != t->done) continue;
                if (by && t->assigned_by != *by) continue;
                list.push_back(task_record(chat_, *t, true));
            }
            return list_or_no_content(std::move(list));
        }

        case Endpoint::contacts: {
            std::vector<Contact> list;
            for (const Account* a : chat_.contacts_of(caller.account)) list.push_back(contact_record(*a));
            return list_or_no_content(list);
        }

        case Endpoint::incoming_requests_get: {
            std::vector<ContactRequest> list;
            for (const IncomingRequest* r : chat_.incoming_requests_to(caller.account)) {
                const Account* from = chat_.account(r->from);
                if (!from) continue;
                const Contact c = contact_record(*from);
                list.push_back(ContactRequest{std::to_string(r->request_id), c.account_id, c.name, r->message,
                                              c.organization_name, c.room_id, c.chatwork_id, c.organization_id,
                                              c.department, c.avatar_image_url});
            }
            return list_or_no_content(list);
        }

        case Endpoint::incoming_requests_put:
        case Endpoint::incoming_requests_delete: {
            const auto id = parse_id(match.item_id);
            const auto request = id ? chat_.take_incoming_request(*id, caller.account) : std::nullopt;
            if (!request) return api_error(404, "The contact request does not exist.");
            if (match.endpoint == Endpoint::incoming_requests_delete) return no_content();
            chat_.add_contact(request->from, request->to);
            const Account* from = chat_.account(request->from);
            if (!from) return json_response(200, ordered_json::object());
            return json_text_response(200, to_json(contact_record(*from)));
        }

        case Endpoint::rooms_list: {
            std::vector<roomkey::Room> list;
            for (const Room* r : chat_.rooms_of(caller.account)) list.push_back(room_record(chat_, *r, caller.account, false));
            return json_text_response(200, to_json(list));
        }

        case Endpoint::rooms_create: {
            // Lengths and allowed values were checked against the catalog (api.cpp).
            const std::string name = field("name").value_or("");
            if (name.empty()) return bad_param("name", "is required (1-255 characters).");
            auto members = member_roles(chat_, form);
            if (!members) return members.error();
            if (!field("members_admin_ids")) return bad_param("members_admin_ids", "is required.");
            std::optional<InviteLink> link;
            if (field("link").value_or("0") == "1") {
                auto made = new_link(field("link_code"), "", field("link_need_acceptance").value_or("1") == "1");
                if (!made) return made.error();
                link = std::move(made).value();
            }
            const auto id = chat_.create_room(caller.account, name, field("description").value_or(""),
                                              field("icon_preset").value_or("group"), *members, now);
            if (!id) return api_error(400, "The sandbox holds too many rooms.");
            if (link) chat_.room(*id)->link = std::move(link);
            return json_response(200, ordered_json{{"room_id", *id}});
        }

        case Endpoint::room_get:
            return json_text_response(200, to_json(room_record(chat_, *room, caller.account, true)));

        case Endpoint::room_update: {
            if (!admin) return forbidden();
            if (auto v = field("name")) room->name = *v;  // 1-255 characters: checked against the catalog
            if (auto v = field("description")) room->description = *v;
            if (auto v = field("icon_preset")) room->icon_preset = *v;
            room->last_update_time = now;
            return json_response(200, ordered_json{{"room_id", room->room_id}});
        }

        case Endpoint::room_delete: {
            const std::string action = field("action_type").value_or("");
            if (action == "leave") {
                chat_.leave_room(room->room_id, caller.account);
            } else if (action == "delete") {
                if (!admin) return forbidden();
                chat_.delete_room(room->room_id);
            } else {
                return bad_param("action_type", "must be leave or delete.");
            }
            return no_content();
        }

        case Endpoint::room_members_get: {
            std::vector<RoomMember> list;
            for (const auto& [id, m] : room->members) {
                const Account* a = chat_.account(id);
                if (!a) continue;
                const Contact c = contact_record(*a);
                list.push_back(RoomMember{c.account_id, c.name, std::string(to_string(m.role)), c.chatwork_id,
                                          c.organization_name, c.department, c.room_id, c.organization_id,
                                          c.avatar_image_url});
            }
            return json_text_response(200, to_json(list));
        }

        case Endpoint::room_members_put: {
            if (!admin) return forbidden();
            if (!field("members_admin_ids")) return bad_param("members_admin_ids", "is required.");
            auto read_roles = member_roles(chat_, form);
            if (!read_roles) return read_roles.error();
            const std::map<AccountId, RoomRole>& roles = *read_roles;
            bool has_admin = false;
            for (const auto& [id, role] : roles) has_admin = has_admin || role == RoomRole::admin;
            if (!has_admin) return bad_param("members_admin_ids", "must name at least one account.");
            std::map<AccountId, Membership> next;
            std::vector<AccountId> added;
            std::vector<AccountId> removed;
            for (const auto& [id, role] : roles) {
                if (!room->members.count(id)) added.push_back(id);
                Membership m = room->members.count(id) ? room->members[id] : Membership{};
                m.role = role;
                next[id] = m;
            }
            for (const auto& [id, m] : room->members) {
                if (!roles.count(id)) removed.push_back(id);
            }
            room->members = std::move(next);
            // The service announces who joined and who left in the room.
            const std::string announcement = members_changed_message(added, removed);
            if (!announcement.empty()) chat_.post_message(*room, caller.account, announcement, false, now);
            ordered_json out{{"admin", ordered_json::array()}, {"member", ordered_json::array()},
                             {"readonly", ordered_json::array()}};
            for (const auto& [id, m] : room->members) out[std::string(to_string(m.role))].push_back(id);
            return json_response(200, out);
        }

        case Endpoint::room_messages_get: {
            // RAML: without force (or force=0) only what the previous call did
            // not return; force=1: the latest 100. 204 when nothing is new is
            // ours (the RAML lists no 204 here: docs/sandbox.md).
            const bool force = query("force").value_or("0") == "1";
            const std::string cursor_key =
                kMessageCursorPerAccount ? "account:" + std::to_string(caller.account) : caller.rate_key;
            std::vector<ChatMessage> list;
            for (const Message* m : ChatModel::read_messages(*room, cursor_key, force)) {
                list.push_back(message_record(chat_, *m));
            }
            return list_or_no_content(std::move(list));
        }

        case Endpoint::room_messages_post: {
            if (!can_write) return forbidden();
            if (room_posts_exhausted()) return api_error(429, kPerRoomRateLimitMessage);
            const std::string body = field("body").value_or("");
            if (body.empty()) return bad_param("body", "is required.");  // its length: checked against the catalog
            const std::string self_unread = field("self_unread").value_or("0");
            const Message& m = chat_.post_message(*room, caller.account, body, self_unread == "1", now);
            return json_text_response(200, posted_message_json(m.message_id));
        }

        case Endpoint::room_messages_read_put:
        case Endpoint::room_messages_unread_put: {
            // RAML: read takes an optional message_id (read up to it) and is a
            // 400 when already read that far; unread requires message_id.
            ReadMark mark = ReadMark::done;
            if (match.endpoint == Endpoint::room_messages_read_put) {
                mark = ChatModel::mark_read_up_to(*room, caller.account, field("message_id"));
            } else {
                const auto id = field("message_id");
                if (!id) return bad_param("message_id", "is required.");
                mark = ChatModel::mark_unread_from(*room, caller.account, *id);
            }
            if (mark == ReadMark::no_such_message) return api_error(404, "The message does not exist.");
            if (mark == ReadMark::nothing_unread) return api_error(400, kAlreadyReadMessage);
            const Membership& m = room->members.at(caller.account);
            return json_text_response(200, to_json(UnreadCounts{m.unread, m.mention}));
        }

        case Endpoint::room_message_get: {
            const Message* m = ChatModel::find_message(*room, match.item_id);
            if (!m) return api_error(404, "The message does not exist.");
            return json_text_response(200, to_json(message_record(chat_, *m)));
        }

        case Endpoint::room_message_put:
        case Endpoint::room_message_delete: {
            Message* m = ChatModel::find_message(*room, match.item_id);
            if (!m) return api_error(404, "The message does not exist.");
            if (m->account_id != caller.account) return api_error(kOthersMessageStatus, "Only the sender can change a message.");
            const std::string id = m->message_id;
            if (match.endpoint == Endpoint::room_message_delete) {
                chat_.delete_message(*room, id);
            } else {
                const std::string body = field("body").value_or("");
                if (body.empty()) return bad_param("body", "is required.");  // its length: checked against the catalog
                m->body = body;
                m->update_time = now;
            }
            return json_text_response(200, posted_message_json(id));
        }

        case Endpoint::room_tasks_get: {
            const std::string status = query("status").value_or("open");
            if (status != "open" && status != "done") return bad_param("status", "must be open or done.");
            std::optional<std::int64_t> assignee;
            std::optional<std::int64_t> by;
            if (auto v = query("account_id")) {
                if (!(assignee = parse_id(*v))) return bad_param("account_id", "must be an account ID.");
            }
            if (auto v = query("assigned_by_account_id")) {
                if (!(by = parse_id(*v))) return bad_param("assigned_by_account_id", "must be an account ID.");
            }
            std::vector<ChatTask> list;
            for (const Task* t : chat_.tasks_of_room(room->room_id)) {
                if ((status == "done") != t->done) continue;
                if (assignee && t->assignee != *assignee) continue;
                if (by && t->assigned_by != *by) continue;
                list.push_back(task_record(chat_, *t, false));
            }
            return list_or_no_content(std::move(list));
        }

        case Endpoint::room_tasks_post: {
            if (!can_write) return forbidden();
            if (room_posts_exhausted()) return api_error(429, kPerRoomRateLimitMessage);
            const std::string body = field("body").value_or("");
            if (body.empty()) return bad_param("body", "is required.");  // its length: checked against the catalog
            const auto to = parse_id_list(field("to_ids").value_or(""));
            if (!to || to->empty()) return bad_param("to_ids", "is required: comma-separated account IDs.");
            for (auto id : *to) {
                if (!ChatModel::membership(*room, id)) return bad_param("to_ids", "names an account outside the room.");
            }
            std::int64_t limit = 0;
            if (auto v = field("limit")) {
                const auto parsed = parse_id(*v);
                if (!parsed) return bad_param("limit", "must be a Unix time in seconds.");
                limit = *parsed;
            }
            const std::string limit_type = field("limit_type").value_or(field("limit") ? "time" : "none");
            if (limit_type != "none" && limit_type != "date" && limit_type != "time") {
                return bad_param("limit_type", "must be none, date or time.");
            }
            if (!chat_.can_add_tasks()) return api_error(400, "The sandbox holds too many tasks.");
            const auto ids = chat_.add_tasks(*room, caller.account, *to, body, limit, limit_type, now);
            std::vector<std::string> task_ids;
            for (const auto task_id : ids) task_ids.push_back(std::to_string(task_id));
            return json_text_response(200, posted_tasks_json(task_ids));
        }

        case Endpoint::room_task_get: {
            const auto id = parse_id(match.item_id);
            const Task* t = id ? chat_.task(*id) : nullptr;
            if (!t || t->room_id != room->room_id) return api_error(404, "The task does not exist.");
            return json_text_response(200, to_json(task_record(chat_, *t, false)));
        }

        case Endpoint::room_task_status_put: {
            if (!can_write) return forbidden();
            const auto id = parse_id(match.item_id);
            Task* t = id ? chat_.task(*id) : nullptr;
            if (!t || t->room_id != room->room_id) return api_error(404, "The task does not exist.");
            const std::string status = field("body").value_or("");
            if (status != "open" && status != "done") return bad_param("body", "must be open or done.");
            t->done = status == "done";
            return json_text_response(200, task_status_answer_json(std::to_string(t->task_id)));
        }

        case Endpoint::room_files_get: {
            std::optional<std::int64_t> by;
            if (auto v = query("account_id")) {
                if (!(by = parse_id(*v))) return bad_param("account_id", "must be an account ID.");
            }
            std::vector<ChatFile> list;
            for (const FileRecord& f : room->files) {
                if (by && f.account_id != *by) continue;
                list.push_back(file_record(chat_, f));
            }
            return list_or_no_content(std::move(list));
        }

        case Endpoint::room_file_get: {
            const auto id = parse_id(match.item_id);
            for (const FileRecord& f : room->files) {
                if (id && f.file_id == *id) return file_answer(ctx, f, file_record(chat_, f));  // api_files.cpp
            }
            return api_error(404, "The file does not exist.");
        }

        case Endpoint::room_files_post:
            return upload_file(ctx, caller.account, *room, can_write);  // api_files.cpp

        case Endpoint::room_link_get:
            return json_response(200, link_json(room->link, link_url_prefix()));

        case Endpoint::room_link_post:
        case Endpoint::room_link_put:
        case Endpoint::room_link_delete: {
            if (!admin) return api_error(403, "Only an administrator of the room can change its invitation link.");
            if (match.endpoint == Endpoint::room_link_delete) {
                room->link.reset();  // already none: the same answer (DELETE is idempotent)
                return json_response(200, link_json(room->link, link_url_prefix()));
            }
            const bool creating = match.endpoint == Endpoint::room_link_post;
            if (creating && room->link) {
                return api_error(400, "The room already has an invitation link; change it with PUT or remove it with DELETE.");
            }
            if (!creating && !room->link) {
                return api_error(400, "The room has no invitation link; create one with POST.");
            }
            if (creating) {
                auto made = new_link(field("code"), field("description").value_or(""),
                                     field("need_acceptance").value_or("1") == "1");
                if (!made) return made.error();
                room->link = std::move(made).value();
            } else {
                if (auto code = field("code"); code && *code != room->link->code) {
                    if (chat_.room_with_link_code(*code)) return bad_param("code", "is already used by another room.");
                    room->link->code = *code;
                }
                if (auto v = field("description")) room->link->description = *v;
                if (auto v = field("need_acceptance")) room->link->need_acceptance = *v == "1";
            }
            return json_response(200, link_json(room->link, link_url_prefix()));
        }

    }
    return api_error(501, "The sandbox does not implement " + std::string(to_string(match.endpoint)) + ".");
}

}  // namespace roomkey::sandbox
