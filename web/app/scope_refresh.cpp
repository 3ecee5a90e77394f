// scope_refresh.cpp: see scope_refresh.hpp.
#include "app/scope_refresh.hpp"

#include "app/i18n.hpp"

namespace roomkey::app {

std::optional<std::string> ScopeRefresh::refusal(const ScopeSet& requested, const ScopeSet& granted, bool busy) {
    if (busy) return std::string(tr("scope_refresh.busy"));
    if (!gives_api_access(requested)) return std::string(tr("scope_refresh.no_api_access"));
    if (!is_subset_grant(requested, granted)) {
        return tr("scope_refresh.wider",
                  {{"requested", format_scope_list(requested)}, {"granted", format_scope_list(granted)}});
    }
    if (leaf_scopes(requested) == leaf_scopes(granted)) return std::string(tr("scope_refresh.all_granted"));
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
