// scope_refresh.cpp: see scope_refresh.hpp.
#include "app/scope_refresh.hpp"

namespace roomkey::app {

std::optional<std::string> ScopeRefresh::refusal(const ScopeSet& requested, const ScopeSet& granted, bool busy) {
    if (busy) return std::string("A token refresh is already under way: try again when it has finished.");
    if (!gives_api_access(requested)) {
        return std::string(
            "Pick at least one scope that gives API access (offline_access alone does not, spec 5.4.4).");
    }
    if (!is_subset_grant(requested, granted)) {
        return "A refresh can only narrow the grant (spec 4.3): " + format_scope_list(requested) +
               " asks for more than the granted " + format_scope_list(granted) + ". Sign in again to widen it.";
    }
    if (leaf_scopes(requested) == leaf_scopes(granted)) {
        return std::string("These are all the granted scopes: untick the ones to give up, or use Refresh now.");
    }
    return std::nullopt;
}

void ScopeRefresh::start(ScopeSet requested, ScopeSet granted_before) {
    pending_ = true;
    requested_ = std::move(requested);
    before_ = std::move(granted_before);
    error_.clear();
}

void ScopeRefresh::granted(ScopeSet granted) {
    pending_ = false;
    after_ = std::move(granted);
    error_.clear();
}

void ScopeRefresh::failed(std::string why) {
    pending_ = false;
    error_ = std::move(why);
}

}  // namespace roomkey::app
