// app_files.cpp: files both ways (issue 26 point 4) as App members: an
// upload (POST /rooms/{room_id}/files, multipart built by shared/) through
// the one REST queue (same session, 401 retry and pacing as every call),
// its progress from the platform, and a download link asked for when the
// user opens a file (it lives 30 s, so it is never asked for ahead).
// State: room.upload and room.download (RoomView).
#include <cstdio>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "roomkey/upload_limits.hpp"

namespace roomkey::app {

using namespace detail;

namespace {

// "7.3 MB" for the too-large message.
std::string megabytes(std::int64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return text;
}

}  // namespace

void App::apply_view(const intent::UploadFile& i, Instant now) {
    // room.upload belongs to the open room: uploading to another opens it.
    if (!room_.is_open() || room_.room_id() != i.room_id) apply_view(intent::OpenRoom{i.room_id}, now);
    FileUploadState state;
    state.name = i.name;
    const auto size = i.size.value_or(static_cast<std::int64_t>(i.data.size()));
    if (size > static_cast<std::int64_t>(kMaxUploadFileBytes)) {
        state.status = "failed";
        state.error = i.name + " is " + megabytes(size) + ": the service takes files up to 5 MB (" +
                      std::to_string(kMaxUploadFileBytes) + " bytes). Nothing was sent.";
        room_.set_upload(std::move(state));
        return;
    }
    if (has_pending_view(ViewCall::upload_file, i.room_id)) {
        // One upload per room at a time: the progress shown is that one's.
        state.status = "failed";
        state.error = "An upload to this room is still running: wait for it, then send " + i.name + ".";
        room_.set_upload(std::move(state));
        return;
    }
    state.status = "sending";
    state.total = size;
    room_.set_upload(std::move(state));
    auto file = std::make_shared<FileToUpload>();
    file->name = i.name;
    file->mime = i.mime;
    file->bytes = i.data;
    file->message = i.message;
    enqueue_view(ViewCall::upload_file, Method::Post, "/rooms/" + i.room_id + "/files", {}, i.room_id, now,
                 std::nullopt, {}, std::move(file));
}

void App::apply_view(const intent::PickFile& i, Instant now) {
    if (!room_.is_open() || room_.room_id() != i.room_id) apply_view(intent::OpenRoom{i.room_id}, now);
    effects_.push_back(effect::PickFile{i.room_id, i.message});
}

void App::apply_view(const intent::OpenFile& i, Instant now) {
    if (!room_.is_open() || room_.room_id() != i.room_id) apply_view(intent::OpenRoom{i.room_id}, now);
    if (has_pending_view(ViewCall::open_file, i.file_id)) return;
    enqueue_view(ViewCall::open_file, Method::Get, "/rooms/" + i.room_id + "/files/" + i.file_id,
                 {{"create_download_url", "1"}}, i.file_id, now, std::nullopt, i.room_id);
}

void App::on_upload_progress(std::uint64_t id, std::int64_t sent, std::int64_t total) {
    auto http = http_.find(id);
    if (http == http_.end()) return;
    const auto* rest = std::get_if<RestCall>(&http->second);
    if (!rest) return;
    auto call = calls_.find(rest->id);
    if (call == calls_.end() || !call->second.upload) return;
    if (!room_.is_open() || room_.room_id() != call->second.subject) return;
    FileUploadState& up = room_.upload();
    if (up.status != "sending") return;
    up.sent = sent;
    up.total = total;
}

void App::on_file_answer(const ApiCall& call, const std::optional<HttpResponse>& response, const std::string& reason,
                         Instant now) {
    const bool upload = call.view == ViewCall::upload_file;
    const std::string room = upload ? call.subject : call.room;
    const std::string what = upload ? "Uploading " + (call.upload ? call.upload->name : std::string("the file"))
                                    : "Opening file " + call.subject;
    // The failure in words ("" on success), as the view and last_error show it.
    std::string failure;
    std::string file_id;
    std::string url;
    if (!response) {
        UserError error = reason.rfind(kNoAnswer, 0) == 0 ? transport_error(what, reason.substr(kNoAnswer.size()))
                                                           : transport_error(what, reason);
        failure = error.message;
        set_error(std::move(error), ErrorSource::room);
    } else if (!is_success(response->status)) {
        UserError error =
            api_error(what, *response, upload ? Endpoint::room_files_post : Endpoint::room_file_get);
        failure = error.code.empty() ? error.message : error.code + ": " + error.message;
        set_error(std::move(error), ErrorSource::room);
    } else if (upload) {
        auto read = read_uploaded_file(*response);
        if (read) {
            file_id = *read;
        } else {
            UserError error = unreadable_answer_error(what, to_string(read.error()));
            failure = error.message;
            set_error(std::move(error), ErrorSource::room);
        }
    } else {
        auto read = read_download_url(*response);
        if (read) {
            url = *read;
        } else {
            UserError error = unreadable_answer_error(what, to_string(read.error()));
            failure = error.message;
            set_error(std::move(error), ErrorSource::room);
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
        notice_ = "Uploaded " + (call.upload ? call.upload->name : std::string("the file")) + " (file " + file_id + ").";
        clear_error(ErrorSource::room);
        // The service wrote its file_uploaded message: show it, and the file.
        if (for_open_room) {
            if (!has_pending_view(ViewCall::room_files, room)) {
                enqueue_view(ViewCall::room_files, Method::Get, "/rooms/" + room + "/files", {}, room, now);
            }
            apply_view(intent::LoadMessages{room}, now);
        }
        return;
    }
    FileDownloadState down;
    down.file_id = call.subject;
    down.error = failure;
    if (failure.empty()) {
        down.url = url;
        down.expires_at = unix_ms(now) + 30 * 1000;  // RAML: the link is valid for 30 seconds
        effects_.push_back(effect::OpenUrl{url});
        clear_error(ErrorSource::room);
    }
    if (for_open_room) room_.set_download(std::move(down));
}

}  // namespace roomkey::app
