// polling.cpp: the room poll interval (see polling.hpp).
#include "roomkey/polling.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace roomkey {

Millis room_poll_interval(const OverallBudget& budget, Instant now, const PollConfig& config) {
    return poll_interval(budget, now, PollPart{}, config);
}

Millis poll_interval(const OverallBudget& budget, Instant now, PollPart part, const PollConfig& config) {
    const std::int64_t parts = std::max<std::int64_t>(1, part.parts);
    const std::int64_t of = std::max<std::int64_t>(parts, part.of);
    std::optional<Millis> until_reset;
    if (budget.from_headers && budget.reset && *budget.reset + config.reset_margin > now) {
        until_reset = *budget.reset + config.reset_margin - now;
    }
    const long share = std::clamp(config.share_percent, 1L, 100L);
    const long remaining = std::max(0L, budget.remaining);
    Millis interval = until_reset.value_or(config.window);
    if (remaining > 0) {
        // window / (share% * remaining * parts/of), rounded up so the rate never exceeds the part.
        const std::int64_t denominator = static_cast<std::int64_t>(share) * remaining * parts;
        const Millis by_share((config.window.count() * 100 * of + denominator - 1) / denominator);
        interval = until_reset ? std::min(by_share, *until_reset) : by_share;
    }
    const Millis floor((config.min_interval.count() * of + parts - 1) / parts);
    return std::max(interval, floor);
}

}  // namespace roomkey
