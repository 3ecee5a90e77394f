// open_room.cpp: the open room feature (see open_room.hpp).
#include "app/open_room.hpp"

#include <algorithm>
#include <cstdio>

#include "app/app_detail.hpp"
#include "app/i18n.hpp"
#include "app/message_merge.hpp"
#include "app/view_answer.hpp"
#include "app/words.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/file_upload.hpp"
#include "roomkey/polling.hpp"
#include "roomkey/upload_limits.hpp"

namespace roomkey::app {

using detail::is_success;
using detail::kNoAnswer;

namespace {

std::string room_path(const std::string& room_id, std::string_view rest = {}) {
    return "/rooms/" + room_id + std::string(rest);
}

// The room list's count of unread messages in a room (0 when not listed).
std::int64_t unread_of(const Dashboard& dashboard, const std::string& room_id) {
    const auto& rooms = dashboard.rooms().value;
    if (!rooms) return 0;
    const auto it = std::find_if(rooms->begin(), rooms->end(), [&](const Room& r) { return r.room_id == room_id; });
    return it == rooms->end() ? 0 : std::max<std::int64_t>(0, it->unread_num.value_or(0));
}

}  // namespace

// ---------------------------------------------------------------------------
// Intents
// ---------------------------------------------------------------------------

void OpenRoom::open(const std::string& room_id, Instant now) {
    const bool same = room_.is_open() && room_.room_id() == room_id;
    room_.open(room_id, dashboard_.room_name(room_id));
    dashboard_.select_room(room_id);
    if (!same) {
        poll_at_.reset();
        announcement_.clear();
        first_unread_id_.clear();
        first_load_ = true;
        tried_unread_ = -1;
        read_retry_ = false;
    }
    load_messages(room_id, now);
    if (!pending(Kind::tasks, room_id))
        send(Call{Kind::tasks, Method::Get, room_path(room_id, "/tasks"), {}, room_id, {}, {}}, now);
    if (!pending(Kind::members, room_id)) {
        send(Call{Kind::members, Method::Get, room_path(room_id, "/members"), {}, room_id, {}, {}}, now);
    }
    if (!pending(Kind::files, room_id))
        send(Call{Kind::files, Method::Get, room_path(room_id, "/files"), {}, room_id, {}, {}}, now);
}

void OpenRoom::ensure_open(const std::string& room_id, Instant now) {
    if (!room_.is_open() || room_.room_id() != room_id) open(room_id, now);
}

void OpenRoom::load_messages(const std::string& room_id, Instant now) {
    if (!room_.is_open() || room_.room_id() != room_id) {
        // Messages land in the open room: loading another one opens it.
        open(room_id, now);
        return;
    }
    if (pending(Kind::messages, room_id)) return;
    room_.set_loading(true);
    send(Call{Kind::messages, Method::Get, room_path(room_id, "/messages"), {{"force", "1"}}, room_id, {}, {}}, now);
}

void OpenRoom::mark_read(const std::string& room_id, Instant now) {
    if (pending(Kind::mark_read, room_id)) return;
    send(Call{Kind::mark_read, Method::Put, room_path(room_id, "/messages/read"), {}, room_id, {}, {}}, now);
}

bool OpenRoom::wants_mark_read(const std::string& room_id) const {
    if (!mark_read_on_view_ || !room_.is_open() || room_.room_id() != room_id || first_load_) return false;
    const std::int64_t unread = unread_of(dashboard_, room_id);
    return unread > 0 && unread != tried_unread_;  // once per count: a refusal is not asked again and again
}

void OpenRoom::seen_latest(const std::string& room_id, Instant now) {
    if (!wants_mark_read(room_id)) return;
    tried_unread_ = unread_of(dashboard_, room_id);
    if (pending(Kind::mark_read, room_id)) return;
    Call call{Kind::mark_read, Method::Put, room_path(room_id, "/messages/read"), {}, room_id, {}, {}};
    call.quiet = true;
    send(std::move(call), now);
}

void OpenRoom::show_posted(const PostJob& job, const Loadable<Account>& me) {
    if (!room_.is_open() || room_.room_id() != job.room_id || !me.value || job.message_id.empty()) return;
    ChatMessage m;
    m.message_id = job.message_id;
    m.account.account_id = me.value->account_id;
    m.account.name = me.value->name.value_or("");
    m.body = job.body;
    m.send_time = job.done_at ? unix_ms(*job.done_at) / 1000 : 0;
    const std::string error = room_.error();
    room_.merge_messages({m});
    if (!error.empty()) room_.set_error(error);
}

void OpenRoom::set_task_status(const std::string& room_id, const std::string& task_id, const std::string& status,
                               Instant now) {
    if (pending(Kind::task_status, task_id)) return;
    send(Call{Kind::task_status,
              Method::Put,
              room_path(room_id, "/tasks/" + task_id + "/status"),
              {{"body", status}},
              task_id,
              {},
              {}},
         now);
}

void OpenRoom::upload(const intent::UploadFile& i, Instant now) {
    // room.upload belongs to the open room: uploading to another opens it.
    ensure_open(i.room_id, now);
    FileUploadState state;
    state.name = i.name;
    const auto size = i.size.value_or(static_cast<std::int64_t>(i.data.size()));
    if (size > static_cast<std::int64_t>(kMaxUploadFileBytes)) {
        state.status = "failed";
        state.error = tr("room.upload_too_large",
                         {{"name", i.name}, {"size", format_file_size(size)}, {"most", std::to_string(kMaxUploadFileBytes)}});
        room_.set_upload(std::move(state));
        return;
    }
    if (pending(Kind::upload, i.room_id)) {
        // One upload per room at a time: the progress shown is that one's.
        state.status = "failed";
        state.error = tr("room.upload_running", {{"name", i.name}});
        room_.set_upload(std::move(state));
        return;
    }
    state.status = "sending";
    state.total = size;
    room_.set_upload(std::move(state));
    auto file = std::make_unique<FileToUpload>();
    file->name = i.name;
    file->mime = i.mime;
    file->bytes = i.data;
    file->message = i.message;
    send(Call{Kind::upload, Method::Post, room_path(i.room_id, "/files"), {}, i.room_id, {}, std::move(file)}, now);
}

void OpenRoom::open_file(const intent::OpenFile& i, Instant now) {
    ensure_open(i.room_id, now);
    if (pending(Kind::open_file, i.file_id)) return;
    send(Call{Kind::open_file,
              Method::Get,
              room_path(i.room_id, "/files/" + i.file_id),
              {{"create_download_url", "1"}},
              i.file_id,
              i.room_id,
              {}},
         now);
}

void OpenRoom::on_upload_progress(RequestTag tag, std::int64_t sent, std::int64_t total) {
    const auto call = calls_.find(tag);
    if (call == calls_.end() || !call->second.upload) return;
    if (!room_.is_open() || room_.room_id() != call->second.subject) return;
    FileUploadState& up = room_.upload();
    if (up.status != "sending") return;
    up.sent = sent;
    up.total = total;
}

// ---------------------------------------------------------------------------
// Requests and polling
// ---------------------------------------------------------------------------

Words OpenRoom::label(const Call& call) {
    static const char* const kLabels[] = {"room.call_messages", "room.call_poll", "room.call_tasks",
                                          "room.call_members", "room.call_files", "room.call_mark_read",
                                          "room.call_task_status", "room.call_upload", "room.call_download_link"};  // by Kind
    if (call.kind == Kind::upload) return Words{kLabels[7], "name", call.upload ? call.upload->name : std::string()};
    return Words{kLabels[static_cast<int>(call.kind)]};
}

void OpenRoom::send(Call call, Instant now) {
    Outgoing out;
    out.label = label(call).text();
    out.options = view_options();
    if (call.upload) {
        // multipart/form-data (shared/file_upload.hpp); random_ draws the boundary.
        out.request = built(
            upload_file_request(host_.api_config(), HeldByHelper{}, call.subject, *call.upload, random_), "upload");
        out.upload_progress = true;
    } else {
        out.request = built(api_request(host_.api_config(), HeldByHelper{}, call.method, call.path, call.params));
    }
    const RequestTag tag = host_.new_tag();
    calls_[tag] = std::move(call);
    host_.submit(*this, std::move(out), now, tag);
}

bool OpenRoom::pending(Kind kind, const std::string& subject) const {
    return std::any_of(calls_.begin(), calls_.end(), [&](const auto& entry) {
        const Call& call = entry.second;
        const bool messages =
            (kind == Kind::messages || kind == Kind::poll) && (call.kind == Kind::messages || call.kind == Kind::poll);
        return (call.kind == kind || messages) && call.subject == subject;
    });
}

std::optional<Instant> OpenRoom::poll_at() const {
    if (!room_.is_open() || !page_visible_ || !host_.can_send()) return std::nullopt;
    return poll_at_;
}

void OpenRoom::run_poll(Instant now) {
    const auto at = poll_at();
    if (!at || now < *at) return;
    poll_at_.reset();  // set again when this poll answers
    if (pending(Kind::poll, room_.room_id())) return;
    const auto& rooms = dashboard_.rooms().value;
    const bool latest = poll_reads_latest(room_.messages(), rooms ? &*rooms : nullptr, room_.room_id(), read_for_);
    send(Call{Kind::poll,
              Method::Get,
              room_path(room_.room_id(), "/messages"),
              {{"force", latest ? "1" : "0"}},  // 0: only what is new (message_merge.hpp)
              room_.room_id(),
              {},
              {}},
         now);
}

void OpenRoom::drop_all() {
    calls_.clear();
    room_.set_loading(false);
}

void OpenRoom::clear() {
    room_.close();
    poll_at_.reset();
    announcement_.clear();
}

void OpenRoom::on_rate_limited(const rest::RateLimited& waiting, Instant now) {
    const auto it = calls_.find(waiting.tag);
    if (it != calls_.end()) host_.notice_words(rate_limited(label(it->second), host_, now));
}

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

void OpenRoom::on_answer(RequestTag tag, const Answer& answer, Instant now) {
    const auto it = calls_.find(tag);
    if (it == calls_.end()) return;
    const Call call = std::move(it->second);
    calls_.erase(it);
    if (call.kind == Kind::upload || call.kind == Kind::open_file) {
        on_file_answer(call, answer, now);
        return;
    }
    const std::optional<HttpResponse>& response = answer.response;
    // Marking a room read that has nothing unread is a 400 at the service
    // (RAML); the room is read all the same, so that is no failure.
    const bool already_read = call.kind == Kind::mark_read && response && is_already_read_answer(*response);
    const bool ok = response && (is_success(response->status) || already_read);
    const bool for_open_room = room_.is_open() && call.subject == room_.room_id();
    const std::string what =
        call.kind == Kind::mark_read
            ? tr("room.marking_read",
                 {{"room", room_words(dashboard_.rooms().value ? &*dashboard_.rooms().value : nullptr, call.subject)}})
            : tr("room.reading", {{"what", label(call).text()}});
    if (call.kind == Kind::messages || call.kind == Kind::poll) {
        if (for_open_room) room_.set_loading(false);
        // The next poll is timed from this answer, with the budget as it is now.
        // Its part of the poll share: the room list's read takes the rest (shared/polling.hpp).
        if (for_open_room) poll_at_ = now + poll_interval(host_.scheduler().overall(now), now, kRoomMessagesPart);
    }
    std::string failure = view_failure(host_, what, answer, ok, call.method, call.path, ErrorSource::room);
    auto unreadable = [&](std::string_view detail) {
        failure = unreadable_failure(host_, what, detail, ErrorSource::room);
    };

    switch (call.kind) {
        case Kind::messages:
        case Kind::poll:
            if (!for_open_room) return;
            if (failure.empty()) {
                auto messages = read_messages(*response);
                if (!messages) {
                    unreadable(to_string(messages.error()));
                } else {
                    const auto fresh = room_.merge_messages(*messages);
                    if (call.kind == Kind::messages && first_load_) {
                        // Where the room opens: its first unread message, by the room list's count.
                        first_load_ = false;
                        const auto unread = static_cast<std::size_t>(unread_of(dashboard_, call.subject));
                        const auto& all = room_.messages();
                        if (unread > 0 && !all.empty())
                            first_unread_id_ = all[all.size() - std::min(all.size(), unread)].message_id;
                    }
                    // The first load is what the room holds, not news.
                    if (call.kind == Kind::poll && !fresh.empty()) announcement_ = announce_new_messages(room_, fresh);
                    // A task added, done or reopened (from anywhere) comes with a message: read the tasks again.
                    const bool about_tasks = std::any_of(fresh.begin(), fresh.end(), [](const ChatMessage& m) {
                        return m.body.find("[task ") != std::string::npos || m.body.find("[dtext:task") != std::string::npos;
                    });
                    if (call.kind == Kind::poll && about_tasks && !pending(Kind::tasks, call.subject))
                        send(Call{Kind::tasks, Method::Get, room_path(call.subject, "/tasks"), {}, call.subject, {}, {}},
                             now);
                    // The service answers again: the room seen during the outage is marked read now.
                    if (read_retry_) {
                        read_retry_ = false;
                        tried_unread_ = -1;
                        seen_latest(call.subject, now);
                    }
                }
            }
            break;
        case Kind::tasks:
            if (!for_open_room) return;
            if (failure.empty()) {
                auto tasks = read_tasks(*response);
                tasks ? room_.set_tasks(std::move(*tasks)) : unreadable(to_string(tasks.error()));
            }
            break;
        case Kind::members:
            if (!for_open_room) return;
            if (failure.empty()) {
                auto members = read_members(*response);
                members ? room_.set_members(std::move(*members)) : unreadable(to_string(members.error()));
            }
            break;
        case Kind::files:
            if (!for_open_room) return;
            if (failure.empty()) {
                auto files = read_files(*response);
                files ? room_.set_files(std::move(*files)) : unreadable(to_string(files.error()));
            }
            break;
        case Kind::mark_read:
            // Seen during an outage (no answer, the helper's or the service's 5xx, 429): the
            // error stands, the room stays unread, and the next answer of the room's poll asks again.
            // A refusal (4xx) is not asked again for the same count.
            if (!failure.empty() && call.quiet && for_open_room &&
                (!response || response->status >= 500 || response->status == 429)) {
                read_retry_ = true;
            }
            if (failure.empty()) {
                auto counts = read_mark_read_answer(*response);
                if (!counts) {
                    unreadable(to_string(counts.error()));
                } else {
                    dashboard_.set_room_counts(call.subject, counts->unread_num, counts->mention_num);
                    // The totals changed at the service: read them again.
                    dashboard_.reload_status(now);
                    if (!call.quiet) {
                        const std::string room =
                            room_words(dashboard_.rooms().value ? &*dashboard_.rooms().value : nullptr, call.subject);
                        host_.notice_words({already_read ? "room.was_read" : "room.marked_read", "room", room});
                    }
                }
            }
            break;
        case Kind::task_status:
            if (failure.empty()) {
                auto status = read_task_status_answer(*response);
                if (!status) {
                    unreadable(to_string(status.error()));
                } else {
                    // Done, or open again: the status the call sent.
                    const std::string done = call.params.empty() ? "done" : call.params.front().second;
                    room_.set_task_status(call.subject, done);
                    my_tasks_.set_status(call.subject, done);
                    host_.notice_words(
                        {done == "done" ? "room.task_is_done" : "room.task_is_open", "task",
                         task_words({&room_.tasks(), my_tasks_.tasks().value ? &*my_tasks_.tasks().value : nullptr},
                                    call.subject)});
                }
            }
            break;
        case Kind::upload:
        case Kind::open_file:
            break;
    }
    if (for_open_room) failure.empty() ? room_.clear_error() : room_.set_error(failure);
    if (failure.empty()) host_.clear_error(ErrorSource::room);
}

void OpenRoom::on_file_answer(const Call& call, const Answer& answer, Instant now) {
    const bool upload = call.kind == Kind::upload;
    const std::string room = upload ? call.subject : call.room;
    const std::string what =
        upload ? tr("room.uploading", {{"name", call.upload ? call.upload->name : std::string(tr("words.the_file"))}})
               : tr("room.opening", {{"name", file_words(room_.files(), call.subject)}});
    const std::optional<HttpResponse>& response = answer.response;
    // The failure in words ("" on success), as the view and the app's error show it.
    std::string failure;
    std::string file_id;
    std::string url;
    if (!response) {
        UserError error = answer.reason.rfind(kNoAnswer, 0) == 0
                              ? transport_error(what, answer.reason.substr(kNoAnswer.size()))
                              : transport_error(what, answer.reason);
        failure = error.message;
        host_.set_error(std::move(error), ErrorSource::room);
    } else if (!is_success(response->status)) {
        UserError error = api_error(what, *response, upload ? Endpoint::room_files_post : Endpoint::room_file_get);
        failure = error.code.empty() ? error.message : error.code + ": " + error.message;
        host_.set_error(std::move(error), ErrorSource::room);
    } else if (upload) {
        auto read = read_uploaded_file(*response);
        if (read) {
            file_id = *read;
        } else {
            failure = unreadable_failure(host_, what, to_string(read.error()), ErrorSource::room);
        }
    } else {
        auto read = read_download_url(*response);
        if (read) {
            url = *read;
        } else {
            failure = unreadable_failure(host_, what, to_string(read.error()), ErrorSource::room);
        }
    }
    const bool for_open_room = room_.is_open() && room_.room_id() == room;
    if (upload) {
        if (for_open_room) {
            FileUploadState& up = room_.upload();
            up.status = failure.empty() ? "done" : "failed";
            up.error = failure;
            up.file_id = file_id;
            if (failure.empty()) up.sent = up.total;
        }
        if (!failure.empty()) return;
        host_.notice_words({"room.uploaded", "name", call.upload ? call.upload->name : std::string(tr("words.the_file"))});
        host_.clear_error(ErrorSource::room);
        // The service wrote its file_uploaded message: show it, and the file.
        if (for_open_room) {
            if (!pending(Kind::files, room)) {
                send(Call{Kind::files, Method::Get, room_path(room, "/files"), {}, room, {}, {}}, now);
            }
            load_messages(room, now);
        }
        return;
    }
    FileDownloadState down;
    down.file_id = call.subject;
    down.error = failure;
    if (failure.empty()) {
        down.url = url;
        down.expires_at = unix_ms(now) + 30 * 1000;  // RAML: the link is valid for 30 seconds
        host_.open_url(url);
        host_.clear_error(ErrorSource::room);
    }
    if (for_open_room) room_.set_download(std::move(down));
}

}  // namespace roomkey::app
