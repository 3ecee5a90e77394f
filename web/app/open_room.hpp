// open_room.hpp: the open room feature: its messages (force=1 on open),
// tasks, members and files; polling at the interval shared/polling.hpp
// derives from the remaining overall budget, paused while the tab is
// hidden; mark as read; a task done or reopened; and files both ways (an
// upload with its progress, a download link asked for when the user opens
// a file: it lives 30 s, so it is never asked for ahead). The state each of
// these shows lives in RoomView.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "app/dashboard.hpp"
#include "app/feature.hpp"
#include "app/intents.hpp"
#include "app/message_layout.hpp"
#include "app/my_tasks.hpp"
#include "app/posting.hpp"
#include "app/room_view.hpp"
#include "roomkey/file_upload.hpp"
#include "roomkey/random.hpp"

namespace roomkey::app {

class OpenRoom final : public Feature {
public:
    // `page_visible`: the tab is shown (a hidden tab does not poll).
    OpenRoom(FeatureHost& host, const RandomSource& random, Dashboard& dashboard, MyTasks& my_tasks,
             const bool& page_visible)
        : host_(host), random_(random), dashboard_(dashboard), my_tasks_(my_tasks), page_visible_(page_visible) {}

    // ---- intents ----
    void open(const std::string& room_id, Instant now);
    void load_messages(const std::string& room_id, Instant now);
    void mark_read(const std::string& room_id, Instant now);
    // `status`: "done", or "open" to reopen it.
    void set_task_status(const std::string& room_id, const std::string& task_id, const std::string& status,
                         Instant now);
    void upload(const intent::UploadFile& file, Instant now);
    void open_file(const intent::OpenFile& file, Instant now);
    // Opens `room_id` unless it is the open room already.
    void ensure_open(const std::string& room_id, Instant now);
    // The platform's progress of an upload's request body.
    void on_upload_progress(RequestTag tag, std::int64_t sent, std::int64_t total);

    // ---- reading marks read, as the service's own client does ----
    // The user saw the open room to its newest message: read at the service
    // when the setting is on and the room list counts it unread.
    void seen_latest(const std::string& room_id, Instant now);
    bool wants_mark_read(const std::string& room_id) const;
    void set_mark_read_on_view(bool on) { mark_read_on_view_ = on; }
    bool mark_read_on_view() const { return mark_read_on_view_; }
    // The first message that was unread when the room opened ("" when none):
    // the room opens there, under a "New messages" line.
    const std::string& first_unread_id() const { return first_unread_id_; }
    // A message of the user's was delivered: it is in its conversation at once.
    void show_posted(const PostJob& job, const Loadable<Account>& me);

    // ---- time ----
    void run_poll(Instant now);
    // When the open room is next polled (nullopt: not polling, e.g. hidden tab).
    std::optional<Instant> poll_at() const;

    // ---- the session ----
    void drop_all();
    void clear();

    void on_answer(RequestTag tag, const Answer& answer, Instant now) override;
    void on_rate_limited(const rest::RateLimited& waiting, Instant now) override;

    const RoomView& view() const { return room_; }
    RoomView& view() { return room_; }
    // Its messages as drawn, parsed once for the conversation and the page
    // state alike (a cache: reading the state fills it).
    DrawnMessages& drawn() const { return drawn_; }
    // The mirror's last line about new messages in the open room.
    const std::string& announcement() const { return announcement_; }

private:
    enum class Kind { messages, poll, tasks, members, files, mark_read, task_status, upload, open_file };
    struct Call {
        Kind kind = Kind::messages;
        Method method = Method::Get;
        std::string path;
        FormFields params;
        std::string subject;  // the room, task or file it is about
        std::string room;     // open_file: the file's room
        std::unique_ptr<const FileToUpload> upload;  // its bytes, moved, never copied
        bool quiet = false;  // mark_read on view: as the service's client, without a notice
    };
    void send(Call call, Instant now);
    bool pending(Kind kind, const std::string& subject) const;
    static Words label(const Call& call);
    void on_file_answer(const Call& call, const Answer& answer, Instant now);

    FeatureHost& host_;
    const RandomSource& random_;
    Dashboard& dashboard_;
    MyTasks& my_tasks_;
    const bool& page_visible_;
    RoomView room_;
    mutable DrawnMessages drawn_;
    std::optional<Instant> poll_at_;  // the next poll, once the first load answered
    std::int64_t read_for_ = 0;        // poll_reads_latest's room change read already
    std::string announcement_;
    std::map<RequestTag, Call> calls_;
    bool mark_read_on_view_ = true;
    bool first_load_ = false;  // the open room's first messages are still to come
    std::string first_unread_id_;
    std::int64_t tried_unread_ = -1;  // the unread count last marked read on view
    bool read_retry_ = false;         // that failed for want of the service: asked again once it answers
};

}  // namespace roomkey::app
