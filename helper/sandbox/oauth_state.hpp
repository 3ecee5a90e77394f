// oauth_state.hpp: the authorization server's records (spec 2.1-2.3, 4.2,
// 4.3, 8.3): registered clients, resource-owner login sessions, reserved
// authorization requests, authorization codes and token families with
// refresh-token rotation. Secrets are stored as SHA-256 digests only. Every
// kind of record is capped (MemoryCaps): at a cap the oldest go first.
// Not thread-safe: callers hold the sandbox's state mutex.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "roomkey/authorization.hpp"
#include "roomkey/client.hpp"
#include "roomkey/random.hpp"
#include "roomkey/registration.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/time.hpp"
#include "roomkey/token.hpp"
#include "sandbox/chat_model.hpp"
#include "sandbox/options.hpp"

namespace roomkey::sandbox {

// How long the login and consent screens keep a validated request (16000 after).
inline constexpr Seconds kReservedRequestLifetime{10 * 60};
inline constexpr Seconds kSessionLifetime{8 * 60 * 60};
// A rotated-out refresh token is remembered this long after its rotation, so
// that presenting it again revokes the grant (reuse detection); after that it
// is just unknown. Without this drop an offline grant refreshed every few
// minutes would pile up records forever.
inline constexpr Seconds kRotatedRefreshGrace{24 * 60 * 60};
// 32 random bytes (256 bits) for every token, code, secret and session id;
// spec issue: at least 128 bits.
inline constexpr std::size_t kSecretBytes = 32;
inline constexpr std::size_t kMaxClients = 1000;

// base64url of kSecretBytes random bytes.
std::string new_secret(const RandomSource& random);

struct RegisteredClient {
    ClientConfig config;     // client_id, type, redirect URIs, registered scopes
    std::string name;
    std::string secret;      // confidential clients only; shown on the management screen
    AccountId owner = 0;     // 0: registered at start-up (flag or config file)
    Instant created;
};

// Why a registration was refused: the spec's rules (every violation), or a
// sandbox limit (duplicate client_id, too many clients) in `message`.
struct RegistrationRefusal {
    std::vector<Violation> violations;
    std::string message;
};

struct LoginSession {
    AccountId account = 0;
    std::string csrf;  // compared with the forms' hidden field
    Instant expires;
};

struct ReservedAuthorization {
    ValidatedAuthorization request;
    Instant expires;
};

struct TokenFamily {
    std::uint64_t id = 0;
    std::string client_id;
    AccountId account = 0;
    ScopeSet scopes;                        // the grant; refresh may only narrow it
    Instant consented;                      // the 14-day anchor (spec 5.4.2), never moved by a refresh
    bool offline = false;                   // offline_access granted to a confidential client
    // When the current refresh token stops working: consented + 14 days, or
    // nullopt when it was issued with offline_access (spec 5.4.3). A refresh
    // narrowed to exclude offline_access issues an expiring one.
    std::optional<Instant> refresh_expires;
    bool revoked = false;
    std::string current_refresh_digest;     // the only refresh token that still works
};

// Spec 2.3: the values of a token response.
struct IssuedTokens {
    std::string access_token;
    std::string refresh_token;
    std::int64_t expires_in = 0;
    ScopeSet scopes;
};

struct AccessCheck {
    enum class Status { valid, expired, invalid } status = Status::invalid;
    AccountId account = 0;
    ScopeSet scopes;
    std::uint64_t family = 0;
};

class OAuthState {
public:
    explicit OAuthState(RandomSource random, MemoryCaps caps = {}) : random_(std::move(random)), caps_(caps) {}

    // --- clients (spec 2.1) ---
    const RegisteredClient* client(std::string_view client_id) const;
    std::vector<const RegisteredClient*> clients() const;
    // Checks the rules in shared/ (every violation); client_id empty = a new
    // random one; secret empty = a new random one for confidential clients.
    Result<const RegisteredClient*, RegistrationRefusal> register_client(
        const ClientRegistration& registration, std::string client_id, std::string secret, AccountId owner,
        Instant now);
    // Removes the client, revokes every token family issued to it and drops
    // its reserved requests and codes, so no pending consent can still send
    // the browser to one of its redirect URIs.
    bool remove_client(std::string_view client_id);
    // Whether `redirect_uri` is (still) registered for that client.
    bool redirect_registered(std::string_view client_id, std::string_view redirect_uri) const;

    // --- login sessions ---
    std::string open_session(AccountId account, Instant now);  // returns the session id (cookie value)
    const LoginSession* session(std::string_view session_id, Instant now) const;
    void close_session(std::string_view session_id);

    // --- reserved authorization requests (spec 7.1 16000) ---
    std::string reserve(const ValidatedAuthorization& request, Instant now);  // returns the reservation id
    const ReservedAuthorization* reserved(std::string_view id, Instant now) const;
    std::optional<ValidatedAuthorization> take_reserved(std::string_view id, Instant now);

    // --- authorization codes (spec 2.2, 8.3) ---
    std::string issue_code(const ValidatedAuthorization& request, AccountId account, Instant now);
    // Redeems the code of a parsed authorization_code request (the client is
    // already authenticated): every attempt consumes the code (spec 2.2); a
    // second one revokes what the first one issued (RFC 6749 4.1.2); the
    // binding (client, redirect_uri, PKCE) is checked by shared/'s check_code_grant.
    Result<IssuedTokens, TokenError> redeem_code(const TokenRequest& request, Instant now);
    // For a code request shared/ refused before redemption (a malformed
    // code_verifier, spec 7.1 20000): the code is consumed all the same when
    // it was issued to `client_id`; a code used before revokes what it issued.
    void consume_code(std::string_view code, std::string_view client_id);

    // --- refresh (spec 4.3) ---
    // Rotates: the presented token stops working; presenting it again revokes
    // the whole family. request.scope may only narrow the grant.
    Result<IssuedTokens, TokenError> refresh(const TokenRequest& request, Instant now);

    // --- resource access (spec 5.2) ---
    AccessCheck check_access_token(std::string_view token, Instant now) const;

    // Drops expired codes, reservations, sessions and access tokens, refresh
    // tokens rotated out more than kRotatedRefreshGrace ago, and grants that
    // can no longer be used. Runs at most once a minute (sandbox time).
    void sweep(Instant now);

    // --- persistence (oauth_persist.cpp; the state store keeps the JSON) ---
    // Clients, login sessions, token families and their access and refresh
    // tokens (by digest, as held). Codes and reserved requests live minutes
    // and are not kept: a sign-in under way when the sandbox stops starts over.
    nlohmann::json snapshot() const;
    void restore(const nlohmann::json& snapshot);
    // Start-up clients restored from the store are registered again from the
    // options (their settings may have changed): their records go, their
    // grants stay (a signed-in browser stays signed in).
    void forget_start_up_clients();

private:
    struct CodeRecord {
        ValidatedAuthorization request;
        AccountId account = 0;
        Instant expires;
        bool used = false;
        std::optional<std::uint64_t> family;  // set once redeemed
    };
    struct AccessRecord {
        std::uint64_t family = 0;
        ScopeSet scopes;
        Instant expires;
    };
    struct RefreshRecord {
        std::uint64_t family = 0;
        Instant issued;
        bool rotated = false;
        Instant rotated_at;
    };

    IssuedTokens issue_tokens(TokenFamily& family, const ScopeSet& scopes, Instant now);
    void revoke_family(std::uint64_t id);
    // Drops the oldest grants with every token of theirs when at the cap.
    void make_room_for_grant();

    RandomSource random_;
    MemoryCaps caps_;
    std::map<std::string, RegisteredClient, std::less<>> clients_;
    // Keyed by the SHA-256 digest of the secret value.
    std::unordered_map<std::string, LoginSession> sessions_;
    std::unordered_map<std::string, ReservedAuthorization> reserved_;
    std::unordered_map<std::string, CodeRecord> codes_;
    std::unordered_map<std::string, AccessRecord> access_;
    std::unordered_map<std::string, RefreshRecord> refresh_;
    std::map<std::uint64_t, TokenFamily> families_;
    std::uint64_t next_family_ = 1;
    Instant next_sweep_{};
};

}  // namespace roomkey::sandbox
