// bff_refresh_flight.hpp: shared/'s session table (session.hpp) run for each
// BFF cookie session, with one token request per session at a time. The
// requests of one session race on the server's threads: each feeds its
// events (tick, API request, the service's 401, a refresh asked for) into
// that session's table under one lock; the thread whose event asks for a
// token request makes it outside the lock and feeds the answer back; the
// others wait for what the table decides about their request (send, retry,
// fail). So the BFF refreshes ahead of expiry, retries once after a 401 and
// keeps the grant's 14-day end (spec 5.4.2) by the same rules as the page.
//
// It also keeps each session's newest token set, so that a request still
// carrying the cookie from before a refresh uses the new tokens instead of
// presenting a rotated-out refresh token (which the service treats as reuse
// and answers by revoking the grant). Several helpers behind a front stay
// correct because the front sends a session's requests to one helper
// (nginx's consistent hash on the id, docs/bff.md).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "roomkey/bff_session.hpp"
#include "roomkey/callback.hpp"
#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/session.hpp"

namespace roomkey::helper {

// One token request as the gateway made it.
struct TokenAnswer {
    std::optional<HttpResponse> response;  // nullopt: no answer came
    BffTokenRequest record;                // masked, for the page and the cookie
    std::string words;                     // for the page when it brought no token set; no secret
};

// Why a request or a refresh got no (new) token set.
struct RefreshFailure {
    bool session_ended = false;  // the grant is over (refused, or past its 14 days): sign in again
    std::string words;           // for the page, no secret
    std::optional<BffTokenRequest> record;  // the token request, when one was made
};

// A request the table let go to the service, with `session`'s access token.
struct Cleared {
    BffSession session;  // the newest
    RequestId id = 0;
    std::uint64_t generation = 0;  // the table's token generation it goes with
    // The token request made for it, when this call made or waited for one
    // (the X-Roomkey-Token-Request header).
    std::optional<BffTokenRequest> record;
};

struct RefreshOutcome {
    BffSession session;  // the newest
    std::optional<BffTokenRequest> record;  // as Cleared::record
};

class BffRefreshFlight {
public:
    // Makes the token request the table asked for (of kind `grant`).
    using SendToken = std::function<TokenAnswer(const HttpRequest& request, GrantType grant)>;

    BffRefreshFlight(SessionConfig config, SendToken send, std::function<Instant()> now,
                     std::size_t max_sessions = 10000);

    // The callback's code exchange (callback_validated): a new session `id`.
    Result<BffSession, RefreshFailure> sign_in(const ValidatedCallback& callback, const std::string& id);
    // The newest state of the cookie's session, without a token request
    // (/bff/session). An ended session is an error.
    Result<BffSession, RefreshFailure> newest(const BffSession& from_cookie);
    // An /api/... request (tick, api_request): refreshed first when due.
    Result<Cleared, RefreshFailure> send(const BffSession& from_cookie);
    // The service answered `sent` with 401 (api_unauthorized): its one retry
    // with a newer token, or why there is none.
    Result<Cleared, RefreshFailure> unauthorized(const Cleared& sent);
    // POST /bff/refresh (refresh_requested), narrowed to `scope` when given:
    // after any refresh under way. Without a scope, a newer set than the
    // cookie's is the answer (no token request).
    Result<RefreshOutcome, RefreshFailure> refresh(const BffSession& from_cookie, const std::optional<ScopeSet>& scope);
    // Logout (sign_out): the session ends on this helper (a copy of its cookie is refused here).
    void end(const std::string& session_id);

private:
    struct Entry {
        explicit Entry(const SessionConfig& config) : table(config) {}
        Session table;
        BffSession newest;  // what the next cookie seals
        std::optional<RefreshFailure> ended;
        bool performing = false;  // a thread is making this session's token request
        std::size_t users = 0;    // threads inside with this entry: not dropped meanwhile
        // What the table decided for each request: nullopt = send (or retry).
        std::map<RequestId, std::optional<RequestFailure>> verdicts;
        std::uint64_t answered = 0;  // token requests answered (or not) so far
        std::optional<BffTokenRequest> last_record;
        std::optional<RefreshFailure> last_failure;  // of the latest token request that brought no set
    };
    // Each takes the lock's holder's word that mutex_ is held.
    Entry& entry(const std::string& id);
    Entry& attach(std::unique_lock<std::mutex>& lock, const BffSession& from_cookie);
    void restore(std::unique_lock<std::mutex>& lock, Entry& e, const BffSession& session);
    void feed(std::unique_lock<std::mutex>& lock, Entry& e, const SessionEvent& event,
              const std::optional<ScopeSet>& asked = std::nullopt);
    void perform(std::unique_lock<std::mutex>& lock, Entry& e, TokenRequestId id, const HttpRequest& request,
                 GrantType grant, const std::optional<ScopeSet>& asked);
    Result<Cleared, RefreshFailure> await(std::unique_lock<std::mutex>& lock, Entry& e, RequestId id,
                                          std::uint64_t answered_before);

    SessionConfig config_;
    SendToken send_;
    std::function<Instant()> now_;
    std::size_t max_sessions_;
    std::mutex mutex_;
    std::condition_variable done_;
    std::map<std::string, Entry> entries_;
    std::deque<std::string> order_;  // oldest first, to drop beyond max_sessions_
    RequestId last_request_ = 0;
};

}  // namespace roomkey::helper
