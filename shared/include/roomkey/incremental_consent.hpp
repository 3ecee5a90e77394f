// incremental_consent.hpp: "sign in again adding <scope>": the scope list of a
// new authorization request (spec 4.2) that keeps everything granted and adds
// what an endpoint needs, so the user consents to the union (incremental
// consent) instead of losing what was granted.
#pragma once

#include <string>
#include <string_view>

#include "roomkey/registration.hpp"
#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"

namespace roomkey {

enum class AddScopeError {
    unknown_scope,                 // not a spec 5.5 scope
    offline_access_public_client,  // spec 2.1 / 5.4.3: never for a public client
    already_granted,               // nothing to add: the grant already covers it
};
std::string_view to_string(AddScopeError error);
// What the user sees, naming the scope and what to do.
std::string describe(AddScopeError error, std::string_view scope);

// The union of `granted` and `add`, compacted to aggregates where they cover
// all their leaves (what the consent screen lists). offline_access is dropped
// from the union for a public client even if a grant somehow named it.
Result<ScopeSet, AddScopeError> scopes_adding(const ScopeSet& granted, std::string_view add, ClientType client);

}  // namespace roomkey
