// room_view.cpp: the open room's state (see room_view.hpp).
#include "app/room_view.hpp"

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>

#include "app/i18n.hpp"
#include "app/message_merge.hpp"
#include "app/views_state.hpp"

namespace roomkey::app {

void RoomView::open(const std::string& room_id, const std::string& name) {
    if (room_id != room_id_) {
        forget();
        room_id_ = room_id;
    }
    name_ = name;
    ++version_;
}

void RoomView::close() { forget(); }

// Every record goes; the versions only grow (equal versions, the same room).
void RoomView::forget() {
    const std::uint64_t version = version_;
    const std::uint64_t messages_version = messages_version_;
    *this = RoomView{};
    version_ = version + 1;
    messages_version_ = messages_version + 1;
}

std::vector<ChatMessage> RoomView::merge_messages(const std::vector<ChatMessage>& answer) {
    clear_error();
    MessageMerge merge = merge_message_answer(messages_, answer, kMaxRoomMessages);
    // A poll that brought nothing new changes nothing (and publishes nothing).
    if (!merge.fresh.empty() || !merge.edited.empty()) ++messages_version_;
    return std::move(merge.fresh);
}

void RoomView::edit_message(const std::string& message_id, const std::string& body, std::int64_t update_time) {
    for (ChatMessage& m : messages_) {
        if (m.message_id != message_id) continue;
        m.body = body;
        m.update_time = update_time;
    }
    ++messages_version_;
}

void RoomView::remove_message(const std::string& message_id) {
    messages_.erase(std::remove_if(messages_.begin(), messages_.end(),
                                   [&](const ChatMessage& m) { return m.message_id == message_id; }),
                    messages_.end());
    ++messages_version_;
}

void RoomView::set_tasks(std::vector<ChatTask> tasks) {
    tasks_ = std::move(tasks);
    error_.clear();
    ++version_;
}

void RoomView::set_task_status(const std::string& task_id, const std::string& status) {
    for (ChatTask& t : tasks_) {
        if (t.task_id == task_id) t.status = status;
    }
    error_.clear();
    ++version_;
}

void RoomView::set_members(std::vector<RoomMember> members) {
    members_ = std::move(members);
    error_.clear();
    ++version_;
}

void RoomView::set_files(std::vector<ChatFile> files) {
    files_ = std::move(files);
    error_.clear();
    ++version_;
}

namespace {
using json = nlohmann::json;
}  // namespace

json room_messages_value(const RoomView& view) {
    // Each object by object_of (views_state.hpp): nlohmann's brace form
    // builds every pair inline, several times the code.
    json messages = json::array();
    for (const ChatMessage& m : view.messages()) {
        messages.push_back(object_of({{"message_id", m.message_id},
                                      {"account_id", m.account.account_id},
                                      {"name", m.account.name},
                                      {"body", m.body},
                                      {"send_time", m.send_time}}));
    }
    return messages;
}

json room_details_value(const RoomView& view) {
    if (!view.is_open()) return nullptr;
    json tasks = json::array();
    for (const ChatTask& t : view.tasks()) {
        tasks.push_back(object_of({{"task_id", t.task_id},
                                   {"body", t.body},
                                   {"status", t.status},
                                   {"account_id", t.account ? t.account->account_id : std::string()}}));
    }
    json members = json::array();
    for (const RoomMember& m : view.members()) {
        members.push_back(object_of({{"account_id", m.account_id}, {"name", m.name}, {"role", m.role}}));
    }
    json files = json::array();
    for (const ChatFile& f : view.files()) {
        files.push_back(object_of({{"file_id", f.file_id},
                                   {"filename", f.filename},
                                   {"filesize", f.filesize},
                                   {"account_id", f.account ? f.account->account_id : std::string()},
                                   {"upload_time", f.upload_time ? json(*f.upload_time) : json(nullptr)}}));
    }
    json room = object_of({{"room_id", view.room_id()},
                           {"name", view.name()},
                           {"loading", view.loading()},
                           {"error", view.error()}});
    room["tasks"] = std::move(tasks);
    room["members"] = std::move(members);
    room["files"] = std::move(files);
    const FileUploadState& up = view.upload();
    room["upload"] = up.status.empty() ? json(nullptr)
                                       : object_of({{"name", up.name},
                                                    {"sent", up.sent},
                                                    {"total", up.total},
                                                    {"status", up.status},
                                                    {"file_id", up.file_id},
                                                    {"error", up.error}});
    const FileDownloadState& down = view.download();
    room["download"] = down.file_id.empty() ? json(nullptr)
                                            : object_of({{"file_id", down.file_id},
                                                         {"url", down.url},
                                                         {"expires_at", down.expires_at},
                                                         {"error", down.error}});
    return room;
}

json room_value(const RoomView& view) {
    json room = room_details_value(view);
    if (room.is_object()) room["messages"] = room_messages_value(view);
    return room;
}

std::string room_json(const RoomView& view) {
    return room_value(view).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string announce_new_messages(const RoomView& view, const std::vector<ChatMessage>& fresh) {
    if (fresh.empty()) return {};
    std::string out = tr_n("room.announce_new", static_cast<long long>(fresh.size()),
                           {{"room", view.name().empty() ? tr("words.the_room") : view.name()}});
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        if (i > 0) out += "; ";
        out += (fresh[i].account.name.empty() ? fresh[i].account.account_id : fresh[i].account.name) + ": " +
               fresh[i].body;
    }
    return out;
}

}  // namespace roomkey::app
