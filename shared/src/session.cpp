// session.cpp: the session state machine (see session.hpp for the table).
//
// [SECTION] Names
// [SECTION] Helpers shared by the handlers
// [SECTION] Handlers, one per kind of row
// [SECTION] The table
// [SECTION] Session

#include "roomkey/session.hpp"

#include "roomkey/errors.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace roomkey {

// ===========================================================================
// [SECTION] Names
// ===========================================================================

std::string_view to_string(SessionState state) {
    switch (state) {
        case SessionState::signed_out: return "signed_out";
        case SessionState::authorizing: return "authorizing";
        case SessionState::exchanging: return "exchanging";
        case SessionState::signed_in: return "signed_in";
        case SessionState::refreshing: return "refreshing";
        case SessionState::expired: return "expired";
        case SessionState::failed: return "failed";
    }
    return "unknown";
}

std::string_view to_string(SessionEventKind kind) {
    switch (kind) {
        case SessionEventKind::sign_in_started: return "sign_in_started";
        case SessionEventKind::callback_validated: return "callback_validated";
        case SessionEventKind::callback_rejected: return "callback_rejected";
        case SessionEventKind::token_response: return "token_response";
        case SessionEventKind::token_request_failed: return "token_request_failed";
        case SessionEventKind::tick: return "tick";
        case SessionEventKind::api_request: return "api_request";
        case SessionEventKind::api_unauthorized: return "api_unauthorized";
        case SessionEventKind::refresh_requested: return "refresh_requested";
        case SessionEventKind::sign_out: return "sign_out";
        case SessionEventKind::tokens_restored: return "tokens_restored";
    }
    return "unknown";
}

SessionEventKind kind_of(const SessionEvent& event) { return static_cast<SessionEventKind>(event.index()); }

std::string_view to_string(RequestFailure failure) {
    switch (failure) {
        case RequestFailure::not_signed_in: return "not_signed_in";
        case RequestFailure::unauthorized_after_retry: return "unauthorized_after_retry";
        case RequestFailure::refresh_failed: return "refresh_failed";
        case RequestFailure::session_ended: return "session_ended";
        case RequestFailure::signed_out: return "signed_out";
    }
    return "unknown";
}

std::string_view to_string(SessionEndKind kind) {
    switch (kind) {
        case SessionEndKind::signed_out: return "signed_out";
        case SessionEndKind::callback_rejected: return "callback_rejected";
        case SessionEndKind::code_exchange_rejected: return "code_exchange_rejected";
        case SessionEndKind::code_exchange_failed: return "code_exchange_failed";
        case SessionEndKind::refresh_rejected: return "refresh_rejected";
        case SessionEndKind::refresh_failed: return "refresh_failed";
        case SessionEndKind::refresh_token_expired: return "refresh_token_expired";
    }
    return "unknown";
}

std::string describe(const SessionEnd& end) {
    std::string text;
    switch (end.kind) {
        case SessionEndKind::signed_out: text = "You signed out."; break;
        case SessionEndKind::callback_rejected: text = "Sign-in was not completed at the consent screen"; break;
        case SessionEndKind::code_exchange_rejected: text = "The service refused the sign-in code"; break;
        case SessionEndKind::code_exchange_failed: text = "The sign-in could not be completed"; break;
        case SessionEndKind::refresh_rejected:
            text = "Your sign-in is no longer valid: the service refused the refresh token";
            break;
        case SessionEndKind::refresh_failed: text = "Your sign-in could not be renewed"; break;
        case SessionEndKind::refresh_token_expired:
            text = "Your sign-in expired: it lasts 14 days without offline access";
            break;
    }
    if (end.kind == SessionEndKind::signed_out) return text;
    if (!end.detail.empty()) text += " (" + end.detail + ")";
    return text + ". Please sign in again.";
}

std::string_view to_string(SessionErrorKind kind) {
    switch (kind) {
        case SessionErrorKind::invalid_transition: return "invalid_transition";
        case SessionErrorKind::stale_token_response: return "stale_token_response";
        case SessionErrorKind::unknown_request: return "unknown_request";
    }
    return "unknown";
}

std::string describe(const SessionError& error) {
    return std::string(to_string(error.kind)) + ": event " + std::string(to_string(error.event)) + " in state " +
           std::string(to_string(error.state));
}

// ===========================================================================
// [SECTION] Helpers shared by the handlers
// ===========================================================================

std::optional<Instant> keep_grant_end(const std::optional<Instant>& held, const std::optional<Instant>& issued) {
    if (!held) return issued;
    if (!issued) return held;
    return std::min(*held, *issued);
}

namespace {

using detail::SessionData;
using detail::WaitingRequest;
using Effects = std::vector<SessionEffect>;

struct Transition {
    SessionState next;
    Effects effects;
};
using Outcome = Result<Transition, SessionErrorKind>;
using Handler = Outcome (*)(SessionData&, const SessionConfig&, const SessionEvent&);

// When the next refresh is due: ahead of the access token's expiry (spec
// 5.2.3), but never in the first half of its life (a short-lived token would
// otherwise be refreshed on every tick), and not after the refresh token dies.
Instant refresh_due(const SessionData& d, const SessionConfig& c) {
    if (d.retry_refresh_at) return *d.retry_refresh_at;
    const TokenSet& t = *d.tokens;
    const Millis lifetime =
        std::max(Millis(0), std::chrono::duration_cast<Millis>(t.access_expires_at - d.tokens_received_at));
    const Millis ahead = std::min(c.refresh_ahead, lifetime / 2);
    Instant at = t.access_expires_at - ahead;
    if (t.refresh_expires_at && *t.refresh_expires_at < at) at = *t.refresh_expires_at;
    return at;
}

bool refresh_token_expired(const SessionData& d, Instant now) {
    return d.tokens && d.tokens->refresh_expires_at && now >= *d.tokens->refresh_expires_at;
}

TokenRequestId next_token_request(SessionData& d) {
    d.token_request_in_flight = ++d.last_token_request;
    return *d.token_request_in_flight;
}

Result<Unit, SessionErrorKind> expect_token_request(const SessionData& d, TokenRequestId id) {
    if (!d.token_request_in_flight || *d.token_request_in_flight != id)
        return Err{SessionErrorKind::stale_token_response};
    return Unit{};
}

void fail_waiting(SessionData& d, RequestFailure reason, Effects& effects) {
    for (const WaitingRequest& w : d.waiting) effects.push_back(session_effect::FailApiRequest{w.id, reason});
    d.waiting.clear();
}

// Requests that waited for a token go now: first tries as such. Those that
// already got a 401 go as their one retry when a new token came, or fail
// with `retry_failure` when there is none (only the token they were refused with).
void release_waiting(SessionData& d, Effects& effects, std::optional<RequestFailure> retry_failure = std::nullopt) {
    for (const WaitingRequest& w : d.waiting) {
        if (!w.is_retry)
            effects.push_back(session_effect::SendApiRequest{w.id});
        else if (retry_failure)
            effects.push_back(session_effect::FailApiRequest{w.id, *retry_failure});
        else
            effects.push_back(session_effect::RetryApiRequest{w.id});
    }
    d.waiting.clear();
}

// `narrower`: the scopes the user asked for instead of the grant (spec 4.3).
Transition start_refresh(SessionData& d, const SessionConfig& c, std::optional<ScopeSet> narrower = std::nullopt) {
    d.retry_refresh_at.reset();
    std::optional<ScopeSet> scope = std::move(narrower);
    if (!scope && c.send_scope_on_refresh) scope = d.tokens->scope;
    const TokenRequestId id = next_token_request(d);
    return {SessionState::refreshing,
            {session_effect::SendRefresh{
                id, build_refresh_request(c.token_url, d.tokens->refresh_token, scope, c.credentials)}}};
}

Transition store_tokens(SessionData& d, const SessionConfig& c, TokenSet tokens, Instant now) {
    if (d.tokens) tokens.refresh_expires_at = keep_grant_end(d.tokens->refresh_expires_at, tokens.refresh_expires_at);
    d.tokens = std::move(tokens);
    d.tokens_received_at = now;
    d.retry_refresh_at.reset();
    ++d.generation;
    Effects effects{session_effect::ScheduleRefreshAt{refresh_due(d, c)}};
    release_waiting(d, effects);
    return {SessionState::signed_in, std::move(effects)};
}

// The session is over: nothing of it survives but the reason.
Transition end_session(SessionData& d, SessionState next, SessionEnd end, RequestFailure waiting_reason) {
    Effects effects;
    fail_waiting(d, waiting_reason, effects);
    if (d.tokens) effects.push_back(session_effect::ForgetTokens{});
    d.tokens.reset();
    d.token_request_in_flight.reset();
    d.retry_refresh_at.reset();
    d.ended = std::move(end);
    return {next, std::move(effects)};
}

// What went wrong at the token endpoint, for SessionEnd::detail (no secrets:
// the error body and field names only).
std::string token_failure_detail(const TokenResponseError& e) {
    if (e.kind == TokenResponseErrorKind::error_response && e.error) {
        std::string text = e.error->error;
        if (!e.error->description.empty()) text += ": " + e.error->description;
        return text;
    }
    std::string text(to_string(e.kind));
    if (!e.field.empty()) text += " (" + e.field + ")";
    return text + ", HTTP " + std::to_string(e.status);
}

// A failure that may pass by itself: the server was busy or broken for a moment.
bool is_transient(const TokenResponseError& e) {
    if (e.status == 408 || e.status == 429 || e.status >= 500) return true;
    return e.error && (e.error->error == token_error::server_error || e.error->error == "temporarily_unavailable");
}

// A refresh failed for a passing reason: while the access token is still
// valid, stay signed in and try again later; otherwise the session is over.
Transition refresh_setback(SessionData& d, const SessionConfig& c, Instant now, std::string detail) {
    if (now < d.tokens->access_expires_at) {
        Effects effects;
        // First tries go with the token that is still valid; retries were
        // already refused with it (401), so they fail rather than loop.
        release_waiting(d, effects, RequestFailure::refresh_failed);
        d.retry_refresh_at = now + c.refresh_retry_delay;
        effects.push_back(session_effect::ScheduleRefreshAt{*d.retry_refresh_at});
        return {SessionState::signed_in, std::move(effects)};
    }
    return end_session(d, SessionState::failed, {SessionEndKind::refresh_failed, std::move(detail)},
                       RequestFailure::session_ended);
}

// ===========================================================================
// [SECTION] Handlers, one per kind of row
// ===========================================================================

Outcome stay(SessionData& d, const SessionConfig&, const SessionEvent&) { return Transition{d.state, {}}; }

Outcome sign_in_started(SessionData&, const SessionConfig&, const SessionEvent& e) {
    const auto& ev = std::get<session_event::SignInStarted>(e);
    return Transition{SessionState::authorizing, {session_effect::NavigateToConsent{ev.authorization_url}}};
}

// spec 4.3: the code goes to the token endpoint with the verifier and, when it
// was sent, the redirect URI; build_code_exchange takes only a validated callback.
Outcome callback_validated(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    const auto& ev = std::get<session_event::CallbackValidated>(e);
    const TokenRequestId id = next_token_request(d);
    return Transition{
        SessionState::exchanging,
        {session_effect::SendCodeExchange{id, build_code_exchange(c.token_url, ev.callback, c.credentials)}}};
}

Outcome callback_rejected(SessionData& d, const SessionConfig&, const SessionEvent& e) {
    const auto& ev = std::get<session_event::CallbackRejected>(e);
    // The description came in a URL anyone can craft: keep only our own words.
    std::string detail(to_string(ev.error.kind));
    if (ev.error.code) detail += " " + std::to_string(to_number(*ev.error.code));
    return end_session(d, SessionState::failed, {SessionEndKind::callback_rejected, std::move(detail)},
                       RequestFailure::session_ended);
}

Outcome exchange_answered(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    const auto& ev = std::get<session_event::TokenResponse>(e);
    if (auto ok = expect_token_request(d, ev.request); !ok) return Err{ok.error()};
    d.token_request_in_flight.reset();
    auto tokens = read_token_response(ev.response, ev.now);
    if (tokens) return store_tokens(d, c, std::move(tokens).value(), ev.now);
    const auto kind = tokens.error().kind == TokenResponseErrorKind::error_response
                          ? SessionEndKind::code_exchange_rejected
                          : SessionEndKind::code_exchange_failed;
    return end_session(d, SessionState::failed, {kind, token_failure_detail(tokens.error())},
                       RequestFailure::session_ended);
}

Outcome exchange_unanswered(SessionData& d, const SessionConfig&, const SessionEvent& e) {
    const auto& ev = std::get<session_event::TokenRequestFailed>(e);
    if (auto ok = expect_token_request(d, ev.request); !ok) return Err{ok.error()};
    return end_session(d, SessionState::failed, {SessionEndKind::code_exchange_failed, ev.reason},
                       RequestFailure::session_ended);
}

Outcome refresh_answered(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    const auto& ev = std::get<session_event::TokenResponse>(e);
    if (auto ok = expect_token_request(d, ev.request); !ok) return Err{ok.error()};
    d.token_request_in_flight.reset();
    auto tokens = read_token_response(ev.response, ev.now);
    if (tokens) return store_tokens(d, c, std::move(tokens).value(), ev.now);
    const TokenResponseError& err = tokens.error();
    // spec 5.4.2 / 7.2: invalid_grant means the refresh token is dead (expired,
    // revoked, or already rotated): only a new sign-in helps.
    if (err.error && err.error->error == token_error::invalid_grant)
        return end_session(d, SessionState::failed, {SessionEndKind::refresh_rejected, token_failure_detail(err)},
                           RequestFailure::session_ended);
    if (is_transient(err)) return refresh_setback(d, c, ev.now, token_failure_detail(err));
    return end_session(d, SessionState::failed, {SessionEndKind::refresh_failed, token_failure_detail(err)},
                       RequestFailure::session_ended);
}

Outcome refresh_unanswered(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    const auto& ev = std::get<session_event::TokenRequestFailed>(e);
    if (auto ok = expect_token_request(d, ev.request); !ok) return Err{ok.error()};
    d.token_request_in_flight.reset();
    return refresh_setback(d, c, ev.now, ev.reason);
}

Outcome tick_signed_in(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    const Instant now = std::get<session_event::Tick>(e).now;
    if (refresh_token_expired(d, now))
        return end_session(d, SessionState::expired, {SessionEndKind::refresh_token_expired, {}},
                           RequestFailure::session_ended);
    if (now >= refresh_due(d, c)) return start_refresh(d, c);
    return Transition{SessionState::signed_in, {}};
}

Outcome api_request_signed_in(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    const auto& ev = std::get<session_event::ApiRequest>(e);
    if (refresh_token_expired(d, ev.now)) {
        d.waiting.push_back({ev.id, false});
        return end_session(d, SessionState::expired, {SessionEndKind::refresh_token_expired, {}},
                           RequestFailure::session_ended);
    }
    // The tick was missed (a sleeping tab): the token is past its 30 minutes, so
    // sending it would only earn a 401. Refresh first; the request waits.
    if (ev.now >= d.tokens->access_expires_at) {
        d.waiting.push_back({ev.id, false});
        return start_refresh(d, c);
    }
    return Transition{SessionState::signed_in, {session_effect::SendApiRequest{ev.id}}};
}

Outcome api_request_wait(SessionData& d, const SessionConfig&, const SessionEvent& e) {
    d.waiting.push_back({std::get<session_event::ApiRequest>(e).id, false});
    return Transition{d.state, {}};
}

Outcome api_request_refused(SessionData& d, const SessionConfig&, const SessionEvent& e) {
    return Transition{
        d.state,
        {session_effect::FailApiRequest{std::get<session_event::ApiRequest>(e).id, RequestFailure::not_signed_in}}};
}

// spec 5.2.2: a 401 invalid_token means the access token expired or is invalid:
// refresh once, retry once; a second 401 fails the request (no loop).
Outcome unauthorized_signed_in(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    const auto& ev = std::get<session_event::ApiUnauthorized>(e);
    if (ev.was_retry)
        return Transition{SessionState::signed_in,
                          {session_effect::FailApiRequest{ev.id, RequestFailure::unauthorized_after_retry}}};
    // Sent with a token that has been replaced since: the new one may work.
    if (ev.sent_with_generation < d.generation)
        return Transition{SessionState::signed_in, {session_effect::RetryApiRequest{ev.id}}};
    d.waiting.push_back({ev.id, true});
    return start_refresh(d, c);
}

// Concurrent requests that need a refresh share the one under way.
Outcome unauthorized_refreshing(SessionData& d, const SessionConfig&, const SessionEvent& e) {
    const auto& ev = std::get<session_event::ApiUnauthorized>(e);
    if (ev.was_retry)
        return Transition{SessionState::refreshing,
                          {session_effect::FailApiRequest{ev.id, RequestFailure::unauthorized_after_retry}}};
    d.waiting.push_back({ev.id, true});
    return Transition{SessionState::refreshing, {}};
}

Outcome unauthorized_refused(SessionData& d, const SessionConfig&, const SessionEvent& e) {
    return Transition{d.state,
                      {session_effect::FailApiRequest{std::get<session_event::ApiUnauthorized>(e).id,
                                                      RequestFailure::not_signed_in}}};
}

Outcome tokens_restored(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    const auto& ev = std::get<session_event::TokensRestored>(e);
    Transition t = store_tokens(d, c, ev.tokens, ev.received_at);
    if (refresh_token_expired(d, ev.now))
        return end_session(d, SessionState::expired, {SessionEndKind::refresh_token_expired, {}},
                           RequestFailure::session_ended);
    return t;
}

Outcome refresh_requested(SessionData& d, const SessionConfig& c, const SessionEvent& e) {
    return start_refresh(d, c, std::get<session_event::RefreshRequested>(e).scope);
}

Outcome sign_out(SessionData& d, const SessionConfig&, const SessionEvent&) {
    Transition t =
        end_session(d, SessionState::signed_out, {SessionEndKind::signed_out, {}}, RequestFailure::signed_out);
    // Always, even with no tokens in memory: the adapter may hold copies.
    if (std::none_of(t.effects.begin(), t.effects.end(),
                     [](const SessionEffect& x) { return std::holds_alternative<session_effect::ForgetTokens>(x); }))
        t.effects.push_back(session_effect::ForgetTokens{});
    return t;
}

// ===========================================================================
// [SECTION] The table
// ===========================================================================

constexpr unsigned bit(SessionState s) { return 1u << static_cast<unsigned>(s); }

struct Row {
    SessionState from;
    SessionEventKind event;
    unsigned to;  // bits of the states the handler may return
    Handler apply;
    std::string_view rule;
};

using S = SessionState;
using E = SessionEventKind;

const Row kRows[] = {
    {S::signed_out, E::sign_in_started, bit(S::authorizing), sign_in_started,
     "navigate to the consent screen (spec 4.2)"},
    {S::authorizing, E::sign_in_started, bit(S::authorizing), sign_in_started, "started again: the newest URL wins"},
    {S::expired, E::sign_in_started, bit(S::authorizing), sign_in_started, "sign in again after 14 days (spec 5.4.2)"},
    {S::failed, E::sign_in_started, bit(S::authorizing), sign_in_started, "sign in again after a failure"},

    {S::signed_out, E::callback_validated, bit(S::exchanging), callback_validated,
     "the page reloaded on the callback; the consumed PendingAuthorization proves it was ours (spec 4.2, 4.3)"},
    {S::authorizing, E::callback_validated, bit(S::exchanging), callback_validated,
     "send the code exchange (spec 4.3)"},
    {S::signed_out, E::callback_rejected, bit(S::failed), callback_rejected,
     "denied or error on the consent screen (spec 4.2, 7.1)"},
    {S::authorizing, E::callback_rejected, bit(S::failed), callback_rejected,
     "denied or error on the consent screen (spec 4.2, 7.1)"},

    {S::exchanging, E::token_response, bit(S::signed_in) | bit(S::failed), exchange_answered,
     "token set (spec 2.3) or token error (spec 2.4, 7.2)"},
    {S::exchanging, E::token_request_failed, bit(S::failed), exchange_unanswered, "the token endpoint did not answer"},
    {S::refreshing, E::token_response, bit(S::signed_in) | bit(S::failed), refresh_answered,
     "new tokens (spec 4.3); invalid_grant ends the session (spec 5.4.2)"},
    {S::refreshing, E::token_request_failed, bit(S::signed_in) | bit(S::failed), refresh_unanswered,
     "passing failure: retry later while the access token is valid"},

    {S::signed_out, E::tick, bit(S::signed_out), stay, "nothing is due"},
    {S::authorizing, E::tick, bit(S::authorizing), stay, "nothing is due"},
    {S::exchanging, E::tick, bit(S::exchanging), stay, "nothing is due"},
    {S::signed_in, E::tick, bit(S::signed_in) | bit(S::refreshing) | bit(S::expired), tick_signed_in,
     "refresh ahead of the 30-minute expiry (spec 5.2.3); expired after 14 days (spec 5.4.2)"},
    {S::refreshing, E::tick, bit(S::refreshing), stay, "the refresh is under way"},
    {S::expired, E::tick, bit(S::expired), stay, "nothing is due"},
    {S::failed, E::tick, bit(S::failed), stay, "nothing is due"},

    {S::signed_in, E::api_request, bit(S::signed_in) | bit(S::refreshing) | bit(S::expired), api_request_signed_in,
     "send with the bearer token (spec 5.2.1); refresh first if it is past its expiry"},
    {S::exchanging, E::api_request, bit(S::exchanging), api_request_wait, "waits for the first token set"},
    {S::refreshing, E::api_request, bit(S::refreshing), api_request_wait, "waits for the shared refresh"},
    {S::signed_out, E::api_request, bit(S::signed_out), api_request_refused, "fail: not signed in"},
    {S::authorizing, E::api_request, bit(S::authorizing), api_request_refused, "fail: not signed in"},
    {S::expired, E::api_request, bit(S::expired), api_request_refused, "fail: not signed in"},
    {S::failed, E::api_request, bit(S::failed), api_request_refused, "fail: not signed in"},

    {S::signed_in, E::api_unauthorized, bit(S::signed_in) | bit(S::refreshing), unauthorized_signed_in,
     "one refresh and one retry per request (spec 5.2.2)"},
    {S::refreshing, E::api_unauthorized, bit(S::refreshing), unauthorized_refreshing, "joins the refresh under way"},
    {S::signed_out, E::api_unauthorized, bit(S::signed_out), unauthorized_refused, "fail: not signed in"},
    {S::authorizing, E::api_unauthorized, bit(S::authorizing), unauthorized_refused, "fail: not signed in"},
    {S::exchanging, E::api_unauthorized, bit(S::exchanging), unauthorized_refused, "fail: not signed in"},
    {S::expired, E::api_unauthorized, bit(S::expired), unauthorized_refused, "fail: not signed in"},
    {S::failed, E::api_unauthorized, bit(S::failed), unauthorized_refused, "fail: not signed in"},

    {S::signed_in, E::refresh_requested, bit(S::refreshing), refresh_requested, "refresh now (spec 4.3)"},
    {S::refreshing, E::refresh_requested, bit(S::refreshing), stay, "already under way: shared"},

    {S::signed_out, E::sign_out, bit(S::signed_out), sign_out, "forget the tokens"},
    {S::authorizing, E::sign_out, bit(S::signed_out), sign_out, "forget the tokens"},
    {S::exchanging, E::sign_out, bit(S::signed_out), sign_out,
     "forget the tokens; a late answer to its token request is refused"},
    {S::signed_in, E::sign_out, bit(S::signed_out), sign_out, "forget the tokens"},
    {S::refreshing, E::sign_out, bit(S::signed_out), sign_out,
     "forget the tokens; a late answer to its token request is refused"},
    {S::expired, E::sign_out, bit(S::signed_out), sign_out, "forget the tokens"},
    {S::failed, E::sign_out, bit(S::signed_out), sign_out, "forget the tokens"},

    {S::signed_out, E::tokens_restored, bit(S::signed_in) | bit(S::expired), tokens_restored,
     "tokens kept elsewhere (roomkey-helper's BFF cookie) take up the session; past the grant's end it is over "
     "(spec 5.4.2)"},
};

const Row* find_row(SessionState state, SessionEventKind event) {
    for (const Row& row : kRows)
        if (row.from == state && row.event == event) return &row;
    return nullptr;
}

}  // namespace

const std::vector<SessionTransition>& session_transitions() {
    static const std::vector<SessionTransition> table = [] {
        std::vector<SessionTransition> out;
        for (const Row& row : kRows) {
            SessionTransition t{row.from, row.event, {}, row.rule};
            for (int s = 0; s < kSessionStateCount; ++s)
                if (row.to & bit(static_cast<SessionState>(s))) t.to.push_back(static_cast<SessionState>(s));
            out.push_back(std::move(t));
        }
        return out;
    }();
    return table;
}

// ===========================================================================
// [SECTION] Session
// ===========================================================================

Session::Session(SessionConfig config) : config_(std::move(config)) {}

Result<std::vector<SessionEffect>, SessionError> Session::handle(const SessionEvent& event) {
    const SessionEventKind kind = kind_of(event);
    const Row* row = find_row(data_.state, kind);
    if (!row) return Err{SessionError{SessionErrorKind::invalid_transition, data_.state, kind}};
    // Work on a copy so that a refused event leaves the session as it was.
    detail::SessionData next = data_;
    Outcome outcome = row->apply(next, config_, event);
    if (!outcome) return Err{SessionError{outcome.error(), data_.state, kind}};
    Transition& t = outcome.value();
    assert((row->to & bit(t.next)) != 0 && "the handler chose a state its table row does not list");
    next.state = t.next;
    data_ = std::move(next);
    return std::move(t.effects);
}

std::optional<Instant> Session::grant_ends_at() const {
    if (!data_.tokens) return std::nullopt;
    return data_.tokens->refresh_expires_at;
}

std::optional<Instant> Session::refresh_due_at() const {
    if (data_.state != SessionState::signed_in || !data_.tokens) return std::nullopt;
    return refresh_due(data_, config_);
}

}  // namespace roomkey
