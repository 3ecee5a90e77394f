// bff_refresh_flight.cpp: the session table per cookie session and its
// single flight (bff_refresh_flight.hpp).
//
// [SECTION] entries: finding, restoring from a cookie, dropping the oldest
// [SECTION] the adapter: feeding events, performing effects, waiting for a verdict
// [SECTION] the gateway's calls
#include "helper/bff_refresh_flight.hpp"

#include "roomkey/token.hpp"

namespace roomkey::helper {
namespace {

// What a cookie holds, as the table's token set.
TokenSet token_set_of(const BffSession& s) {
    TokenSet t;
    t.access_token = s.access_token;
    t.refresh_token = s.refresh_token;
    t.token_type = "Bearer";
    t.expires_in = kAccessTokenLifetime.count();
    t.scope = s.scope;
    t.access_expires_at = s.access_expires_at;
    t.refresh_expires_at = s.refresh_expires_at;
    return t;
}

// Holds an entry for the calling thread (it is not dropped meanwhile).
struct Use {
    explicit Use(std::size_t& users) : users_(users) { ++users_; }
    ~Use() { --users_; }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;
    std::size_t& users_;
};

RefreshFailure no_verdict(SessionState state) {
    return RefreshFailure{false, "the session is " + std::string(to_string(state)), std::nullopt};
}

}  // namespace

BffRefreshFlight::BffRefreshFlight(SessionConfig config, SendToken send, std::function<Instant()> now,
                                   std::size_t max_sessions)
    : config_(std::move(config)), send_(std::move(send)), now_(std::move(now)), max_sessions_(max_sessions) {}

// [SECTION] entries ------------------------------------------------------------

BffRefreshFlight::Entry& BffRefreshFlight::entry(const std::string& id) {
    auto it = entries_.find(id);
    if (it != entries_.end()) return it->second;
    // Beyond the cap the oldest sessions are forgotten (never one in use).
    while (entries_.size() >= max_sessions_ && !order_.empty()) {
        auto old = entries_.find(order_.front());
        if (old != entries_.end() && old->second.users > 0) break;
        if (old != entries_.end()) entries_.erase(old);
        order_.pop_front();
    }
    order_.push_back(id);
    return entries_.try_emplace(id, config_).first->second;
}

// A cookie's tokens take up the session on this helper (tokens_restored):
// after a restart, from another helper, or after a failure that did not end
// the grant. The refresh-ahead counts from the spec's access token lifetime,
// as the cookie does not keep when its token was issued.
void BffRefreshFlight::restore(std::unique_lock<std::mutex>& lock, Entry& e, const BffSession& session) {
    e.table = Session(config_);
    e.newest = session;
    feed(lock, e,
         session_event::TokensRestored{token_set_of(session), session.access_expires_at - kAccessTokenLifetime,
                                       now_()});
}

BffRefreshFlight::Entry& BffRefreshFlight::attach(std::unique_lock<std::mutex>& lock, const BffSession& from_cookie) {
    const bool known = entries_.count(from_cookie.id) != 0;
    Entry& e = entry(from_cookie.id);
    if (e.ended || e.performing) return e;
    // A cookie newer than the set kept here was renewed by another helper.
    if (!known || from_cookie.generation > e.newest.generation) {
        restore(lock, e, from_cookie);
    } else if (e.table.state() == SessionState::failed) {
        // A refresh failed without ending the grant (no answer, 5xx, an
        // answer it could not use): the session is taken up again from its
        // newest set, whose refresh token was not used up. Not at once, so
        // that one request makes one token request.
        restore(lock, e, e.newest);
    }
    return e;
}

// [SECTION] the adapter --------------------------------------------------------

// Applies `event` to the session's table and performs its effects: the
// requests' verdicts are posted, a token request is made by this thread.
void BffRefreshFlight::feed(std::unique_lock<std::mutex>& lock, Entry& e, const SessionEvent& event,
                            const std::optional<ScopeSet>& asked) {
    auto effects = e.table.handle(event);
    if (!effects) return;  // no row for it now (say, a late answer after a logout): nothing happens
    std::optional<std::pair<TokenRequestId, HttpRequest>> token_request;
    GrantType grant = GrantType::refresh_token;
    for (const SessionEffect& effect : *effects) {
        if (const auto* x = std::get_if<session_effect::SendApiRequest>(&effect)) {
            e.verdicts[x->id] = std::nullopt;
        } else if (const auto* y = std::get_if<session_effect::RetryApiRequest>(&effect)) {
            e.verdicts[y->id] = std::nullopt;
        } else if (const auto* f = std::get_if<session_effect::FailApiRequest>(&effect)) {
            e.verdicts[f->id] = f->reason;
        } else if (const auto* r = std::get_if<session_effect::SendRefresh>(&effect)) {
            token_request.emplace(r->id, r->request);
        } else if (const auto* c = std::get_if<session_effect::SendCodeExchange>(&effect)) {
            token_request.emplace(c->id, c->request);
            grant = GrantType::authorization_code;
        }
        // ScheduleRefreshAt: the helper keeps no timer; the next request's
        // tick refreshes. ForgetTokens: the state below says it is over.
    }
    if (e.table.state() == SessionState::expired && !e.ended) {
        e.ended = RefreshFailure{true, "the sign-in's 14 days are over (spec 5.4.2)", std::nullopt};
    }
    done_.notify_all();
    if (token_request) perform(lock, e, token_request->first, token_request->second, grant, asked);
}

void BffRefreshFlight::perform(std::unique_lock<std::mutex>& lock, Entry& e, TokenRequestId id,
                               const HttpRequest& request, GrantType grant, const std::optional<ScopeSet>& asked) {
    const std::uint64_t generation = e.table.token_generation();
    e.performing = true;
    lock.unlock();
    TokenAnswer answer = send_(request, grant);
    const Instant at = now_();
    lock.lock();
    e.performing = false;
    ++e.answered;
    if (answer.response) {
        feed(lock, e, session_event::TokenResponse{id, *answer.response, at});
    } else {
        feed(lock, e, session_event::TokenRequestFailed{id, answer.words, at});
    }
    const bool renewed = e.table.token_generation() > generation && e.table.tokens();
    if (asked) {
        answer.record.scope_sent = true;
        if (!renewed) answer.record.scope = format_scope_list(*asked);
    }
    e.last_record = answer.record;
    if (renewed) {
        adopt_token_set(e.newest, *e.table.tokens(), answer.record);
        e.last_failure.reset();
    } else {
        RefreshFailure failure{false, answer.words, answer.record};
        const auto& end = e.table.ended();
        if (e.table.state() == SessionState::failed && end && end->kind == SessionEndKind::refresh_rejected) {
            // invalid_grant: the refresh token is dead; only a new sign-in helps.
            failure.session_ended = true;
            failure.words = "the service refused the refresh (" + answer.words + ")";
            e.ended = failure;
        }
        e.last_failure = failure;
    }
    done_.notify_all();
}

Result<Cleared, RefreshFailure> BffRefreshFlight::await(std::unique_lock<std::mutex>& lock, Entry& e, RequestId id,
                                                        std::uint64_t answered_before) {
    // Every way out of a token request posts the verdicts of the requests
    // that waited for it.
    done_.wait(lock, [&] { return e.verdicts.count(id) != 0 || !e.performing; });
    const auto it = e.verdicts.find(id);
    if (it == e.verdicts.end()) return Err{e.ended ? *e.ended : no_verdict(e.table.state())};
    const std::optional<RequestFailure> failure = it->second;
    e.verdicts.erase(it);
    std::optional<BffTokenRequest> record;
    if (e.answered != answered_before) record = e.last_record;
    if (failure) {
        if (e.ended) return Err{*e.ended};
        RefreshFailure out = e.last_failure ? *e.last_failure : RefreshFailure{false, std::string(to_string(*failure)), {}};
        if (!record) out.record.reset();
        return Err{out};
    }
    return Cleared{e.newest, id, e.table.token_generation(), record};
}

// [SECTION] the gateway's calls -------------------------------------------------

Result<BffSession, RefreshFailure> BffRefreshFlight::sign_in(const ValidatedCallback& callback,
                                                             const std::string& id) {
    std::unique_lock<std::mutex> lock(mutex_);
    Entry& e = entry(id);
    Use use(e.users);
    e.newest.id = id;
    feed(lock, e, session_event::CallbackValidated{callback});
    if (e.table.state() == SessionState::signed_in) return e.newest;
    RefreshFailure failure = e.last_failure ? *e.last_failure : no_verdict(e.table.state());
    e.ended = failure;  // this id names no session
    return Err{failure};
}

Result<BffSession, RefreshFailure> BffRefreshFlight::newest(const BffSession& from_cookie) {
    std::unique_lock<std::mutex> lock(mutex_);
    Entry& e = attach(lock, from_cookie);
    if (e.ended) return Err{*e.ended};
    return e.newest.generation >= from_cookie.generation ? e.newest : from_cookie;
}

Result<Cleared, RefreshFailure> BffRefreshFlight::send(const BffSession& from_cookie) {
    std::unique_lock<std::mutex> lock(mutex_);
    Entry& e = attach(lock, from_cookie);
    Use use(e.users);
    if (e.ended) return Err{*e.ended};
    const std::uint64_t before = e.answered;
    feed(lock, e, session_event::Tick{now_()});
    const RequestId id = ++last_request_;
    feed(lock, e, session_event::ApiRequest{id, now_()});
    return await(lock, e, id, before);
}

Result<Cleared, RefreshFailure> BffRefreshFlight::unauthorized(const Cleared& sent) {
    std::unique_lock<std::mutex> lock(mutex_);
    Entry& e = attach(lock, sent.session);
    Use use(e.users);
    if (e.ended) return Err{*e.ended};
    const std::uint64_t before = e.answered;
    feed(lock, e, session_event::ApiUnauthorized{sent.id, sent.generation, false, now_()});
    return await(lock, e, sent.id, before);
}

Result<RefreshOutcome, RefreshFailure> BffRefreshFlight::refresh(const BffSession& from_cookie,
                                                                 const std::optional<ScopeSet>& scope) {
    std::unique_lock<std::mutex> lock(mutex_);
    Entry& e = attach(lock, from_cookie);
    Use use(e.users);
    const std::uint64_t before = e.answered;
    // A refresh under way is shared by the table; a scope asks for its own, after it.
    done_.wait(lock, [&] { return !e.performing; });
    if (e.ended) return Err{*e.ended};
    if (!scope && e.newest.generation > from_cookie.generation) {
        // Another request refreshed since this cookie was sealed: its set is the answer.
        return RefreshOutcome{e.newest, e.answered != before ? e.last_record : std::nullopt};
    }
    const std::uint64_t generation = e.newest.generation;
    feed(lock, e, session_event::RefreshRequested{now_(), scope}, scope);
    if (e.newest.generation > generation) return RefreshOutcome{e.newest, e.last_record};
    if (e.ended) return Err{*e.ended};
    return Err{e.last_failure ? *e.last_failure : no_verdict(e.table.state())};
}

void BffRefreshFlight::end(const std::string& session_id) {
    std::unique_lock<std::mutex> lock(mutex_);
    Entry& e = entry(session_id);
    // A token request under way gets its answer refused (stale); requests
    // waiting for it fail.
    feed(lock, e, session_event::SignOut{});
    e.ended = RefreshFailure{true, "signed out", std::nullopt};
}

}  // namespace roomkey::helper
