// authorization_request_fuzz.cpp. Property (invariants + round trip) of the
// sandbox's consent-screen check, validate_authorization_request (spec 4.2,
// 7.1; SandboxApp::consent_get calls exactly this with its registered
// clients), on any query string:
// - no crash; a client that is not registered, or a redirect URI that is not
//   registered for it, is never redirected to (no open redirector): the error
//   is shown on a page;
// - a redirected error goes to a registered URI of that client and carries
//   error, the spec 7.1 error_code it reports, and the state unchanged;
// - an accepted request names a registered client and one of its registered
//   redirect URIs (exactly), asks only for known scopes the client registered
//   and that give API access, has a valid S256 challenge when the client is
//   public, and no offline_access for a public client;
// - an accepted request, written back as a canonical query, is accepted again
//   as the same request.
// Input: the query string (form-encoded), as the browser sends it.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "roomkey/authorization.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/url.hpp"

namespace {

using namespace roomkey;

// The sandbox's kinds of client: public with one or several redirect URIs,
// confidential with offline_access.
const std::map<std::string, ClientConfig, std::less<>>& clients() {
    static const auto* all = new std::map<std::string, ClientConfig, std::less<>>{
        {"pub1",
         {"pub1",
          ClientType::public_client,
          {"https://127.0.0.1:8443/callback"},
          {"rooms.all:read_write", "users.profile.me:read"}}},
        {"pub2",
         {"pub2",
          ClientType::public_client,
          {"https://127.0.0.1:8443/callback", "http://127.0.0.1:8080/cb?x=1", "com.example.app:/redirect"},
          {"rooms.all:read", "users.all:read"}}},
        {"conf",
         {"conf",
          ClientType::confidential,
          {"https://app.example.com/callback"},
          {"rooms.all:read_write", "users.all:read", "offline_access"}}},
    };
    return *all;
}

const ClientConfig* find_client(std::string_view id) {
    const auto it = clients().find(id);
    return it == clients().end() ? nullptr : &it->second;
}

bool registered(const ClientConfig& client, const std::string& uri) {
    for (const auto& r : client.redirect_uris) {
        if (r == uri) return true;
    }
    return false;
}

bool same(const ValidatedAuthorization& x, const ValidatedAuthorization& y) {
    return x.client_id == y.client_id && x.client_type == y.client_type && x.redirect_uri == y.redirect_uri &&
           x.redirect_uri_given == y.redirect_uri_given && x.scopes == y.scopes && x.state == y.state &&
           x.code_challenge == y.code_challenge;
}

void check_rejection(const FormFields& query, const AuthorizationRejection& rejection) {
    if (rejection.description.empty()) std::abort();
    if (!rejection.redirect_to) return;
    // Redirected: only to a URI registered for the client the query names once.
    if (form_count(query, "client_id") != 1) std::abort();
    const ClientConfig* client = find_client(*form_get(query, "client_id"));
    if (!client) std::abort();
    const std::string& to = *rejection.redirect_to;
    bool under_registered = false;
    for (const auto& r : client->redirect_uris) {
        if (to.compare(0, r.size(), r) == 0 && (to.size() > r.size()) && (to[r.size()] == '?' || to[r.size()] == '&')) {
            under_registered = true;
        }
    }
    if (!under_registered) std::abort();
    auto url = parse_url(to);
    if (!url || !url->query) std::abort();
    auto params = form_decode(*url->query);
    if (!params) std::abort();
    if (form_get(*params, "error_code") != std::to_string(to_number(rejection.code))) std::abort();
    if (!form_get(*params, "error") || form_get(*params, "error")->empty()) std::abort();
    const auto state = form_get(query, "state");
    if (state && !state->empty() && form_get(*params, "state") != *state) std::abort();
}

void check_accepted(const FormFields& query, const ValidatedAuthorization& ok) {
    const ClientConfig* client = find_client(ok.client_id);
    if (!client || client->type != ok.client_type) std::abort();
    if (!registered(*client, ok.redirect_uri)) std::abort();
    if (ok.redirect_uri_given != (form_count(query, "redirect_uri") == 1)) std::abort();
    if (ok.scopes.empty() || !gives_api_access(ok.scopes)) std::abort();
    for (const auto& s : ok.scopes) {
        if (!is_known_scope(s) || !grants(client->scopes, s)) std::abort();
    }
    if (client->type == ClientType::public_client) {
        if (ok.scopes.count(std::string(kOfflineAccessScope)) != 0) std::abort();
        if (!ok.code_challenge) std::abort();
    }
    if (ok.code_challenge && !validate_code_challenge(*ok.code_challenge)) std::abort();
    const auto state = form_get(query, "state");
    if (ok.state != ((state && !state->empty()) ? state : std::nullopt)) std::abort();

    // Canonical query -> the same request.
    FormFields canonical{
        {"response_type", "code"}, {"client_id", ok.client_id}, {"scope", format_scope_list(ok.scopes)}};
    if (ok.redirect_uri_given) canonical.emplace_back("redirect_uri", ok.redirect_uri);
    if (ok.state) canonical.emplace_back("state", *ok.state);
    if (ok.code_challenge) {
        canonical.emplace_back("code_challenge", *ok.code_challenge);
        canonical.emplace_back("code_challenge_method", std::string(kPkceMethodS256));
    }
    auto decoded = form_decode(form_encode(canonical));
    if (!decoded) std::abort();
    auto again = validate_authorization_request(*decoded, find_client);
    if (!again || !same(*again, ok)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    auto query = form_decode(input);
    if (!query) return 0;
    auto result = validate_authorization_request(*query, find_client);
    if (result) {
        check_accepted(*query, *result);
    } else {
        check_rejection(*query, result.error());
    }
    return 0;
}
