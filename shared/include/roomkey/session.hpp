// session.hpp: THE session state machine: signed out -> authorizing ->
// exchanging -> signed in <-> refreshing -> expired / failed, as one table of
// (state, event) -> (next state, effects). Pure: it performs nothing; the
// adapter (web/ or a test) performs the effects and feeds back the outcomes.
//
// The table (session.cpp holds it; session_transitions() exposes it):
//
//   state        event                 -> next state(s)                 rule
//   signed_out   sign_in_started       -> authorizing                   navigate to consent (4.2)
//   authorizing  sign_in_started       -> authorizing                   started again: the newest URL wins
//   expired      sign_in_started       -> authorizing                   sign in again after 14 days (5.4.2)
//   failed       sign_in_started       -> authorizing                   sign in again after a failure
//   signed_out   callback_validated    -> exchanging                    the page reloaded on /callback
//   authorizing  callback_validated    -> exchanging                    send the code exchange (4.3)
//   signed_out   callback_rejected     -> failed                        (reloaded) denied / error (4.2, 7.1)
//   authorizing  callback_rejected     -> failed                        denied / error (4.2, 7.1)
//   exchanging   token_response        -> signed_in | failed            token set (2.3) or error (2.4)
//   refreshing   token_response        -> signed_in | failed            new tokens, or invalid_grant ends it
//   exchanging   token_request_failed  -> failed                        no answer from the token endpoint
//   refreshing   token_request_failed  -> signed_in | failed            transient: retry later if still valid
//   <any>        tick                  -> (same) | refreshing | expired refresh ahead of expiry (5.2.3, 5.4.2)
//   signed_in    api_request           -> signed_in | refreshing | expired
//   exchanging   api_request           -> exchanging                    waits for the first token
//   refreshing   api_request           -> refreshing                    waits for the shared refresh
//   signed_out, authorizing, expired, failed
//                api_request           -> (same)                        fail_request(not_signed_in)
//   signed_in    api_unauthorized      -> signed_in | refreshing        one refresh, one retry (5.2.2)
//   refreshing   api_unauthorized      -> refreshing                    joins the refresh under way
//   signed_out, authorizing, exchanging, expired, failed
//                api_unauthorized      -> (same)                        fail_request(not_signed_in)
//   signed_in    refresh_requested     -> refreshing
//   refreshing   refresh_requested     -> refreshing                    already under way: shared
//   <any>        sign_out              -> signed_out                    forget the tokens
//   signed_out   tokens_restored       -> signed_in | expired           tokens kept elsewhere (the BFF cookie)
//
// Every other (state, event) pair is a SessionError of kind invalid_transition
// naming both, never a silent no-op.
//
// Token requests are not paced (pacing.hpp) and not retried by this machine:
// a failed refresh is retried only by a later tick, refresh_retry_delay after.
#pragma once

#include "roomkey/callback.hpp"
#include "roomkey/client.hpp"
#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/time.hpp"
#include "roomkey/token.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace roomkey {

enum class SessionState {
    signed_out,   // no tokens
    authorizing,  // the browser was sent to the consent screen
    exchanging,   // the code exchange is in flight
    signed_in,    // tokens held; the access token is believed valid
    refreshing,   // a refresh is in flight; requests that need a token wait for it
    expired,      // the refresh token passed its 14 days (spec 5.4.2): sign in again
    failed,       // sign-in or refresh failed; ended() says why: sign in again
};
inline constexpr int kSessionStateCount = 7;
std::string_view to_string(SessionState state);

enum class SessionEventKind {
    sign_in_started,
    callback_validated,
    callback_rejected,
    token_response,
    token_request_failed,
    tick,
    api_request,
    api_unauthorized,
    refresh_requested,
    sign_out,
    tokens_restored,
};
inline constexpr int kSessionEventKindCount = 11;
std::string_view to_string(SessionEventKind kind);

// Identifies one REST request for its whole life (first try and retry).
using RequestId = std::uint64_t;
// Identifies one token request, so a late answer to an abandoned one is refused.
using TokenRequestId = std::uint64_t;

// ---- Events: what happened (the adapter reports it) ----
namespace session_event {
// The caller built the consent URL (build_authorization_url) and kept the
// PendingAuthorization; the machine only tells the adapter to go there.
struct SignInStarted {
    std::string authorization_url;
};
// Only validate_callback makes a ValidatedCallback: the state was checked.
struct CallbackValidated {
    ValidatedCallback callback;
};
struct CallbackRejected {
    CallbackError error;
};
// The answer to the token request `request` (from SendCodeExchange/SendRefresh).
struct TokenResponse {
    TokenRequestId request = 0;
    HttpResponse response;
    Instant now;
};
// The token request got no HTTP answer (network error, timeout).
struct TokenRequestFailed {
    TokenRequestId request = 0;
    std::string reason;
    Instant now;
};
// Time passed; sent at ScheduleRefreshAt times and whenever convenient.
struct Tick {
    Instant now;
};
// A REST request wants to go and needs the access token.
struct ApiRequest {
    RequestId id = 0;
    Instant now;
};
// A REST response was 401 with `WWW-Authenticate: Bearer error="invalid_token"`
// (spec 5.2.2). `sent_with_generation` is the token_generation() whose token
// the request carried; `was_retry` is true when this was its retry.
struct ApiUnauthorized {
    RequestId id = 0;
    std::uint64_t sent_with_generation = 0;
    bool was_retry = false;
    Instant now;
};
// The user (or the app) wants fresh tokens now. `scope`: ask for these
// scopes instead of the granted ones (spec 4.3: a refresh may narrow the
// grant); the caller checks them first with is_subset_grant (scopes.hpp),
// since the service refuses a wider set. Ignored when a refresh is already
// under way (it is shared).
struct RefreshRequested {
    Instant now;
    std::optional<ScopeSet> scope = std::nullopt;
};
struct SignOut {};
// A token set kept outside this machine takes up the session: roomkey-helper
// opens a BFF session cookie it has no table for (after a restart, or sealed
// by another helper). `received_at`: when the token endpoint issued the set
// (the refresh ahead of expiry counts from it); `now`: past the grant's end
// (spec 5.4.2) the session is expired at once.
struct TokensRestored {
    TokenSet tokens;
    Instant received_at;
    Instant now;
};
}  // namespace session_event

// Alternatives in SessionEventKind order.
using SessionEvent =
    std::variant<session_event::SignInStarted, session_event::CallbackValidated, session_event::CallbackRejected,
                 session_event::TokenResponse, session_event::TokenRequestFailed, session_event::Tick,
                 session_event::ApiRequest, session_event::ApiUnauthorized, session_event::RefreshRequested,
                 session_event::SignOut, session_event::TokensRestored>;
SessionEventKind kind_of(const SessionEvent& event);

// Why a REST request is given up.
enum class RequestFailure {
    not_signed_in,             // no session to authorize it
    unauthorized_after_retry,  // 401 invalid_token again after the one refresh + retry
    refresh_failed,            // the refresh it waited for failed for a passing reason
    session_ended,             // the session ended (invalid_grant, expiry) while it waited
    signed_out,                // the user signed out while it waited
};
std::string_view to_string(RequestFailure failure);

// ---- Effects: what the adapter must do, in order ----
namespace session_effect {
struct NavigateToConsent {
    std::string url;
};
// Send these token requests (never paced, never retried by the adapter) and
// report the answer as TokenResponse / TokenRequestFailed with this id.
struct SendCodeExchange {
    TokenRequestId id = 0;
    HttpRequest request;
};
struct SendRefresh {
    TokenRequestId id = 0;
    HttpRequest request;
};
// Send request `id` with the current access token (its first try).
struct SendApiRequest {
    RequestId id = 0;
};
// Send request `id` again with the new access token (its one retry).
struct RetryApiRequest {
    RequestId id = 0;
};
struct FailApiRequest {
    RequestId id = 0;
    RequestFailure reason = RequestFailure::not_signed_in;
};
// Deliver a Tick at (or soon after) this time.
struct ScheduleRefreshAt {
    Instant at;
};
// Drop every copy of the tokens the adapter holds.
struct ForgetTokens {};
}  // namespace session_effect

using SessionEffect =
    std::variant<session_effect::NavigateToConsent, session_effect::SendCodeExchange, session_effect::SendRefresh,
                 session_effect::SendApiRequest, session_effect::RetryApiRequest, session_effect::FailApiRequest,
                 session_effect::ScheduleRefreshAt, session_effect::ForgetTokens>;

// Why the last session ended (or never started): shown to the user.
enum class SessionEndKind {
    signed_out,              // the user signed out
    callback_rejected,       // the consent screen denied or reported an error (spec 4.2, 7.1)
    code_exchange_rejected,  // the token endpoint refused the code (spec 2.4, e.g. invalid_grant: code older than 1
                             // minute)
    code_exchange_failed,    // no usable answer to the code exchange
    refresh_rejected,        // invalid_grant on refresh: the refresh token is no longer valid (spec 5.4.2)
    refresh_failed,          // another refresh failure with the access token already expired
    refresh_token_expired,   // 14 days passed (spec 2.3, 5.4.2): sign in again
};
std::string_view to_string(SessionEndKind kind);

struct SessionEnd {
    SessionEndKind kind = SessionEndKind::signed_out;
    // The service's error and description, or the local reason; holds no secret.
    std::string detail;
};
// One sentence for the user: what happened and what to do.
std::string describe(const SessionEnd& end);

enum class SessionErrorKind {
    invalid_transition,    // the table has no row for (state, event)
    stale_token_response,  // an answer to a token request the machine no longer waits for
    unknown_request,       // (the REST client) a response for a request id it does not know
};
std::string_view to_string(SessionErrorKind kind);

// "We (the adapter) reported something the machine cannot accept now."
struct SessionError {
    SessionErrorKind kind = SessionErrorKind::invalid_transition;
    SessionState state = SessionState::signed_out;
    SessionEventKind event = SessionEventKind::tick;
};
// "invalid_transition: event sign_in_started in state signed_in"
std::string describe(const SessionError& error);

struct SessionConfig {
    std::string token_url;  // {auth_url}/token, or the helper's proxy path
    ClientCredentials credentials;
    // Refresh this long before access_expires_at (at most half the lifetime).
    Millis refresh_ahead = Seconds(60);
    // After a passing refresh failure while the access token is still valid.
    Millis refresh_retry_delay = Seconds(30);
    // Spec 4.3 lists `scope` for the refresh request: send the granted scopes.
    bool send_scope_on_refresh = true;
};

// Spec 5.4.2: without offline_access a grant stops working 14 days after it
// was given, and a refresh renews the access token, not those 14 days (a
// rotated refresh token does not restart them). Every holder of a grant (the
// page's Session, the helper's BFF cookie) keeps its end with this rule:
// given the end held so far and the one a new token set implies
// (read_token_response: its `now` + 14 days), the earlier one; nullopt (no
// end: offline_access, spec 5.4.3) is later than any.
std::optional<Instant> keep_grant_end(const std::optional<Instant>& held, const std::optional<Instant>& issued);

// One row of the table, for documentation and tests.
struct SessionTransition {
    SessionState from;
    SessionEventKind event;
    std::vector<SessionState> to;
    std::string_view rule;
};
const std::vector<SessionTransition>& session_transitions();

namespace detail {
struct WaitingRequest {
    RequestId id = 0;
    bool is_retry = false;  // it got a 401 and waits for its one retry
};
struct SessionData {
    SessionState state = SessionState::signed_out;
    std::optional<TokenSet> tokens;
    Instant tokens_received_at;
    std::uint64_t generation = 0;  // increases with every new token set
    std::optional<TokenRequestId> token_request_in_flight;
    TokenRequestId last_token_request = 0;
    std::vector<WaitingRequest> waiting;
    std::optional<SessionEnd> ended;
    std::optional<Instant> retry_refresh_at;  // after a passing refresh failure
};
}  // namespace detail

class Session {
public:
    explicit Session(SessionConfig config);

    // Applies one event: the effects to perform, in order, or why it was refused
    // (the session is then unchanged).
    Result<std::vector<SessionEffect>, SessionError> handle(const SessionEvent& event);

    SessionState state() const { return data_.state; }
    // Present in signed_in and refreshing only.
    const std::optional<TokenSet>& tokens() const { return data_.tokens; }
    // Which token set requests are sent with; increases with every new one.
    std::uint64_t token_generation() const { return data_.generation; }
    // Whether `id` is the token request the session is waiting for: false for
    // one sent before a sign-out or a new sign-in, whose answer is stale.
    bool awaits_token_answer(TokenRequestId id) const { return data_.token_request_in_flight == id; }
    // Why the last session ended; nullopt before any ended.
    const std::optional<SessionEnd>& ended() const { return data_.ended; }
    // When the grant stops working (keep_grant_end): nullopt without tokens
    // or with offline_access.
    std::optional<Instant> grant_ends_at() const;
    // When the next refresh is due (signed_in only).
    std::optional<Instant> refresh_due_at() const;
    // Requests waiting for the token request in flight.
    std::size_t waiting_requests() const { return data_.waiting.size(); }
    const SessionConfig& config() const { return config_; }

private:
    SessionConfig config_;
    detail::SessionData data_;
};

}  // namespace roomkey
