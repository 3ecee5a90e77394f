// registration.hpp: the OAuth client registration rules (spec 2.1, 8.3):
// client types, redirect-URI and scope rules, checked all at once so a
// registration screen can show every problem together.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roomkey {

enum class ClientType { confidential, public_client };

// "confidential" / "public" (spec 2.1 spelling).
std::string_view to_string(ClientType type);
// Exact, case-sensitive spelling; nullopt otherwise.
std::optional<ClientType> parse_client_type(std::string_view text);

// Spec 2.1 / 5.4.3: offline_access only for confidential clients.
bool offline_access_allowed(ClientType type);
// Spec 5.4.1 / 4.2: PKCE is mandatory for public clients.
bool pkce_required(ClientType type);

inline constexpr std::size_t kMinRedirectUris = 1;  // spec 8.3
inline constexpr std::size_t kMaxRedirectUris = 5;  // spec 8.3

struct ClientRegistration {
    std::string name;
    ClientType type = ClientType::public_client;
    std::vector<std::string> redirect_uris;
    std::vector<std::string> scopes;
};

enum class RegistrationViolation {
    name_missing,              // empty or only whitespace
    redirect_uri_count,        // fewer than 1 or more than 5 (spec 8.3)
    redirect_uri_malformed,    // not an absolute URI
    redirect_uri_not_https,    // confidential client, scheme other than https (spec 2.1)
    redirect_uri_http,         // public client, scheme http (spec 2.1)
    redirect_uri_fragment,     // has a #fragment (RFC 6749 3.1.2)
    redirect_uri_duplicate,    // listed twice
    scope_missing,             // no scope (spec 8.3)
    scope_unknown,             // not in the catalog (spec 5.5)
    offline_access_public,     // public client asks for offline_access (spec 2.1)
    offline_access_alone,      // offline_access gives no API access alone (spec 5.4.4)
};
std::string_view to_string(RegistrationViolation violation);
// One sentence for the person filling in the registration form.
std::string_view user_message(RegistrationViolation violation);

struct Violation {
    RegistrationViolation kind;
    std::string detail;  // the offending value (URI, scope name, count), if any
};

// Every violation, in field order (name, redirect URIs, scopes); empty = valid.
std::vector<Violation> check_registration(const ClientRegistration& registration);

// Whether one redirect URI is acceptable for the client type (the per-URI
// part of check_registration); nullopt when it is.
std::optional<RegistrationViolation> check_redirect_uri(ClientType type, std::string_view uri);

}  // namespace roomkey
