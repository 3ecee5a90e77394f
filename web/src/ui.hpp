// ui.hpp: draws the app's windows with Dear ImGui from a read-only view of the
// app state and returns what the user asked for. No network, no browser calls.
#pragma once

#include <string>

namespace roomkey::web {

struct UiView {
    std::string status_line;     // e.g. "Signed out"
    std::string pkce_challenge;  // a freshly made S256 challenge (skeleton)
};

struct UiIntents {
    bool make_new_pkce = false;
};

UiIntents draw_ui(const UiView& view);

}  // namespace roomkey::web
