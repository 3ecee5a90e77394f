// public_config.cpp: writing and reading roomkey-helper's /config.json
// (public_config.hpp).
#include "roomkey/public_config.hpp"

#include <nlohmann/json.hpp>

#include "roomkey/json_text.hpp"

namespace roomkey {

namespace {

using json = nlohmann::json;

// Copies a string member when present; refuses a member of another type.
bool read_string(const json& object, const char* name, std::string& out, std::string& error) {
    if (!object.contains(name) || object[name].is_null()) return true;
    if (!object[name].is_string()) {
        error = std::string("config.json: \"") + name + "\" is not a string";
        return false;
    }
    out = object[name].get<std::string>();
    return true;
}

// A helper route: origin-relative, so a config cannot send the page elsewhere.
bool is_helper_path(const std::string& path) {
    return path.size() > 1 && path.front() == '/' && path[1] != '/' && path.find_first_of("?#\\") == std::string::npos;
}

}  // namespace

std::string_view to_string(SessionCustody custody) {
    return custody == SessionCustody::bff ? "bff" : "browser";
}

ClientConfig PublicConfig::client() const {
    ClientConfig client;
    client.client_id = client_id;
    client.type = client_type;
    if (!redirect_uri.empty()) client.redirect_uris.push_back(redirect_uri);
    return client;
}

ScopeSet fallback_default_scopes() {
    return {"users.all:read", "rooms.all:read_write"};
}

std::string to_json(const PublicConfig& c) {
    // nlohmann::json (not ordered_json): members in name order.
    json j = {
        {"configured", c.configured},
        {"client_id", c.client_id},
        {"client_type", std::string(to_string(c.client_type))},
        {"consent_url", c.consent_url},
        {"redirect_uri", c.redirect_uri},
        {"token_endpoint", c.token_endpoint},
        {"api_base", c.api_base},
        {"token_header", c.token_header},
        {"request_header", c.request_header},
        {"scope", c.scope},
        {"upstream_base_url", c.upstream_base_url},
        {"upstream_auth_url", c.upstream_auth_url},
        {"session", std::string(to_string(c.session))},
    };
    for (const auto& [name, path] :
         {std::pair{"bff_login", &c.bff_login}, std::pair{"bff_session", &c.bff_session},
          std::pair{"bff_logout", &c.bff_logout}, std::pair{"bff_refresh", &c.bff_refresh}}) {
        if (!path->empty()) j[name] = *path;
    }
    if (!c.file_previews) j["file_previews"] = false;
    return j.dump();
}

Result<PublicConfig, std::string> parse_public_config(std::string_view json_text) {
    const json root = roomkey::parse_json_text(json_text);
    if (root.is_discarded()) return Err{std::string("config.json is not JSON")};
    if (!root.is_object()) return Err{std::string("config.json is not a JSON object")};

    PublicConfig config;
    std::string error;
    std::string client_type(to_string(config.client_type));
    std::string session(to_string(config.session));
    if (!read_string(root, "client_id", config.client_id, error) ||
        !read_string(root, "client_type", client_type, error) ||
        !read_string(root, "consent_url", config.consent_url, error) ||
        !read_string(root, "redirect_uri", config.redirect_uri, error) ||
        !read_string(root, "token_endpoint", config.token_endpoint, error) ||
        !read_string(root, "api_base", config.api_base, error) ||
        !read_string(root, "token_header", config.token_header, error) ||
        !read_string(root, "request_header", config.request_header, error) ||
        !read_string(root, "scope", config.scope, error) ||
        !read_string(root, "upstream_base_url", config.upstream_base_url, error) ||
        !read_string(root, "upstream_auth_url", config.upstream_auth_url, error) ||
        !read_string(root, "session", session, error) || !read_string(root, "bff_login", config.bff_login, error) ||
        !read_string(root, "bff_session", config.bff_session, error) ||
        !read_string(root, "bff_logout", config.bff_logout, error) ||
        !read_string(root, "bff_refresh", config.bff_refresh, error)) {
        return Err{error};
    }
    if (root.contains("file_previews")) {
        if (!root["file_previews"].is_boolean()) {
            return Err{std::string("config.json: \"file_previews\" is not true/false")};
        }
        config.file_previews = root["file_previews"].get<bool>();
    }
    if (root.contains("configured")) {
        if (!root["configured"].is_boolean()) return Err{std::string("config.json: \"configured\" is not true/false")};
        config.configured = root["configured"].get<bool>();
    } else {
        config.configured = !config.consent_url.empty();
    }
    const auto type = parse_client_type(client_type);
    if (!type) return Err{"config.json: unknown client_type \"" + client_type + "\""};
    config.client_type = *type;

    if (session == "bff") {
        config.session = SessionCustody::bff;
        for (const auto& [name, path] :
             {std::pair{"bff_login", &config.bff_login}, std::pair{"bff_session", &config.bff_session},
              std::pair{"bff_logout", &config.bff_logout}, std::pair{"bff_refresh", &config.bff_refresh}}) {
            if (!is_helper_path(*path)) {
                return Err{std::string("config.json: \"session\" is \"bff\" but \"") + name +
                           "\" is not a path on roomkey-helper (\"" + *path + "\")"};
            }
        }
    } else if (session != "browser") {
        return Err{"config.json: unknown \"session\" \"" + session + "\" (expected \"browser\" or \"bff\")"};
    }

    config.default_scopes = fallback_default_scopes();
    if (!config.scope.empty()) {
        auto parsed = parse_scope_list(config.scope);
        if (!parsed) return Err{"config.json: \"scope\" names unknown scopes: " + config.scope};
        config.default_scopes = std::move(*parsed);
    }
    // A public client may not ask for offline_access (spec 2.1, 5.4.3).
    if (!offline_access_allowed(config.client_type)) config.default_scopes.erase(std::string(kOfflineAccessScope));
    return config;
}

}  // namespace roomkey
