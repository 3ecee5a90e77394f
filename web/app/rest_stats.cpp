// rest_stats.cpp: the counters and the rate plot's samples (rest_stats.hpp).
#include "app/rest_stats.hpp"

#include "roomkey/rate_limit_headers.hpp"

namespace roomkey::app {

void RestStats::on_answer(const HttpResponse& response, Instant now) {
    if (response.status == 429) ++counters.responses_429;
    auto read = read_rate_limit(response.headers);
    if (!read || !*read) return;
    rate_samples.push_back(RateSample{now, (*read)->remaining, (*read)->limit});
    if (rate_samples.size() > kMaxRateSamples) {
        rate_samples.erase(rate_samples.begin(), rate_samples.end() - static_cast<std::ptrdiff_t>(kMaxRateSamples));
    }
}

}  // namespace roomkey::app
