// details_tab.hpp: the open room's details pane and the tab it shows, by
// name as the page API writes it ({type:'show_details', tab:'tasks'}).
// Header-only: the page API's reader (intents.cpp) and the workspace share it.
#pragma once

#include <optional>
#include <string_view>

namespace roomkey::app {

enum class DetailsTab { none, tasks, members, files };

inline std::string_view to_string(DetailsTab tab) {
    switch (tab) {
        case DetailsTab::tasks:
            return "tasks";
        case DetailsTab::members:
            return "members";
        case DetailsTab::files:
            return "files";
        case DetailsTab::none:
            break;
    }
    return "none";
}

inline std::optional<DetailsTab> details_tab_named(std::string_view name) {
    for (DetailsTab t : {DetailsTab::none, DetailsTab::tasks, DetailsTab::members, DetailsTab::files}) {
        if (to_string(t) == name) return t;
    }
    return std::nullopt;
}

}  // namespace roomkey::app
