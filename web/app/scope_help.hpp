// scope_help.hpp: the words that explain each scope of the picker (spec 5.5),
// written once here so the UI shows the same text inline under the checkbox
// and in its tooltip, and the page's scope description (shell/page.js, for
// assistive technology) reads it too.
#pragma once

#include <string>

#include "roomkey/registration.hpp"
#include "roomkey/scopes.hpp"

namespace roomkey::app {

// What the scope allows, what an aggregate includes, why offline_access is
// greyed out for a public client (spec 2.1, 5.4.3) and, when `implied`, that
// an aggregate the user picked already includes it.
std::string scope_explanation(const ScopeInfo& info, bool offline_allowed, bool implied = false);

// Every scope of the catalog as a JSON array of {"name", "explanation",
// "includes" (array), "available" (false for offline_access as a public client)}.
std::string scope_help_json(ClientType client_type);

}  // namespace roomkey::app
