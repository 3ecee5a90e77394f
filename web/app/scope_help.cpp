// scope_help.cpp: scope explanations for the picker and the page (see scope_help.hpp).
#include "app/scope_help.hpp"

#include <nlohmann/json.hpp>

#include "app/i18n.hpp"
#include "app/views_state.hpp"

namespace roomkey::app {

std::string scope_explanation(const ScopeInfo& info, bool offline_allowed, bool implied) {
    std::string text = i18n::scope_words(info.name);
    if (info.aggregate()) {
        std::string parts;
        for (std::string_view part : info.includes) parts += (parts.empty() ? "" : " ") + std::string(part);
        text += tr("scope_help.includes", {{"scopes", parts}});
    }
    if (info.name == kOfflineAccessScope && !offline_allowed) text += tr("scope_help.offline_public");
    if (implied) text += tr("scope_help.implied");
    return text;
}

std::string scope_help_json(ClientType client_type) {
    const bool offline_allowed = offline_access_allowed(client_type);
    nlohmann::json list = nlohmann::json::array();
    for (const ScopeInfo& info : scope_catalog()) {
        nlohmann::json includes = nlohmann::json::array();
        for (std::string_view part : info.includes) includes.push_back(std::string(part));
        list.push_back(object_of({{"name", std::string(info.name)},
                                  {"explanation", scope_explanation(info, offline_allowed)},
                                  {"includes", std::move(includes)},
                                  {"available", info.name != kOfflineAccessScope || offline_allowed}}));
    }
    return list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace roomkey::app
