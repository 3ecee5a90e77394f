// api_calls.hpp: the API call coordinator: keeps the REST requests of one
// session, attaches the bearer token to them (spec 5.2.1), and turns the
// session's send / retry / fail effects and 401 invalid_token answers (spec
// 5.2.2) into what the adapter sends next. Pure; the browser app and the tests
// drive the same logic. Pacing (pacing.hpp) sits between `send` and the wire.
#pragma once

#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/session.hpp"
#include "roomkey/time.hpp"

#include <map>
#include <string_view>
#include <vector>

namespace roomkey {

// Authorization: Bearer <access_token> (spec 5.2.1). The token goes in the
// header only, never in the URL (spec 5.1.2, ARCHITECTURE invariants).
HttpRequest with_bearer(HttpRequest request, std::string_view access_token);

struct OutgoingRequest {
    RequestId id = 0;
    HttpRequest request;  // with the bearer token attached
    bool is_retry = false;
};
struct CompletedRequest {
    RequestId id = 0;
    HttpResponse response;  // the final answer, whatever its status
};
struct FailedRequest {
    RequestId id = 0;
    RequestFailure reason = RequestFailure::not_signed_in;
};

// What to do after one step, in this order: perform the session effects
// (token requests, timers, navigation, forgetting tokens), send `send`
// (through the pacing queue), hand `completed` and `failed` to their callers.
struct ApiStep {
    std::vector<SessionEffect> session_effects;
    std::vector<OutgoingRequest> send;
    std::vector<CompletedRequest> completed;
    std::vector<FailedRequest> failed;
};

class ApiCalls {
public:
    struct Submitted {
        RequestId id = 0;
        ApiStep step;
    };

    // A new REST request without credentials. It goes at once with the current
    // token, waits for a refresh, or fails when nobody is signed in.
    Result<Submitted, SessionError> submit(Session& session, HttpRequest request, Instant now);

    // The answer to request `id`. A 401 with `WWW-Authenticate: Bearer
    // error="invalid_token"` goes to the session (one refresh, one retry);
    // every other answer completes the request.
    Result<ApiStep, SessionError> on_response(Session& session, RequestId id, HttpResponse response, Instant now);

    // Every other session event (token responses, ticks, sign-out, ...) goes
    // through here, so that the requests waiting on it are sent or failed.
    Result<ApiStep, SessionError> handle(Session& session, const SessionEvent& event);

    // The request got no answer at all (network error): the caller decides;
    // the coordinator forgets it. False if `id` was unknown.
    bool forget(RequestId id);

    std::size_t pending() const { return entries_.size(); }

private:
    struct Entry {
        HttpRequest request;           // as submitted, without credentials
        std::uint64_t generation = 0;  // the token generation it was last sent with
        bool retried = false;
    };

    ApiStep apply(const Session& session, std::vector<SessionEffect> effects);

    std::map<RequestId, Entry> entries_;
    RequestId next_id_ = 1;
};

}  // namespace roomkey
