// app_posting.cpp: the post queue: messages and tasks queued by the user,
// cancelled, and released per room in order (spec 4.6, 4.7).
#include <algorithm>
#include <type_traits>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/format.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/url.hpp"
#include "roomkey/www_authenticate.hpp"

namespace roomkey::app {

using namespace detail;

void App::queue_message(const intent::QueueMessage& message, Instant now) {
    const int count = std::clamp(message.count, 1, kMaxBurst);
    // shared/ decides whether the post is well-formed before it is queued.
    if (auto probe = post_message(api_config(), ApiToken{"probe"}, message.room_id, message.body); !probe) {
        UserError error;
        error.title = "This message cannot be posted";
        error.message = "Check the room and the text (" + std::string(to_string(probe.error())) + ").";
        set_error(std::move(error));
        return;
    }
    for (int i = 1; i <= count; ++i) {
        PostJob job;
        job.id = next_call_id_++;
        job.kind = PostKind::message;
        job.room_id = message.room_id;
        job.body =
            count == 1 ? message.body : message.body + " (" + std::to_string(i) + "/" + std::to_string(count) + ")";
        job.queued_at = now;
        const RequestId id = job.id;
        posts_.push_back(std::move(job));
        enqueue(CallKind::post, message.room_id, now, id);
    }
}

void App::queue_task(const intent::QueueTask& task, Instant now) {
    if (auto probe = post_task(api_config(), ApiToken{"probe"}, task.room_id, task.body, task.to_ids, task.limit,
                               task.limit_type);
        !probe) {
        UserError error;
        error.title = "This task cannot be added";
        error.message = "Check the room, text, assignees and due date (" + std::string(to_string(probe.error())) + ").";
        set_error(std::move(error));
        return;
    }
    PostJob job;
    job.id = next_call_id_++;
    job.kind = PostKind::task;
    job.room_id = task.room_id;
    job.body = task.body;
    job.to_ids = task.to_ids;
    job.limit = task.limit;
    job.limit_type = task.limit_type;
    job.queued_at = now;
    const RequestId id = job.id;
    posts_.push_back(std::move(job));
    enqueue(CallKind::post, task.room_id, now, id);
}

void App::cancel_queued(Instant now) {
    (void)now;
    for (auto& [room, fifo] : room_fifo_) {
        std::deque<RequestId> keep;
        for (RequestId id : fifo) {
            auto call = calls_.find(id);
            if (call != calls_.end() && call->second.in_flight) {
                keep.push_back(id);
                continue;
            }
            queue_.remove(id);
            calls_.erase(id);
            if (PostJob* job = find_post(id)) {
                job->stage = PostStage::cancelled;
                job->note = "cancelled before it was sent";
                if (batch_.total > 0) --batch_.total;
            }
        }
        fifo = std::move(keep);
    }
    for (auto it = room_fifo_.begin(); it != room_fifo_.end();) {
        it = it->second.empty() ? room_fifo_.erase(it) : std::next(it);
    }
}

void App::release_room(const std::string& room_id) {
    auto it = room_fifo_.find(room_id);
    if (it == room_fifo_.end()) return;
    auto& fifo = it->second;
    // The finished post is the head; the next one now waits for its turn.
    while (!fifo.empty() && calls_.find(fifo.front()) == calls_.end()) fifo.pop_front();
    if (fifo.empty()) {
        room_fifo_.erase(it);
        return;
    }
    queue_.push(PendingRequest{fifo.front(), room_id});
}

PostJob* App::find_post(RequestId id) {
    for (auto it = posts_.rbegin(); it != posts_.rend(); ++it) {
        if (it->id == id) return &*it;
    }
    return nullptr;
}

void App::prune_posts() {
    std::size_t finished = 0;
    for (const PostJob& job : posts_) {
        if (job.stage != PostStage::waiting && job.stage != PostStage::sending) ++finished;
    }
    while (finished > kMaxFinishedPosts && !posts_.empty()) {
        const PostStage stage = posts_.front().stage;
        if (stage == PostStage::waiting || stage == PostStage::sending) break;
        posts_.pop_front();
        --finished;
    }
}

}  // namespace roomkey::app
