// view_prefs.hpp: how the user wants the app to look, from the browser: the
// colour scheme (prefers-color-scheme; main.cpp listens for its changes)
// and the text size, kept in sessionStorage for the session, so a reload
// keeps it and a new session starts at the default. Emscripten-only.
#pragma once

#include <optional>

namespace roomkey::web {

// The sessionStorage key of the text size (an index into kTextSizes, ui.hpp).
inline constexpr const char* kTextSizeKey = "roomkey.text_size";

// True unless the browser prefers a light scheme (dark is the app's default
// when it states no preference).
bool prefers_dark_scheme();

// True when the main pointer is coarse (a finger): (pointer: coarse).
bool coarse_pointer();

// The text size this session chose (a valid index into kTextSizes), or
// nullopt (none chosen, storage unavailable, or a value that is not one).
std::optional<int> stored_text_size();
void store_text_size(int index);

}  // namespace roomkey::web
