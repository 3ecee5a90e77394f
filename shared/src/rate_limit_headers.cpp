// rate_limit_headers.cpp: reading and writing the x-ratelimit-* headers (spec 8.1).
#include "roomkey/rate_limit_headers.hpp"

#include <array>
#include <climits>
#include <cstdint>
#include <string>

namespace roomkey {

std::string_view to_string(RateLimitHeaderError error) {
    switch (error) {
        case RateLimitHeaderError::incomplete: return "incomplete";
        case RateLimitHeaderError::repeated: return "repeated";
        case RateLimitHeaderError::not_a_number: return "not_a_number";
        case RateLimitHeaderError::negative: return "negative";
        case RateLimitHeaderError::out_of_range: return "out_of_range";
        case RateLimitHeaderError::remaining_exceeds_limit: return "remaining_exceeds_limit";
    }
    return "unknown";
}

namespace {

// 9999-12-31T23:59:59Z: later resets are nonsense and would overflow Instant's milliseconds.
constexpr std::int64_t kMaxResetSeconds = 253402300799;

// 1*DIGIT with optional surrounding spaces/tabs, at most `max`.
Result<std::int64_t, RateLimitHeaderError> read_number(std::string_view text, std::int64_t max) {
    std::size_t begin = 0;
    std::size_t end = text.size();
    while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
    while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
    if (begin < end && text[begin] == '-') {
        bool digits_follow = begin + 1 < end;
        for (std::size_t i = begin + 1; i < end; ++i) {
            if (text[i] < '0' || text[i] > '9') digits_follow = false;
        }
        return Err{digits_follow ? RateLimitHeaderError::negative : RateLimitHeaderError::not_a_number};
    }
    if (begin == end) return Err{RateLimitHeaderError::not_a_number};
    std::int64_t value = 0;
    bool too_big = false;
    for (std::size_t i = begin; i < end; ++i) {
        char c = text[i];
        if (c < '0' || c > '9') return Err{RateLimitHeaderError::not_a_number};
        std::int64_t digit = c - '0';
        // Checked before the step, so value * 10 + digit never overflows.
        if (too_big || value > (max - digit) / 10) {
            too_big = true;
        } else {
            value = value * 10 + digit;
        }
    }
    if (too_big) return Err{RateLimitHeaderError::out_of_range};
    return value;
}

}  // namespace

Result<std::optional<RateLimit>, RateLimitHeaderError> read_rate_limit(const Headers& headers) {
    const std::array<std::string_view, 3> names = {kRateLimitLimitHeader, kRateLimitRemainingHeader,
                                                   kRateLimitResetHeader};
    std::array<std::optional<std::string_view>, 3> values;
    std::size_t present = 0;
    for (const auto& field : headers.fields()) {
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (!iequals(field.first, names[i])) continue;
            if (values[i]) return Err{RateLimitHeaderError::repeated};
            values[i] = field.second;
            ++present;
        }
    }
    if (present == 0) return std::optional<RateLimit>{};
    if (present != names.size()) return Err{RateLimitHeaderError::incomplete};

    auto limit = read_number(*values[0], LONG_MAX);
    if (!limit) return Err{limit.error()};
    auto remaining = read_number(*values[1], LONG_MAX);
    if (!remaining) return Err{remaining.error()};
    auto reset = read_number(*values[2], kMaxResetSeconds);
    if (!reset) return Err{reset.error()};
    if (*remaining > *limit) return Err{RateLimitHeaderError::remaining_exceeds_limit};
    return std::optional<RateLimit>(
        RateLimit{static_cast<long>(*limit), static_cast<long>(*remaining), instant_from_unix_seconds(*reset)});
}

void write_rate_limit(Headers& headers, const RateLimit& rate_limit) {
    headers.set(std::string(kRateLimitLimitHeader), std::to_string(rate_limit.limit));
    headers.set(std::string(kRateLimitRemainingHeader), std::to_string(rate_limit.remaining));
    // Rounded up: a client that waits until the stated second must find the
    // window over (rounding down would let it send up to 1 s early and get
    // a 429). Ceiling division, also right for instants before the epoch.
    std::int64_t ms = unix_ms(rate_limit.reset);
    std::int64_t seconds = ms / 1000 + ((ms % 1000 > 0) ? 1 : 0);
    headers.set(std::string(kRateLimitResetHeader), std::to_string(seconds));
}

}  // namespace roomkey
