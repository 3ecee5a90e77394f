// bff_session.hpp: what roomkey-helper's BFF mode (docs/bff.md) keeps for a
// signed-in browser and for a sign-in under way, as plain values and the
// JSON text that gets sealed into their cookies; the /bff/session answer; and
// the masked record of each token request the helper made. Pure: sealing
// (AES-256-GCM) and the clock belong to the helper.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roomkey/result.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/time.hpp"
#include "roomkey/token.hpp"

namespace roomkey {

// One token request the helper made for a session, without any secret: the
// masked lines of docs/bff.md are rendered from these fields, so no token,
// code or verifier can reach them.
struct BffTokenRequest {
    GrantType grant_type = GrantType::authorization_code;
    int status = 0;  // from the token endpoint; 0 when it did not answer
    std::int64_t ms = 0;
    std::int64_t at = 0;           // unix seconds
    std::string scope;             // granted (200), else asked for on a refresh ("" = not narrowed)
    bool scope_sent = false;       // a refresh that named a scope
    std::int64_t expires_in = 0;   // of the access token issued (200)
    std::string error;             // the service's error code, "" when none
};

// How many token requests a session keeps (the cookie must stay small): the
// code exchange that created it and the latest refreshes.
inline constexpr std::size_t kBffKeptTokenRequests = 4;

// A signed-in browser's session: what the session cookie carries, sealed.
struct BffSession {
    std::string id;  // non-secret, stable for the session's life (the cookie's prefix)
    std::string access_token;   // secret
    std::string refresh_token;  // secret
    ScopeSet scope;             // granted
    Instant access_expires_at;
    std::optional<Instant> refresh_expires_at;  // nullopt: offline_access, no expiry (spec 5.4.3)
    // Counts the token sets this session has had: a cookie with a lower
    // generation than the helper's latest is stale (a request sent before
    // the browser got the renewed cookie).
    std::uint64_t generation = 0;
    std::vector<BffTokenRequest> token_requests;  // oldest first
    // Until when the cookie this was sealed into is good (its Max-Age, set at
    // sealing): checked when it is opened, so a copy kept past its lifetime
    // is refused even though the browser would have dropped it.
    Instant valid_until;
};

// A token set the token endpoint issued becomes the session's, with `record`
// appended to its log (the first record, the code exchange, always kept); a
// refresh keeps the grant's end (keep_grant_end, session.hpp).
void adopt_token_set(BffSession& session, const TokenSet& tokens, BffTokenRequest record);
// A record appended to the session's log, keeping kBffKeptTokenRequests.
void append_token_request(BffSession& session, BffTokenRequest record);

// A sign-in under way (between /bff/login and the callback) is shared/'s
// PendingAuthorization (authorization.hpp), sealed into a short-lived cookie.
// How long a sign-in may take (the login cookie's Max-Age and the limit the
// callback checks against its created_at).
inline constexpr Seconds kBffLoginLifetime{10 * 60};

// The plaintext sealed into the session cookie (JSON with a version field)
// and back. A parse error means the cookie is not one this helper wrote.
std::string serialize(const BffSession& session);
Result<BffSession, std::string> parse_bff_session(std::string_view text);

// The /bff/session body for a signed-in session at `now` (docs/bff.md);
// `token_url` and `redirect_uri` fill the masked request lines.
std::string bff_session_body(const BffSession& session, Instant now, std::string_view token_url,
                             std::string_view redirect_uri);
// {"signed_in": false}
std::string bff_signed_out_body();

// One token request as the JSON object of docs/bff.md ("request" and
// "response" are masked lines rendered from the record's fields).
std::string bff_token_request_json(const BffTokenRequest& record, std::string_view token_url,
                                   std::string_view redirect_uri);

}  // namespace roomkey
