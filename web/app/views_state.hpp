// views_state.hpp: the views' part of the page API state (page_state.cpp
// merges it): `room`, `my_tasks`, `contacts`, `incoming_requests` (arrays),
// `room_unread`, `views_loading` and the
// mirror's announcements, spelled exactly as the issue names them.
#pragma once

#include <nlohmann/json.hpp>

#include "app/app.hpp"

namespace roomkey::app {

// Adds those keys to `state` (a JSON object).
void add_views_state(const App& app, Instant now, nlohmann::json& state);

}  // namespace roomkey::app
