// bff_cookie_jar.cpp: sealing and opening the BFF cookies (bff_cookie_jar.hpp).
#include "helper/bff_cookie_jar.hpp"

#include "common/aes_gcm.hpp"
#include "roomkey/bff_cookie.hpp"
#include "roomkey/encoding.hpp"

namespace roomkey::helper {
namespace {

// The associated data binds a sealed value to its cookie (and a session's to
// its id prefix): a login cookie cannot be replayed as a session, nor one
// session's sealed part put behind another's id.
std::string session_aad(std::string_view id) { return "roomkey_session v1 " + std::string(id); }
constexpr std::string_view kLoginAad = "roomkey_login v1";

}  // namespace

std::string_view to_string(CookieRefusal refusal) {
    switch (refusal) {
        case CookieRefusal::absent:
            return "absent";
        case CookieRefusal::malformed:
            return "malformed";
        case CookieRefusal::unsealed:
            return "unsealed";
        case CookieRefusal::expired:
            return "expired";
        case CookieRefusal::revoked:
            return "revoked";
        case CookieRefusal::store_unreachable:
            return "store_unreachable";
    }
    return "unknown";
}

std::string describe(CookieRefusal refusal) {
    switch (refusal) {
        case CookieRefusal::absent:
            return "no session";
        case CookieRefusal::malformed:
            return "the session cookie is not one roomkey-helper wrote";
        case CookieRefusal::unsealed:
            return "the session cookie was changed, cut short, or sealed with a key this helper does not have";
        case CookieRefusal::expired:
            return "the session has expired";
        case CookieRefusal::revoked:
            return "this session was signed out: sign in again";
        case CookieRefusal::store_unreachable:
            return "the helpers' shared session store cannot be reached, so the session cannot be checked: try "
                   "again shortly";
    }
    return "no session";
}

std::optional<std::string> BffCookieJar::unseal(std::string_view aad, std::string_view sealed, bool& previous) const {
    previous = false;
    if (auto text = native::aes_gcm_open(keys_.current, aad, sealed)) return text;
    if (keys_.previous) {
        if (auto text = native::aes_gcm_open(*keys_.previous, aad, sealed)) {
            previous = true;
            return text;
        }
    }
    return std::nullopt;
}

std::string BffCookieJar::session_cookie(BffSession& session, Instant now) const {
    const Seconds max_age = bff_session_max_age(session.refresh_expires_at, now);
    session.valid_until = now + max_age;
    std::string value;
    for (;;) {
        const std::string sealed =
            native::aes_gcm_seal(keys_.current, session_aad(session.id), serialize(session), random_);
        value = format_bff_cookie_value(session.id, sealed);
        // Long scope lists could outgrow what a browser keeps: the oldest
        // refresh records go first (the code exchange's stays).
        if (value.size() <= kBffMaxCookieValueBytes || session.token_requests.size() <= 1) break;
        session.token_requests.erase(session.token_requests.begin() + 1);
    }
    return set_cookie_header(kBffSessionCookie, value, max_age, SameSite::strict);
}

std::string BffCookieJar::clear_session_cookie() const {
    return clear_cookie_header(kBffSessionCookie, SameSite::strict);
}

Result<OpenedSession, CookieRefusal> BffCookieJar::open_session(const std::optional<std::string>& cookie_header,
                                                                Instant now) const {
    if (!cookie_header) return Err{CookieRefusal::absent};
    const auto value = find_cookie(*cookie_header, kBffSessionCookie);
    if (!value || value->empty()) return Err{CookieRefusal::absent};
    auto parsed = parse_bff_cookie_value(*value);
    if (!parsed) return Err{CookieRefusal::malformed};
    OpenedSession out;
    auto text = unseal(session_aad(parsed->session_id), parsed->sealed, out.previous_key);
    if (!text) return Err{CookieRefusal::unsealed};
    auto session = parse_bff_session(*text);
    if (!session || session->id != parsed->session_id) return Err{CookieRefusal::malformed};
    out.session = std::move(*session);
    const bool refresh_expired = out.session.refresh_expires_at && *out.session.refresh_expires_at <= now;
    if (out.session.valid_until <= now || refresh_expired) return Err{CookieRefusal::expired};
    return out;
}

std::string BffCookieJar::login_cookie(const PendingAuthorization& pending) const {
    const std::string sealed = native::aes_gcm_seal(keys_.current, kLoginAad, serialize(pending), random_);
    return set_cookie_header(kBffLoginCookie, base64url_encode(sealed), kBffLoginLifetime, SameSite::lax);
}

std::string BffCookieJar::clear_login_cookie() const { return clear_cookie_header(kBffLoginCookie, SameSite::lax); }

Result<PendingAuthorization, CookieRefusal> BffCookieJar::open_login(const std::optional<std::string>& cookie_header,
                                                                     Instant now) const {
    if (!cookie_header) return Err{CookieRefusal::absent};
    const auto value = find_cookie(*cookie_header, kBffLoginCookie);
    if (!value || value->empty()) return Err{CookieRefusal::absent};
    auto sealed = base64url_decode(*value);
    if (!sealed) return Err{CookieRefusal::malformed};
    bool previous = false;
    auto text = unseal(kLoginAad, *sealed, previous);
    if (!text) return Err{CookieRefusal::unsealed};
    auto pending = parse_pending(*text);
    if (!pending) return Err{CookieRefusal::malformed};
    if (pending->created_at + kBffLoginLifetime <= now || pending->created_at > now + Seconds{60}) {
        return Err{CookieRefusal::expired};
    }
    return std::move(*pending);
}

}  // namespace roomkey::helper
