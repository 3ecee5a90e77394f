// rest_client.cpp: the one REST client (see rest_client.hpp).
#include "roomkey/rest_client.hpp"

#include "roomkey/authorization.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/www_authenticate.hpp"

#include <algorithm>
#include <utility>

namespace roomkey {

RestClient::RestClient(SessionConfig session_config, PacingConfig pacing)
    : session_config_(session_config), session_(std::move(session_config)), scheduler_(pacing) {}

// ---- who holds the credentials ----

RestStep RestClient::sign_in(SessionConfig config, std::string url, std::string pending_record) {
    session_ = Session(std::move(config));
    holder_ = CredentialHolder::page_session;
    RestStep step = run(session_event::SignInStarted{std::move(url)}, Instant{});
    // Kept before the page leaves for the consent screen, never later.
    step.keep_pending = std::move(pending_record);
    return step;
}

RestStep RestClient::callback(SessionConfig config, ValidatedCallback callback, Instant received_at, Instant now) {
    session_ = Session(std::move(config));
    const Millis waited = std::chrono::duration_cast<Millis>(now - received_at);
    if (waited > kAuthorizationCodeLifetime) {
        // Spec 2.2 / 8.3: the code is valid 1 minute from when it was issued,
        // which was before this page loaded: exchanging it now can only fail.
        holder_ = CredentialHolder::none;
        RestStep step;
        step.lifecycle.push_back(lifecycle::CodeExpired{waited});
        return step;
    }
    holder_ = CredentialHolder::page_session;
    return run(session_event::CallbackValidated{std::move(callback)}, now);
}

RestStep RestClient::callback_rejected(const CallbackError& error) {
    return run(session_event::CallbackRejected{error}, Instant{});
}

void RestClient::use_api_token(std::string token) {
    api_token_ = std::move(token);
    holder_ = CredentialHolder::api_token;
}

void RestClient::use_helper() {
    holder_ = CredentialHolder::helper;
}

RestStep RestClient::sign_out() {
    RestStep step;
    if (session_.state() != SessionState::signed_out) step = run(session_event::SignOut{}, Instant{});
    holder_ = CredentialHolder::none;
    api_token_.clear();
    return step;
}

void RestClient::reset_session(SessionConfig config) {
    session_ = Session(std::move(config));
    if (holder_ == CredentialHolder::page_session) holder_ = CredentialHolder::none;
}

Credentials RestClient::credentials() const {
    switch (holder_) {
        case CredentialHolder::api_token:
            return ApiToken{api_token_};
        case CredentialHolder::helper:
            return HeldByHelper{};  // the helper attaches the token
        case CredentialHolder::page_session:
        case CredentialHolder::none:
            break;
    }
    const auto& tokens = session_.tokens();
    return BearerToken{tokens ? tokens->access_token : std::string()};
}

bool RestClient::can_send() const {
    switch (holder_) {
        case CredentialHolder::api_token:
        case CredentialHolder::helper:
            return true;
        case CredentialHolder::page_session:
            return session_.state() == SessionState::signed_in;
        case CredentialHolder::none:
            break;
    }
    return false;
}

// With the page's session, a request waits while a session is on its way
// (the callback, the code exchange, a refresh) and goes to the table once
// there is one: sent, or failed when the session has ended.
bool RestClient::may_pop() const {
    if (holder_ != CredentialHolder::page_session) return can_send();
    const SessionState state = session_.state();
    return state == SessionState::signed_in || state == SessionState::failed || state == SessionState::expired;
}

// ---- the session's own events ----

RestStep RestClient::token_answer(TokenRequestId id, const std::optional<HttpResponse>& response,
                                  const std::string& reason, Instant now) {
    // The user signed out (or signed in again) while the request was on its
    // way: its answer changes nothing, which is what they asked for, not a
    // fault to show them. The table refuses it all the same.
    if (!session_.awaits_token_answer(id)) return {};
    const SessionState before = session_.state();
    const std::uint64_t generation = session_.token_generation();
    RestStep step = response ? run(session_event::TokenResponse{id, *response, now}, now)
                             : run(session_event::TokenRequestFailed{id, reason, now}, now);
    const SessionState after = session_.state();
    if (session_.token_generation() != generation && session_.tokens()) {
        if (before == SessionState::exchanging) {
            step.lifecycle.push_back(lifecycle::SignedIn{});
        } else {
            step.lifecycle.push_back(lifecycle::Refreshed{session_.tokens()->scope});
        }
    } else if ((after == SessionState::failed || after == SessionState::expired) && session_.ended()) {
        step.lifecycle.push_back(lifecycle::Ended{*session_.ended()});
    }
    return step;
}

RestStep RestClient::tick(Instant now) {
    if (holder_ != CredentialHolder::page_session) return {};
    return run(session_event::Tick{now}, now);
}

RestStep RestClient::refresh(Instant now, std::optional<ScopeSet> scope) {
    return run(session_event::RefreshRequested{now, std::move(scope)}, now);
}

RestStep RestClient::run(const SessionEvent& event, Instant now) {
    RestStep step;
    auto effects = session_.handle(event);
    if (!effects) {
        step.refused_event = effects.error();
        return step;
    }
    apply(std::move(effects).value(), step, now);
    return step;
}

void RestClient::apply(std::vector<SessionEffect> effects, RestStep& step, Instant now) {
    for (SessionEffect& effect : effects) {
        if (const auto* s = std::get_if<session_effect::SendApiRequest>(&effect)) {
            send(s->id, false, step, now);
        } else if (const auto* r = std::get_if<session_effect::RetryApiRequest>(&effect)) {
            send(r->id, true, step, now);
        } else if (const auto* f = std::get_if<session_effect::FailApiRequest>(&effect)) {
            rest::Failed failed;
            failed.reason = "not sent: " + std::string(to_string(f->reason));
            failed.refused = f->reason;
            finish(f->id, step, std::nullopt, std::move(failed));
        } else {
            // Token requests, timers, navigation, forgetting tokens: the adapter's.
            step.session_effects.push_back(std::move(effect));
        }
    }
}

// ---- requests ----

RestStep RestClient::submit(RequestTag tag, HttpRequest request, RestOptions options) {
    RestStep step;
    if (holder_ == CredentialHolder::none) {
        rest::Failed failed;
        failed.tag = tag;
        failed.reason = "not sent: " + std::string(to_string(RequestFailure::not_signed_in));
        failed.refused = RequestFailure::not_signed_in;
        step.failed.push_back(std::move(failed));
        return step;
    }
    if (options.in_room_order && !options.room_for_post) options.in_room_order = false;
    Entry entry;
    entry.request = std::move(request);
    entry.options = options;
    entries_[tag] = std::move(entry);
    if (options.in_room_order) {
        // One post per room at a time, so they arrive in order; the head of
        // each room is the only one the pacing queue sees.
        auto& line = room_lines_[*options.room_for_post];
        line.push_back(tag);
        if (line.size() > 1) return step;
    }
    queue_.push(PendingRequest{tag, options.room_for_post});
    return step;
}

RestStep RestClient::pump(Instant now) {
    RestStep step;
    while (may_pop()) {
        auto next = queue_.pop_ready(now, scheduler_);
        if (!next) break;
        const auto it = entries_.find(next->id);
        if (it == entries_.end()) continue;
        if (holder_ == CredentialHolder::page_session) {
            // The session decides: send now, or wait for a refresh first.
            it->second.stage = Stage::waiting_session;
            auto effects = session_.handle(session_event::ApiRequest{next->id, now});
            if (!effects) {
                step.refused_event = effects.error();
                continue;
            }
            apply(std::move(effects).value(), step, now);
        } else {
            send(next->id, false, step, now);
        }
    }
    return step;
}

void RestClient::send(RequestTag tag, bool retry, RestStep& step, Instant now) {
    const auto it = entries_.find(tag);
    if (it == entries_.end()) return;
    Entry& entry = it->second;
    HttpRequest request = entry.request;
    if (auto attached = attach_credentials(api_config_, credentials(), request); !attached) {
        rest::Failed failed;
        failed.reason = "the request could not be built: " + std::string(to_string(attached.error()));
        finish(tag, step, std::nullopt, std::move(failed));
        return;
    }
    entry.generation = session_.token_generation();
    entry.stage = Stage::in_flight;
    if (retry) entry.retried = true;
    scheduler_.on_sent(now, entry.options.room_for_post);
    step.send.push_back(rest::Send{tag, std::move(request), retry});
}

Result<RestStep, SessionError> RestClient::on_response(RequestTag tag, const HttpResponse& response, Instant now) {
    RestStep step;
    const auto it = entries_.find(tag);
    const std::optional<std::string> room = it != entries_.end() ? it->second.options.room_for_post : std::nullopt;
    const auto rate = read_rate_limit(response.headers);
    const RateLimit* headers = (rate && *rate) ? &**rate : nullptr;
    const bool per_room = response.status == 429 && is_per_room_rate_limit(response);
    scheduler_.on_response(now, room, response.status, headers, per_room);
    if (it == entries_.end()) {
        // Dropped (signed out) while in flight, or never submitted: the pacer
        // counted it all the same, and nobody waits for it.
        return Err{SessionError{SessionErrorKind::unknown_request, session_.state(), SessionEventKind::api_request}};
    }
    Entry& entry = it->second;
    if (response.status == 429 && ++entry.rate_limited <= entry.options.rate_limit_retries) {
        // Spec 7.3: wait (about 10 s for the per-room limit, until the reset
        // for the overall one: the scheduler knows which) and try again.
        entry.stage = Stage::queued;
        queue_.push(PendingRequest{tag, room});
        step.rate_limited.push_back(rest::RateLimited{tag, per_room, entry.rate_limited});
        return step;
    }
    if (holder_ == CredentialHolder::page_session && is_invalid_token(response)) {
        // Spec 5.2.2: the session decides (one refresh, one retry).
        entry.stage = Stage::waiting_session;
        auto effects = session_.handle(session_event::ApiUnauthorized{tag, entry.generation, entry.retried, now});
        if (!effects) {
            step.refused_event = effects.error();
            return step;
        }
        apply(std::move(effects).value(), step, now);
        return step;
    }
    finish(tag, step, response, {});
    return step;
}

RestStep RestClient::on_no_answer(RequestTag tag, const std::string& reason, Instant now) {
    RestStep step;
    const auto it = entries_.find(tag);
    const std::optional<std::string> room = it != entries_.end() ? it->second.options.room_for_post : std::nullopt;
    scheduler_.on_response(now, room, 0, nullptr, false);
    if (it == entries_.end()) return step;
    rest::Failed failed;
    failed.reason = "no answer: " + reason;
    failed.no_answer = true;
    finish(tag, step, std::nullopt, std::move(failed));
    return step;
}

void RestClient::finish(RequestTag tag, RestStep& step, std::optional<HttpResponse> response, rest::Failed failed) {
    const auto it = entries_.find(tag);
    if (it == entries_.end()) return;
    if (it->second.options.in_room_order) {
        it->second.stage = Stage::held;  // keeps its room's turn until released
    } else {
        queue_.remove(tag);
        entries_.erase(it);
    }
    if (response) {
        step.completed.push_back(rest::Completed{tag, std::move(*response)});
    } else {
        failed.tag = tag;
        step.failed.push_back(std::move(failed));
    }
}

void RestClient::resend(RequestTag tag) {
    const auto it = entries_.find(tag);
    if (it == entries_.end() || it->second.stage != Stage::held) return;
    it->second.stage = Stage::queued;
    it->second.retried = false;  // a new attempt gets its own retry after 401
    queue_.push(PendingRequest{tag, it->second.options.room_for_post});
}

void RestClient::release(RequestTag tag) {
    const auto it = entries_.find(tag);
    if (it == entries_.end()) return;
    const std::optional<std::string> room =
        it->second.options.in_room_order ? it->second.options.room_for_post : std::nullopt;
    queue_.remove(tag);
    entries_.erase(it);
    if (room) release_room(*room);
}

void RestClient::release_room(const std::string& room) {
    const auto line = room_lines_.find(room);
    if (line == room_lines_.end()) return;
    auto& tags = line->second;
    const bool head_was_done = !tags.empty() && entries_.count(tags.front()) == 0;
    tags.erase(std::remove_if(tags.begin(), tags.end(), [&](RequestTag t) { return entries_.count(t) == 0; }),
               tags.end());
    if (tags.empty()) {
        room_lines_.erase(line);
        return;
    }
    // The finished post was the head; the next one now waits for its turn.
    if (head_was_done) queue_.push(PendingRequest{tags.front(), room});
}

bool RestClient::cancel(RequestTag tag) {
    const auto it = entries_.find(tag);
    if (it == entries_.end() || it->second.stage == Stage::in_flight) return false;
    release(tag);
    return true;
}

void RestClient::drop_all() {
    for (const auto& [tag, entry] : entries_) queue_.remove(tag);
    entries_.clear();
    room_lines_.clear();
}

bool RestClient::in_flight(RequestTag tag) const {
    const auto it = entries_.find(tag);
    return it != entries_.end() && it->second.stage == Stage::in_flight;
}

std::optional<Instant> RestClient::next_send_at(Instant now) const {
    if (!can_send()) return std::nullopt;
    return queue_.next_ready_at(now, scheduler_);
}

}  // namespace roomkey
