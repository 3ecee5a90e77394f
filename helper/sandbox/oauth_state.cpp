// oauth_state.cpp: clients, sessions, codes and token families (see oauth_state.hpp).
#include "sandbox/oauth_state.hpp"

#include <algorithm>
#include <unordered_set>

#include "roomkey/encoding.hpp"
#include "roomkey/sha256.hpp"

namespace roomkey::sandbox {

namespace {

// Records are keyed by the digest so that a memory dump holds no usable secret.
std::string digest(std::string_view secret) { return to_bytes(sha256(secret)); }

// Used codes and expired access tokens are kept this long after they expire,
// so a replay still revokes and an expired token is still reported as expired.
constexpr Seconds kGrace{24 * 60 * 60};

TokenError grant_error(std::string description) {
    return TokenError{std::string(token_error::invalid_grant), std::move(description)};
}

// Makes room for one more record when `map` holds `cap` already: drops the
// oldest eighth (smallest `age`, any ordered key) at once, so a flood of new
// records (every GET /consent reserves one) costs O(1) amortised instead of
// a scan per insert.
template <class Map, class Age>
void make_room(Map& map, std::size_t cap, Age age) {
    cap = std::max<std::size_t>(cap, 1);
    if (map.size() < cap) return;
    const std::size_t drop = std::min(map.size(), map.size() - cap + 1 + cap / 8);
    using Key = decltype(age(map.begin()->second));
    std::vector<std::pair<Key, typename Map::iterator>> all;
    all.reserve(map.size());
    for (auto it = map.begin(); it != map.end(); ++it) all.emplace_back(age(it->second), it);
    std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(drop - 1), all.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < drop; ++i) map.erase(all[i].second);
}

}  // namespace

std::string new_secret(const RandomSource& random) { return base64url_encode(random_bytes(random, kSecretBytes)); }

// ---------------------------------------------------------------------------
// clients
// ---------------------------------------------------------------------------
const RegisteredClient* OAuthState::client(std::string_view client_id) const {
    auto it = clients_.find(client_id);
    return it == clients_.end() ? nullptr : &it->second;
}

std::vector<const RegisteredClient*> OAuthState::clients() const {
    std::vector<const RegisteredClient*> out;
    for (const auto& [id, c] : clients_) out.push_back(&c);
    return out;
}

Result<const RegisteredClient*, RegistrationRefusal> OAuthState::register_client(
    const ClientRegistration& registration, std::string client_id, std::string secret, AccountId owner,
    Instant now) {
    std::vector<Violation> violations = check_registration(registration);
    if (!violations.empty()) return Err{RegistrationRefusal{std::move(violations), {}}};
    if (clients_.size() >= kMaxClients) {
        return Err{RegistrationRefusal{{}, "The sandbox holds too many clients already."}};
    }
    if (client_id.empty()) client_id = new_secret(random_).substr(0, 22);
    if (clients_.count(client_id) != 0) {
        return Err{RegistrationRefusal{{}, "The client ID " + client_id + " is already registered."}};
    }
    RegisteredClient c;
    c.config.client_id = client_id;
    c.config.type = registration.type;
    c.config.redirect_uris = registration.redirect_uris;
    for (const auto& s : registration.scopes) c.config.scopes.insert(s);
    c.name = registration.name;
    if (registration.type == ClientType::confidential) c.secret = secret.empty() ? new_secret(random_) : secret;
    c.owner = owner;
    c.created = now;
    auto [it, inserted] = clients_.emplace(client_id, std::move(c));
    return &it->second;
}

bool OAuthState::remove_client(std::string_view client_id) {
    auto it = clients_.find(client_id);
    if (it == clients_.end()) return false;
    for (auto& [id, family] : families_) {
        if (family.client_id == client_id) family.revoked = true;
    }
    // A consent screen still open for this client must not redirect anywhere.
    for (auto r = reserved_.begin(); r != reserved_.end();) {
        r = r->second.request.client_id == client_id ? reserved_.erase(r) : std::next(r);
    }
    for (auto c = codes_.begin(); c != codes_.end();) {
        c = c->second.request.client_id == client_id ? codes_.erase(c) : std::next(c);
    }
    clients_.erase(it);
    return true;
}

bool OAuthState::redirect_registered(std::string_view client_id, std::string_view redirect_uri) const {
    const RegisteredClient* c = client(client_id);
    if (!c) return false;
    const auto& uris = c->config.redirect_uris;
    return std::find(uris.begin(), uris.end(), redirect_uri) != uris.end();
}

// ---------------------------------------------------------------------------
// sessions and reservations
// ---------------------------------------------------------------------------
std::string OAuthState::open_session(AccountId account, Instant now) {
    sweep(now);
    make_room(sessions_, caps_.sessions, [](const LoginSession& s) { return s.expires; });
    std::string id = new_secret(random_);
    sessions_[digest(id)] = LoginSession{account, new_secret(random_), now + kSessionLifetime};
    return id;
}

const LoginSession* OAuthState::session(std::string_view session_id, Instant now) const {
    if (session_id.empty()) return nullptr;
    auto it = sessions_.find(digest(session_id));
    if (it == sessions_.end() || now >= it->second.expires) return nullptr;
    return &it->second;
}

void OAuthState::close_session(std::string_view session_id) { sessions_.erase(digest(session_id)); }

std::string OAuthState::reserve(const ValidatedAuthorization& request, Instant now) {
    sweep(now);
    make_room(reserved_, caps_.reservations, [](const ReservedAuthorization& r) { return r.expires; });
    std::string id = new_secret(random_);
    reserved_[digest(id)] = ReservedAuthorization{request, now + kReservedRequestLifetime};
    return id;
}

const ReservedAuthorization* OAuthState::reserved(std::string_view id, Instant now) const {
    if (id.empty()) return nullptr;
    auto it = reserved_.find(digest(id));
    if (it == reserved_.end() || now >= it->second.expires) return nullptr;
    return &it->second;
}

std::optional<ValidatedAuthorization> OAuthState::take_reserved(std::string_view id, Instant now) {
    auto it = reserved_.find(digest(id));
    if (it == reserved_.end()) return std::nullopt;
    ReservedAuthorization r = std::move(it->second);
    reserved_.erase(it);
    if (now >= r.expires) return std::nullopt;
    return std::move(r.request);
}

// ---------------------------------------------------------------------------
// codes and tokens
// ---------------------------------------------------------------------------
std::string OAuthState::issue_code(const ValidatedAuthorization& request, AccountId account, Instant now) {
    sweep(now);
    make_room(codes_, caps_.codes, [](const CodeRecord& c) { return c.expires; });
    std::string code = new_secret(random_);
    codes_[digest(code)] = CodeRecord{request, account, now + kAuthorizationCodeLifetime, false, std::nullopt};
    return code;
}

IssuedTokens OAuthState::issue_tokens(TokenFamily& family, const ScopeSet& scopes, Instant now) {
    IssuedTokens t;
    t.access_token = new_secret(random_);
    t.refresh_token = new_secret(random_);
    t.expires_in = kAccessTokenLifetime.count();
    t.scopes = scopes;
    make_room(access_, caps_.access_tokens, [](const AccessRecord& a) { return a.expires; });
    // Rotated-out refresh tokens go before any grant's current one.
    make_room(refresh_, caps_.refresh_tokens, [](const RefreshRecord& r) {
        return std::pair<bool, Instant>(!r.rotated, r.rotated ? r.rotated_at : r.issued);
    });
    access_[digest(t.access_token)] = AccessRecord{family.id, scopes, now + kAccessTokenLifetime};
    family.current_refresh_digest = digest(t.refresh_token);
    refresh_[family.current_refresh_digest] = RefreshRecord{family.id, now, false, {}};
    // Spec 5.4.2 / 5.4.3: only a token issued with offline_access has no
    // expiry; any other expires 14 days after the consent, however often the
    // grant was refreshed (the stricter reading of spec 2.3).
    const bool offline_token = family.offline && scopes.count(std::string(kOfflineAccessScope)) != 0;
    family.refresh_expires =
        offline_token ? std::nullopt : std::optional<Instant>(family.consented + kRefreshTokenLifetime);
    return t;
}

void OAuthState::make_room_for_grant() {
    const std::size_t cap = std::max<std::size_t>(caps_.grants, 1);
    if (families_.size() < cap) return;
    std::vector<std::pair<Instant, std::uint64_t>> all;
    all.reserve(families_.size());
    for (const auto& [id, f] : families_) all.emplace_back(f.consented, id);
    const std::size_t drop = std::min(all.size(), all.size() - cap + 1 + cap / 8);
    std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(drop - 1), all.end());
    std::unordered_set<std::uint64_t> gone;
    for (std::size_t i = 0; i < drop; ++i) {
        gone.insert(all[i].second);
        families_.erase(all[i].second);
    }
    for (auto it = access_.begin(); it != access_.end();) {
        it = gone.count(it->second.family) ? access_.erase(it) : std::next(it);
    }
    for (auto it = refresh_.begin(); it != refresh_.end();) {
        it = gone.count(it->second.family) ? refresh_.erase(it) : std::next(it);
    }
}

void OAuthState::revoke_family(std::uint64_t id) {
    auto it = families_.find(id);
    if (it != families_.end()) it->second.revoked = true;
}

Result<IssuedTokens, TokenError> OAuthState::redeem_code(const TokenRequest& request, Instant now) {
    auto it = codes_.find(digest(request.code));
    if (it == codes_.end()) return Err{grant_error("The authorization code is invalid.")};
    CodeRecord& rec = it->second;
    if (rec.used) {
        // RFC 6749 4.1.2: a code used twice revokes the tokens issued from it.
        if (rec.family) revoke_family(*rec.family);
        return Err{grant_error("The authorization code was already used; the tokens issued with it are revoked.")};
    }
    rec.used = true;  // single use (spec 2.2): consumed by every attempt from here on
    if (now >= rec.expires) return Err{grant_error("The authorization code expired.")};
    CodeGrantBinding binding;
    binding.client_id = rec.request.client_id;
    binding.redirect_uri = rec.request.redirect_uri;
    binding.redirect_uri_given = rec.request.redirect_uri_given;
    binding.code_challenge = rec.request.code_challenge;
    if (auto checked = check_code_grant(request, binding); !checked) return Err{checked.error()};

    make_room_for_grant();
    TokenFamily family;
    family.id = next_family_++;
    family.client_id = rec.request.client_id;
    family.account = rec.account;
    family.scopes = rec.request.scopes;
    family.consented = now;
    family.offline =
        family.scopes.count(std::string(kOfflineAccessScope)) != 0 && offline_access_allowed(rec.request.client_type);
    rec.family = family.id;
    auto [fit, inserted] = families_.emplace(family.id, std::move(family));
    return issue_tokens(fit->second, fit->second.scopes, now);
}

void OAuthState::consume_code(std::string_view code, std::string_view client_id) {
    auto it = codes_.find(digest(code));
    if (it == codes_.end() || it->second.request.client_id != client_id) return;
    CodeRecord& rec = it->second;
    if (rec.used && rec.family) revoke_family(*rec.family);  // as in redeem_code: a replay
    rec.used = true;
}

Result<IssuedTokens, TokenError> OAuthState::refresh(const TokenRequest& request, Instant now) {
    sweep(now);
    auto it = refresh_.find(digest(request.refresh_token));
    if (it == refresh_.end()) return Err{grant_error("The refresh token is invalid.")};
    auto fit = families_.find(it->second.family);
    if (fit == families_.end()) return Err{grant_error("The refresh token is invalid.")};
    TokenFamily& family = fit->second;
    if (family.client_id != request.client_id) {
        return Err{grant_error("The refresh token was issued to another client.")};
    }
    if (family.revoked) return Err{grant_error("The authorization has been revoked.")};
    if (it->second.rotated) {
        // A rotated refresh token came back: it leaked or the client raced
        // itself. Either way the whole family stops working.
        family.revoked = true;
        return Err{grant_error("The refresh token was already used; the authorization has been revoked.")};
    }
    if (family.refresh_expires && now >= *family.refresh_expires) {
        return Err{grant_error("The refresh token expired.")};
    }
    ScopeSet scopes = family.scopes;
    if (request.scope) {
        if (!is_subset_grant(*request.scope, family.scopes) || !gives_api_access(*request.scope)) {
            return Err{TokenError{std::string(token_error::invalid_scope),
                                  "The requested scope exceeds the scope granted."}};
        }
        scopes = *request.scope;
    }
    it->second.rotated = true;
    it->second.rotated_at = now;
    return issue_tokens(family, scopes, now);
}

AccessCheck OAuthState::check_access_token(std::string_view token, Instant now) const {
    AccessCheck out;
    auto it = access_.find(digest(token));
    if (it == access_.end()) return out;
    auto fit = families_.find(it->second.family);
    if (fit == families_.end() || fit->second.revoked) return out;
    out.account = fit->second.account;
    out.scopes = it->second.scopes;
    out.family = it->second.family;
    out.status = now >= it->second.expires ? AccessCheck::Status::expired : AccessCheck::Status::valid;
    return out;
}

void OAuthState::sweep(Instant now) {
    if (now < next_sweep_) return;
    next_sweep_ = now + Seconds(60);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
        it = now >= it->second.expires ? sessions_.erase(it) : std::next(it);
    }
    for (auto it = reserved_.begin(); it != reserved_.end();) {
        it = now >= it->second.expires ? reserved_.erase(it) : std::next(it);
    }
    for (auto it = codes_.begin(); it != codes_.end();) {
        it = now >= it->second.expires + kGrace ? codes_.erase(it) : std::next(it);
    }
    std::unordered_set<std::uint64_t> with_access;
    for (auto it = access_.begin(); it != access_.end();) {
        if (now >= it->second.expires + kGrace) {
            it = access_.erase(it);
        } else {
            with_access.insert(it->second.family);
            ++it;
        }
    }
    // Rotated-out refresh tokens are forgotten after the grace period, for
    // offline grants too (their families never expire).
    for (auto it = refresh_.begin(); it != refresh_.end();) {
        const RefreshRecord& r = it->second;
        it = (r.rotated && now >= r.rotated_at + kRotatedRefreshGrace) ? refresh_.erase(it) : std::next(it);
    }
    // A family is forgotten once it cannot refresh any more (revoked, its
    // current refresh token expired a grace period ago, so that it is still
    // reported as expired for a while, or evicted at the cap) and its last
    // access token is past the grace period.
    for (auto it = families_.begin(); it != families_.end();) {
        const TokenFamily& f = it->second;
        const bool refresh_dead = f.revoked || (f.refresh_expires && now >= *f.refresh_expires + kGrace) ||
                                  refresh_.count(f.current_refresh_digest) == 0;
        it = (refresh_dead && with_access.count(f.id) == 0) ? families_.erase(it) : std::next(it);
    }
    for (auto it = refresh_.begin(); it != refresh_.end();) {
        it = families_.count(it->second.family) == 0 ? refresh_.erase(it) : std::next(it);
    }
}

}  // namespace roomkey::sandbox
