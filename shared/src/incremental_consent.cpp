// incremental_consent.cpp: the scope union of "sign in again adding" (see
// incremental_consent.hpp).
#include "roomkey/incremental_consent.hpp"

namespace roomkey {

std::string_view to_string(AddScopeError error) {
    switch (error) {
        case AddScopeError::unknown_scope:
            return "add_scope.unknown_scope";
        case AddScopeError::offline_access_public_client:
            return "add_scope.offline_access_public_client";
        case AddScopeError::already_granted:
            return "add_scope.already_granted";
    }
    return "add_scope.unknown";
}

std::string describe(AddScopeError error, std::string_view scope) {
    const std::string name(scope);
    switch (error) {
        case AddScopeError::unknown_scope:
            return "\"" + name + "\" is not a scope of the service; pick one from the scope list.";
        case AddScopeError::offline_access_public_client:
            return "offline_access is for confidential clients only; this browser app is a public client, so it "
                   "signs in again when the refresh token expires.";
        case AddScopeError::already_granted:
            return "The current grant already includes " + name + ".";
    }
    return name;
}

Result<ScopeSet, AddScopeError> scopes_adding(const ScopeSet& granted, std::string_view add, ClientType client) {
    if (!is_known_scope(add)) return Err{AddScopeError::unknown_scope};
    const bool offline = add == kOfflineAccessScope;
    if (offline && !offline_access_allowed(client)) return Err{AddScopeError::offline_access_public_client};
    if (offline ? granted.count(std::string(add)) != 0 : grants(granted, add)) {
        return Err{AddScopeError::already_granted};
    }
    ScopeSet wanted = granted;
    wanted.emplace(add);
    if (!offline_access_allowed(client)) wanted.erase(std::string(kOfflineAccessScope));
    return compact(wanted);
}

}  // namespace roomkey
