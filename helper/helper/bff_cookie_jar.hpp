// bff_cookie_jar.hpp: the one place where roomkey-helper's BFF cookies are
// sealed and opened (AES-256-GCM, common/aes_gcm.hpp, with the keys of
// bff_keys.hpp): the session cookie (a BffSession) and the login cookie (the
// PendingAuthorization of a sign-in under way). Handlers ask it for values
// and Set-Cookie lines and never touch cookie bytes themselves.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "helper/bff_keys.hpp"
#include "roomkey/authorization.hpp"
#include "roomkey/bff_session.hpp"
#include "roomkey/random.hpp"
#include "roomkey/result.hpp"
#include "roomkey/time.hpp"

namespace roomkey::helper {

// Why a cookie was not accepted; the words go into the 401 the page sees.
enum class CookieRefusal {
    absent,     // no such cookie
    malformed,  // not "<id>.<base64url>", or the sealed text is not ours
    unsealed,   // not opened: changed, truncated, or sealed with an unknown key
    expired,    // past its sealed lifetime (or the refresh token's)
    revoked,    // signed out, here or by another helper sharing the key (bff_revocations.hpp)
    store_unreachable,  // the shared store of signed-out sessions (Redis) cannot be asked: not known
};
std::string_view to_string(CookieRefusal refusal);
// "no session", "the session cookie was changed or sealed with another key", ...
std::string describe(CookieRefusal refusal);

struct OpenedSession {
    BffSession session;
    bool previous_key = false;  // opened with bff-key.previous: re-seal it with the current key
};

class BffCookieJar {
public:
    BffCookieJar(BffKeys keys, RandomSource random) : keys_(std::move(keys)), random_(std::move(random)) {}

    // Seals `session` (setting its valid_until) into a Set-Cookie value:
    // __Host-roomkey_session, Max-Age capped at the refresh token's lifetime.
    std::string session_cookie(BffSession& session, Instant now) const;
    std::string clear_session_cookie() const;
    // From the request's Cookie header (absent when it has none).
    Result<OpenedSession, CookieRefusal> open_session(const std::optional<std::string>& cookie_header,
                                                      Instant now) const;

    // The login cookie: SameSite=Lax (the callback is a cross-site
    // navigation from the consent screen), kBffLoginLifetime.
    std::string login_cookie(const PendingAuthorization& pending) const;
    std::string clear_login_cookie() const;
    Result<PendingAuthorization, CookieRefusal> open_login(const std::optional<std::string>& cookie_header,
                                                           Instant now) const;

private:
    std::optional<std::string> unseal(std::string_view aad, std::string_view sealed, bool& previous) const;

    BffKeys keys_;
    RandomSource random_;
};

}  // namespace roomkey::helper
