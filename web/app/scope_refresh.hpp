// scope_refresh.hpp: "refresh with fewer scopes" (spec 4.3). The
// user picks a subset of the granted scopes; the session refreshes with
// `scope=` set to it (shared/'s RefreshRequested::scope, checked first with
// is_subset_grant), and what the service granted then is shown beside what
// was asked. Pure: the App owns one and tells it what happened.
#pragma once

#include <optional>
#include <string>

#include "roomkey/scopes.hpp"

namespace roomkey::app {

class ScopeRefresh {
public:
    // Why `requested` cannot go as a narrower refresh of `granted`, in words
    // for the user; nullopt when it may. `busy`: a refresh is under way (it
    // would be shared, and the narrower scope lost).
    static std::optional<std::string> refusal(const ScopeSet& requested, const ScopeSet& granted, bool busy);

    // The narrower refresh was sent.
    void start(ScopeSet requested, ScopeSet granted_before);
    // It came back with new tokens granting `granted`.
    void granted(ScopeSet granted);
    // It ended without new tokens (`why`: for the user).
    void failed(std::string why);
    // It could not be sent: `why` is shown until one succeeds.
    void refuse(std::string why) { error_ = std::move(why); }
    // Sign-out: nothing of the session's refreshes is kept.
    void reset() { *this = ScopeRefresh(); }

    bool pending() const { return pending_; }
    const ScopeSet& requested() const { return requested_; }
    const ScopeSet& granted_before() const { return before_; }
    // What the last narrower refresh granted; nullopt before one succeeded.
    const std::optional<ScopeSet>& granted_after() const { return after_; }
    // The last refusal or failure, "" after a success.
    const std::string& error() const { return error_; }

private:
    bool pending_ = false;
    ScopeSet requested_;
    ScopeSet before_;
    std::optional<ScopeSet> after_;
    std::string error_;
};

}  // namespace roomkey::app
