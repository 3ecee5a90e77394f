// faults.hpp: fault injection for tests (off unless --enable-test-controls):
// the next N requests to the API and/or the token endpoint fail in a chosen
// way (5xx, 429, invalid_token, malformed JSON, delay, an answer cut off
// after the request was acted on). Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/http.hpp"
#include "roomkey/result.hpp"
#include "roomkey/time.hpp"

namespace roomkey::sandbox {

enum class FaultKind {
    status5xx,       // answer with a 5xx status (default 503) and an API error body
    rate_limited,    // 429 with x-ratelimit-remaining: 0 ("429" on the wire)
    invalid_token,   // API: 401 Bearer invalid_token; token endpoint: 400 invalid_grant
    malformed_json,  // 200 with a body that is not JSON
    delay,           // wait delay_ms, then answer normally
    drop_answer,     // act on the request, then close the connection without the answer's body
};
std::string_view to_string(FaultKind kind);
// The wire names: "status5xx", "429", "invalid_token", "malformed_json", "delay",
// "drop_answer".
std::optional<FaultKind> parse_fault_kind(std::string_view text);

// Which requests a fault applies to.
enum class FaultTarget { api, token, any };
std::string_view to_string(FaultTarget target);
std::optional<FaultTarget> parse_fault_target(std::string_view text);

struct Fault {
    FaultKind kind = FaultKind::status5xx;
    FaultTarget target = FaultTarget::api;
    int status = 503;        // for status5xx: 500-599
    Millis delay{2000};      // for delay
    // Aimed at one request (both optional): its method, and its path without
    // the query ("/v2/rooms/2100/messages"). A fault for "the next request"
    // races the app's own reads (a poll, a room's reads after it opens);
    // aimed, it waits for the request it was meant for.
    std::optional<Method> method;
    std::string path;
};

struct FaultRequest {
    Fault fault;
    std::int64_t count = 1;
};

// Parses the admin request body (JSON: {"kind", "count", "target", "status",
// "delay_ms", "method", "path"}); the message says what is wrong.
Result<FaultRequest, std::string> parse_fault_request(std::string_view json_body);

inline constexpr std::int64_t kMaxQueuedFaults = 10000;
inline constexpr Millis kMaxFaultDelay{30000};
inline constexpr std::size_t kMaxFaultPath = 2048;

class FaultInjector {
public:
    // Queues `count` copies of the fault; refused beyond kMaxQueuedFaults.
    bool add(const FaultRequest& request);
    void clear();
    // Takes the first queued fault that applies to the request: its kind,
    // method and path (without the query).
    std::optional<Fault> take(FaultTarget request_kind, Method method, std::string_view path);
    std::size_t pending() const;

private:
    mutable std::mutex mutex_;
    std::deque<Fault> queue_;
};

}  // namespace roomkey::sandbox
