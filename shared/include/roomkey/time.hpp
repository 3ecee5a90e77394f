// time.hpp: how shared/ speaks of time. There is no global clock in shared/:
// every function that needs "now" takes an Instant, so tests control time.
#pragma once

#include <chrono>
#include <cstdint>

namespace roomkey {

using Millis = std::chrono::milliseconds;
using Seconds = std::chrono::seconds;

// A point in time, in milliseconds since the Unix epoch (UTC).
using Instant = std::chrono::time_point<std::chrono::system_clock, Millis>;

inline Instant instant_from_unix_ms(std::int64_t ms) { return Instant(Millis(ms)); }
inline Instant instant_from_unix_seconds(std::int64_t s) { return Instant(Seconds(s)); }
inline std::int64_t unix_ms(Instant t) { return t.time_since_epoch().count(); }
inline std::int64_t unix_seconds(Instant t) {
    return std::chrono::duration_cast<Seconds>(t.time_since_epoch()).count();
}

}  // namespace roomkey
