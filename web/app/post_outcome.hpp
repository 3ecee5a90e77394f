// post_outcome.hpp: what an answer (or the lack of one) says about a POST
// that may have changed the service: delivered, certainly not acted on (so
// it may go again by itself, after a backoff), refused (the user edits,
// retries or discards), or unknown (never resent by itself: first look for
// it in the room, then let the user decide). Pure: no clock, no I/O.
//
// "Idempotence first": only a case where the service certainly did not act
// is automatic. Certainly-not-acted cases:
//   - the helper could not reach the upstream (its 502 "not sent upstream");
//   - the helper is unreachable: see TransportFailure, the browser cannot
//     always tell this apart from a connection that broke after sending;
//   - 429 (spec 7.3, 8.1: the service refused to count it);
//   - 503 (the service or the helper was unavailable before acting).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "roomkey/http.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

// Why a request got no HTTP answer at all, as the browser reports it
// (web/src/fetch_transport.cpp). XMLHttpRequest gives status 0 both for a
// connection that was refused (nothing sent) and for one that broke after
// the request went out, so `network_error` is NOT proof that nothing was
// sent: a POST that ends so is "unknown" (the safe side).
enum class TransportFailure {
    network_error,  // XHR error event: refused, reset, or closed before an answer
    timeout,        // no answer within the fetch timeout: may well have been acted on
};
std::string_view to_string(TransportFailure failure);
// The plain-words reason shown to the user ("the connection to roomkey-helper failed").
std::string describe(TransportFailure failure);

// The helper's 502 for an API or token call it could not complete
// (helper/helper/proxy.cpp).
enum class GatewayFailure {
    not_sent,        // the helper could not reach the upstream: nothing was sent
    sent_no_answer,  // sent upstream, then no (complete) answer: outcome unknown
};
// The helper's say on a 502, or nullopt when the response is not the helper's
// gateway error (an upstream's own 502 is relayed as it is: then unknown).
std::optional<GatewayFailure> read_gateway_failure(const HttpResponse& response);

enum class PostVerdict {
    delivered,            // 2xx
    retry_automatically,  // certainly not acted on: goes again after retry_backoff()
    rate_limited,         // 429: the pacer's own wait (spec 7.3, 8.1), then again
    unknown,              // may have been acted on: look it up, then ask the user
    refused,              // 4xx: the service said no; keep the text, the user decides
};
std::string_view to_string(PostVerdict verdict);

struct PostOutcome {
    PostVerdict verdict = PostVerdict::unknown;
    std::string why;  // plain words for the queue and the error banner
};

// An HTTP answer to a post. A 401 invalid_token is the session's business
// (refresh, then one retry, spec 5.2.2) before it gets here; if it still
// arrives it is "refused" (the service did not act).
PostOutcome classify_post(const HttpResponse& response);
// No HTTP answer at all.
PostOutcome classify_post_failure(TransportFailure failure);

// The wait before automatic attempt `attempt` (1-based): 1 s, 2 s, 4 s, ...
// capped at 30 s.
Millis retry_backoff(int attempt);
inline constexpr Millis kMaxRetryBackoff{30000};

// Settling an unknown post: is it among the room's latest messages
// (GET /rooms/{room_id}/messages?force=1, the last 100)?
enum class Settlement {
    found,       // a message from `account_id` with exactly `body`, sent no earlier than `not_before` (to the second)
    not_found,   // the list was read and holds no such message
    unreadable,  // not a list of messages: the check says nothing
};
std::string_view to_string(Settlement settlement);
Settlement find_posted_message(const HttpResponse& messages, std::string_view account_id, std::string_view body,
                               Instant not_before);

}  // namespace roomkey::app
