// registration_fuzz.cpp. Property (invariants + round trip) of the client
// registration form, from the POST /clients body to a registered client:
// form_decode -> sandbox read_client_form -> shared check_registration ->
// OAuthState::register_client.
// - no crash on any body;
// - check_registration finds nothing exactly when the registration keeps
//   every rule of spec 2.1 / 8.3, re-checked here independently: a non-blank
//   name, 1 to 5 distinct absolute redirect URIs without a fragment (https
//   only for a confidential client, never http for a public one, as
//   check_redirect_uri says for each), at least one scope, all known,
//   offline_access only for a confidential client and never alone;
// - register_client accepts exactly what check_registration accepts, and
//   stores the same URIs, scopes, name and type;
// - the form as the sandbox shows it again (name, type, URIs one per line,
//   one scope field each) reads back to the same registration.
// Input: the form-encoded body.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "roomkey/registration.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/url.hpp"
#include "sandbox/client_form.hpp"
#include "sandbox/oauth_state.hpp"

namespace {

using namespace roomkey;

bool blank(const std::string& s) {
    return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

// The rules, said again from the spec's side.
bool keeps_rules(const ClientRegistration& r) {
    if (blank(r.name)) return false;
    if (r.redirect_uris.size() < kMinRedirectUris || r.redirect_uris.size() > kMaxRedirectUris) return false;
    std::set<std::string> seen;
    for (const auto& uri : r.redirect_uris) {
        if (!seen.insert(uri).second) return false;
        if (check_redirect_uri(r.type, uri)) return false;
    }
    if (r.scopes.empty()) return false;
    bool offline = false, other = false;
    for (const auto& s : r.scopes) {
        if (!is_known_scope(s)) return false;
        (s == kOfflineAccessScope ? offline : other) = true;
    }
    if (offline && (r.type != ClientType::confidential || !other)) return false;
    return true;
}

void check_uri_rule(ClientType type, const std::string& uri) {
    const auto problem = check_redirect_uri(type, uri);
    if (problem) {
        if (user_message(*problem).empty() || to_string(*problem).empty()) std::abort();
        return;
    }
    // Accepted: absolute, no fragment, https for confidential, not http for public.
    auto url = parse_url(uri);
    if (!url || url->scheme.empty() || url->fragment) std::abort();
    if (type == ClientType::confidential && url->scheme != "https") std::abort();
    if (type == ClientType::public_client && url->scheme == "http") std::abort();
}

FormFields as_shown_again(const ClientRegistration& r) {
    std::string uris;
    for (const auto& u : r.redirect_uris) uris += u + "\n";
    FormFields form{{"csrf", "x"}, {"name", r.name}, {"type", std::string(to_string(r.type))}, {"redirect_uris", uris}};
    for (const auto& s : r.scopes) form.emplace_back("scope", s);
    return form;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    auto form = form_decode(input);
    if (!form) return 0;
    const sandbox::ClientForm read = sandbox::read_client_form(*form);
    const ClientRegistration& reg = read.registration;
    for (const auto& uri : reg.redirect_uris) {
        if (uri.empty() || uri.find('\n') != std::string::npos) std::abort();
        check_uri_rule(reg.type, uri);
        check_uri_rule(reg.type == ClientType::public_client ? ClientType::confidential : ClientType::public_client,
                       uri);
    }
    for (const auto& s : reg.scopes) {
        if (s.empty()) std::abort();
    }

    // Round trip through the form as the sandbox renders it.
    if (read.problems.empty()) {
        auto again = form_decode(form_encode(as_shown_again(reg)));
        if (!again) std::abort();
        const sandbox::ClientForm back = sandbox::read_client_form(*again);
        if (!back.problems.empty() || back.registration.name != reg.name || back.registration.type != reg.type ||
            back.registration.redirect_uris != reg.redirect_uris || back.registration.scopes != reg.scopes) {
            std::abort();
        }
    }

    const auto violations = check_registration(reg);
    if (violations.empty() != keeps_rules(reg)) std::abort();
    for (const auto& v : violations) {
        if (user_message(v.kind).empty()) std::abort();
    }

    sandbox::OAuthState state([](unsigned char* out, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>(i * 7 + 1);
    });
    auto registered = state.register_client(reg, "client-1", "", 0, instant_from_unix_seconds(1'700'000'000));
    if (registered.ok() != violations.empty()) std::abort();
    if (registered) {
        const sandbox::RegisteredClient& c = **registered;
        if (c.config.redirect_uris != reg.redirect_uris || c.config.type != reg.type || c.name != reg.name)
            std::abort();
        if (c.config.scopes != ScopeSet(reg.scopes.begin(), reg.scopes.end())) std::abort();
        if ((reg.type == ClientType::confidential) == c.secret.empty()) std::abort();
        for (const auto& uri : reg.redirect_uris) {
            if (!state.redirect_registered("client-1", uri)) std::abort();
        }
    } else if (registered.error().violations.size() != violations.size()) {
        std::abort();
    }
    return 0;
}
