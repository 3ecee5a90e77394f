// page_state.hpp: the app's state as the JSON object the page publishes
// (window.roomkey.state(), and the aria-live text mirror built from it). It
// holds no secret: no token, code or verifier, only counts, names and labels.
#pragma once

#include <string>

#include "app/app.hpp"

namespace roomkey::app {

// How many log titles and rooms the snapshot lists.
inline constexpr std::size_t kPublishedLogEntries = 30;
inline constexpr std::size_t kPublishedRooms = 50;

std::string page_state_json(const App& app, Instant now);

}  // namespace roomkey::app
