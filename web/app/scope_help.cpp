// scope_help.cpp: scope explanations for the picker and the page (see scope_help.hpp).
#include "app/scope_help.hpp"

#include <nlohmann/json.hpp>

namespace roomkey::app {

std::string scope_explanation(const ScopeInfo& info, bool offline_allowed, bool implied) {
    std::string text(info.allows);
    if (info.aggregate()) {
        text += " Includes:";
        for (std::string_view part : info.includes) text += " " + std::string(part);
        text += ".";
    }
    if (info.name == kOfflineAccessScope && !offline_allowed) {
        text += " Only confidential clients may ask for offline_access (spec 2.1, 5.4.3); this app is a public client.";
    }
    if (implied) text += " Included by an aggregate you picked.";
    return text;
}

std::string scope_help_json(ClientType client_type) {
    const bool offline_allowed = offline_access_allowed(client_type);
    nlohmann::json list = nlohmann::json::array();
    for (const ScopeInfo& info : scope_catalog()) {
        nlohmann::json includes = nlohmann::json::array();
        for (std::string_view part : info.includes) includes.push_back(std::string(part));
        list.push_back({{"name", std::string(info.name)},
                        {"explanation", scope_explanation(info, offline_allowed)},
                        {"includes", std::move(includes)},
                        {"available", info.name != kOfflineAccessScope || offline_allowed}});
    }
    return list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace roomkey::app
