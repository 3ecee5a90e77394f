// app_rooms.cpp: issue 10's views as App members: the open room (messages
// with force=1 on open, its tasks, members and files; polling at the
// interval shared/polling.hpp derives from the remaining overall budget,
// paused while the tab is hidden; mark as read; a task done), my tasks,
// contacts and contact requests. Every call goes through the one REST queue
// (app_rest.cpp): the same session (one refresh and one retry on 401) and
// the same pacer; the state each view shows lives in RoomView and Loadables.
#include <algorithm>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/polling.hpp"
#include "roomkey/www_authenticate.hpp"

namespace roomkey::app {

using namespace detail;

namespace {

std::string room_path(const std::string& room_id, std::string_view rest = {}) {
    return "/rooms/" + room_id + std::string(rest);
}

}  // namespace

// ---------------------------------------------------------------------------
// Intents
// ---------------------------------------------------------------------------

void App::apply_view(const intent::OpenRoom& i, Instant now) {
    std::string name;
    if (rooms_.value) {
        for (const Room& room : *rooms_.value) {
            if (room.room_id == i.room_id) name = room.name;
        }
    }
    const bool same = room_.is_open() && room_.room_id() == i.room_id;
    room_.open(i.room_id, name);
    selected_room_ = i.room_id;
    if (!same) {
        room_poll_at_.reset();
        room_announcement_.clear();
    }
    apply_view(intent::LoadMessages{i.room_id}, now);
    const FormFields none;
    if (!has_pending_view(ViewCall::room_tasks, i.room_id)) {
        enqueue_view(ViewCall::room_tasks, Method::Get, room_path(i.room_id, "/tasks"), none, i.room_id, now);
    }
    if (!has_pending_view(ViewCall::room_members, i.room_id)) {
        enqueue_view(ViewCall::room_members, Method::Get, room_path(i.room_id, "/members"), none, i.room_id, now);
    }
    if (!has_pending_view(ViewCall::room_files, i.room_id)) {
        enqueue_view(ViewCall::room_files, Method::Get, room_path(i.room_id, "/files"), none, i.room_id, now);
    }
}

void App::apply_view(const intent::LoadMessages& i, Instant now) {
    if (!room_.is_open() || room_.room_id() != i.room_id) {
        // Messages land in the open room: loading another one opens it.
        apply_view(intent::OpenRoom{i.room_id}, now);
        return;
    }
    if (has_pending_view(ViewCall::room_messages, i.room_id)) return;
    room_.set_loading(true);
    enqueue_view(ViewCall::room_messages, Method::Get, room_path(i.room_id, "/messages"), {{"force", "1"}}, i.room_id,
                 now);
}

void App::apply_view(const intent::MarkRead& i, Instant now) {
    if (has_pending_view(ViewCall::mark_read, i.room_id)) return;
    enqueue_view(ViewCall::mark_read, Method::Put, room_path(i.room_id, "/messages/read"), {}, i.room_id, now);
}

void App::apply_view(const intent::CompleteTask& i, Instant now) {
    if (has_pending_view(ViewCall::complete_task, i.task_id)) return;
    enqueue_view(ViewCall::complete_task, Method::Put, room_path(i.room_id, "/tasks/" + i.task_id + "/status"),
                 {{"body", "done"}}, i.task_id, now);
}

void App::apply_view(const intent::LoadMyTasks&, Instant now) {
    if (has_pending_view(ViewCall::my_tasks, {})) return;
    my_tasks_.loading = true;
    enqueue_view(ViewCall::my_tasks, Method::Get, "/my/tasks", {}, {}, now);
}

void App::apply_view(const intent::LoadContacts&, Instant now) {
    if (!has_pending_view(ViewCall::contacts, {})) {
        contacts_.loading = true;
        enqueue_view(ViewCall::contacts, Method::Get, "/contacts", {}, {}, now);
    }
    if (!has_pending_view(ViewCall::incoming_requests, {})) {
        incoming_.loading = true;
        enqueue_view(ViewCall::incoming_requests, Method::Get, "/incoming_requests", {}, {}, now);
    }
}

void App::apply_view(const intent::AcceptRequest& i, Instant now) {
    if (has_pending_view(ViewCall::accept_request, i.request_id)) return;
    enqueue_view(ViewCall::accept_request, Method::Put, "/incoming_requests/" + i.request_id, {}, i.request_id, now);
}

void App::apply_view(const intent::DeclineRequest& i, Instant now) {
    if (has_pending_view(ViewCall::decline_request, i.request_id)) return;
    enqueue_view(ViewCall::decline_request, Method::Delete, "/incoming_requests/" + i.request_id, {}, i.request_id,
                 now);
}

void App::apply_view(const intent::SetPageVisible& i, Instant now) {
    (void)now;
    page_visible_ = i.visible;
}

// ---------------------------------------------------------------------------
// Queue and polling
// ---------------------------------------------------------------------------

void App::enqueue_view(ViewCall view, Method method, std::string path, FormFields params, std::string subject,
                       Instant now, std::optional<std::string> post_room, std::string room,
                       std::shared_ptr<const FileToUpload> upload) {
    ApiCall call;
    call.id = next_call_id_++;
    call.kind = CallKind::view;
    call.view = view;
    call.method = method;
    call.path = std::move(path);
    call.params = std::move(params);
    call.subject = std::move(subject);
    call.room = std::move(room);
    call.upload = std::move(upload);
    RestOptions options;
    options.room_for_post = std::move(post_room);
    options.rate_limit_retries = kMaxRateLimitedGetRetries;
    Result<HttpRequest, std::string> request = Err{std::string()};
    if (call.upload) {
        // multipart/form-data (shared/file_upload.hpp); random_ draws the boundary.
        auto built = upload_file_request(api_config(), HeldByHelper{}, call.subject, *call.upload, random_);
        if (!built) {
            calls_[call.id] = call;
            fail_call(call.id, "the upload could not be built: " + std::string(to_string(built.error())), now);
            return;
        }
        request = std::move(*built);
    } else if (auto built = api_request(api_config(), HeldByHelper{}, call.method, call.path, call.params)) {
        request = std::move(*built);
    } else {
        request = Err{std::string(to_string(built.error()))};
    }
    submit_call(call, std::move(request), std::move(options), now);
}

bool App::has_pending_view(ViewCall view, const std::string& subject) const {
    return std::any_of(calls_.begin(), calls_.end(), [&](const auto& entry) {
        const ApiCall& call = entry.second;
        const bool same_view = call.view == view ||
                               (view == ViewCall::room_messages && call.view == ViewCall::room_poll) ||
                               (view == ViewCall::room_poll && call.view == ViewCall::room_messages);
        return call.kind == CallKind::view && same_view && call.subject == subject;
    });
}

std::optional<Instant> App::room_poll_at() const {
    if (!room_.is_open() || !page_visible_ || !can_send()) return std::nullopt;
    return room_poll_at_;
}

void App::run_room_poll(Instant now) {
    const auto at = room_poll_at();
    if (!at || now < *at) return;
    room_poll_at_.reset();  // set again when this poll answers
    if (has_pending_view(ViewCall::room_poll, room_.room_id())) return;
    enqueue_view(ViewCall::room_poll, Method::Get, room_path(room_.room_id(), "/messages"), {{"force", "1"}},
                 room_.room_id(), now);
}

std::string App::view_label(const ApiCall& call) const {
    switch (call.view) {
        case ViewCall::room_messages:
            return "room messages (open room)";
        case ViewCall::room_poll:
            return "room messages (poll)";
        case ViewCall::room_tasks:
            return "room tasks";
        case ViewCall::room_members:
            return "room members";
        case ViewCall::room_files:
            return "room files";
        case ViewCall::mark_read:
            return "mark as read";
        case ViewCall::complete_task:
            return "task done";
        case ViewCall::my_tasks:
            return "my tasks";
        case ViewCall::contacts:
            return "contacts";
        case ViewCall::incoming_requests:
            return "contact requests";
        case ViewCall::accept_request:
            return "accept contact request";
        case ViewCall::decline_request:
            return "decline contact request";
        case ViewCall::console:
            return "API console: " + std::string(to_string(call.method)) + " " + call.path;
        case ViewCall::upload_file:
            return "file upload (" + (call.upload ? call.upload->name : std::string()) + ")";
        case ViewCall::open_file:
            return "file download link";
        case ViewCall::mention_text:
            return "room messages (a mention's text)";
    }
    return "view";
}

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

void App::on_view_answer(const ApiCall& call, const std::optional<HttpResponse>& response, const std::string& reason,
                         Instant now) {
    if (call.view == ViewCall::console) {
        on_console_answer(response, reason);  // the console shows its own result
        return;
    }
    if (call.view == ViewCall::upload_file || call.view == ViewCall::open_file) {
        on_file_answer(call, response, reason, now);  // app_files.cpp
        return;
    }
    if (call.view == ViewCall::mention_text) {
        on_mention_text_answer(call, response);  // app_workspace.cpp
        return;
    }
    // Marking a room read that has nothing unread is a 400 at the service
    // (RAML); the room is read all the same, so that is no failure.
    const bool already_read = call.view == ViewCall::mark_read && response && is_already_read_answer(*response);
    const bool ok = response && (is_success(response->status) || already_read);
    const bool room_call = call.view == ViewCall::room_messages || call.view == ViewCall::room_poll ||
                           call.view == ViewCall::room_tasks || call.view == ViewCall::room_members ||
                           call.view == ViewCall::room_files || call.view == ViewCall::mark_read ||
                           call.view == ViewCall::complete_task;
    const bool for_open_room = room_.is_open() && call.subject == room_.room_id();
    const ErrorSource source = room_call                         ? ErrorSource::room
                               : call.view == ViewCall::my_tasks ? ErrorSource::my_tasks
                                                                 : ErrorSource::contacts;
    const std::string what = "Reading " + view_label(call);
    if (call.view == ViewCall::room_messages || call.view == ViewCall::room_poll) {
        if (for_open_room) room_.set_loading(false);
        // The next poll is timed from this answer, with the budget as it is now.
        // Its part of the poll share: the room list's read takes the rest (shared/polling.hpp).
        if (for_open_room) room_poll_at_ = now + poll_interval(client_.scheduler().overall(now), now, kRoomMessagesPart);
    }

    // The failure, as the view and last_error show it; "" on success.
    std::string failure;
    if (!response) {
        if (reason.rfind(kNoAnswer, 0) == 0) {
            UserError error = transport_error(what, reason.substr(kNoAnswer.size()));
            failure = error.message;
            set_error(std::move(error), source);
        } else {
            failure = "the request was not completed (" + reason + ")";
            UserError error;
            error.title = what + " failed";
            error.message = "The request was not completed (" + reason + ").";
            error.remedy = "Sign in again.";
            set_error(std::move(error), source);
        }
    } else if (!ok) {
        const auto match = match_endpoint(call.method, call.path);
        UserError error = api_error(what, *response, match ? std::optional<Endpoint>(match->endpoint) : std::nullopt);
        failure = error.code.empty() ? error.message : error.code + ": " + error.message;
        // Spec 5.2.2: a 403 insufficient_scope names the scope the call
        // needed; the view says it, and "sign in again adding" it is offered.
        const auto challenge = find_bearer_challenge(response->headers);
        if (response->status == 403 && challenge && challenge->error == "insufficient_scope" && challenge->scope) {
            failure += " This needs the scope " + *challenge->scope + ": sign in again adding it.";
            console_.offer_scope(*challenge->scope);
        }
        set_error(std::move(error), source);
    }

    auto unreadable = [&](std::string_view detail) {
        UserError error = unreadable_answer_error(what, detail);
        failure = error.message;
        set_error(std::move(error), source);
    };

    switch (call.view) {
        case ViewCall::room_messages:
        case ViewCall::room_poll:
            if (!for_open_room) return;
            if (failure.empty()) {
                auto messages = read_messages(*response);
                if (!messages) {
                    unreadable(to_string(messages.error()));
                } else {
                    const auto fresh = room_.merge_messages(*messages);
                    // The first load is what the room holds, not news.
                    if (call.view == ViewCall::room_poll && !fresh.empty()) {
                        room_announcement_ = announce_new_messages(room_, fresh);
                    }
                }
            }
            break;
        case ViewCall::room_tasks:
            if (!for_open_room) return;
            if (failure.empty()) {
                auto tasks = read_tasks(*response);
                tasks ? room_.set_tasks(std::move(*tasks)) : unreadable(to_string(tasks.error()));
            }
            break;
        case ViewCall::room_members:
            if (!for_open_room) return;
            if (failure.empty()) {
                auto members = read_members(*response);
                members ? room_.set_members(std::move(*members)) : unreadable(to_string(members.error()));
            }
            break;
        case ViewCall::room_files:
            if (!for_open_room) return;
            if (failure.empty()) {
                auto files = read_files(*response);
                files ? room_.set_files(std::move(*files)) : unreadable(to_string(files.error()));
            }
            break;
        case ViewCall::mark_read:
            if (failure.empty()) {
                auto counts = read_mark_read_answer(*response);
                if (!counts) {
                    unreadable(to_string(counts.error()));
                } else {
                    if (rooms_.value) {
                        for (Room& room : *rooms_.value) {
                            if (room.room_id == call.subject) {
                                room.unread_num = counts->unread_num;
                                room.mention_num = counts->mention_num;
                            }
                        }
                    }
                    // The totals changed at the service: read them again.
                    if (!has_pending(CallKind::my_status)) enqueue(CallKind::my_status, std::nullopt, now);
                    notice_ = already_read ? "Room " + call.subject + " was already read."
                                           : "Room " + call.subject + " marked as read.";
                }
            }
            break;
        case ViewCall::complete_task:
            if (failure.empty()) {
                auto status = read_task_status_answer(*response);
                if (!status) {
                    unreadable(to_string(status.error()));
                } else {
                    // Done, or open again (issue 27's reopen_task): the status the call sent.
                    const std::string done = call.params.empty() ? "done" : call.params.front().second;
                    room_.set_task_status(call.subject, done);
                    if (my_tasks_.value) {
                        for (ChatTask& task : *my_tasks_.value) {
                            if (task.task_id == call.subject) task.status = done;
                        }
                    }
                    notice_ = "Task " + call.subject + (done == "done" ? " is done." : " is open again.");
                }
            }
            break;
        case ViewCall::my_tasks:
            my_tasks_.loading = false;
            if (failure.empty()) {
                auto tasks = read_tasks(*response);
                if (tasks) {
                    my_tasks_.value = std::move(*tasks);
                    my_tasks_.loaded_at = now;
                } else {
                    unreadable(to_string(tasks.error()));
                }
            }
            my_tasks_.error = failure;
            break;
        case ViewCall::contacts:
            contacts_.loading = false;
            if (failure.empty()) {
                auto contacts = read_contacts(*response);
                if (contacts) {
                    contacts_.value = std::move(*contacts);
                    contacts_.loaded_at = now;
                } else {
                    unreadable(to_string(contacts.error()));
                }
            }
            contacts_.error = failure;
            break;
        case ViewCall::incoming_requests:
            incoming_.loading = false;
            if (failure.empty()) {
                auto requests = read_incoming_requests(*response);
                if (requests) {
                    incoming_.value = std::move(*requests);
                    incoming_.loaded_at = now;
                } else {
                    unreadable(to_string(requests.error()));
                }
            }
            incoming_.error = failure;
            break;
        case ViewCall::accept_request:
        case ViewCall::decline_request:
            if (failure.empty()) {
                if (incoming_.value) {
                    auto& list = *incoming_.value;
                    list.erase(std::remove_if(list.begin(), list.end(),
                                              [&](const ContactRequest& r) { return r.request_id == call.subject; }),
                               list.end());
                }
                if (call.view == ViewCall::accept_request) {
                    auto contact = read_accepted_request(*response);
                    if (contact && contacts_.value) {
                        auto& list = *contacts_.value;
                        const bool known = std::any_of(list.begin(), list.end(), [&](const Contact& c) {
                            return c.account_id == contact->account_id;
                        });
                        if (!known) list.push_back(std::move(*contact));
                    }
                    // The contact list as the service has it now.
                    if (!has_pending_view(ViewCall::contacts, {})) {
                        contacts_.loading = true;
                        enqueue_view(ViewCall::contacts, Method::Get, "/contacts", {}, {}, now);
                    }
                    notice_ = "Contact request " + call.subject + " accepted.";
                } else {
                    notice_ = "Contact request " + call.subject + " declined.";
                }
            }
            contacts_.error = failure;
            break;
        case ViewCall::console:
        case ViewCall::upload_file:
        case ViewCall::open_file:
        case ViewCall::mention_text:
            break;
    }
    if (room_call && for_open_room) {
        failure.empty() ? room_.clear_error() : room_.set_error(failure);
    }
    if (failure.empty()) clear_error(source);
}

}  // namespace roomkey::app
