// proxy_outcome.hpp: how roomkey-helper tells the app what became of a
// request it could not complete upstream. The helper writes
// it and the app reads it with this one definition.
//
// When the helper answers 502 or 504 on the upstream's behalf, the answer
// carries the outcome twice, with the same token:
//   header  X-Roomkey-Upstream: not_sent | no_answer
//   body    {..., "roomkey_upstream": "not_sent" | "no_answer"}
//
//   not_sent   502: no byte of the request reached the service (the connection
//              or the TLS handshake failed). The service certainly did not act,
//              so resending is safe, even for a POST.
//   no_answer  502: the request was sent (or partly sent) and the connection
//              broke before a whole answer came back; 504: no answer within
//              the helper's upstream timeout. The service may have acted:
//              never resend a POST without checking.
//
// A 502/504 without the header did not come from the helper's proxy (another
// proxy in between, or an upstream's own 502): its outcome is unknown.
#pragma once

#include <optional>
#include <string_view>

#include "roomkey/errors.hpp"
#include "roomkey/http.hpp"

namespace roomkey {

enum class UpstreamOutcome { not_sent, no_answer };

inline constexpr std::string_view kUpstreamOutcomeHeader = "X-Roomkey-Upstream";
inline constexpr std::string_view kUpstreamOutcomeField = "roomkey_upstream";

// "not_sent" / "no_answer": the header value and the body field's value.
std::string_view to_string(UpstreamOutcome outcome);
std::optional<UpstreamOutcome> parse_upstream_outcome(std::string_view token);

// The status the helper answers with: 502 Bad Gateway, or 504 Gateway Timeout
// when `timed_out` (then always no_answer).
int upstream_failure_status(UpstreamOutcome outcome, bool timed_out);

// The body of such an answer: the API's error body (spec 2.7) or the token
// endpoint's (spec 2.4), each written by its own to_json, with the
// "roomkey_upstream" member added.
std::string upstream_failure_body(const ApiErrorBody& body, UpstreamOutcome outcome);
std::string upstream_failure_body(const TokenError& error, UpstreamOutcome outcome);

// The outcome a helper answer declares: only a 502 or 504 carrying a known
// X-Roomkey-Upstream value has one.
std::optional<UpstreamOutcome> read_upstream_outcome(const HttpResponse& response);

// True when the service certainly did not act on the request, so the app may
// resend it by itself: a post is never sent twice.
inline bool safe_to_resend(const std::optional<UpstreamOutcome>& outcome) {
    return outcome == UpstreamOutcome::not_sent;
}

}  // namespace roomkey
