// rest_client.hpp: the one REST client: who holds the credentials, the
// session table (session.hpp) when the page holds them, the pacing of spec
// section 8 (pacing.hpp), the queue with each room's posts one at a time in
// order, the one refresh + one retry of spec 5.2.2 and the 429 waits of spec
// 7.3. Pure: the adapter (web/app, a test) sends what a step says and feeds
// back the answers; time is passed in.
//
// A request is submitted once, without credentials, under a tag the caller
// chose; it comes back as Completed{tag} (whatever its status) or
// Failed{tag}. The credentials are attached when it goes: the page's bearer
// token (spec 5.2.1), the API token's header (spec 5.1.1), or nothing when
// roomkey-helper holds the tokens (BFF). Sign-in's lifecycle comes back as
// typed effects: signed in, refreshed, ended (with why), code expired, and
// the pending record to keep while the browser is at the consent screen.
#pragma once

#include "roomkey/api.hpp"
#include "roomkey/http.hpp"
#include "roomkey/pacing.hpp"
#include "roomkey/result.hpp"
#include "roomkey/session.hpp"
#include "roomkey/time.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace roomkey {

// The caller's name for one request, for its whole life (first try, retries).
using RequestTag = RequestId;

// Who holds the credentials REST requests carry.
enum class CredentialHolder {
    none,          // nobody is signed in: requests fail with not_signed_in
    page_session,  // this page's OAuth session (the session table)
    api_token,     // an API token (spec 5.1)
    helper,        // roomkey-helper's BFF session: the page sends none
};

namespace rest {
// Send this request (credentials attached); report its answer under `tag`.
struct Send {
    RequestTag tag = 0;
    HttpRequest request;
    bool is_retry = false;  // its one retry after a refresh (spec 5.2.2)
};
// The request's final answer, whatever its status.
struct Completed {
    RequestTag tag = 0;
    HttpResponse response;
};
// The request is given up without an answer the caller should read.
struct Failed {
    RequestTag tag = 0;
    // Why, in words: "not sent: <RequestFailure>", "no answer: <reason>", or
    // "the request could not be built: <ApiRequestError>".
    std::string reason;
    std::optional<RequestFailure> refused;  // the session gave it up
    bool no_answer = false;                 // it went and got no HTTP answer
};
// A 429 (spec 7.3, 8.1): the request waits for the pacer and goes again.
struct RateLimited {
    RequestTag tag = 0;
    bool per_room = false;  // the per-room posting limit (spec 8.2), not the overall one
    int count = 0;          // 429 answers this request got so far
};
}  // namespace rest

namespace lifecycle {
// The code exchange gave the first tokens.
struct SignedIn {};
// A refresh gave new tokens (their scope may be narrower, spec 4.3).
struct Refreshed {
    ScopeSet scope;
};
// The session ended (refused refresh, 14 days, failed exchange, ...).
struct Ended {
    SessionEnd end;
};
// The callback came back later than the code's one minute (spec 2.2, 8.3):
// exchanging it could only fail, so it is not sent.
struct CodeExpired {
    Millis waited{0};
};
}  // namespace lifecycle
using Lifecycle = std::variant<lifecycle::SignedIn, lifecycle::Refreshed, lifecycle::Ended, lifecycle::CodeExpired>;

// What to do after one step, in this order: keep the pending record, perform
// the session effects (token requests, timers, navigation, forgetting
// tokens), send `send`, hand `completed`, `failed` and `rate_limited` to their
// owners, then act on `lifecycle`.
struct RestStep {
    std::optional<std::string> keep_pending;  // sessionStorage, before navigating to consent
    std::vector<SessionEffect> session_effects;
    std::vector<rest::Send> send;
    std::vector<rest::Completed> completed;
    std::vector<rest::Failed> failed;
    std::vector<rest::RateLimited> rate_limited;
    std::vector<Lifecycle> lifecycle;
    // The session table had no row for an event: a bug in the caller, shown.
    std::optional<SessionError> refused_event;
};

// How a request queues.
struct RestOptions {
    // A POST to a room's messages or tasks (spec 8.2): paced per room.
    std::optional<std::string> room_for_post;
    // One at a time for the room, in order: the next waits until the caller
    // releases this one (release), so a failed post keeps its turn.
    bool in_room_order = false;
    // 429 answers waited out before the 429 itself completes the request.
    int rate_limit_retries = 1;
};

class RestClient {
public:
    explicit RestClient(SessionConfig session_config, PacingConfig pacing = {});

    // ---- who holds the credentials ----
    CredentialHolder holder() const { return holder_; }
    // The page's session table (meaningful while holder() is page_session).
    const Session& session() const { return session_; }
    // A new OAuth sign-in: a fresh session goes to the consent screen at
    // `url`; `pending_record` is kept (keep_pending) before the navigation.
    RestStep sign_in(SessionConfig config, std::string url, std::string pending_record);
    // The page loaded on a valid callback at `received_at`: the code is
    // exchanged, unless it is past its one minute (CodeExpired, holder none).
    RestStep callback(SessionConfig config, ValidatedCallback callback, Instant received_at, Instant now);
    // The callback was refused before any exchange (spec 4.2, 7.1).
    RestStep callback_rejected(const CallbackError& error);
    // The page loaded on a callback: its session exchanges the code once
    // the adapter can build the exchange (callback()).
    void expect_callback() { holder_ = CredentialHolder::page_session; }
    void use_api_token(std::string token);
    void use_helper();
    // Nobody holds credentials any more: the session forgets its tokens and
    // fails the requests waiting for it (drop_all() drops the others).
    RestStep sign_out();
    // The page session is reset to signed out, with `config` (a sign-in that
    // failed or was abandoned starts over).
    void reset_session(SessionConfig config);
    // Attaches the holder's credentials: API config for the token's header.
    void set_api_config(ApiConfig config) { api_config_ = std::move(config); }

    // ---- the session's own events ----
    RestStep token_answer(TokenRequestId id, const std::optional<HttpResponse>& response, const std::string& reason,
                          Instant now);
    RestStep tick(Instant now);
    RestStep refresh(Instant now, std::optional<ScopeSet> scope = std::nullopt);

    // ---- requests ----
    // Queues `request` (built without credentials) under `tag`; what may go
    // now comes with the next pump().
    RestStep submit(RequestTag tag, HttpRequest request, RestOptions options = {});
    // Sends what the pacer lets go now.
    RestStep pump(Instant now);
    // An answer for a tag it does not hold (dropped at a sign-out) is
    // unknown_request: the pacer counted it all the same.
    Result<RestStep, SessionError> on_response(RequestTag tag, const HttpResponse& response, Instant now);
    // The request got no HTTP answer at all.
    RestStep on_no_answer(RequestTag tag, const std::string& reason, Instant now);
    // A request that completed or failed in room order keeps its room's turn
    // until released; resend puts it back in the queue (the same request).
    void resend(RequestTag tag);
    void release(RequestTag tag);
    // Drops a request that is not on the wire; false if it is (its answer
    // decides) or unknown. A request waiting for a refresh is not on the wire.
    bool cancel(RequestTag tag);
    // Drops every request (signed out); nothing answers them.
    void drop_all();

    bool pending(RequestTag tag) const { return entries_.count(tag) > 0; }
    bool in_flight(RequestTag tag) const;
    std::size_t pending_count() const { return entries_.size(); }
    // Requests may go now (someone holds usable credentials).
    bool can_send() const;
    // When pump() could next send something; nullopt when nothing can.
    std::optional<Instant> next_send_at(Instant now) const;
    const PacingScheduler& scheduler() const { return scheduler_; }

private:
    enum class Stage { queued, waiting_session, in_flight, held };
    struct Entry {
        HttpRequest request;  // as submitted, without credentials
        RestOptions options;
        Stage stage = Stage::queued;
        std::uint64_t generation = 0;  // the token generation it was last sent with
        bool retried = false;
        int rate_limited = 0;
    };

    RestStep run(const SessionEvent& event, Instant now);
    void apply(std::vector<SessionEffect> effects, RestStep& step, Instant now);
    void send(RequestTag tag, bool retry, RestStep& step, Instant now);
    void finish(RequestTag tag, RestStep& step, std::optional<HttpResponse> response, rest::Failed failed);
    void release_room(const std::string& room);
    Credentials credentials() const;
    bool may_pop() const;

    SessionConfig session_config_;
    Session session_;
    CredentialHolder holder_ = CredentialHolder::none;
    std::string api_token_;
    ApiConfig api_config_;
    PacingScheduler scheduler_;
    PostQueue queue_;
    std::map<RequestTag, Entry> entries_;
    std::map<std::string, std::deque<RequestTag>> room_lines_;  // in-room-order requests, head first
};

}  // namespace roomkey
