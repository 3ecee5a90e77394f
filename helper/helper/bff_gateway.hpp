// bff_gateway.hpp: roomkey-helper's BFF mode (`serve --session bff`,
// docs/bff.md): the helper runs the authorization-code flow itself
// (/bff/login, the callback), keeps the token set in a sealed cookie
// (bff_cookie_jar.hpp), and attaches the access token to /api/... calls;
// when to refresh, the one retry after a 401 and the grant's end are
// shared/'s session table, run per cookie session (bff_refresh_flight.hpp).
// The page never holds a token. On shared/'s HTTP values, like Proxy, so it runs in memory in tests.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "helper/bff_cookie_jar.hpp"
#include "helper/bff_refresh_flight.hpp"
#include "helper/bff_revocations.hpp"
#include "helper/options.hpp"
#include "helper/proxy.hpp"
#include "roomkey/http.hpp"
#include "roomkey/random.hpp"
#include "roomkey/time.hpp"

namespace roomkey::helper {

// The access token is refreshed this long before it expires.
inline constexpr Seconds kBffRefreshAhead{60};

struct BffGatewaySetup {
    UpstreamConfig upstream;   // confidential client, with its secret
    std::string redirect_uri;  // https://<the app's origin>/callback
    BffKeys keys;
    UpstreamTransport transport;                  // token requests
    std::function<HttpResponse(const HttpRequest&)> api;  // Proxy::api (the allowlist, relaying)
    RandomSource random;
    std::function<Instant()> now;
    // The signed-out sessions every helper sharing the key sees; none: this
    // helper's memory only (bff_refresh_flight.hpp's end()).
    std::shared_ptr<BffRevocations> revocations;
};

class BffGateway {
public:
    explicit BffGateway(BffGatewaySetup setup);

    // GET /bff/login?scope=...: a navigation; 303 to the consent screen with
    // the login cookie set.
    HttpResponse login(const HttpRequest& request);
    // GET <redirect URI path>?code=..&state=..: the code exchange; 303 to "/"
    // (or to "/#bff_error=...").
    HttpResponse callback(const HttpRequest& request);
    // GET /bff/session, POST /bff/refresh, POST /bff/logout (the CSRF checks
    // are the policy's, before these).
    HttpResponse session(const HttpRequest& request);
    HttpResponse refresh(const HttpRequest& request);
    HttpResponse logout(const HttpRequest& request);
    // /api/... with the session's access token attached.
    HttpResponse api(const HttpRequest& request);

private:
    std::string token_url() const { return setup_.upstream.auth_url + "/token"; }
    // The request's session cookie opened, unless signed out (`revoked`).
    Result<OpenedSession, CookieRefusal> open(const HttpRequest& request, Instant now) const;
    // `out` with the X-Roomkey-Token-Request header when a token request was made for it.
    HttpResponse with_record(HttpResponse out, const std::optional<BffTokenRequest>& record) const;

    BffGatewaySetup setup_;
    BffCookieJar jar_;
    BffRefreshFlight flight_;
};

}  // namespace roomkey::helper
