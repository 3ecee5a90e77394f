// faults.cpp: fault parsing and the FaultInjector queue (see faults.hpp).
#include "sandbox/faults.hpp"

#include <nlohmann/json.hpp>

#include "common/httplib_adapter.hpp"

namespace roomkey::sandbox {

std::string_view to_string(FaultKind kind) {
    switch (kind) {
        case FaultKind::status5xx: return "status5xx";
        case FaultKind::rate_limited: return "429";
        case FaultKind::invalid_token: return "invalid_token";
        case FaultKind::malformed_json: return "malformed_json";
        case FaultKind::delay: return "delay";
        case FaultKind::drop_answer: return "drop_answer";
    }
    return "unknown";
}

std::optional<FaultKind> parse_fault_kind(std::string_view text) {
    for (FaultKind k : {FaultKind::status5xx, FaultKind::rate_limited, FaultKind::invalid_token,
                        FaultKind::malformed_json, FaultKind::delay, FaultKind::drop_answer}) {
        if (to_string(k) == text) return k;
    }
    if (text == "rate_limited") return FaultKind::rate_limited;
    return std::nullopt;
}

std::string_view to_string(FaultTarget target) {
    switch (target) {
        case FaultTarget::api: return "api";
        case FaultTarget::token: return "token";
        case FaultTarget::any: return "any";
    }
    return "unknown";
}

std::optional<FaultTarget> parse_fault_target(std::string_view text) {
    for (FaultTarget t : {FaultTarget::api, FaultTarget::token, FaultTarget::any}) {
        if (to_string(t) == text) return t;
    }
    return std::nullopt;
}

Result<FaultRequest, std::string> parse_fault_request(std::string_view json_body) {
    using nlohmann::json;
    const json doc = json::parse(json_body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return Err{std::string("body must be a JSON object")};
    FaultRequest out;
    if (!doc.contains("kind") || !doc["kind"].is_string()) {
        return Err{std::string("\"kind\" (string) is required")};
    }
    const auto kind = parse_fault_kind(doc["kind"].get<std::string>());
    if (!kind) {
        return Err{std::string("unknown \"kind\" (status5xx, 429, invalid_token, malformed_json, delay, drop_answer)")};
    }
    out.fault.kind = *kind;
    if (doc.contains("count")) {
        if (!doc["count"].is_number_integer()) return Err{std::string("\"count\" must be an integer")};
        out.count = doc["count"].get<std::int64_t>();
        if (out.count < 1 || out.count > kMaxQueuedFaults) {
            return Err{std::string("\"count\" must be 1..") + std::to_string(kMaxQueuedFaults)};
        }
    }
    if (doc.contains("target")) {
        if (!doc["target"].is_string()) return Err{std::string("\"target\" must be a string")};
        const auto target = parse_fault_target(doc["target"].get<std::string>());
        if (!target) return Err{std::string("unknown \"target\" (api, token, any)")};
        out.fault.target = *target;
    }
    if (doc.contains("status")) {
        if (!doc["status"].is_number_integer()) return Err{std::string("\"status\" must be an integer")};
        const auto status = doc["status"].get<std::int64_t>();
        if (status < 500 || status > 599) return Err{std::string("\"status\" must be 500..599")};
        out.fault.status = static_cast<int>(status);
    }
    if (doc.contains("delay_ms")) {
        if (!doc["delay_ms"].is_number_integer()) return Err{std::string("\"delay_ms\" must be an integer")};
        const auto ms = doc["delay_ms"].get<std::int64_t>();
        if (ms < 0 || ms > kMaxFaultDelay.count()) {
            return Err{std::string("\"delay_ms\" must be 0..") + std::to_string(kMaxFaultDelay.count())};
        }
        out.fault.delay = Millis(ms);
    }
    if (doc.contains("method")) {
        const auto method = doc["method"].is_string() ? native::parse_method(doc["method"].get<std::string>())
                                                      : std::nullopt;
        if (!method) return Err{std::string("\"method\" must be GET, POST, PUT or DELETE")};
        out.fault.method = method;
    }
    if (doc.contains("path")) {
        if (!doc["path"].is_string()) return Err{std::string("\"path\" must be a string")};
        out.fault.path = doc["path"].get<std::string>();
        if (out.fault.path.empty() || out.fault.path.front() != '/' ||
            out.fault.path.find('?') != std::string::npos || out.fault.path.size() > kMaxFaultPath) {
            return Err{std::string("\"path\" must be a request path without its query, such as "
                                   "\"/v2/rooms/2100/messages\"")};
        }
    }
    return out;
}

bool FaultInjector::add(const FaultRequest& request) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (request.count < 1 ||
        static_cast<std::int64_t>(queue_.size()) + request.count > kMaxQueuedFaults) {
        return false;
    }
    for (std::int64_t i = 0; i < request.count; ++i) queue_.push_back(request.fault);
    return true;
}

void FaultInjector::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.clear();
}

std::optional<Fault> FaultInjector::take(FaultTarget request_kind, Method method, std::string_view path) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = queue_.begin(); it != queue_.end(); ++it) {
        const bool kind = it->target == FaultTarget::any || it->target == request_kind;
        const bool aimed = (!it->method || *it->method == method) && (it->path.empty() || it->path == path);
        if (kind && aimed) {
            Fault f = *it;
            queue_.erase(it);
            return f;
        }
    }
    return std::nullopt;
}

std::size_t FaultInjector::pending() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size();
}

}  // namespace roomkey::sandbox
