// perform_effects.hpp: the app's effects (app/effects.hpp) carried out in
// the browser: requests handed to the transport (fetch_transport.hpp),
// files picked, saved and downloaded (file_transfer.hpp), navigation,
// the clipboard and what is kept in the page's storage (browser.hpp).
// main.cpp calls it after everything that can change the app.
#pragma once

#include <cstdint>
#include <vector>

#include "app/effects.hpp"

namespace roomkey::web {

// Carries out `effects`; returns the ids of the requests sent. A file
// picker opened is remembered in `pick` (the room the chosen file goes to).
std::vector<std::uint64_t> perform_effects(std::vector<app::Effect> effects, app::effect::PickFile& pick);

}  // namespace roomkey::web
