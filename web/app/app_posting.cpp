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

// The post's request is built once, here: shared/ decides whether it is
// well-formed, and the REST client attaches the credentials when it goes.
namespace {

Result<HttpRequest, ApiRequestError> build_post(const ApiConfig& config, const PostJob& job) {
    if (job.kind == PostKind::message) return post_message(config, HeldByHelper{}, job.room_id, job.body);
    return post_task(config, HeldByHelper{}, job.room_id, job.body, job.to_ids, job.limit, job.limit_type);
}

}  // namespace

void App::queue_message(const intent::QueueMessage& message, Instant now) {
    const int count = std::clamp(message.count, 1, kMaxBurst);
    std::vector<std::pair<PostJob, HttpRequest>> jobs;
    for (int i = 1; i <= count; ++i) {
        PostJob job;
        job.kind = PostKind::message;
        job.room_id = message.room_id;
        job.body =
            count == 1 ? message.body : message.body + " (" + std::to_string(i) + "/" + std::to_string(count) + ")";
        job.queued_at = now;
        auto built = build_post(api_config(), job);
        if (!built) {
            UserError error;
            error.title = "This message cannot be posted";
            error.message = "Check the room and the text (" + std::string(to_string(built.error())) + ").";
            set_error(std::move(error));
            return;
        }
        jobs.emplace_back(std::move(job), std::move(*built));
    }
    for (auto& [job, request] : jobs) {
        job.id = next_call_id_++;
        posts_.push_back(std::move(job));
        enqueue_post(posts_.back(), std::move(request), now);
    }
}

void App::queue_task(const intent::QueueTask& task, Instant now) {
    PostJob job;
    job.kind = PostKind::task;
    job.room_id = task.room_id;
    job.body = task.body;
    job.to_ids = task.to_ids;
    job.limit = task.limit;
    job.limit_type = task.limit_type;
    job.queued_at = now;
    auto built = build_post(api_config(), job);
    if (!built) {
        UserError error;
        error.title = "This task cannot be added";
        error.message = "Check the room, text, assignees and due date (" + std::string(to_string(built.error())) + ").";
        set_error(std::move(error));
        return;
    }
    job.id = next_call_id_++;
    posts_.push_back(std::move(job));
    enqueue_post(posts_.back(), std::move(*built), now);
}

void App::enqueue_post(PostJob& job, Result<HttpRequest, std::string> request, Instant now) {
    // A new batch starts when nothing else is waiting or sending.
    const bool idle = std::none_of(posts_.begin(), posts_.end(), [&](const PostJob& other) {
        return other.id != job.id && (other.stage == PostStage::waiting || other.stage == PostStage::sending);
    });
    if (idle) batch_ = PostBatch{};
    ++batch_.total;
    ApiCall call;
    call.id = job.id;
    call.kind = CallKind::post;
    RestOptions options;
    options.room_for_post = job.room_id;
    options.in_room_order = true;  // one post per room at a time, so they arrive in order
    options.rate_limit_retries = kMaxRateLimitedRetries;
    submit_call(call, std::move(request), std::move(options), now);
}

void App::cancel_queued(Instant now) {
    (void)now;
    for (PostJob& job : posts_) {
        auto call = calls_.find(job.id);
        if (call == calls_.end() || call->second.kind != CallKind::post) continue;
        if (!client_.cancel(job.id)) continue;  // on the wire: its answer decides
        calls_.erase(call);
        job.stage = PostStage::cancelled;
        job.note = "cancelled before it was sent";
        if (batch_.total > 0) --batch_.total;
    }
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
