// local_store.hpp: the settings (per browser) and the composer's drafts (per
// account) kept in localStorage, never with a token: read back when the app
// starts and when an account signs in, written when they change. Called
// after the app changed (main.cpp); Emscripten-only.
#pragma once

#include <vector>

#include "app/app.hpp"
#include "app/intents.hpp"

namespace roomkey::web {

// What storage holds that the app has not been given yet (the settings at
// start, an account's drafts when it signs in); writes what changed.
std::vector<app::Intent> sync_local_store(const app::App& app);

}  // namespace roomkey::web
