// oauth_persist.cpp: OAuthState to and from JSON for the state store
// (store.hpp). Digests are raw bytes, so they are written as hex.
#include <nlohmann/json.hpp>

#include "sandbox/oauth_state.hpp"
#include "sandbox/store.hpp"  // hex, unhex

namespace roomkey::sandbox {

namespace {

using nlohmann::json;

std::int64_t ms(Instant t) { return unix_ms(t); }
Instant at(const json& j) { return instant_from_unix_ms(j.is_number_integer() ? j.get<std::int64_t>() : 0); }
ScopeSet scopes(const json& j) {
    ScopeSet out;
    if (j.is_array()) {
        for (const json& s : j) {
            if (s.is_string()) out.insert(s.get<std::string>());
        }
    }
    return out;
}
template <class T>
T get(const json& j, const char* key, T fallback) {
    if (!j.is_object() || !j.contains(key)) return fallback;
    const json& v = j[key];
    if constexpr (std::is_same_v<T, std::string>) {
        return v.is_string() ? v.get<std::string>() : fallback;
    } else if constexpr (std::is_same_v<T, bool>) {
        return v.is_boolean() ? v.get<bool>() : fallback;
    } else {
        return v.is_number_integer() ? v.get<T>() : fallback;
    }
}

}  // namespace

json OAuthState::snapshot() const {
    json clients = json::array();
    for (const auto& [id, c] : clients_) {
        clients.push_back({{"client_id", c.config.client_id}, {"type", std::string(to_string(c.config.type))},
                           {"redirect_uris", c.config.redirect_uris}, {"scopes", c.config.scopes},
                           {"name", c.name}, {"secret", c.secret}, {"owner", c.owner}, {"created", ms(c.created)}});
    }
    json sessions = json::object();
    for (const auto& [d, s] : sessions_) {
        sessions[hex(d)] = {{"account", s.account}, {"csrf", s.csrf}, {"expires", ms(s.expires)}};
    }
    json access = json::object();
    for (const auto& [d, a] : access_) {
        access[hex(d)] = {{"family", a.family}, {"scopes", a.scopes}, {"expires", ms(a.expires)}};
    }
    json refresh = json::object();
    for (const auto& [d, r] : refresh_) {
        refresh[hex(d)] = {{"family", r.family}, {"issued", ms(r.issued)}, {"rotated", r.rotated},
                           {"rotated_at", ms(r.rotated_at)}};
    }
    json families = json::array();
    for (const auto& [id, f] : families_) {
        families.push_back({{"id", f.id}, {"client_id", f.client_id}, {"account", f.account}, {"scopes", f.scopes},
                            {"consented", ms(f.consented)}, {"offline", f.offline},
                            {"refresh_expires", f.refresh_expires ? json(ms(*f.refresh_expires)) : json()},
                            {"revoked", f.revoked}, {"current_refresh", hex(f.current_refresh_digest)}});
    }
    return {{"clients", clients}, {"sessions", sessions}, {"access", access}, {"refresh", refresh},
            {"families", families}, {"next_family", next_family_}};
}

void OAuthState::restore(const json& j) {
    if (!j.is_object()) return;
    // value() answers a copy: kept here, so the loops below do not walk a destroyed temporary.
    const json clients = j.value("clients", json::array()), sessions = j.value("sessions", json::object()),
               access = j.value("access", json::object()), refresh = j.value("refresh", json::object()),
               families = j.value("families", json::array());
    for (const json& c : clients) {
        RegisteredClient r;
        r.config.client_id = get<std::string>(c, "client_id", "");
        r.config.type = parse_client_type(get<std::string>(c, "type", "")).value_or(ClientType::public_client);
        const json uris = c.value("redirect_uris", json::array());
        for (const json& u : uris) {
            if (u.is_string()) r.config.redirect_uris.push_back(u.get<std::string>());
        }
        r.config.scopes = scopes(c.value("scopes", json::array()));
        r.name = get<std::string>(c, "name", "");
        r.secret = get<std::string>(c, "secret", "");
        r.owner = get<AccountId>(c, "owner", 0);
        r.created = at(c.value("created", json()));
        if (!r.config.client_id.empty()) clients_[r.config.client_id] = std::move(r);
    }
    for (const auto& item : sessions.items()) {
        const json& s = item.value();
        sessions_[unhex(item.key())] =
            LoginSession{get<AccountId>(s, "account", 0), get<std::string>(s, "csrf", ""), at(s.value("expires", json()))};
    }
    for (const auto& item : access.items()) {
        const json& a = item.value();
        access_[unhex(item.key())] = AccessRecord{get<std::uint64_t>(a, "family", 0), scopes(a.value("scopes", json())),
                                                  at(a.value("expires", json()))};
    }
    for (const auto& item : refresh.items()) {
        const json& r = item.value();
        refresh_[unhex(item.key())] = RefreshRecord{get<std::uint64_t>(r, "family", 0), at(r.value("issued", json())),
                                                    get<bool>(r, "rotated", false), at(r.value("rotated_at", json()))};
    }
    for (const json& f : families) {
        TokenFamily t;
        t.id = get<std::uint64_t>(f, "id", 0);
        t.client_id = get<std::string>(f, "client_id", "");
        t.account = get<AccountId>(f, "account", 0);
        t.scopes = scopes(f.value("scopes", json()));
        t.consented = at(f.value("consented", json()));
        t.offline = get<bool>(f, "offline", false);
        if (f.contains("refresh_expires") && f["refresh_expires"].is_number_integer()) {
            t.refresh_expires = at(f["refresh_expires"]);
        }
        t.revoked = get<bool>(f, "revoked", false);
        t.current_refresh_digest = unhex(get<std::string>(f, "current_refresh", ""));
        families_[t.id] = std::move(t);
    }
    next_family_ = std::max<std::uint64_t>(next_family_, get<std::uint64_t>(j, "next_family", 1));
}

void OAuthState::forget_start_up_clients() {
    for (auto it = clients_.begin(); it != clients_.end();) it = it->second.owner == 0 ? clients_.erase(it) : std::next(it);
}

}  // namespace roomkey::sandbox
