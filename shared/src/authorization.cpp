// authorization.cpp: the authorization request (spec 4.2, 7.1) for both sides.
//
// [SECTION] Shared rules (scopes, PKCE, redirect URI format)
// [SECTION] Client side: state, consent URL, pending record
// [SECTION] Sandbox side: request validation and redirects
#include "roomkey/authorization.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "roomkey/encoding.hpp"
#include "roomkey/json_text.hpp"

namespace roomkey {

using Kind = AuthorizationRequestErrorKind;
using Code = AuthorizationErrorCode;

std::string_view to_string(AuthorizationRequestErrorKind kind) {
    switch (kind) {
        case Kind::consent_url_invalid: return "authorization_request.consent_url_invalid";
        case Kind::client_id_missing: return "authorization_request.client_id_missing";
        case Kind::no_registered_redirect_uri: return "authorization_request.no_registered_redirect_uri";
        case Kind::redirect_uri_missing: return "authorization_request.redirect_uri_missing";
        case Kind::redirect_uri_malformed: return "authorization_request.redirect_uri_malformed";
        case Kind::redirect_uri_unregistered: return "authorization_request.redirect_uri_unregistered";
        case Kind::scope_missing: return "authorization_request.scope_missing";
        case Kind::scope_unknown: return "authorization_request.scope_unknown";
        case Kind::scope_unregistered: return "authorization_request.scope_unregistered";
        case Kind::offline_access_public_client: return "authorization_request.offline_access_public_client";
        case Kind::offline_access_alone: return "authorization_request.offline_access_alone";
        case Kind::state_missing: return "authorization_request.state_missing";
        case Kind::pkce_required: return "authorization_request.pkce_required";
        case Kind::code_challenge_malformed: return "authorization_request.code_challenge_malformed";
        case Kind::code_verifier_malformed: return "authorization_request.code_verifier_malformed";
    }
    return "authorization_request.unknown";
}

std::string_view to_string(PendingError error) {
    switch (error) {
        case PendingError::not_json: return "pending.not_json";
        case PendingError::not_object: return "pending.not_object";
        case PendingError::version_unsupported: return "pending.version_unsupported";
        case PendingError::field_missing: return "pending.field_missing";
        case PendingError::field_wrong_type: return "pending.field_wrong_type";
        case PendingError::scope_invalid: return "pending.scope_invalid";
    }
    return "pending.unknown";
}

// ===========================================================================
// [SECTION] Shared rules
// ===========================================================================
namespace {

struct Problem {
    Kind kind;
    Code code;
    std::string message;
};

// Scope rules beyond "given" and "known" (spec 2.1, 5.4.3, 5.4.4, 7.1 5003).
// `registered` may be empty: the caller does not know the registration.
std::optional<Problem> check_scope_rules(ClientType type, const ScopeSet& requested,
                                         const ScopeRegisteredCheck& registered) {
    if (requested.count(std::string(kOfflineAccessScope)) != 0 && !offline_access_allowed(type)) {
        return Problem{Kind::offline_access_public_client, Code::scope_unregistered,
                       describe(Code::scope_unregistered) + " offline_access is for confidential clients only."};
    }
    if (!gives_api_access(requested)) {
        return Problem{Kind::offline_access_alone, Code::scope_missing,
                       describe(Code::scope_missing) + " offline_access must be combined with other scopes."};
    }
    if (registered) {
        for (const auto& scope : requested) {
            if (!registered(scope)) {
                return Problem{Kind::scope_unregistered, Code::scope_unregistered,
                               describe(Code::scope_unregistered) + " (" + scope + ")"};
            }
        }
    }
    return std::nullopt;
}

// RFC 6749 3.1.2: an absolute URI without fragment.
bool redirect_uri_well_formed(std::string_view uri) {
    auto url = parse_url(uri);
    return url.ok() && !url->scheme.empty() && !url->fragment.has_value();
}

bool is_registered(const ClientConfig& client, std::string_view uri) {
    // RFC 6749 3.1.2.3: simple string comparison, no normalisation.
    return std::find(client.redirect_uris.begin(), client.redirect_uris.end(), uri) != client.redirect_uris.end();
}

std::string dump_json(const nlohmann::json& j) {
    // `replace`: invalid UTF-8 must not reach dump()'s throwing path (JSON_NOEXCEPTION aborts).
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

// ===========================================================================
// [SECTION] Client side
// ===========================================================================

std::string make_state(const RandomSource& random) {
    return base64url_encode(random_bytes(random, kStateRandomBytes));
}

Result<std::string, AuthorizationRequestError> build_authorization_url(std::string_view consent_url,
                                                                       const ClientConfig& client,
                                                                       const AuthorizationRequest& request) {
    using E = AuthorizationRequestError;
    auto consent = parse_url(consent_url);
    if (!consent.ok() || consent->scheme != "https" || consent->host.empty() || consent->fragment) {
        return Err{E{Kind::consent_url_invalid, std::nullopt, "the consent URL must be an absolute https URL"}};
    }
    if (client.client_id.empty()) {
        return Err{E{Kind::client_id_missing, Code::client_id_missing, describe(Code::client_id_missing)}};
    }

    // Spec 4.2: redirect_uri must be registered; required with several registered.
    if (client.redirect_uris.empty()) {
        return Err{E{Kind::no_registered_redirect_uri, std::nullopt, "the client has no registered redirect URI"}};
    }
    if (!request.redirect_uri.empty()) {
        if (!redirect_uri_well_formed(request.redirect_uri)) {
            return Err{E{Kind::redirect_uri_malformed, Code::redirect_uri_malformed,
                         describe(Code::redirect_uri_malformed)}};
        }
        if (!is_registered(client, request.redirect_uri)) {
            return Err{E{Kind::redirect_uri_unregistered, Code::redirect_uri_unregistered,
                         describe(Code::redirect_uri_unregistered)}};
        }
    } else if (client.redirect_uris.size() > 1) {
        return Err{E{Kind::redirect_uri_missing, Code::redirect_uri_missing,
                     describe(Code::redirect_uri_missing) + " Several redirect URIs are registered; choose one."}};
    }

    // Spec 4.2 / 5.5 / 7.1: scopes.
    if (request.scopes.empty()) {
        return Err{E{Kind::scope_missing, Code::scope_missing, describe(Code::scope_missing)}};
    }
    for (const auto& scope : request.scopes) {
        if (!is_known_scope(scope)) {
            return Err{E{Kind::scope_unknown, Code::scope_unknown, describe(Code::scope_unknown) + " (" + scope + ")"}};
        }
    }
    ScopeRegisteredCheck registered;
    if (!client.scopes.empty()) {
        registered = [&client](std::string_view scope) { return grants(client.scopes, scope); };
    }
    if (auto problem = check_scope_rules(client.type, request.scopes, registered)) {
        return Err{E{problem->kind, problem->code, std::move(problem->message)}};
    }

    if (request.state.empty()) {
        return Err{E{Kind::state_missing, std::nullopt, "a state value is required (make_state)"}};
    }

    // Spec 4.2 / 5.4.1: PKCE, mandatory for public clients.
    if (!request.pkce && pkce_required(client.type)) {
        return Err{E{Kind::pkce_required, Code::code_challenge_malformed,
                     "a public client must send code_challenge (PKCE, spec 5.4.1)"}};
    }
    if (request.pkce) {
        if (!validate_code_challenge(request.pkce->challenge)) {
            return Err{E{Kind::code_challenge_malformed, Code::code_challenge_malformed,
                         describe(Code::code_challenge_malformed)}};
        }
        if (!validate_code_verifier(request.pkce->verifier)) {
            return Err{E{Kind::code_verifier_malformed, Code::code_verifier_malformed,
                         describe(Code::code_verifier_malformed)}};
        }
    }

    FormFields fields{{"response_type", "code"}, {"client_id", client.client_id}};
    if (!request.redirect_uri.empty()) fields.emplace_back("redirect_uri", request.redirect_uri);
    fields.emplace_back("scope", format_scope_list(request.scopes));
    fields.emplace_back("state", request.state);
    if (request.pkce) {
        fields.emplace_back("code_challenge", request.pkce->challenge);
        fields.emplace_back("code_challenge_method", std::string(kPkceMethodS256));
    }
    return append_query(consent_url, fields);
}

PendingAuthorization make_pending(const ClientConfig& client, const AuthorizationRequest& request, Instant now) {
    PendingAuthorization pending;
    pending.state = request.state;
    pending.code_verifier = request.pkce ? request.pkce->verifier : std::string();
    pending.redirect_uri_sent = request.redirect_uri;
    pending.client_id = client.client_id;
    pending.scopes = request.scopes;
    pending.created_at = now;
    return pending;
}

std::string serialize(const PendingAuthorization& pending) {
    nlohmann::json j = nlohmann::json::object();
    j["v"] = 1;
    j["state"] = pending.state;
    j["code_verifier"] = pending.code_verifier;
    j["redirect_uri"] = pending.redirect_uri_sent;
    j["client_id"] = pending.client_id;
    j["scope"] = format_scope_list(pending.scopes);
    j["created_at_ms"] = unix_ms(pending.created_at);
    return dump_json(j);
}

Result<PendingAuthorization, PendingError> parse_pending(std::string_view text) {
    const auto j = parse_json_text(text);
    if (j.is_discarded()) return Err{PendingError::not_json};
    if (!j.is_object()) return Err{PendingError::not_object};
    const auto version = j.find("v");
    if (version == j.end() || !version->is_number_integer() || version->get<std::int64_t>() != 1) {
        return Err{PendingError::version_unsupported};
    }

    PendingAuthorization pending;
    const std::pair<const char*, std::string*> strings[] = {
        {"state", &pending.state},         {"code_verifier", &pending.code_verifier},
        {"redirect_uri", &pending.redirect_uri_sent}, {"client_id", &pending.client_id},
    };
    for (const auto& [name, out] : strings) {
        const auto it = j.find(name);
        if (it == j.end()) return Err{PendingError::field_missing};
        if (!it->is_string()) return Err{PendingError::field_wrong_type};
        *out = it->get<std::string>();
    }

    const auto scope = j.find("scope");
    if (scope == j.end()) return Err{PendingError::field_missing};
    if (!scope->is_string()) return Err{PendingError::field_wrong_type};
    const auto& scope_text = scope->get_ref<const std::string&>();
    if (!scope_text.empty()) {
        auto scopes = parse_scope_list(scope_text);
        if (!scopes) return Err{PendingError::scope_invalid};
        pending.scopes = std::move(scopes).value();
    }

    const auto created = j.find("created_at_ms");
    if (created == j.end()) return Err{PendingError::field_missing};
    if (!created->is_number_integer()) return Err{PendingError::field_wrong_type};
    if (created->is_number_unsigned() && created->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return Err{PendingError::field_wrong_type};
    }
    pending.created_at = instant_from_unix_ms(created->get<std::int64_t>());
    return pending;
}

// ===========================================================================
// [SECTION] Sandbox side
// ===========================================================================
namespace {

// A query parameter as RFC 6749 3.1 reads it: sent without a value counts as
// omitted; sent twice is an error.
struct Param {
    enum State { absent, present, repeated } state = absent;
    std::string value;
};

Param read_param(const FormFields& query, std::string_view name) {
    const std::size_t count = form_count(query, name);
    if (count > 1) return {Param::repeated, {}};
    auto value = form_get(query, name);
    if (!value || value->empty()) return {};
    return {Param::present, std::move(*value)};
}

FormFields error_params(AuthorizationErrorCode code, const std::string& description,
                        const std::optional<std::string>& state) {
    FormFields params{{"error", std::string(info(code).oauth_error)},
                      {"error_code", std::to_string(to_number(code))},
                      {"error_description", description}};
    if (state) params.emplace_back("state", *state);
    return params;
}

AuthorizationRejection on_page(Code code, std::string description) {
    return AuthorizationRejection{code, std::move(description), std::nullopt};
}

}  // namespace

Result<ValidatedAuthorization, AuthorizationRejection> validate_authorization_request(
    const FormFields& query, const ClientLookup& find_client) {
    // The predicate needs the client, which only the validator finds: defer to
    // the three-argument form with an empty check and test the client's scopes there.
    return validate_authorization_request(query, find_client, ScopeRegisteredCheck{});
}

Result<ValidatedAuthorization, AuthorizationRejection> validate_authorization_request(
    const FormFields& query, const ClientLookup& find_client, const ScopeRegisteredCheck& scope_registered) {
    // 1. The client (11000, 12000): shown on a page.
    const Param client_id = read_param(query, "client_id");
    if (client_id.state == Param::absent) return Err{on_page(Code::client_id_missing, describe(Code::client_id_missing))};
    if (client_id.state == Param::repeated) {
        return Err{on_page(Code::client_id_unknown, "`client_id` is given more than once.")};
    }
    const ClientConfig* client = find_client ? find_client(client_id.value) : nullptr;
    if (client == nullptr) return Err{on_page(Code::client_id_unknown, describe(Code::client_id_unknown, client_id.value))};

    // 2. The redirect URI (14000, 15000, 13000): shown on a page, since
    //    redirecting to an unverified URI would make the server an open redirector.
    ValidatedAuthorization out;
    out.client_id = client_id.value;
    out.client_type = client->type;
    const Param redirect_uri = read_param(query, "redirect_uri");
    if (redirect_uri.state == Param::repeated) {
        return Err{on_page(Code::redirect_uri_malformed, describe(Code::redirect_uri_malformed))};
    }
    if (redirect_uri.state == Param::present) {
        if (!redirect_uri_well_formed(redirect_uri.value)) {
            return Err{on_page(Code::redirect_uri_malformed, describe(Code::redirect_uri_malformed))};
        }
        if (!is_registered(*client, redirect_uri.value)) {
            return Err{on_page(Code::redirect_uri_unregistered, describe(Code::redirect_uri_unregistered))};
        }
        out.redirect_uri = redirect_uri.value;
        out.redirect_uri_given = true;
    } else if (client->redirect_uris.size() == 1) {
        out.redirect_uri = client->redirect_uris.front();
    } else {
        return Err{on_page(Code::redirect_uri_missing, describe(Code::redirect_uri_missing))};
    }

    // From here on the outcome goes back to the verified redirect URI.
    const auto state = form_get(query, "state");
    if (state && !state->empty()) out.state = *state;
    auto reject = [&out](Code code, std::string description) {
        std::string location = build_redirect(out.redirect_uri, error_params(code, description, out.state));
        return AuthorizationRejection{code, std::move(description), std::move(location)};
    };

    // 3. response_type (1001, 4001, 4002).
    const Param response_type = read_param(query, "response_type");
    if (response_type.state == Param::absent) return Err{reject(Code::response_type_missing, describe(Code::response_type_missing))};
    if (response_type.state == Param::repeated) {
        return Err{reject(Code::response_type_unknown, "`response_type` is given more than once.")};
    }
    if (response_type.value == "token") {
        return Err{reject(Code::token_response_type_unsupported, describe(Code::token_response_type_unsupported))};
    }
    if (response_type.value != "code") {
        return Err{reject(Code::response_type_unknown, describe(Code::response_type_unknown, response_type.value))};
    }

    // 4. scope (5001, 5002, 5003 and the offline_access rules).
    const Param scope = read_param(query, "scope");
    if (scope.state == Param::absent) return Err{reject(Code::scope_missing, describe(Code::scope_missing))};
    if (scope.state == Param::repeated) return Err{reject(Code::scope_unknown, "`scope` is given more than once.")};
    auto scopes = parse_scope_list(scope.value);
    if (!scopes) {
        const Code code = to_authorization_error(scopes.error().kind);
        return Err{reject(code, describe(code))};
    }
    ScopeRegisteredCheck registered = scope_registered;
    if (!registered) registered = [client](std::string_view name) { return grants(client->scopes, name); };
    if (auto problem = check_scope_rules(client->type, *scopes, registered)) {
        return Err{reject(problem->code, std::move(problem->message))};
    }
    out.scopes = std::move(scopes).value();

    // 5. PKCE (18000, 19000): S256 only; mandatory for public clients (spec 5.4.1).
    const Param method = read_param(query, "code_challenge_method");
    const Param challenge = read_param(query, "code_challenge");
    if (method.state == Param::repeated || (method.state == Param::present && method.value != kPkceMethodS256)) {
        return Err{reject(Code::code_challenge_method_unsupported, describe(Code::code_challenge_method_unsupported))};
    }
    if (challenge.state == Param::repeated) {
        return Err{reject(Code::code_challenge_malformed, describe(Code::code_challenge_malformed))};
    }
    if (challenge.state == Param::present) {
        if (!validate_code_challenge(challenge.value)) {
            return Err{reject(Code::code_challenge_malformed, describe(Code::code_challenge_malformed))};
        }
        if (method.state == Param::absent) {
            // Spec 4.2: with a code_challenge the method must be given as S256.
            return Err{reject(Code::code_challenge_method_unsupported,
                              describe(Code::code_challenge_method_unsupported))};
        }
        out.code_challenge = challenge.value;
    } else if (method.state == Param::present || pkce_required(client->type)) {
        return Err{reject(Code::code_challenge_malformed, describe(Code::code_challenge_malformed))};
    }
    return out;
}

std::string build_redirect(std::string_view redirect_uri, FormFields params) {
    return append_query(redirect_uri, params);
}

std::string allow_redirect(const ValidatedAuthorization& request, std::string_view code) {
    FormFields params{{"code", std::string(code)}};
    if (request.state) params.emplace_back("state", *request.state);
    return build_redirect(request.redirect_uri, std::move(params));
}

std::string deny_redirect(const ValidatedAuthorization& request) {
    return error_redirect(request, Code::access_denied);
}

std::string error_redirect(const ValidatedAuthorization& request, AuthorizationErrorCode code,
                           std::string_view argument) {
    return build_redirect(request.redirect_uri, error_params(code, describe(code, argument), request.state));
}

}  // namespace roomkey
