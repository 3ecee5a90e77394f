// room_view.hpp: the state of the open room: its messages
// (oldest first, merged by message_id across polls), tasks, members and
// files, whether a load is running and the last error. Pure: App feeds it the
// records shared/'s readers produced; room_json() is the page API's `room`.
// version() is the one owner of "changed": every change goes through a
// member here, and each bumps it; messages_version() counts the messages'
// changes alone and details_version() the rest, so the page state rebuilds
// the messages only when they changed, not when a task or a member did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "roomkey/api_records.hpp"

namespace roomkey::app {

// Messages kept per room: the service returns at most 100 per call; a long
// session keeps a few calls' worth.
inline constexpr std::size_t kMaxRoomMessages = 500;

// The room's last upload: page API `room.upload`.
// status: "sending" (sent/total bytes of the request body so far), "done"
// (file_id set), "failed" (error says why; "too large" before anything was
// sent). total 0 until the request is built.
struct FileUploadState {
    std::string name;
    std::int64_t sent = 0;
    std::int64_t total = 0;
    std::string status;
    std::string file_id;
    std::string error;
};
// The last download link asked for: page API `room.download`. Valid until
// expires_at (Unix ms; the service's links live 30 s).
struct FileDownloadState {
    std::string file_id;
    std::string url;
    std::int64_t expires_at = 0;
    std::string error;
};

class RoomView {
public:
    // Opens `room_id`; opening another room forgets the previous one's records.
    void open(const std::string& room_id, const std::string& name);
    void close();
    bool is_open() const { return !room_id_.empty(); }
    const std::string& room_id() const { return room_id_; }
    const std::string& name() const { return name_; }

    // Adds the messages of a GET /rooms/{room_id}/messages answer that are not
    // shown yet (by message_id, exact strings) and returns those, oldest first,
    // for the text mirror. Clears the error: the same load now succeeded.
    std::vector<ChatMessage> merge_messages(const std::vector<ChatMessage>& answer);
    // The service took an edit (the body changes, update_time set) or a delete.
    void edit_message(const std::string& message_id, const std::string& body, std::int64_t update_time);
    void remove_message(const std::string& message_id);
    void set_tasks(std::vector<ChatTask> tasks);
    // After PUT .../tasks/{task_id}/status answered: the task shows `status`.
    void set_task_status(const std::string& task_id, const std::string& status);
    void set_members(std::vector<RoomMember> members);
    void set_files(std::vector<ChatFile> files);

    void set_upload(FileUploadState upload) {
        upload_ = std::move(upload);
        ++version_;
    }
    // For changing the upload in place: counted as a change.
    FileUploadState& upload() {
        ++version_;
        return upload_;
    }
    const FileUploadState& upload() const { return upload_; }
    void set_download(FileDownloadState download) {
        download_ = std::move(download);
        ++version_;
    }
    const FileDownloadState& download() const { return download_; }

    void set_loading(bool loading) {
        version_ += loading != loading_;
        loading_ = loading;
    }
    void set_error(std::string error) {
        version_ += error != error_;
        error_ = std::move(error);
    }
    void clear_error() { set_error({}); }

    const std::vector<ChatMessage>& messages() const { return messages_; }
    const std::vector<ChatTask>& tasks() const { return tasks_; }
    const std::vector<RoomMember>& members() const { return members_; }
    const std::vector<ChatFile>& files() const { return files_; }
    bool loading() const { return loading_; }
    const std::string& error() const { return error_; }
    // Grows with every change of anything above (never goes back, not even
    // when another room opens): equal versions, the same room as shown.
    std::uint64_t version() const { return version_ + messages_version_; }
    // Of those, the changes of messages() alone, and of everything else.
    std::uint64_t messages_version() const { return messages_version_; }
    std::uint64_t details_version() const { return version_; }

private:
    std::string room_id_;
    std::string name_;
    std::vector<ChatMessage> messages_;
    std::vector<ChatTask> tasks_;
    std::vector<RoomMember> members_;
    std::vector<ChatFile> files_;
    bool loading_ = false;
    std::string error_;
    FileUploadState upload_;
    FileDownloadState download_;
    std::uint64_t version_ = 0;           // everything but the messages
    std::uint64_t messages_version_ = 0;  // the messages

    void forget();
};

// The page API's `room` object: {room_id, name,
// messages:[{message_id, account_id, name, body, send_time}], tasks:[{task_id,
// body, status, account_id}], members:[{account_id, name, role}],
// files:[{file_id, filename, filesize, account_id, upload_time}], loading,
// error, upload:{name, sent, total, status, file_id, error} or null,
// download:{file_id, url, expires_at} or null}; "null" when no room is open.
// room_value is the same as a JSON value: the page state adds to it without
// writing it out and reading it back.
nlohmann::json room_value(const RoomView& view);
// The same in two parts: room_value without `messages`, and `messages` as
// the service's records (the page state adds what the parse reads in them:
// text, system, links, ...; views_state.hpp).
nlohmann::json room_details_value(const RoomView& view);
nlohmann::json room_messages_value(const RoomView& view);
std::string room_json(const RoomView& view);

// The mirror's line for new messages in the open room ("" for none):
// "2 new messages in Launch: Bob: hello; Carol: done".
std::string announce_new_messages(const RoomView& view, const std::vector<ChatMessage>& fresh);

}  // namespace roomkey::app
