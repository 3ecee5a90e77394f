// app_recovery.cpp: posts survive faults (issue 11). What a failed post's
// answer means is post_outcome.hpp's decision; this file acts on it:
//   - certainly not acted on: the post waits (backoff 1 s, 2 s, ... 30 s)
//     and goes again through the same pacer, holding its room's order;
//   - unknown: never resent by itself; the room's latest messages are read
//     to settle it (found: delivered), else the user retries or discards;
//   - refused (4xx): kept with its text; the user edits, retries or discards.
// Also roomkey-helper unreachable: REST calls wait while GET /config.json
// probes it with the same backoff.
#include <algorithm>

#include "app/app.hpp"
#include "app/app_detail.hpp"
#include "app/format.hpp"

namespace roomkey::app {

using namespace detail;

namespace {

// Reads of the room before an unknown post is left to the user.
constexpr int kMaxSettleChecks = 4;
// The first read waits this long: a request the helper may still be
// forwarding (the browser's connection broke, not the helper's) lands first.
constexpr Millis kFirstCheckDelay{1000};

std::string seconds_text(Millis wait) {
    return format_countdown(std::max(wait, Millis(0)));
}

}  // namespace

void App::on_post_failed(const ApiCall& call, PostJob& job, const std::optional<HttpResponse>& response,
                         const std::string& reason, Instant now) {
    PostOutcome outcome;
    if (response) {
        outcome = classify_post(*response);
    } else if (call.failure) {
        outcome = classify_post_failure(*call.failure);
    } else {
        // The session did not send it (signed out, the refresh failed, still
        // 401 after the one retry): the service did not act on it.
        outcome = {PostVerdict::refused, "not sent: " + reason};
    }
    ApiCall hold = call;  // back in calls_ while it retries or is checked: it keeps its room's turn
    hold.failure.reset();
    switch (outcome.verdict) {
        case PostVerdict::delivered:
            return;                      // not a failure; finish_call handles success
        case PostVerdict::rate_limited:  // 429 beyond the pacer's own retries: the service did not act either
        case PostVerdict::retry_automatically: {
            ++job.attempts;
            const Millis wait = retry_backoff(job.attempts);
            job.stage = PostStage::retrying;
            job.retry_at = now + wait;
            job.note = outcome.why + "; sending it again by itself in " + seconds_text(wait) + " (retry " +
                       std::to_string(job.attempts) + ")";
            calls_[hold.id] = hold;
            return;
        }
        case PostVerdict::unknown:
            if (job.kind == PostKind::message && account_.value) {
                job.stage = PostStage::checking;
                job.checks = 0;
                job.why = outcome.why;
                job.retry_at = now + kFirstCheckDelay;
                job.note = outcome.why + "; looking for it in the room's latest messages";
                calls_[hold.id] = hold;
                return;
            }
            job.stage = PostStage::unknown;
            job.note = outcome.why + (job.kind == PostKind::task
                                          ? ". A task cannot be looked up here: check the room's tasks, then "
                                            "Retry (it may be added twice) or Discard."
                                          : ". Retry (it may arrive twice) or Discard.");
            post_decided(job, now);
            return;
        case PostVerdict::refused: {
            job.stage = PostStage::refused;
            job.done_at = now;
            if (response) {
                UserError error =
                    api_error(job.kind == PostKind::message ? "Posting a message" : "Adding a task", *response,
                              job.kind == PostKind::message ? Endpoint::room_messages_post : Endpoint::room_tasks_post);
                job.note = error.code + ": " + error.message + " The text is kept: Edit, Retry or Discard.";
                posting_error_ = job.note;
                set_error(std::move(error), ErrorSource::posting);
            } else {
                job.note = outcome.why + ". The text is kept: Retry or Discard.";
                posting_error_ = job.note;
            }
            ++batch_.failed;
            batch_.last_done = now;
            return;
        }
    }
}

// An unknown post is now the user's decision: say so on screen and in state().
void App::post_decided(PostJob& job, Instant now) {
    job.done_at = now;
    job.retry_at.reset();
    posting_error_ = "A post may not have been delivered: " + job.note;
    UserError error;
    error.title = "A post may not have been delivered";
    error.message = job.note;
    error.remedy = "Use Retry or Discard on the post in the queue.";
    set_error(std::move(error), ErrorSource::posting);
    batch_.last_done = now;
}

void App::on_settle_answer(const ApiCall& call, const std::optional<HttpResponse>& response, Instant now) {
    PostJob* job = find_post(call.settles);
    if (!job || job->stage != PostStage::checking) return;
    Settlement found = Settlement::unreadable;
    if (response && account_.value) {
        found = find_posted_message(*response, account_.value->account_id, job->body, job->queued_at);
    }
    auto release = [&]() {
        calls_.erase(job->id);
        client_.release(job->id);
    };
    if (found == Settlement::found) {
        job->stage = PostStage::delivered;
        job->done_at = now;
        job->note = "delivered: " + job->why + ", and it was found in the room";
        ++batch_.delivered;
        batch_.last_done = now;
        posting_error_.clear();
        clear_error(ErrorSource::posting);
        release();
        return;
    }
    if (found == Settlement::not_found) {
        job->stage = PostStage::unknown;
        job->note = job->why +
                    "; it is not among the room's latest messages, so it was most likely not delivered. Retry "
                    "sends it again; Discard drops it";
        release();
        post_decided(*job, now);
        return;
    }
    // The room could not be read. While roomkey-helper is away the probe
    // waits for it; otherwise a few more reads, then the user decides.
    const bool helper_away = !response && call.failure == TransportFailure::network_error;
    if (!helper_away) ++job->checks;
    const std::string why =
        response ? "the room's messages could not be read (HTTP " + std::to_string(response->status) + ")"
                 : "the room's messages could not be read (no answer)";
    if (job->checks < kMaxSettleChecks) {
        const Millis wait = retry_backoff(job->checks + 1);
        job->retry_at = now + wait;
        job->note = job->why + "; " + why + "; looking again in " + seconds_text(wait);
        return;
    }
    job->stage = PostStage::unknown;
    job->note = job->why + "; " + why +
                ", so roomkey cannot tell whether it was delivered. Retry (it may arrive twice) or Discard";
    release();
    post_decided(*job, now);
}

void App::run_post_timers(Instant now) {
    for (PostJob& job : posts_) {
        if (!job.retry_at || *job.retry_at > now) continue;
        if (calls_.find(job.id) == calls_.end()) {
            job.retry_at.reset();  // dropped meanwhile (signed out, discarded)
            continue;
        }
        if (job.stage == PostStage::retrying) {
            job.retry_at.reset();
            job.stage = PostStage::waiting;
            client_.resend(job.id);
        } else if (job.stage == PostStage::checking) {
            job.retry_at.reset();
            ApiCall settle;
            settle.id = next_call_id_++;
            settle.kind = CallKind::settle;
            settle.settles = job.id;
            settle.room = job.room_id;
            // Settling a post whose outcome is unknown: is it in the room?
            auto request =
                api_request(api_config(), HeldByHelper{}, Method::Get, "/rooms/" + job.room_id + "/messages", {{"force", "1"}});
            RestOptions options;
            options.rate_limit_retries = kMaxRateLimitedGetRetries;
            submit_call(settle,
                        request ? Result<HttpRequest, std::string>(std::move(*request))
                                : Result<HttpRequest, std::string>(Err{std::string(to_string(request.error()))}),
                        std::move(options), now);
        }
    }
    if (helper_down_ && !helper_probe_in_flight_ && helper_probe_at_ && *helper_probe_at_ <= now) probe_helper(now);
}

void App::retry_post(RequestId id, std::optional<std::string> body, Instant now) {
    PostJob* job = find_post(id);
    if (!job) return;
    if (job->stage == PostStage::retrying) {
        job->retry_at = now;  // the user does not want to wait for the backoff
        run_post_timers(now);
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
    job->note = "sent again at your request";
    posting_error_.clear();
    clear_error(ErrorSource::posting);
    auto request = job->kind == PostKind::message
                       ? post_message(api_config(), HeldByHelper{}, job->room_id, job->body)
                       : post_task(api_config(), HeldByHelper{}, job->room_id, job->body, job->to_ids, job->limit,
                                   job->limit_type);
    enqueue_post(*job,
                 request ? Result<HttpRequest, std::string>(std::move(*request))
                         : Result<HttpRequest, std::string>(Err{std::string(to_string(request.error()))}),
                 now);
}

void App::discard_post(RequestId id, Instant now) {
    (void)now;
    PostJob* job = find_post(id);
    if (!job || !is_open(job->stage)) return;
    auto call = calls_.find(id);
    if (call != calls_.end() && client_.in_flight(id)) return;  // on the wire: its answer decides
    for (auto it = calls_.begin(); it != calls_.end();) {
        if (it->second.kind == CallKind::settle && it->second.settles == id && client_.cancel(it->first)) {
            it = calls_.erase(it);
        } else {
            ++it;
        }
    }
    const bool held = call != calls_.end();
    if (held) calls_.erase(call);
    job->stage = PostStage::cancelled;
    job->retry_at.reset();
    job->note = "discarded by you: not sent again";
    if (held) client_.release(id);  // the room's next post may go
    if (std::none_of(posts_.begin(), posts_.end(),
                     [](const PostJob& p) { return p.stage == PostStage::unknown || p.stage == PostStage::refused; })) {
        posting_error_.clear();
        clear_error(ErrorSource::posting);
    }
}

// Every request that got no connection lands here; only a failed probe
// lengthens the wait (1 s, 2 s, 4 s, ... 30 s between probes).
void App::on_helper_unreachable(Instant now, bool probe_failed) {
    if (helper_down_ && !probe_failed) return;
    if (!helper_down_) {
        helper_down_ = true;
        helper_probes_ = 0;
    }
    helper_probe_in_flight_ = false;
    if (probe_failed) ++helper_probes_;
    const Millis wait = retry_backoff(helper_probes_ + 1);
    helper_probe_at_ = now + wait;
    notice_ = "roomkey-helper does not answer; requests wait, and roomkey asks it again in " + seconds_text(wait) + ".";
}

void App::on_helper_answer(Instant now) {
    (void)now;
    if (!helper_down_) return;
    helper_down_ = false;
    helper_probes_ = 0;
    helper_probe_in_flight_ = false;
    helper_probe_at_.reset();
    notice_ = "roomkey-helper answers again; waiting requests go on.";
}

void App::probe_helper(Instant now) {
    helper_probe_in_flight_ = true;
    HttpRequest request;
    request.method = Method::Get;
    request.url = std::string(kConfigPath);
    send(HelperProbe{}, "helper check (is roomkey-helper back?)", std::move(request), now);
}

}  // namespace roomkey::app
