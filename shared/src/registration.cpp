// registration.cpp: the client registration rules (spec 2.1, 5.4, 8.3).
#include "roomkey/registration.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "roomkey/http.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

std::string_view to_string(ClientType type) {
    return type == ClientType::confidential ? "confidential" : "public";
}

std::optional<ClientType> parse_client_type(std::string_view text) {
    if (text == "confidential") return ClientType::confidential;
    if (text == "public") return ClientType::public_client;
    return std::nullopt;
}

bool offline_access_allowed(ClientType type) {
    return type == ClientType::confidential;
}

bool pkce_required(ClientType type) {
    return type == ClientType::public_client;
}

std::string_view to_string(RegistrationViolation violation) {
    switch (violation) {
        case RegistrationViolation::name_missing:
            return "name_missing";
        case RegistrationViolation::redirect_uri_count:
            return "redirect_uri_count";
        case RegistrationViolation::redirect_uri_malformed:
            return "redirect_uri_malformed";
        case RegistrationViolation::redirect_uri_not_https:
            return "redirect_uri_not_https";
        case RegistrationViolation::redirect_uri_http:
            return "redirect_uri_http";
        case RegistrationViolation::redirect_uri_fragment:
            return "redirect_uri_fragment";
        case RegistrationViolation::redirect_uri_duplicate:
            return "redirect_uri_duplicate";
        case RegistrationViolation::scope_missing:
            return "scope_missing";
        case RegistrationViolation::scope_unknown:
            return "scope_unknown";
        case RegistrationViolation::offline_access_public:
            return "offline_access_public";
        case RegistrationViolation::offline_access_alone:
            return "offline_access_alone";
    }
    return "unknown";
}

std::string_view user_message(RegistrationViolation violation) {
    switch (violation) {
        case RegistrationViolation::name_missing:
            return "Enter a client name.";
        case RegistrationViolation::redirect_uri_count:
            return "Register between 1 and 5 redirect URIs.";
        case RegistrationViolation::redirect_uri_malformed:
            return "A redirect URI is not an absolute URI (scheme:...).";
        case RegistrationViolation::redirect_uri_not_https:
            return "A confidential client's redirect URIs must start with https://.";
        case RegistrationViolation::redirect_uri_http:
            return "A public client's redirect URIs must not use http://; use https:// or an app's own scheme.";
        case RegistrationViolation::redirect_uri_fragment:
            return "A redirect URI must not contain a #fragment.";
        case RegistrationViolation::redirect_uri_duplicate:
            return "A redirect URI is listed twice.";
        case RegistrationViolation::scope_missing:
            return "Select at least one scope.";
        case RegistrationViolation::scope_unknown:
            return "A scope is not in the scope list.";
        case RegistrationViolation::offline_access_public:
            return "offline_access can be registered only by a confidential client.";
        case RegistrationViolation::offline_access_alone:
            return "offline_access alone gives no API access; add the scopes the client needs.";
    }
    return "The registration is invalid.";
}

namespace {

std::vector<RegistrationViolation> redirect_uri_violations(ClientType type, std::string_view uri) {
    auto url = parse_url(uri);
    if (!url) return {RegistrationViolation::redirect_uri_malformed};
    std::vector<RegistrationViolation> found;
    if (type == ClientType::confidential) {
        if (!iequals(url->scheme, "https")) found.push_back(RegistrationViolation::redirect_uri_not_https);
    } else if (iequals(url->scheme, "http")) {
        found.push_back(RegistrationViolation::redirect_uri_http);
    }
    if (url->fragment) found.push_back(RegistrationViolation::redirect_uri_fragment);
    return found;
}

bool is_blank(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

}  // namespace

std::optional<RegistrationViolation> check_redirect_uri(ClientType type, std::string_view uri) {
    auto found = redirect_uri_violations(type, uri);
    if (found.empty()) return std::nullopt;
    return found.front();
}

std::vector<Violation> check_registration(const ClientRegistration& registration) {
    std::vector<Violation> out;
    if (is_blank(registration.name)) out.push_back({RegistrationViolation::name_missing, {}});

    const auto& uris = registration.redirect_uris;
    if (uris.size() < kMinRedirectUris || uris.size() > kMaxRedirectUris) {
        out.push_back({RegistrationViolation::redirect_uri_count, std::to_string(uris.size())});
    }
    // A set, not a scan of the URIs before each one: a form may carry
    // thousands of them, and the check must stay linear (fuzzing found the
    // quadratic scan).
    std::unordered_set<std::string_view> seen;
    for (const std::string& uri : uris) {
        for (auto kind : redirect_uri_violations(registration.type, uri)) out.push_back({kind, uri});
        if (!seen.insert(uri).second) out.push_back({RegistrationViolation::redirect_uri_duplicate, uri});
    }

    const auto& scopes = registration.scopes;
    if (scopes.empty()) out.push_back({RegistrationViolation::scope_missing, {}});
    bool has_offline_access = false;
    bool only_offline_access = !scopes.empty();
    for (const auto& scope : scopes) {
        if (!is_known_scope(scope)) out.push_back({RegistrationViolation::scope_unknown, scope});
        if (scope == kOfflineAccessScope) {
            has_offline_access = true;
        } else {
            only_offline_access = false;
        }
    }
    if (has_offline_access && !offline_access_allowed(registration.type)) {
        out.push_back({RegistrationViolation::offline_access_public, std::string(kOfflineAccessScope)});
    }
    if (only_offline_access) out.push_back({RegistrationViolation::offline_access_alone, {}});
    return out;
}

}  // namespace roomkey
