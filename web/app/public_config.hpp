// public_config.hpp: the public part of roomkey-helper's configuration, read
// from its GET /config.json, so one web build works against any upstream
// (the sandbox or the real service). It never holds a secret.
#pragma once

#include <string>
#include <string_view>

#include "roomkey/client.hpp"
#include "roomkey/registration.hpp"
#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"

namespace roomkey::app {

// The helper route the app reads its configuration from.
inline constexpr std::string_view kConfigPath = "/config.json";

// Who holds the tokens (docs/bff.md): the page (public client, PKCE in the
// browser; "session": "browser") or roomkey-helper (backend for frontend,
// "session": "bff": the page signs in by navigating to bff_login and never
// sees a token).
enum class SessionCustody { browser, bff };
std::string_view to_string(SessionCustody custody);

struct PublicConfig {
    bool configured = false;  // false: the helper has no upstream yet
    SessionCustody session = SessionCustody::browser;
    std::string client_id;
    ClientType client_type = ClientType::public_client;
    std::string consent_url;                                  // {consent_url} (spec 4.2)
    std::string redirect_uri;                                 // the helper's /callback
    std::string token_endpoint = "/oauth/token";              // helper proxy of {auth_url}/token
    std::string api_base = "/api";                            // helper proxy of {base_url}
    std::string token_header = "x-servicetoken";              // API-token header (spec 5.1)
    std::string request_header = "X-Roomkey-Request";         // the helper's anti-CSRF header
    ScopeSet default_scopes;                                  // what the picker starts with
    std::string upstream_base_url;                            // shown to the user only
    std::string upstream_auth_url;                            // shown to the user only
    // BFF mode only (empty otherwise): the helper's session routes.
    std::string bff_login;    // GET, a top-level navigation: /bff/login?scope=...
    std::string bff_session;  // GET: who is signed in, lifetimes, the helper's token requests
    std::string bff_logout;   // POST: forget the session
    std::string bff_refresh;  // POST: refresh now, optionally narrowing the scope

    bool bff() const { return session == SessionCustody::bff; }

    // The registration as the authorization request builder needs it. The
    // registered scopes are unknown to the browser: left empty, the consent
    // screen decides (5003 comes back from it).
    ClientConfig client() const;
};

// Reads the helper's /config.json. Unknown members are ignored; missing
// optional ones keep their defaults ("session" absent = "browser", as a
// helper from before the BFF mode). "session": "bff" needs the four bff_*
// routes, each an origin-relative path. The error text is for the user.
Result<PublicConfig, std::string> parse_public_config(std::string_view json_text);

// The scopes a new user is offered when the helper names none: everything a
// public client may ask for that the dashboard uses (spec 5.5).
ScopeSet fallback_default_scopes();

}  // namespace roomkey::app
