// posting.cpp: the posting feature (see posting.hpp).
#include "app/posting.hpp"

#include <algorithm>

#include "app/app_detail.hpp"
#include "app/format.hpp"
#include "app/i18n.hpp"
#include "app/post_words.hpp"
#include "roomkey/errors.hpp"

namespace roomkey::app {

using detail::is_success;

namespace {

// Reads of the room before an unknown post is left to the user.
constexpr int kMaxSettleChecks = 4;
// The first read waits this long: a request the helper may still be
// forwarding (the browser's connection broke, not the helper's) lands first.
constexpr Millis kFirstCheckDelay{1000};
// A room read that gets 429 waits for x-ratelimit-reset and goes once more.
constexpr int kSettleRateLimitRetries = 1;

std::string wait_text(Millis wait) {
    return format_countdown(std::max(wait, Millis(0)));
}

Result<HttpRequest, std::string> build_post(const ApiConfig& config, const PostJob& job) {
    if (job.kind == PostKind::message) return built(post_message(config, HeldByHelper{}, job.room_id, job.body));
    return built(post_task(config, HeldByHelper{}, job.room_id, job.body, job.to_ids, job.limit, job.limit_type));
}

}  // namespace

std::string_view to_string(PostStage stage) {
    switch (stage) {
        case PostStage::waiting:
            return "waiting";
        case PostStage::sending:
            return "sending";
        case PostStage::delivered:
            return "delivered";
        case PostStage::failed:
            return "failed";
        case PostStage::cancelled:
            return "cancelled";
        case PostStage::retrying:
            return "retrying";
        case PostStage::checking:
            return "checking";
        case PostStage::unknown:
            return "unknown";
        case PostStage::refused:
            return "refused";
    }
    return "unknown";
}

bool is_open(PostStage stage) {
    return stage != PostStage::delivered && stage != PostStage::failed && stage != PostStage::cancelled;
}

long Posting::open_posts() const {
    return static_cast<long>(
        std::count_if(posts_.begin(), posts_.end(), [](const PostJob& job) { return is_open(job.stage); }));
}

// ---------------------------------------------------------------------------
// Intents
// ---------------------------------------------------------------------------

void Posting::queue_message(const intent::QueueMessage& message, Instant now) {
    const int count = std::clamp(message.count, 1, kMaxBurst);
    std::vector<std::pair<PostJob, HttpRequest>> jobs;
    for (int i = 1; i <= count; ++i) {
        PostJob job;
        job.kind = PostKind::message;
        job.room_id = message.room_id;
        job.body =
            count == 1 ? message.body : message.body + " (" + std::to_string(i) + "/" + std::to_string(count) + ")";
        job.queued_at = now;
        auto request = build_post(host_.api_config(), job);
        if (!request) {
            UserError error;
            error.title = tr("post.message_invalid");
            error.message = tr("post.message_invalid_check", {{"why", request.error()}});
            host_.set_error(std::move(error), ErrorSource::other);
            return;
        }
        jobs.emplace_back(std::move(job), std::move(*request));
    }
    for (auto& [job, request] : jobs) {
        job.id = host_.new_tag();
        job.local_id = std::to_string(unix_ms(now)) + "-" + std::to_string(job.id);
        posts_.push_back(std::move(job));
        enqueue(posts_.back(), std::move(request), now);
    }
}

void Posting::queue_task(const intent::QueueTask& task, Instant now) {
    PostJob job;
    job.kind = PostKind::task;
    job.room_id = task.room_id;
    job.body = task.body;
    job.to_ids = task.to_ids;
    job.limit = task.limit;
    job.limit_type = task.limit_type;
    job.queued_at = now;
    auto request = build_post(host_.api_config(), job);
    if (!request) {
        UserError error;
        error.title = tr("post.task_invalid");
        error.message = tr("post.task_invalid_check", {{"why", request.error()}});
        host_.set_error(std::move(error), ErrorSource::other);
        return;
    }
    job.id = host_.new_tag();
    job.local_id = std::to_string(unix_ms(now)) + "-" + std::to_string(job.id);
    posts_.push_back(std::move(job));
    enqueue(posts_.back(), std::move(request), now);
}

// A post put back (kept across the session's end): waiting goes at once, refused waits for the user.
void Posting::add_job(PostJob job, Instant now) {
    job.id = host_.new_tag();
    job.queued_at = now;
    posts_.push_back(std::move(job));
    PostJob& added = posts_.back();
    if (added.stage == PostStage::waiting) enqueue(added, build_post(host_.api_config(), added), now);
}

void Posting::enqueue(PostJob& job, Result<HttpRequest, std::string> request, Instant now) {
    // A new batch starts when nothing else is waiting or sending.
    const bool idle = std::none_of(posts_.begin(), posts_.end(), [&](const PostJob& other) {
        return other.id != job.id && (other.stage == PostStage::waiting || other.stage == PostStage::sending);
    });
    if (idle) batch_ = PostBatch{};
    ++batch_.total;
    ++revision_;
    Outgoing out;
    out.label = tr(job.kind == PostKind::task ? "post.call_task" : "post.call_message");
    out.request = std::move(request);
    out.options.room_for_post = job.room_id;
    out.options.in_room_order = true;  // one post per room at a time, so they arrive in order
    out.options.rate_limit_retries = kMaxRateLimitedRetries;
    host_.submit(*this, std::move(out), now, job.id);
}

void Posting::cancel_queued() {
    for (PostJob& job : posts_) {
        if (!host_.pending(job.id) || !host_.cancel(job.id)) continue;  // on the wire: its answer decides
        job.stage = PostStage::cancelled;
        job.note = tr("post.cancelled");
        if (batch_.total > 0) --batch_.total;
    }
}

void Posting::retry(RequestId id, std::optional<std::string> body, Instant now) {
    PostJob* job = find(id);
    if (!job) return;
    const bool edited = body && !body->empty() && *body != job->body;
    if (edited && (job->stage == PostStage::retrying || job->stage == PostStage::waiting)) {
        // Not on the wire: it goes again with the new text, behind its room's others.
        if (job->stage == PostStage::waiting && !host_.cancel(id)) return;
        if (job->stage == PostStage::retrying) host_.release(id);
        job->retry_at.reset();
        job->stage = PostStage::unknown;
    }
    if (job->stage == PostStage::retrying) {
        job->retry_at = now;  // the user does not want to wait for the backoff
        run_timers(now);
        return;
    }
    if (job->stage != PostStage::unknown && job->stage != PostStage::refused) return;
    if (body && !body->empty()) job->body = *body;
    if (job->stage == PostStage::refused && batch_.failed > 0) --batch_.failed;
    job->stage = PostStage::waiting;
    job->attempts = 0;
    job->checks = 0;
    job->rate_limited = 0;
    job->done_at.reset();
    job->queued_at = now;  // a later check looks for this attempt
    job->note = tr("post.sent_again");
    error_.clear();
    host_.clear_error(ErrorSource::posting);
    enqueue(*job, build_post(host_.api_config(), *job), now);
}

void Posting::discard(RequestId id) {
    PostJob* job = find(id);
    if (!job || !is_open(job->stage)) return;
    if (host_.in_flight(id)) return;  // on the wire: its answer decides
    for (auto it = settles_.begin(); it != settles_.end();) {
        it = it->second == id && host_.cancel(it->first) ? settles_.erase(it) : std::next(it);
    }
    const bool held = host_.pending(id);
    ++revision_;
    job->stage = PostStage::cancelled;
    job->retry_at.reset();
    job->note = tr("post.discarded");
    if (held) host_.release(id);  // the room's next post may go
    if (std::none_of(posts_.begin(), posts_.end(),
                     [](const PostJob& p) { return p.stage == PostStage::unknown || p.stage == PostStage::refused; })) {
        error_.clear();
        host_.clear_error(ErrorSource::posting);
    }
}

void Posting::clear_finished() {
    posts_.erase(std::remove_if(posts_.begin(), posts_.end(), [](const PostJob& job) { return !is_open(job.stage); }),
                 posts_.end());
}

// ---------------------------------------------------------------------------
// Time and the session
// ---------------------------------------------------------------------------

void Posting::run_timers(Instant now) {
    for (PostJob& job : posts_) {
        if (!job.retry_at || *job.retry_at > now) continue;
        if (!host_.pending(job.id)) {
            job.retry_at.reset();  // dropped meanwhile (signed out, discarded)
            continue;
        }
        if (job.stage == PostStage::retrying) {
            job.retry_at.reset();
            job.stage = PostStage::waiting;
            host_.resend(job.id);
        } else if (job.stage == PostStage::checking) {
            job.retry_at.reset();
            // Settling a post whose outcome is unknown: is it in the room?
            Outgoing out;
            out.label = tr("post.call_settle");
            out.request = built(api_request(host_.api_config(), HeldByHelper{}, Method::Get,
                                            "/rooms/" + job.room_id + "/messages", {{"force", "1"}}));
            out.options.rate_limit_retries = kSettleRateLimitRetries;
            const RequestTag tag = host_.new_tag();
            settles_[tag] = job.id;
            host_.submit(*this, std::move(out), now, tag);
        }
    }
}

std::optional<Instant> Posting::next_timer() const {
    std::optional<Instant> wake;
    for (const PostJob& job : posts_) {
        if ((job.stage == PostStage::retrying || job.stage == PostStage::checking) && job.retry_at) {
            wake = wake ? std::min(*wake, *job.retry_at) : *job.retry_at;
        }
    }
    return wake;
}

void Posting::drop_all(const std::string& reason) {
    ++revision_;
    settles_.clear();
    for (PostJob& job : posts_) {
        if (is_open(job.stage)) {
            job.stage = PostStage::cancelled;
            job.note = reason;
            job.retry_at.reset();
        }
    }
    batch_ = PostBatch{};
}

void Posting::clear() {
    posts_.clear();
    batch_ = PostBatch{};
    settles_.clear();
    ++revision_;
}

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

PostJob* Posting::find(RequestId id) {
    for (auto it = posts_.rbegin(); it != posts_.rend(); ++it) {
        if (it->id == id) return &*it;
    }
    return nullptr;
}

void Posting::on_sent(RequestTag tag, Instant now) {
    if (settles_.count(tag)) return;
    PostJob* job = find(tag);
    if (!job) return;
    job->stage = PostStage::sending;
    job->sent_at = now;
    if (!batch_.first_sent) batch_.first_sent = now;
}

void Posting::on_rate_limited(const rest::RateLimited& waiting, Instant now) {
    (void)now;
    if (settles_.count(waiting.tag)) return;
    PostJob* job = find(waiting.tag);
    if (!job) return;
    job->rate_limited = waiting.count;
    job->stage = PostStage::waiting;
    job->note = tr(waiting.per_room ? "post.429_room" : "post.429_overall");
}

void Posting::on_answer(RequestTag tag, const Answer& answer, Instant now) {
    ++revision_;
    if (settles_.count(tag)) {
        on_settle_answer(tag, answer, now);
        return;
    }
    PostJob* job = find(tag);
    if (job) {
        on_post_answer(*job, answer, now);
        if (job->stage == PostStage::retrying || job->stage == PostStage::checking) return;  // holds its room
    }
    host_.release(tag);  // the room's next post may go
    prune();
}

void Posting::on_post_answer(PostJob& job, const Answer& answer, Instant now) {
    const bool ok = answer.response && is_success(answer.response->status);
    if (!ok) {
        on_failed(job, answer, now);  // retry by itself, look it up, or let the user decide
        return;
    }
    job.done_at = now;
    job.stage = PostStage::delivered;
    if (job.kind == PostKind::message) {
        auto posted = read_posted_message(*answer.response);
        job.note = posted ? "message_id " + *posted : std::string(tr("post.delivered"));
        if (posted) job.message_id = *posted;
        if (posted && delivered_) delivered_(job);
    } else {
        auto posted = read_posted_tasks(*answer.response);
        job.note =
            posted ? tr_n("post.tasks", static_cast<long long>(posted->size())) : std::string(tr("post.delivered"));
    }
    ++batch_.delivered;
    error_.clear();
    host_.clear_error(ErrorSource::posting);
    batch_.last_done = now;
}

void Posting::on_failed(PostJob& job, const Answer& answer, Instant now) {
    PostOutcome outcome;
    if (answer.response) {
        outcome = classify_post(*answer.response);
    } else if (answer.failure) {
        outcome = classify_post_failure(*answer.failure);
    } else {
        // The session did not send it (signed out, the refresh failed, still
        // 401 after the one retry): the service did not act on it.
        outcome = {PostVerdict::refused, tr("post.not_sent_because", {{"why", answer.reason}})};
    }
    switch (outcome.verdict) {
        case PostVerdict::delivered:
            return;                      // not a failure
        case PostVerdict::rate_limited:  // 429 beyond the pacer's own retries: the service did not act either
        case PostVerdict::retry_automatically: {
            ++job.attempts;
            const Millis wait = retry_backoff(job.attempts);
            job.stage = PostStage::retrying;
            job.retry_at = now + wait;
            job.note = tr("post.retrying_in",
                          {{"why", outcome.why}, {"in", wait_text(wait)}, {"n", std::to_string(job.attempts)}});
            return;
        }
        case PostVerdict::unknown:
            job.doubt = answer.response ? PostDoubt::answer_lost
                        : answer.failure == TransportFailure::timeout ? PostDoubt::timeout
                                                                       : PostDoubt::connection;
            if (job.kind == PostKind::message && account_.value) {
                job.stage = PostStage::checking;
                job.checks = 0;
                job.why = outcome.why;
                job.retry_at = now + kFirstCheckDelay;
                job.note = tr("post.looking", {{"why", outcome.why}});
                return;
            }
            job.stage = PostStage::unknown;
            job.note =
                tr(job.kind == PostKind::task ? "post.unknown_task" : "post.unknown_message", {{"why", outcome.why}});
            decided(job, now);
            return;
        case PostVerdict::refused: {
            job.stage = PostStage::refused;
            job.done_at = now;
            if (answer.response) {
                UserError error = api_error(
                    tr(job.kind == PostKind::message ? "post.posting_message" : "post.adding_task"), *answer.response,
                    job.kind == PostKind::message ? Endpoint::room_messages_post : Endpoint::room_tasks_post);
                const int status = answer.response->status;
                job.refusal = status == 400   ? PostRefusal::invalid
                              : status == 403 ? PostRefusal::forbidden
                              : status == 404 ? PostRefusal::not_found
                                              : PostRefusal::other;
                job.note = tr("post.refused_kept", {{"code", error.code}, {"why", error.message}});
                // The box says it by its cause in the language shown; the service's own
                // (English) words stay in `message`, the developer view's and the page API's.
                error.plain = refusal_words(job.refusal);
                error_ = job.note;
                host_.set_error(std::move(error), ErrorSource::posting);
            } else {
                job.refusal = PostRefusal::other;
                job.note = tr("post.not_sent_kept", {{"why", outcome.why}});
                error_ = job.note;
            }
            ++batch_.failed;
            batch_.last_done = now;
            return;
        }
    }
}

// An unknown post is now the user's decision: say so on screen and in state().
void Posting::decided(PostJob& job, Instant now) {
    job.done_at = now;
    job.retry_at.reset();
    error_ = tr("post.maybe_lost", {{"note", job.note}});
    UserError error;
    error.title = tr("post.maybe_lost_title");
    error.message = job.note;
    error.plain = tr("post.maybe_lost_plain", {{"why", doubt_words(job.doubt)}});  // the note's wire words stay the page API's
    error.remedy = tr("post.maybe_lost_remedy");
    host_.set_error(std::move(error), ErrorSource::posting);
    batch_.last_done = now;
}

void Posting::on_settle_answer(RequestTag tag, const Answer& answer, Instant now) {
    const RequestId id = settles_[tag];
    settles_.erase(tag);
    PostJob* job = find(id);
    if (!job || job->stage != PostStage::checking) return;
    Settlement found = Settlement::unreadable;
    if (answer.response && account_.value) {
        found = find_posted_message(*answer.response, account_.value->account_id, job->body, job->queued_at);
    }
    if (found == Settlement::found) {
        job->stage = PostStage::delivered;
        job->done_at = now;
        job->note = tr("post.found", {{"why", job->why}});
        ++batch_.delivered;
        batch_.last_done = now;
        error_.clear();
        host_.clear_error(ErrorSource::posting);
        host_.release(job->id);
        return;
    }
    if (found == Settlement::not_found) {
        job->stage = PostStage::unknown;
        job->doubt = PostDoubt::not_in_room;
        job->note = tr("post.not_found", {{"why", job->why}});
        host_.release(job->id);
        decided(*job, now);
        return;
    }
    // The room could not be read. While roomkey-helper is away the probe
    // waits for it; otherwise a few more reads, then the user decides.
    const bool helper_away = !answer.response && answer.failure == TransportFailure::network_error;
    if (!helper_away) ++job->checks;
    const std::string why = answer.response
                                ? tr("post.unreadable_status", {{"status", std::to_string(answer.response->status)}})
                                : std::string(tr("post.unreadable_no_answer"));
    if (job->checks < kMaxSettleChecks) {
        const Millis wait = retry_backoff(job->checks + 1);
        job->retry_at = now + wait;
        job->note = tr("post.looking_again", {{"why", job->why}, {"unread", why}, {"in", wait_text(wait)}});
        return;
    }
    job->stage = PostStage::unknown;
    job->note = tr("post.cannot_settle", {{"why", job->why}, {"unread", why}});
    host_.release(job->id);
    decided(*job, now);
}

void Posting::prune() {
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
