// service_presets.hpp: the services roomkey-helper knows by name
// (`--service NAME`, "service" in the config file, $ROOMKEY_SERVICE), each
// with its published addresses and API-token header, as one table.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace roomkey::helper {

// What a service name fills in for the settings nobody gave explicitly
// (options.hpp: flags > environment > config file > preset > defaults). An
// empty field fills in nothing.
struct ServicePreset {
    std::string_view name;
    std::string_view base_url;      // {base_url}: the REST API, ends in /v2
    std::string_view auth_url;      // {auth_url}: the token endpoint's host; the helper posts to {auth_url}/token
    std::string_view consent_url;   // {consent_url}: the consent screen
    std::string_view token_header;  // the API-token header (spec 5.1's x-servicetoken)
};

// The preset called `name`, or nullptr for a name the table does not have.
const ServicePreset* find_service_preset(std::string_view name);

// The names the table has, for error messages and --help: "sandbox, live".
std::string service_preset_names();

// One line per preset and value for `serve --help`, each indented by
// `indent` spaces: "sandbox  (nothing)", "live  base_url https://...".
std::string service_presets_help(std::size_t indent);

}  // namespace roomkey::helper
