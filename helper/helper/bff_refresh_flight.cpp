// bff_refresh_flight.cpp: the single flight and the newest-set memory of
// bff_refresh_flight.hpp.
#include "helper/bff_refresh_flight.hpp"

namespace roomkey::helper {

BffRefreshFlight::Entry& BffRefreshFlight::entry(const std::string& id) {
    auto it = entries_.find(id);
    if (it != entries_.end()) return it->second;
    // Beyond the cap the oldest sessions are forgotten (never one refreshing).
    while (entries_.size() >= max_sessions_ && !order_.empty()) {
        auto old = entries_.find(order_.front());
        if (old != entries_.end() && old->second.in_flight) break;
        if (old != entries_.end()) entries_.erase(old);
        order_.pop_front();
    }
    order_.push_back(id);
    return entries_[id];
}

Result<BffSession, RefreshFailure> BffRefreshFlight::newest(const BffSession& from_cookie) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(from_cookie.id);
    if (it == entries_.end()) return from_cookie;
    if (it->second.ended) return Err{*it->second.ended};
    if (it->second.newest && it->second.newest->generation > from_cookie.generation) return *it->second.newest;
    return from_cookie;
}

Result<RefreshOutcome, RefreshFailure> BffRefreshFlight::refresh(const BffSession& seen,
                                                                 const std::optional<ScopeSet>& scope) {
    std::unique_lock<std::mutex> lock(mutex_);
    Entry* e = nullptr;
    // Looked up again after every wake-up: the map may have changed meanwhile.
    done_.wait(lock, [&] {
        e = &entry(seen.id);
        return !e->in_flight;
    });
    if (e->ended) return Err{*e->ended};
    if (!scope && e->newest && e->newest->generation > seen.generation) {
        // Another request refreshed while this one waited: its set is newer
        // than the one this request found wanting. Its token request is
        // this answer's too (it waited for it).
        return RefreshOutcome{*e->newest, e->last_record};
    }
    // Refresh from the newest refresh token this helper knows.
    const BffSession from = e->newest && e->newest->generation > seen.generation ? *e->newest : seen;
    e->in_flight = true;
    lock.unlock();
    auto result = refresh_(from, scope);
    lock.lock();
    e = &entry(seen.id);
    e->in_flight = false;
    if (result) {
        e->newest = *result;
        e->last_record = result->token_requests.empty() ? std::nullopt
                                                        : std::optional<BffTokenRequest>(result->token_requests.back());
    } else if (result.error().session_ended) {
        e->ended = result.error();
    }
    done_.notify_all();
    if (!result) return Err{result.error()};
    return RefreshOutcome{*result, e->last_record};
}

void BffRefreshFlight::end(const std::string& session_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    RefreshFailure ended;
    ended.session_ended = true;
    ended.words = "signed out";
    entry(session_id).ended = ended;
}

}  // namespace roomkey::helper
