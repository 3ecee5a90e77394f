// service_presets.cpp: the table of service_presets.hpp.
#include "helper/service_presets.hpp"

#include <utility>

namespace roomkey::helper {
namespace {

// - sandbox: today's behaviour, nothing filled in. The sandbox's addresses
//   depend on its port, so ./scripts/run.sh passes them as flags.
// - live: the service's published addresses. From its RAML (chatwork/api on
//   GitHub, RAML/api-ja.raml): baseUri 'https://api.chatwork.com/{version}'
//   with version v2; securitySchemes oauth_2_0 settings: authorizationUri
//   https://www.chatwork.com/packages/oauth2/login.php (the consent screen)
//   and accessTokenUri https://oauth.chatwork.com/token (so auth_url is its
//   host: the helper appends "/token"). The API-token header is not in the
//   RAML; the service's API document names it X-ChatWorkToken (header names
//   are case-insensitive; lower case as the spec writes x-servicetoken).
constexpr ServicePreset kPresets[] = {
    {"sandbox", "", "", "", ""},
    {"live", "https://api.chatwork.com/v2", "https://oauth.chatwork.com",
     "https://www.chatwork.com/packages/oauth2/login.php", "x-chatworktoken"},
};

}  // namespace

const ServicePreset* find_service_preset(std::string_view name) {
    for (const ServicePreset& preset : kPresets) {
        if (preset.name == name) return &preset;
    }
    return nullptr;
}

std::string service_preset_names() {
    std::string out;
    for (const ServicePreset& preset : kPresets) {
        if (!out.empty()) out += ", ";
        out += preset.name;
    }
    return out;
}

std::string service_presets_help(std::size_t indent) {
    const std::string pad(indent, ' ');
    std::string out;
    for (const ServicePreset& preset : kPresets) {
        const std::pair<const char*, std::string_view> values[] = {{"base_url", preset.base_url},
                                                                   {"auth_url", preset.auth_url},
                                                                   {"consent_url", preset.consent_url},
                                                                   {"token_header", preset.token_header}};
        bool any = false;
        for (const auto& [key, value] : values) {
            if (value.empty()) continue;
            out += pad + (any ? std::string(preset.name.size(), ' ') : std::string(preset.name)) + "  " + key + " " +
                   std::string(value) + "\n";
            any = true;
        }
        if (!any) out += pad + std::string(preset.name) + "  (nothing: give the addresses yourself)\n";
    }
    return out;
}

}  // namespace roomkey::helper
