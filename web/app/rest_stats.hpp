// rest_stats.hpp: what the page API counts and the rate plot draws, fed by
// every REST answer. Its own object so the counters have one owner (the
// sign-out resets them, the pacing samples stay: spec 8.1, 8.2).
#pragma once

#include <cstddef>
#include <vector>

#include "roomkey/http.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

// One x-ratelimit-* reading, for the plot (spec 8.1).
struct RateSample {
    Instant at;
    long remaining = 0;
    long limit = 0;
};

// Counters the page API exposes (tests read them) and the UI shows.
struct Counters {
    long requests_sent = 0;      // REST requests handed to the transport
    long responses_429 = 0;      // REST answers with status 429
    long token_refreshes = 0;    // successful refreshes
    long retries_after_401 = 0;  // REST requests retried after invalid_token (spec 5.2.2)
};

inline constexpr std::size_t kMaxRateSamples = 240;

struct RestStats {
    Counters counters;
    std::vector<RateSample> rate_samples;
    // A REST answer: its rate-limit headers (the newest kMaxRateSamples kept) and a 429.
    void on_answer(const HttpResponse& response, Instant now);
};

}  // namespace roomkey::app
