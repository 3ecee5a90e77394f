// bff_state.hpp: the BFF mode's part of the published page state
// (window.roomkey.state(), page_state.cpp): where the tokens are, and what
// roomkey-helper's BFF session reported (lifetimes, its token requests as
// it described them: grant type, status, scope; never a token).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "app/app.hpp"

namespace roomkey::app {

// Adds `tokens_held_by` ("page", "helper" or null) and `bff` (null outside
// the BFF mode) to `state`.
void add_bff_state(const App& app, Instant now, nlohmann::json& state);

}  // namespace roomkey::app
