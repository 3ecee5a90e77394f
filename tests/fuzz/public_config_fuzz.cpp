// public_config_fuzz.cpp. Property (invariants + round trip) of
// parse_public_config, the app's reader of the helper's GET /config.json:
// - no crash on any bytes; a refusal says what is wrong (non-empty text);
// - an accepted config has a known client type, default scopes that are all
//   in the catalog, never offline_access for a public client, and
//   "configured" as sent (or, when absent, exactly when a consent URL is set);
// - BFF mode ("session": "bff") only with its four bff_* routes, each a path
//   on the helper (never another origin); the browser mode keeps them empty
//   unless sent;
// - an accepted config, written back with shared/'s to_json (the helper's
//   writer), reads back to the same config.
// Input: the response body.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "roomkey/public_config.hpp"
#include "roomkey/scopes.hpp"

namespace {

using namespace roomkey;

bool same(const PublicConfig& x, const PublicConfig& y) {
    return x.configured == y.configured && x.client_id == y.client_id && x.client_type == y.client_type &&
           x.consent_url == y.consent_url && x.redirect_uri == y.redirect_uri && x.token_endpoint == y.token_endpoint &&
           x.api_base == y.api_base && x.token_header == y.token_header && x.request_header == y.request_header &&
           x.scope == y.scope && x.default_scopes == y.default_scopes && x.upstream_base_url == y.upstream_base_url &&
           x.upstream_auth_url == y.upstream_auth_url && x.session == y.session && x.bff_login == y.bff_login &&
           x.bff_session == y.bff_session && x.bff_logout == y.bff_logout && x.bff_refresh == y.bff_refresh;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    auto config = parse_public_config(input);
    if (!config) {
        if (config.error().empty()) std::abort();
        return 0;
    }
    const PublicConfig& c = *config;
    if (!parse_client_type(to_string(c.client_type))) std::abort();
    for (const auto& s : c.default_scopes) {
        if (!is_known_scope(s)) std::abort();
    }
    if (c.client_type == ClientType::public_client && c.default_scopes.count(std::string(kOfflineAccessScope))) {
        std::abort();
    }
    const auto root = nlohmann::json::parse(input, nullptr, false);
    if (root.is_discarded() || !root.is_object()) std::abort();  // accepted, so it was a JSON object
    if (!root.contains("configured") && c.configured != !c.consent_url.empty()) std::abort();
    if (c.bff()) {
        for (const std::string* route : {&c.bff_login, &c.bff_session, &c.bff_logout, &c.bff_refresh}) {
            if (route->size() < 2 || route->front() != '/' || (*route)[1] == '/') std::abort();
        }
    }
    const ClientConfig client = c.client();
    if (client.client_id != c.client_id || client.type != c.client_type) std::abort();

    // The helper's writer reads back the same: the scope is written as it
    // was read, so the derived default scopes come out the same too.
    auto again = parse_public_config(to_json(c));
    if (!again) std::abort();
    if (!same(*again, c)) std::abort();
    return 0;
}
