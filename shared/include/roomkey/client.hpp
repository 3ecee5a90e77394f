// client.hpp: what the client side knows about its own OAuth registration
// (spec 2.1) and the credentials it presents at the token endpoint (spec 4.3, 5.3).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "roomkey/registration.hpp"
#include "roomkey/scopes.hpp"

namespace roomkey {

// One registered OAuth client, as the authorization request builder (client
// side) and the authorization request validator (sandbox side) see it.
struct ClientConfig {
    std::string client_id;
    ClientType type = ClientType::public_client;
    std::vector<std::string> redirect_uris;  // registered, 1 to 5 (spec 8.3)
    // Registered scopes (spec 2.1). The sandbox always fills it; a client that
    // leaves it empty skips the "registered for the client" check (5003) and
    // lets the consent screen decide.
    ScopeSet scopes;
};

// Spec 4.3: a public client names itself with client_id in the body.
struct PublicClient {
    std::string client_id;
};
// Spec 4.3: a confidential client authenticates with HTTP Basic.
struct ConfidentialClient {
    std::string client_id;
    std::string client_secret;  // secret: never in a URL or a log
};
using ClientCredentials = std::variant<PublicClient, ConfidentialClient>;

}  // namespace roomkey
