// session_shown.hpp: the session as the panels and the page API show it,
// whoever holds the credentials: the REST client (the page's tokens or an
// API token), the sign-in (the scopes asked for, an exchange on its way) or
// the helper's session (BFF mode). A read-only view over the three owners;
// it keeps no state of its own.
#pragma once

#include <optional>
#include <string>

#include "app/bff_panel.hpp"
#include "app/sign_in.hpp"
#include "roomkey/rest_client.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/time.hpp"

namespace roomkey::app {

class SessionShown {
public:
    SessionShown(const RestClient& client, const SignIn& sign_in, const BffPanel& bff)
        : client_(client), sign_in_(sign_in), bff_(bff) {}

    // "signed out", "signing in", "exchanging", "signed in", "refreshing",
    // "expired", "failed" or "api token".
    std::string session_label() const;
    // Granted scopes differ from the requested ones (after expansion).
    bool scopes_differ() const;
    std::optional<Instant> access_expires_at() const;
    // The scopes of the OAuth grant in use (the page's tokens, or the
    // helper's session in BFF mode); nullptr without one (API token, signed out).
    const ScopeSet* granted_scopes() const;
    // Where the tokens are, as the session panel says it ("" when none).
    std::string tokens_held_by() const;

private:
    const RestClient& client_;
    const SignIn& sign_in_;
    const BffPanel& bff_;
};

}  // namespace roomkey::app
