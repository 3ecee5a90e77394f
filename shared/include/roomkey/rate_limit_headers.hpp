// rate_limit_headers.hpp: the x-ratelimit-* response headers (spec 8.1) read
// into a value the pacing scheduler can use, and written by the sandbox.
#pragma once

#include <optional>
#include <string_view>

#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/time.hpp"

namespace roomkey {

// The service's limits as the spec states them: the sandbox enforces these
// and the client paces by them until the headers say otherwise.
// Spec 8.1: "300 requests per 5 minutes (the value may change in future)",
// per credential.
inline constexpr long kOverallRateLimit = 300;
inline constexpr Seconds kOverallRateWindow{300};
// Spec 8.2: at most 10 POST messages + POST tasks per 10 seconds per room.
inline constexpr long kRoomPostLimit = 10;
inline constexpr Seconds kRoomPostWindow{10};

inline constexpr std::string_view kRateLimitLimitHeader = "x-ratelimit-limit";
inline constexpr std::string_view kRateLimitRemainingHeader = "x-ratelimit-remaining";
inline constexpr std::string_view kRateLimitResetHeader = "x-ratelimit-reset";

struct RateLimit {
    long limit = 0;      // maximum calls per window (spec 8.1: 300 per 5 minutes today)
    long remaining = 0;  // calls left; 0 <= remaining <= limit
    Instant reset;       // when the window resets (header: Unix time in seconds)
    friend bool operator==(const RateLimit& a, const RateLimit& b) {
        return a.limit == b.limit && a.remaining == b.remaining && a.reset == b.reset;
    }
};

enum class RateLimitHeaderError {
    incomplete,               // some of the three headers present, not all
    repeated,                 // one of them appears more than once
    not_a_number,             // not 1*DIGIT (surrounding spaces allowed)
    negative,                 // a '-' sign
    out_of_range,             // too large for the type (or a reset past year 9999)
    remaining_exceeds_limit,  // remaining > limit
};
std::string_view to_string(RateLimitHeaderError error);

// nullopt when none of the three headers is present (e.g. a response from a
// proxy rather than the API); an error when they are present but unusable.
Result<std::optional<RateLimit>, RateLimitHeaderError> read_rate_limit(const Headers& headers);

// Sets the three headers (replacing any earlier ones); reset is written in
// whole Unix seconds, rounded up, so the window is over at the stated second.
void write_rate_limit(Headers& headers, const RateLimit& rate_limit);

}  // namespace roomkey
