// public_config.hpp: the public part of roomkey-helper's configuration, the
// document the helper serves at GET /config.json and the page reads, so one
// web build works against any upstream (the sandbox or the real service).
// One struct, one writer (to_json), one reader (parse_public_config), one set
// of defaults. It never holds a secret.
#pragma once

#include <string>
#include <cstdint>
#include <string_view>

#include "roomkey/api.hpp"
#include "roomkey/client.hpp"
#include "roomkey/registration.hpp"
#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"

namespace roomkey {

// The helper route the page reads its configuration from.
inline constexpr std::string_view kConfigPath = "/config.json";
// The helper's own routes the page is sent to by default: the token proxy
// (of {auth_url}/token) and the API proxy (of {base_url}).
inline constexpr std::string_view kHelperTokenPath = "/oauth/token";
inline constexpr std::string_view kHelperApiBase = "/api";
// The helper's route for an image preview's bytes (POST, form `url`: a
// download_url on the configured service's host; docs/file_previews.md).
inline constexpr std::string_view kHelperFilePreviewPath = "/file-preview";
// A larger image is not downloaded for a preview (its file card still downloads it).
inline constexpr std::int64_t kMaxPreviewBytes = 4 * 1024 * 1024;
// The header (value "1") every page fetch to the helper carries: its
// anti-CSRF rule refuses a fetch without it.
inline constexpr std::string_view kHelperRequestHeader = "X-Roomkey-Request";

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
    std::string consent_url;                           // {consent_url} (spec 4.2)
    std::string redirect_uri;                          // the helper's /callback
    std::string token_endpoint{kHelperTokenPath};      // "" in the BFF mode
    std::string api_base{kHelperApiBase};              // helper proxy of {base_url}
    std::string token_header{kDefaultApiTokenHeader};  // API-token header (spec 5.1)
    std::string request_header{kHelperRequestHeader};  // the helper's anti-CSRF header
    std::string scope;                                 // as configured; "" = the fallback
    std::string upstream_base_url;                     // shown to the user only
    std::string upstream_auth_url;                     // shown to the user only
    // BFF mode only (empty otherwise, and then not written): the helper's
    // session routes.
    std::string bff_login;    // GET, a top-level navigation: /bff/login?scope=...
    std::string bff_session;  // GET: who is signed in, lifetimes, the helper's token requests
    std::string bff_logout;   // POST: forget the session
    std::string bff_refresh;  // POST: refresh now, optionally narrowing the scope
    // Whether the front serves kHelperFilePreviewPath: false behind nginx
    // alone (no helper knows the download links the service issued), and
    // then written ("file_previews": false); the page shows no previews.
    bool file_previews = true;

    // Derived by the reader from `scope` (not written): what the scope
    // picker starts with, fallback_default_scopes() when none is named,
    // without offline_access for a public client (spec 2.1, 5.4.3).
    ScopeSet default_scopes;

    bool bff() const { return session == SessionCustody::bff; }

    // The registration as the authorization request builder needs it. The
    // registered scopes are unknown to the browser: left empty, the consent
    // screen decides (5003 comes back from it).
    ClientConfig client() const;
};

// The /config.json text: every member but default_scopes; the bff_* routes
// only when set. Members in name order (the bytes the helper has always sent).
std::string to_json(const PublicConfig& config);

// Reads /config.json. Unknown members are ignored; missing optional ones
// keep their defaults ("session" absent = "browser", as a helper from before
// the BFF mode). "session": "bff" needs the four bff_* routes, each an
// origin-relative path. The error text is for the user.
Result<PublicConfig, std::string> parse_public_config(std::string_view json_text);

// The scopes a new user is offered when the helper names none: everything a
// public client may ask for that the dashboard uses (spec 5.5).
ScopeSet fallback_default_scopes();

}  // namespace roomkey
