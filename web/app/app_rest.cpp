// app_rest.cpp: REST calls: the queue of calls, pacing (shared/pacing.hpp),
// sending with the current credentials, the 401 retry and 429 waits, and
// where each answer lands; plus the dashboard (/me, /my/status, /rooms).
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

// ===========================================================================
// [SECTION] REST calls: queue, pacing, answers
// ===========================================================================

bool App::can_send() const {
    if (mode_ == Mode::api_token) return true;
    if (mode_ == Mode::bff) return bff_.signed_in();
    return mode_ == Mode::oauth && session_.state() == SessionState::signed_in;
}

Credentials App::credentials() const {
    if (mode_ == Mode::api_token) return ApiToken{api_token_};
    if (mode_ == Mode::bff) return HeldByHelper{};  // issue 30: the helper attaches the token
    const auto& tokens = session_.tokens();
    return BearerToken{tokens ? tokens->access_token : std::string()};
}

ApiConfig App::api_config() const {
    ApiConfig config;
    if (config_) {
        config.base_url = config_->api_base;
        config.token_header = config_->token_header;
    } else {
        config.base_url = "/api";
    }
    return config;
}

// shared/'s kDashboardReads, all at once: the helper opens as many upstream
// connections when a sign-in comes back to it.
void App::load_dashboard(Instant now) {
    for (const Endpoint read : kDashboardReads) {
        CallKind kind = CallKind::rooms;
        switch (read) {
            case Endpoint::me:
                kind = CallKind::me;
                break;
            case Endpoint::my_status:
                kind = CallKind::my_status;
                break;
            case Endpoint::rooms_list:
                kind = CallKind::rooms;
                break;
            default:
                continue;  // no panel of the dashboard shows it
        }
        if (!has_pending(kind)) enqueue(kind, std::nullopt, now);
    }
}

bool App::has_pending(CallKind kind) const {
    return std::any_of(calls_.begin(), calls_.end(), [&](const auto& entry) { return entry.second.kind == kind; });
}

void App::enqueue(CallKind kind, std::optional<std::string> room_for_post, Instant now, RequestId id) {
    (void)now;
    ApiCall call;
    call.id = id != 0 ? id : next_call_id_++;
    call.kind = kind;
    call.room_for_post = room_for_post;
    calls_[call.id] = call;
    switch (kind) {
        case CallKind::me:
            account_.loading = true;
            break;
        case CallKind::my_status:
            status_.loading = true;
            break;
        case CallKind::rooms:
            rooms_.loading = true;
            break;
        case CallKind::post:
        case CallKind::settle:
        case CallKind::view:
            break;
    }
    if (kind == CallKind::post && room_for_post) {
        // A new batch starts when nothing else is waiting or sending.
        const bool idle = std::none_of(posts_.begin(), posts_.end(), [&](const PostJob& job) {
            return job.id != call.id && (job.stage == PostStage::waiting || job.stage == PostStage::sending);
        });
        if (idle) batch_ = PostBatch{};
        ++batch_.total;
        // One post per room at a time, so they arrive in order; the head of
        // each room is the only one the pacing queue sees.
        auto& fifo = room_fifo_[*room_for_post];
        fifo.push_back(call.id);
        if (fifo.size() > 1) return;
    }
    queue_.push(PendingRequest{call.id, room_for_post});
}

void App::pump(Instant now) {
    // roomkey-helper gave no answer at all: nothing goes until it answers a
    // probe (issue 11: "the helper is unreachable" retries by itself, and a
    // post that was never handed to the browser was certainly not sent).
    if (helper_down_) return;
    while (can_send()) {
        auto next = queue_.pop_ready(now, scheduler_);
        if (!next) break;
        if (calls_.find(next->id) == calls_.end()) continue;
        if (mode_ == Mode::oauth) {
            // The session decides: send now, or wait for a refresh first.
            run_session(session_event::ApiRequest{next->id, now}, now);
        } else {
            send_call(next->id, false, now);
        }
    }
}

void App::send_call(RequestId id, bool retry, Instant now) {
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    ApiCall& call = it->second;
    const ApiConfig config = api_config();
    const Credentials creds = credentials();
    std::string label;
    Result<HttpRequest, ApiRequestError> request = Err{ApiRequestError::unknown_endpoint};
    PostJob* job = find_post(id);
    switch (call.kind) {
        case CallKind::me:
            request = get_me(config, creds);
            label = "account (spec 4.4)";
            break;
        case CallKind::my_status:
            request = get_my_status(config, creds);
            label = "status (spec 4.5)";
            break;
        case CallKind::rooms:
            request = get_rooms(config, creds);
            label = "room list (spec 4.8)";
            break;
        case CallKind::settle:
            // Settling a post whose outcome is unknown: is it in the room?
            request = api_request(config, creds, Method::Get, "/rooms/" + call.room + "/messages", {{"force", "1"}});
            label = "room messages (spec 4.8), looking for a post whose answer was lost";
            break;
        case CallKind::view:
            if (call.upload) {
                // multipart/form-data (shared/file_upload.hpp); random_ draws the boundary.
                auto built = upload_file_request(config, creds, call.subject, *call.upload, random_);
                if (!built) {
                    fail_call(id, "the upload could not be built: " + std::string(to_string(built.error())), now);
                    return;
                }
                request = std::move(*built);
                label = view_label(call);
                break;
            }
            request = api_request(config, creds, call.method, call.path, call.params);
            label = view_label(call);
            if (call.view == ViewCall::console && request) console_.on_sent();
            break;
        case CallKind::post:
            if (!job) {
                calls_.erase(it);
                return;
            }
            if (job->kind == PostKind::message) {
                request = post_message(config, creds, job->room_id, job->body);
                label = "message (spec 4.6)";
            } else {
                request = post_task(config, creds, job->room_id, job->body, job->to_ids, job->limit, job->limit_type);
                label = "task (spec 4.7)";
            }
            break;
    }
    if (!request) {
        fail_call(id, "the request could not be built: " + std::string(to_string(request.error())), now);
        return;
    }
    if (retry) label += ", retry after refresh";
    call.generation = session_.token_generation();
    call.in_flight = true;
    call.failure.reset();
    if (retry) call.retried = true;
    scheduler_.on_sent(now, call.room_for_post);
    ++counters_.requests_sent;
    if (job) {
        job->stage = PostStage::sending;
        job->sent_at = now;
        if (!batch_.first_sent) batch_.first_sent = now;
    }
    const bool upload = call.upload != nullptr;
    send(RestCall{id}, std::move(label), std::move(*request), now);
    if (upload) std::get<effect::Send>(effects_.back()).upload_progress = true;
}

void App::record_rate(const HttpResponse& response, Instant now) {
    auto read = read_rate_limit(response.headers);
    if (!read || !*read) return;
    rate_samples_.push_back(RateSample{now, (*read)->remaining, (*read)->limit});
    if (rate_samples_.size() > kMaxRateSamples) {
        rate_samples_.erase(rate_samples_.begin(), rate_samples_.end() - static_cast<std::ptrdiff_t>(kMaxRateSamples));
    }
}

void App::on_api_answer(RequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                        Instant now) {
    auto it = calls_.find(id);
    const std::optional<std::string> room = it != calls_.end() ? it->second.room_for_post : std::nullopt;
    if (!response) {
        scheduler_.on_response(now, room, 0, nullptr, false);
        if (it != calls_.end()) fail_call(id, std::string(kNoAnswer) + reason, now);
        return;
    }
    auto rate = read_rate_limit(response->headers);
    const RateLimit* headers = (rate && *rate) ? &**rate : nullptr;
    const bool per_room = response->status == 429 && is_per_room_rate_limit(*response);
    scheduler_.on_response(now, room, response->status, headers, per_room);
    record_rate(*response, now);
    if (response->status == 429) ++counters_.responses_429;
    if (it == calls_.end()) return;  // dropped (signed out) while in flight
    ApiCall& call = it->second;
    call.in_flight = false;

    if (response->status == 429) {
        // Spec 7.3: wait (about 10 s for the per-room limit, until the reset
        // for the overall one: the scheduler knows which) and try again.
        if (PostJob* job = find_post(id)) {
            if (++job->rate_limited <= kMaxRateLimitedRetries) {
                job->stage = PostStage::waiting;
                job->note = per_room ? "429: per-room posting limit; waiting about 10 s (spec 7.3)"
                                     : "429: rate limit; waiting for the reset (spec 8.1)";
                queue_.push(PendingRequest{id, call.room_for_post});
                return;
            }
        } else if (call.kind != CallKind::post && ++call.rate_limited <= kMaxRateLimitedGetRetries) {
            // A GET (spec 8.1): the scheduler now holds every request until
            // x-ratelimit-reset; this one goes again then, once, and says so.
            const Millis wait = std::chrono::duration_cast<Millis>(scheduler_.earliest_send(now, std::nullopt) - now);
            const std::string note = "429: the rate limit is used up; retrying once in " +
                                     format_countdown(std::max(wait, Millis(0))) +
                                     ", when x-ratelimit-reset passes (spec 8.1)";
            switch (call.kind) {
                case CallKind::me:
                    account_.note = note;
                    notice_ = "Reading your account: " + note;
                    break;
                case CallKind::my_status:
                    status_.note = note;
                    notice_ = "Reading your status: " + note;
                    break;
                case CallKind::rooms:
                    rooms_.note = note;
                    notice_ = "Reading the room list: " + note;
                    break;
                case CallKind::view:
                    notice_ = view_label(call) + ": " + note;
                    break;
                case CallKind::post:
                case CallKind::settle:
                    break;
            }
            queue_.push(PendingRequest{id, call.room_for_post});  // a console room post keeps its room
            return;
        }
        finish_call(id, response, {}, now);
        return;
    }
    if (mode_ == Mode::bff) {
        // The helper refreshed and retried already; a 401 it marks as "no
        // session" means signed out (expired, refused refresh, logged out).
        if (auto why = bff_session_ended(*response)) {
            bff_ended(*why, now);
            return;
        }
    }
    if (mode_ == Mode::oauth && is_invalid_token(*response)) {
        // Spec 5.2.2: the session decides (one refresh, one retry).
        run_session(session_event::ApiUnauthorized{id, call.generation, call.retried, now}, now);
        return;
    }
    finish_call(id, response, {}, now);
}

void App::finish_call(RequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                      Instant now) {
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    const ApiCall call = it->second;
    calls_.erase(it);
    const bool ok = response && is_success(response->status);

    // Every failure of a view's read is in the view (loadable.error) and in
    // last_error_ (state() and the mirror); the view's next success clears both.
    auto fill = [&](auto& loadable, auto read, std::string_view what, Endpoint endpoint, ErrorSource source) {
        loadable.loading = false;
        loadable.note.clear();
        if (!response) {
            loadable.error = reason;
            if (reason.rfind(kNoAnswer, 0) == 0) {
                UserError error = transport_error(what, reason.substr(kNoAnswer.size()));
                loadable.error = error.message;
                set_error(std::move(error), source);
            } else {
                // The session gave the request up (e.g. still 401 after the
                // one refresh and retry, spec 5.2.2).
                UserError error;
                error.title = std::string(what) + " failed";
                error.message = "The request was not completed (" + reason + ").";
                error.remedy = "Sign in again.";
                error.offers_try_again = true;
                set_error(std::move(error), source);
            }
            return;
        }
        if (!ok) {
            UserError error = api_error(what, *response, endpoint);
            loadable.error = error.code + ": " + error.message;
            set_error(std::move(error), source);
            return;
        }
        auto value = read(*response);
        if (!value) {
            // A 2xx whose body cannot be read (cut off, not JSON, wrong
            // types): the last good value stays on screen, marked by this.
            UserError error = unreadable_answer_error(what, to_string(value.error()));
            loadable.error = error.message;
            set_error(std::move(error), source);
            return;
        }
        loadable.value = std::move(*value);
        loadable.error.clear();
        loadable.loaded_at = now;
        clear_error(source);
    };

    switch (call.kind) {
        case CallKind::me:
            fill(account_, read_account, "Reading your account", Endpoint::me, ErrorSource::account);
            break;
        case CallKind::my_status:
            fill(status_, read_status, "Reading your status", Endpoint::my_status, ErrorSource::status);
            break;
        case CallKind::rooms:
            fill(rooms_, read_rooms, "Reading the room list", Endpoint::rooms_list, ErrorSource::rooms);
            if (rooms_.value && !rooms_.value->empty()) {
                const auto& list = *rooms_.value;
                const bool known = std::any_of(list.begin(), list.end(),
                                               [&](const Room& room) { return room.room_id == selected_room_; });
                if (!known) selected_room_ = list.front().room_id;
            }
            on_room_list_read(now);  // issue 27: mentions that rose (app_workspace.cpp)
            break;
        case CallKind::settle:
            on_settle_answer(call, response, now);
            break;
        case CallKind::view:
            on_view_answer(call, response, reason, now);
            break;
        case CallKind::post: {
            PostJob* job = find_post(id);
            if (job && !ok) {
                // Issue 11: retry by itself, look it up, or let the user decide.
                on_post_failed(call, *job, response, reason, now);
                if (job->stage == PostStage::retrying || job->stage == PostStage::checking) break;  // holds its room
            } else if (job) {
                job->done_at = now;
                if (ok) {
                    job->stage = PostStage::delivered;
                    if (job->kind == PostKind::message) {
                        auto posted = read_posted_message(*response);
                        job->note = posted ? "message_id " + *posted : "delivered";
                    } else {
                        auto posted = read_posted_tasks(*response);
                        job->note = posted ? std::to_string(posted->size()) + " task(s)" : "delivered";
                    }
                    ++batch_.delivered;
                    posting_error_.clear();
                    clear_error(ErrorSource::posting);
                }
                batch_.last_done = now;
            }
            if (call.room_for_post) release_room(*call.room_for_post);
            prune_posts();
            break;
        }
    }
}

void App::fail_call(RequestId id, const std::string& reason, Instant now) {
    finish_call(id, std::nullopt, reason, now);
}

void App::drop_all_calls(const std::string& reason, Instant now) {
    (void)now;
    for (const auto& [id, call] : calls_) queue_.remove(id);
    calls_.clear();
    room_fifo_.clear();
    for (PostJob& job : posts_) {
        if (is_open(job.stage)) {
            job.stage = PostStage::cancelled;
            job.note = reason;
            job.retry_at.reset();
        }
    }
    account_.loading = status_.loading = rooms_.loading = false;
    account_.note.clear();
    status_.note.clear();
    rooms_.note.clear();
    batch_ = PostBatch{};
    room_.set_loading(false);
    my_tasks_.loading = contacts_.loading = incoming_.loading = false;
}

void App::reset_account_data() {
    account_ = {};
    status_ = {};
    rooms_ = {};
    selected_room_.clear();
    room_.close();
    room_poll_at_.reset();
    room_announcement_.clear();
    my_tasks_ = {};
    contacts_ = {};
    incoming_ = {};
    console_ = Console{};  // the last answer was the previous account's
}

}  // namespace roomkey::app
