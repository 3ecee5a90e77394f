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
    (void)room_for_post;
    ApiCall call;
    call.id = id != 0 ? id : next_call_id_++;
    call.kind = kind;
    const ApiConfig config = api_config();
    Result<HttpRequest, ApiRequestError> request = Err{ApiRequestError::unknown_endpoint};
    switch (kind) {
        case CallKind::me:
            account_.loading = true;
            request = get_me(config, HeldByHelper{});
            break;
        case CallKind::my_status:
            status_.loading = true;
            request = get_my_status(config, HeldByHelper{});
            break;
        case CallKind::rooms:
            rooms_.loading = true;
            request = get_rooms(config, HeldByHelper{});
            break;
        case CallKind::view:
            return;  // enqueue_view builds its own
    }
    RestOptions options;
    options.rate_limit_retries = kMaxRateLimitedGetRetries;
    submit_call(call, request ? Result<HttpRequest, std::string>(std::move(*request))
                              : Result<HttpRequest, std::string>(Err{std::string(to_string(request.error()))}),
                options, now);
}

void App::submit_call(const ApiCall& call, Result<HttpRequest, std::string> request, RestOptions options,
                      Instant now) {
    calls_[call.id] = call;
    if (!request) {
        fail_call(call.id, "the request could not be built: " + request.error(), now);
        return;
    }
    perform(client_.submit(call.id, std::move(*request), std::move(options)), now);
}

void App::pump(Instant now) {
    // roomkey-helper gave no answer at all: nothing goes until it answers a
    // probe (a post that was never handed to the browser was certainly not sent).
    if (helper_down_) return;
    perform(client_.pump(now), now);
}

std::string App::call_label(const ApiCall& call) {
    switch (call.kind) {
        case CallKind::me:
            return "account (spec 4.4)";
        case CallKind::my_status:
            return "status (spec 4.5)";
        case CallKind::rooms:
            return "room list (spec 4.8)";
        case CallKind::view:
            return view_label(call);
    }
    return "request";
}

// The REST client let request `id` go, with its credentials.
void App::on_sent(RequestId id, HttpRequest request, bool retry, Instant now) {
    if (const auto route = routes_.find(id); route != routes_.end()) {
        std::string label = route->second.label;
        if (retry) {
            label += ", retry after refresh";
            ++counters_.retries_after_401;
        }
        route->second.failure.reset();
        ++counters_.requests_sent;
        route->second.owner->on_sent(id, now);
        const bool upload = route->second.upload_progress;
        send(RestCall{id}, std::move(label), std::move(request), now);
        if (upload) std::get<effect::Send>(effects_.back()).upload_progress = true;
        return;
    }
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    ApiCall& call = it->second;
    std::string label = call_label(call);
    if (retry) {
        label += ", retry after refresh";
        ++counters_.retries_after_401;
    }
    if (call.kind == CallKind::view && call.view == ViewCall::console) console_.on_sent();
    call.failure.reset();
    ++counters_.requests_sent;
    const bool upload = call.upload != nullptr;
    send(RestCall{id}, std::move(label), std::move(request), now);
    if (upload) std::get<effect::Send>(effects_.back()).upload_progress = true;
}

// A 429 the REST client waits out before the request goes again (spec 7.3).
void App::on_rate_limited(const rest::RateLimited& waiting, Instant now) {
    auto it = calls_.find(waiting.tag);
    if (it == calls_.end()) return;
    const ApiCall& call = it->second;
    // A GET (spec 8.1): the scheduler now holds every request until
    // x-ratelimit-reset; this one goes again then, once, and says so.
    const Millis wait =
        std::chrono::duration_cast<Millis>(client_.scheduler().earliest_send(now, std::nullopt) - now);
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
    }
}

void App::perform(RestStep step, Instant now) {
    // The table has no row for this: a bug in this adapter, shown, not hidden.
    if (step.refused_event) notice_ = "internal: " + describe(*step.refused_event);
    if (step.keep_pending) effects_.push_back(effect::StorePending{std::move(*step.keep_pending)});
    for (const SessionEffect& effect : step.session_effects) {
        if (const auto* go = std::get_if<session_effect::NavigateToConsent>(&effect)) {
            effects_.push_back(effect::Navigate{go->url});
        } else if (const auto* exchange = std::get_if<session_effect::SendCodeExchange>(&effect)) {
            send(TokenCall{exchange->id}, "code exchange (spec 4.3)", exchange->request, now);
        } else if (const auto* refresh = std::get_if<session_effect::SendRefresh>(&effect)) {
            send(TokenCall{refresh->id}, "token refresh (spec 4.3)", refresh->request, now);
        } else if (const auto* at = std::get_if<session_effect::ScheduleRefreshAt>(&effect)) {
            refresh_tick_at_ = at->at;
        } else if (std::holds_alternative<session_effect::ForgetTokens>(effect)) {
            log_.forget_secrets(redaction());
        }
    }
    for (rest::Send& out : step.send) on_sent(out.tag, std::move(out.request), out.is_retry, now);
    for (const rest::RateLimited& waiting : step.rate_limited) {
        const auto route = routes_.find(waiting.tag);
        if (route != routes_.end()) {
            route->second.owner->on_rate_limited(waiting, now);
        } else {
            on_rate_limited(waiting, now);
        }
    }
    for (const rest::Completed& done : step.completed) {
        if (mode_ == Mode::bff) {
            // The helper refreshed and retried already; a 401 it marks as "no
            // session" means signed out (expired, refused refresh, logged out).
            if (auto why = bff_session_ended(done.response)) {
                bff_ended(*why, now);
                continue;
            }
        }
        deliver(done.tag, Answer{done.response, {}, std::nullopt}, now);
    }
    for (const rest::Failed& failed : step.failed) deliver(failed.tag, Answer{std::nullopt, failed.reason, std::nullopt}, now);
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
    if (!response) {
        perform(client_.on_no_answer(id, reason, now), now);
        return;
    }
    record_rate(*response, now);
    if (response->status == 429) ++counters_.responses_429;
    // An unknown tag was dropped (signed out) while in flight: nobody waits for it.
    if (auto step = client_.on_response(id, *response, now)) perform(std::move(*step), now);
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
        case CallKind::view:
            on_view_answer(call, response, reason, now);
            break;
    }
}

void App::fail_call(RequestId id, const std::string& reason, Instant now) {
    finish_call(id, std::nullopt, reason, now);
}

void App::drop_all_calls(const std::string& reason, Instant now) {
    (void)now;
    client_.drop_all();
    calls_.clear();
    routes_.clear();
    posting_.drop_all(reason);
    account_.loading = status_.loading = rooms_.loading = false;
    account_.note.clear();
    status_.note.clear();
    rooms_.note.clear();
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
