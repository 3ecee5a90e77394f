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

// The headers the helper's BFF answers carry and the page reads (docs/bff.md).
// An answer during which the helper made a token request: its masked record
// (bff_token_request_json), one line of JSON.
inline constexpr std::string_view kBffTokenRequestHeader = "X-Roomkey-Token-Request";
// "none" on a 401 that means the page has no session (sign in again).
inline constexpr std::string_view kBffSessionHeader = "X-Roomkey-Session";
inline constexpr std::string_view kBffNoSession = "none";
// A sign-in the helper's callback could not finish sends the page to
// bff_error_address() (launch_url.hpp, beside its reader).

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

// ---------------------------------------------------------------------------
// What the helper tells the page (docs/bff.md): the helper writes these with
// to_json and the page reads them with the read_* functions below.
// ---------------------------------------------------------------------------

// One token request the helper made, as it reports it to the page (in the
// X-Roomkey-Token-Request header and in /bff/session): the record itself
// plus the two masked lines rendered from it, so no token, code, verifier or
// secret can reach them. The wire names the record's fields as they are
// ("grant_type", "status", "ms", "at", "scope", "error"); `scope_sent` and
// `expires_in` are told only inside the lines, and read back as their
// defaults.
struct BffTokenRequestReport : BffTokenRequest {
    std::string request;   // one masked line: "POST https://host/token grant_type=... (Basic ...)"
    std::string response;  // a masked one-line summary
};
// Two reports of the same request (the header, then /bff/session) are one:
// the fields both carry on the wire are equal.
bool same_request(const BffTokenRequest& a, const BffTokenRequest& b);
// The report of `record`; `token_url` and `redirect_uri` fill its masked
// request line.
BffTokenRequestReport report_of(const BffTokenRequest& record, std::string_view token_url,
                                std::string_view redirect_uri);

// GET /bff/session's answer.
struct BffSessionInfo {
    bool signed_in = false;
    ScopeSet scope;
    std::int64_t expires_in = 0;                         // seconds left on the access token
    std::optional<std::int64_t> refresh_expires_in;      // nullopt: unknown (offline_access)
    std::vector<BffTokenRequestReport> token_requests;  // oldest first
};
// A signed-in session's answer at `now`.
BffSessionInfo session_info(const BffSession& session, Instant now, std::string_view token_url,
                            std::string_view redirect_uri);

// The JSON texts (one line each); a signed-out answer is {"signed_in":false}.
std::string to_json(const BffTokenRequestReport& report);
std::string to_json(const BffSessionInfo& info);
// The page's readers. Unknown members are ignored, null ones read as absent.
// The error text says what was wrong, for the user.
Result<BffSessionInfo, std::string> read_bff_session(std::string_view json_text);
Result<BffTokenRequestReport, std::string> read_helper_token_request(std::string_view json_text);

// The /bff/session body for a signed-in session at `now` (docs/bff.md):
// to_json(session_info(...)).
std::string bff_session_body(const BffSession& session, Instant now, std::string_view token_url,
                             std::string_view redirect_uri);
// {"signed_in": false}
std::string bff_signed_out_body();
// One token request as the JSON object of docs/bff.md: to_json(report_of(...)).
std::string bff_token_request_json(const BffTokenRequest& record, std::string_view token_url,
                                   std::string_view redirect_uri);

}  // namespace roomkey
