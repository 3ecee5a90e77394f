// bff_refresh_flight.hpp: one refresh per BFF session at a time, even when
// requests race (in-process single flight keyed by the session's stable id),
// and the newest token set of each session this helper refreshed, so that a
// request still carrying the cookie from before a refresh uses the new
// tokens instead of presenting a rotated-out refresh token (which the
// service treats as reuse and answers by revoking the grant). Several
// helpers behind a front stay correct because the front sends a session's
// requests to one helper (nginx's consistent hash on the id, docs/bff.md).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "roomkey/bff_session.hpp"
#include "roomkey/result.hpp"

namespace roomkey::helper {

// How a refresh ended when it did not give a new token set.
struct RefreshFailure {
    bool session_ended = false;  // the service refused the refresh token: sign in again
    std::string words;           // for the page, no secret
    std::optional<BffTokenRequest> record;  // the token request, when one was made
};

struct RefreshOutcome {
    BffSession session;  // the newest
    // The token request made for it, when this call made or waited for one
    // (the X-Roomkey-Token-Request header); empty when a newer set was at hand.
    std::optional<BffTokenRequest> record;
};

class BffRefreshFlight {
public:
    // Makes the token request for `session` (narrowed to `scope` when given)
    // and returns the session with the new set adopted.
    using Refresh = std::function<Result<BffSession, RefreshFailure>(const BffSession& session,
                                                                     const std::optional<ScopeSet>& scope)>;

    explicit BffRefreshFlight(Refresh refresh, std::size_t max_sessions = 10000)
        : refresh_(std::move(refresh)), max_sessions_(max_sessions) {}

    // The newest state of the cookie's session: the cookie's own, or the set
    // a refresh made since that cookie was sealed. An ended session is an error.
    Result<BffSession, RefreshFailure> newest(const BffSession& from_cookie);

    // Refreshes `seen` (the generation its caller used) unless another
    // request already did (then that newer set is returned, no token
    // request). `scope` (POST /bff/refresh) always refreshes, after any
    // refresh under way. One refresh per session at a time.
    Result<RefreshOutcome, RefreshFailure> refresh(const BffSession& seen, const std::optional<ScopeSet>& scope);

    // Logout: the session ends on this helper (a copy of its cookie is refused here).
    void end(const std::string& session_id);

private:
    struct Entry {
        std::optional<BffSession> newest;  // after the latest refresh here
        std::optional<RefreshFailure> ended;
        bool in_flight = false;
        std::optional<BffTokenRequest> last_record;  // of the latest refresh
    };
    Entry& entry(const std::string& id);  // caller holds mutex_

    Refresh refresh_;
    std::size_t max_sessions_;
    std::mutex mutex_;
    std::condition_variable done_;
    std::map<std::string, Entry> entries_;
    std::deque<std::string> order_;  // oldest first, to drop beyond max_sessions_
};

}  // namespace roomkey::helper
