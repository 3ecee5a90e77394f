// token.cpp: the token endpoint (spec 4.3, 2.3, 2.4, 5.3, 5.4) for both sides.
//
// [SECTION] Client side: requests
// [SECTION] Client side: reading the response
// [SECTION] Sandbox side: parsing requests, checking codes, answering
#include "roomkey/token.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <type_traits>
#include <utility>
#include <variant>

#include "roomkey/encoding.hpp"
#include "roomkey/json_text.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/url.hpp"

namespace roomkey {

std::string_view to_string(TokenResponseErrorKind kind) {
    using K = TokenResponseErrorKind;
    switch (kind) {
        case K::error_response: return "token_response.error_response";
        case K::malformed_error_body: return "token_response.malformed_error_body";
        case K::not_json: return "token_response.not_json";
        case K::not_object: return "token_response.not_object";
        case K::field_missing: return "token_response.field_missing";
        case K::field_wrong_type: return "token_response.field_wrong_type";
        case K::field_empty: return "token_response.field_empty";
        case K::token_type_unsupported: return "token_response.token_type_unsupported";
        case K::expires_in_invalid: return "token_response.expires_in_invalid";
        case K::scope_invalid: return "token_response.scope_invalid";
    }
    return "token_response.unknown";
}

std::string_view to_string(GrantType type) {
    switch (type) {
        case GrantType::authorization_code: return "authorization_code";
        case GrantType::refresh_token: return "refresh_token";
    }
    return "authorization_code";
}

std::optional<GrantType> grant_type_from(std::string_view wire) {
    for (GrantType type : {GrantType::authorization_code, GrantType::refresh_token}) {
        if (wire == to_string(type)) return type;
    }
    return std::nullopt;
}

// ===========================================================================
// [SECTION] Client side: requests
// ===========================================================================
// Spec 4.3 words it exactly: client ID and secret "joined with a colon and
// Base64-encoded" (RFC 7617). RFC 6749 2.3.1 would form-urlencode both first;
// that differs only for secrets holding characters such as '+', '/' or '=',
// and there the service's own wording is what it checks.
std::string basic_authorization(const ConfidentialClient& client) {
    return "Basic " + base64_encode(client.client_id + ":" + client.client_secret);
}

bool usable_with_basic_authentication(std::string_view client_id) {
    return !client_id.empty() && client_id.find(':') == std::string_view::npos;
}

namespace {

HttpRequest token_post(std::string_view token_url, FormFields body, const ClientCredentials& credentials) {
    HttpRequest request;
    request.method = Method::Post;
    request.url = std::string(token_url);
    request.headers.set("Content-Type", std::string(kFormContentType));
    request.headers.set("Accept", "application/json");
    std::visit(
        [&](const auto& client) {
            using T = std::decay_t<decltype(client)>;
            if constexpr (std::is_same_v<T, PublicClient>) {
                body.emplace_back("client_id", client.client_id);  // spec 4.3: public, no Basic
            } else {
                request.headers.set("Authorization", basic_authorization(client));  // spec 4.3 / 5.3
            }
        },
        credentials);
    request.body = form_encode(body);
    return request;
}

}  // namespace

HttpRequest build_code_exchange(std::string_view token_url, const ValidatedCallback& callback,
                                const ClientCredentials& credentials) {
    FormFields body{{"grant_type", std::string(to_string(GrantType::authorization_code))}, {"code", callback.code()}};
    if (!callback.redirect_uri_sent().empty()) body.emplace_back("redirect_uri", callback.redirect_uri_sent());
    if (!callback.code_verifier().empty()) body.emplace_back("code_verifier", callback.code_verifier());
    return token_post(token_url, std::move(body), credentials);
}

HttpRequest build_refresh_request(std::string_view token_url, std::string_view refresh_token,
                                  const std::optional<ScopeSet>& scope, const ClientCredentials& credentials) {
    FormFields body{{"grant_type", std::string(to_string(GrantType::refresh_token))},
                    {"refresh_token", std::string(refresh_token)}};
    if (scope) body.emplace_back("scope", format_scope_list(*scope));
    return token_post(token_url, std::move(body), credentials);
}

// ===========================================================================
// [SECTION] Client side: reading the response
// ===========================================================================
namespace {

TokenResponseError field_error(TokenResponseErrorKind kind, int status, std::string_view field) {
    return TokenResponseError{kind, status, std::string(field), std::nullopt};
}

}  // namespace

Result<TokenSet, TokenResponseError> read_token_response(const HttpResponse& response, Instant now) {
    using K = TokenResponseErrorKind;
    const int status = response.status;
    if (status != 200) {
        auto error = read_token_error(response.body);
        if (!error) return Err{TokenResponseError{K::malformed_error_body, status, {}, std::nullopt}};
        return Err{TokenResponseError{K::error_response, status, {}, std::move(error).value()}};
    }

    const auto j = parse_json_text(response.body);
    if (j.is_discarded()) return Err{field_error(K::not_json, status, {})};
    if (!j.is_object()) return Err{field_error(K::not_object, status, {})};

    TokenSet set;
    // The string members, in spec 2.3 order.
    const std::pair<const char*, std::string*> strings[] = {
        {"access_token", &set.access_token},
        {"refresh_token", &set.refresh_token},
        {"token_type", &set.token_type},
    };
    for (const auto& [name, out] : strings) {
        const auto it = j.find(name);
        if (it == j.end()) return Err{field_error(K::field_missing, status, name)};
        if (!it->is_string()) return Err{field_error(K::field_wrong_type, status, name)};
        *out = it->get<std::string>();
        if (out->empty()) return Err{field_error(K::field_empty, status, name)};
    }
    // RFC 6749 5.1: token_type is case-insensitive; spec 2.3: always Bearer.
    if (!iequals(set.token_type, "Bearer")) return Err{field_error(K::token_type_unsupported, status, "token_type")};
    set.token_type = "Bearer";

    const auto expires = j.find("expires_in");
    if (expires == j.end()) return Err{field_error(K::field_missing, status, "expires_in")};
    if (!expires->is_number_integer()) return Err{field_error(K::field_wrong_type, status, "expires_in")};
    if (expires->is_number_unsigned()) {
        if (expires->get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxExpiresInSeconds)) {
            return Err{field_error(K::expires_in_invalid, status, "expires_in")};
        }
    }
    set.expires_in = expires->get<std::int64_t>();
    if (set.expires_in <= 0 || set.expires_in > kMaxExpiresInSeconds) {
        return Err{field_error(K::expires_in_invalid, status, "expires_in")};
    }

    const auto scope = j.find("scope");
    if (scope == j.end()) return Err{field_error(K::field_missing, status, "scope")};
    if (!scope->is_string()) return Err{field_error(K::field_wrong_type, status, "scope")};
    // What was granted is the service's word: names newer than our catalog are
    // kept (a new scope must not break sign-in); only an empty grant is refused.
    set.scope = split_scope_list(scope->get_ref<const std::string&>());
    if (set.scope.empty()) return Err{field_error(K::scope_invalid, status, "scope")};

    set.access_expires_at = now + Seconds(set.expires_in);
    // Spec 2.3 / 5.4: the refresh token lasts 14 days unless offline_access was granted.
    if (set.scope.count(std::string(kOfflineAccessScope)) == 0) set.refresh_expires_at = now + kRefreshTokenLifetime;
    return set;
}

// ===========================================================================
// [SECTION] Sandbox side
// ===========================================================================
namespace {

TokenError token_error_of(std::string_view identifier, std::string description) {
    return TokenError{std::string(identifier), std::move(description)};
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// RFC 6749 3.2: a parameter sent without a value is treated as omitted.
std::optional<std::string> param(const FormFields& fields, std::string_view name) {
    auto value = form_get(fields, name);
    if (!value || value->empty()) return std::nullopt;
    return value;
}

struct BasicCredentials {
    std::string client_id;
    std::string client_secret;
};

// "Basic base64(id ':' secret)" (spec 4.3, RFC 7617: the id holds no colon).
Result<BasicCredentials, TokenError> read_basic(std::string_view header) {
    const auto bad = [] {
        return Err{token_error_of(token_error::invalid_client, "The Authorization header is not valid Basic credentials.")};
    };
    header = trim(header);
    const std::size_t space = header.find(' ');
    if (space == std::string_view::npos || !iequals(header.substr(0, space), "Basic")) return bad();
    auto decoded = base64_decode(trim(header.substr(space + 1)));
    if (!decoded) return bad();
    const std::string& pair = *decoded;
    const std::size_t colon = pair.find(':');
    if (colon == std::string::npos) return bad();
    if (colon == 0) return bad();
    return BasicCredentials{pair.substr(0, colon), pair.substr(colon + 1)};
}

}  // namespace

Result<TokenRequest, TokenError> parse_token_request(const HttpRequest& request) {
    using namespace token_error;
    if (request.method != Method::Post) return Err{token_error_of(invalid_request, "The token endpoint accepts POST only.")};
    if (!is_form_content_type(request.headers.get("Content-Type"))) {
        return Err{token_error_of(invalid_request, "The body must be application/x-www-form-urlencoded.")};
    }
    auto fields = form_decode(request.body);
    if (!fields) return Err{token_error_of(invalid_request, "The body is not valid form encoding.")};
    for (const auto& field : *fields) {
        if (form_count(*fields, field.first) > 1) {
            // RFC 6749 3.2: request and response parameters must not be repeated.
            return Err{token_error_of(invalid_request, "The parameter `" + field.first + "` is repeated.")};
        }
    }

    TokenRequest out;
    const auto grant_type = param(*fields, "grant_type");
    if (!grant_type) return Err{token_error_of(invalid_request, "`grant_type` is missing.")};
    const auto grant = grant_type_from(*grant_type);
    if (!grant) {
        return Err{token_error_of(unsupported_grant_type, "Only authorization_code and refresh_token are supported.")};
    }
    out.grant_type = *grant;

    // Spec 4.3 / 5.3: Basic for confidential clients, client_id for public ones; never both.
    // Spec 4.3 words the public client's client_id as "a query string
    // parameter"; RFC 6749 puts it in the form body. Either is accepted (our
    // client sends the body form); both must then agree.
    auto client_id = param(*fields, "client_id");
    if (const std::size_t q = request.url.find('?'); q != std::string::npos) {
        auto query = form_decode(std::string_view(request.url).substr(q + 1));
        if (!query) return Err{token_error_of(invalid_request, "The query string is not valid form encoding.")};
        if (form_count(*query, "client_id") > 1) {
            return Err{token_error_of(invalid_request, "The parameter `client_id` is repeated.")};
        }
        if (const auto in_query = param(*query, "client_id")) {
            if (client_id && *client_id != *in_query) {
                return Err{token_error_of(invalid_request, "`client_id` differs between the query and the body.")};
            }
            client_id = in_query;
        }
    }
    if (param(*fields, "client_secret")) {
        return Err{token_error_of(invalid_request, "Send the client secret with Basic authentication, not in the body.")};
    }
    if (const auto authorization = request.headers.get("Authorization")) {
        if (client_id) {
            return Err{token_error_of(invalid_request, "Use either Basic authentication or client_id, not both.")};
        }
        auto basic = read_basic(*authorization);
        if (!basic) return Err{basic.error()};
        out.client_id = std::move(basic->client_id);
        out.client_secret = std::move(basic->client_secret);
    } else if (client_id) {
        out.client_id = *client_id;
    } else {
        return Err{token_error_of(invalid_client, "Client authentication is missing.")};
    }

    if (out.grant_type == GrantType::authorization_code) {
        const auto code = param(*fields, "code");
        if (!code) return Err{token_error_of(invalid_request, "`code` is missing.")};
        out.code = *code;
        out.redirect_uri = param(*fields, "redirect_uri");
        out.code_verifier = param(*fields, "code_verifier");
        if (out.code_verifier && !validate_code_verifier(*out.code_verifier)) {
            return Err{token_error_of(invalid_request, describe(AuthorizationErrorCode::code_verifier_malformed))};
        }
    } else {
        const auto refresh_token = param(*fields, "refresh_token");
        if (!refresh_token) return Err{token_error_of(invalid_request, "`refresh_token` is missing.")};
        out.refresh_token = *refresh_token;
        if (const auto scope = param(*fields, "scope")) {
            auto scopes = parse_scope_list(*scope);
            if (!scopes) return Err{token_error_of(invalid_scope, describe(to_authorization_error(scopes.error().kind)))};
            out.scope = std::move(scopes).value();
        }
    }
    return out;
}

Result<Unit, TokenError> check_code_grant(const TokenRequest& request, const CodeGrantBinding& binding) {
    using namespace token_error;
    if (request.grant_type != GrantType::authorization_code) {
        return Err{token_error_of(invalid_request, "Not an authorization_code request.")};
    }
    if (request.client_id != binding.client_id) {
        return Err{token_error_of(invalid_grant, "The code was issued to another client.")};
    }
    // Spec 4.3: redirect_uri must be sent when it was given on the consent request.
    if (binding.redirect_uri_given && !request.redirect_uri) {
        return Err{token_error_of(invalid_grant, "`redirect_uri` is required: it was given in the authorization request.")};
    }
    if (request.redirect_uri && *request.redirect_uri != binding.redirect_uri) {
        return Err{token_error_of(invalid_grant, "`redirect_uri` does not match the authorization request.")};
    }
    // Spec 4.3 / 5.4.1: code_verifier is required when a code_challenge was given.
    if (binding.code_challenge) {
        if (!request.code_verifier) return Err{token_error_of(invalid_grant, "`code_verifier` is missing.")};
        if (!verify_pkce(*request.code_verifier, *binding.code_challenge)) {
            return Err{token_error_of(invalid_grant, "`code_verifier` does not match the code_challenge.")};
        }
    } else if (request.code_verifier) {
        // No challenge was bound: accepting a verifier would hide a PKCE downgrade.
        return Err{token_error_of(invalid_grant, "`code_verifier` was sent but no code_challenge was given.")};
    }
    return Unit{};
}

std::string token_set_json(std::string_view access_token, std::string_view refresh_token, std::int64_t expires_in,
                           const ScopeSet& scope) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j["access_token"] = std::string(access_token);
    j["refresh_token"] = std::string(refresh_token);
    j["token_type"] = "Bearer";
    j["expires_in"] = expires_in;
    j["scope"] = format_scope_list(scope);
    // `replace`: invalid UTF-8 must not reach dump()'s throwing path (JSON_NOEXCEPTION aborts).
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

namespace {
void set_token_headers(HttpResponse& response) {
    response.headers.set("Content-Type", "application/json");
    response.headers.set("Cache-Control", "no-store");  // spec 2.3
    response.headers.set("Pragma", "no-cache");         // spec 2.3
}
}  // namespace

HttpResponse make_token_response(std::string_view access_token, std::string_view refresh_token,
                                 std::int64_t expires_in, const ScopeSet& scope) {
    HttpResponse response;
    response.status = 200;
    set_token_headers(response);
    response.body = token_set_json(access_token, refresh_token, expires_in, scope);
    return response;
}

HttpResponse make_token_error_response(const TokenError& error) {
    HttpResponse response;
    response.status = http_status(error);
    set_token_headers(response);
    if (error.error == token_error::invalid_client) {
        // RFC 6749 5.2: a 401 for invalid_client carries a WWW-Authenticate challenge.
        response.headers.set("WWW-Authenticate", "Basic realm=\"token\"");
    }
    response.body = to_json(error);
    return response;
}

}  // namespace roomkey
