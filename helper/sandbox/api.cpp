// api.cpp: the policy in front of every REST API call (spec 4.1, 5.1, 5.2,
// 7.3, 8.1, 8.2), applied in this one place and in this order:
//   1. an injected fault (tests only)
//   2. credentials: never in the query; API token header or Bearer, not both
//   3. the overall rate limit per credential
//   4. the endpoint allowlist (shared/'s match_endpoint) -> 400 "Invalid Endpoint or HTTP method"
//   5. scopes for Bearer tokens (shared/'s grant_allows) -> 403 insufficient_scope
//   6. form-urlencoded bodies for POST/PUT (the upload's multipart body is
//      read by api_files.cpp)
//   7. every parameter given against the catalog's value rule (allowed
//      values, lengths, codes: shared/'s param_value_problem) -> 400
// Then api_handlers.cpp answers the endpoint (and applies the per-room
// posting limit of 8.2 once membership and role allow the post).
// The x-ratelimit-* headers go on every /v2 answer, counted or not, from
// write_rate_limit_headers, which SandboxApp::finish calls.
#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/sha256.hpp"
#include "roomkey/www_authenticate.hpp"
#include "sandbox/app.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

namespace {

constexpr std::string_view kRealm = "roomkey-sandbox";
constexpr std::string_view kMalformedBearerDescription =
    "The Authorization header is not a valid Bearer credential (Bearer <access token>).";

HttpResponse unauthorized(std::string_view message, std::string challenge) {
    HttpResponse r = api_error(401, message);
    r.headers.set("WWW-Authenticate", std::move(challenge));
    return r;
}

// Spec 5.2.2 and the live service (chatwork-ruby issue #42, fixed by PR #43):
// an expired or invalid access token is a 401 whose error is only in
// WWW-Authenticate; the body is empty. A client that reads the body to learn
// why passes against a sandbox that adds JSON and breaks live, so this one
// does not.
HttpResponse invalid_access_token(std::string challenge) {
    HttpResponse r;
    r.status = 401;
    r.headers.set("WWW-Authenticate", std::move(challenge));
    return r;
}

// Step 7: the first parameter whose value breaks the catalog's rule (a
// parameter travels in the query for GET and DELETE and in the form body
// otherwise, but DELETE /rooms/{room_id} has its action_type in the body:
// both are looked at). Unknown parameters are ignored, as the service does.
std::optional<HttpResponse> parameter_problem(const EndpointInfo& info, const FormFields& query, const FormFields& form) {
    for (const FormFields* fields : {&query, &form}) {
        for (const auto& [name, value] : *fields) {
            const EndpointParam* param = find_param(info, name);
            if (!param || param->where == ParamWhere::path) continue;
            const std::string problem = param_value_problem(*param, value);
            if (!problem.empty()) return api_error(400, problem);
        }
    }
    return std::nullopt;
}

std::string realm_challenge() {
    BearerChallenge c;
    c.realm = std::string(kRealm);
    return format_bearer_challenge(c);
}

std::string challenge(std::string_view error, std::string_view description, std::string_view scope = {}) {
    BearerChallenge c;
    c.realm = std::string(kRealm);
    c.error = std::string(error);
    c.error_description = std::string(description);
    if (!scope.empty()) c.scope = std::string(scope);
    return format_bearer_challenge(c);
}

constexpr std::string_view kBearerScheme = "Bearer";

// Whether the header uses the Bearer scheme at all (case-insensitive, RFC
// 9110 11.1), well-formed or not.
bool is_bearer_scheme(std::string_view header) {
    if (header.size() < kBearerScheme.size() || !iequals(header.substr(0, kBearerScheme.size()), kBearerScheme)) {
        return false;
    }
    return header.size() == kBearerScheme.size() || header[kBearerScheme.size()] == ' ';
}

// "Bearer <token>": the token is b64token (RFC 6750 2.1); nullopt when it
// is missing or has other characters.
std::optional<std::string> bearer_token(std::string_view header) {
    if (!is_bearer_scheme(header)) return std::nullopt;
    std::string_view token = header.substr(kBearerScheme.size());
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
    if (token.empty()) return std::nullopt;
    for (char c : token) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=';
        if (!ok) return std::nullopt;
    }
    return std::string(token);
}

std::string api_token_key(AccountId account) {
    return "api-token:" + std::to_string(account);
}
// Per grant, so refreshing does not buy a fresh allowance.
std::string grant_key(std::uint64_t family) {
    return "grant:" + std::to_string(family);
}

}  // namespace

std::string SandboxApp::rate_key_of(const Headers& request_headers, Instant now) const {
    // The same resolution as api() below, without side effects. Keys of
    // credentials that are not valid are never counted, only peeked, so
    // they add nothing to the limiter's memory.
    if (const auto api_token = request_headers.get(options_.api_token_header)) {
        if (const Account* account = chat_.account_by_api_token(*api_token)) return api_token_key(account->account_id);
        return "credential:" + to_hex(sha256(*api_token));
    }
    if (const auto authorization = request_headers.get("Authorization")) {
        if (const auto token = bearer_token(*authorization)) {
            const AccessCheck check = oauth_.check_access_token(*token, now);
            if (check.status != AccessCheck::Status::invalid) return grant_key(check.family);
        }
        return "credential:" + to_hex(sha256(*authorization));
    }
    return "anonymous";
}

void SandboxApp::write_rate_limit_headers(const Headers& request_headers, const std::optional<RateDecision>& counted,
                                          HttpResponse& response) {
    // An injected 429 fault brings its own remaining=0 headers.
    if (response.headers.has(kRateLimitLimitHeader)) return;
    RateDecision decision;
    if (counted) {
        decision = *counted;
    } else {
        const Instant now = clock_.now();
        std::lock_guard<std::mutex> lock(mutex_);
        decision = rate_limiter_.peek(rate_key_of(request_headers, now), now);
    }
    write_rate_limit(response.headers, RateLimit{static_cast<long>(decision.limit),
                                                 static_cast<long>(decision.remaining), decision.reset});
}

HttpResponse SandboxApp::api(const RequestContext& ctx) {
    // 1. Faults first, so a test can make any call fail.
    if (auto fault = injected_fault(FaultTarget::api, ctx)) return *fault;

    // 2. Credentials. Spec 5.1.2: a token in the URL is refused outright,
    //    even next to a valid header, because the URL already leaked it.
    for (const auto& [name, value] : ctx.query) {
        if (iequals(name, "access_token") || iequals(name, options_.api_token_header)) {
            HttpResponse r = api_error(400, "Credentials are never accepted in the query string; send them in a "
                                            "request header.");
            r.headers.set("WWW-Authenticate", challenge("invalid_request", "credentials in the query string"));
            return r;
        }
    }
    const auto authorization = ctx.request.headers.get("Authorization");
    const auto api_token = ctx.request.headers.get(options_.api_token_header);
    if (authorization && api_token) {
        // Spec 5.2.1: the Bearer header replaces the API token header (RFC 6750 3.1: one method only).
        HttpResponse r = api_error(400, "Send either an API token or an access token, not both.");
        r.headers.set("WWW-Authenticate", challenge("invalid_request", "more than one credential"));
        return r;
    }

    std::lock_guard<std::mutex> lock(mutex_);
    Caller caller;
    if (api_token) {
        const Account* account = chat_.account_by_api_token(*api_token);
        if (!account) return api_error(401, kInvalidApiTokenMessage);  // spec 5.1.4, 7.3
        caller.account = account->account_id;
        caller.rate_key = api_token_key(account->account_id);
    } else if (authorization) {
        const auto token = bearer_token(*authorization);
        if (!token) {
            if (is_bearer_scheme(*authorization)) {
                // Spec 5.2.2: an invalid access token (here: not even a
                // b64token) gets the invalid_token challenge.
                return invalid_access_token(challenge("invalid_token", kMalformedBearerDescription));
            }
            // Another scheme (Basic, ...): no Bearer credential at all.
            return unauthorized("Use Authorization: Bearer <access token> or the " + options_.api_token_header +
                                    " header.",
                                realm_challenge());
        }
        const AccessCheck check = oauth_.check_access_token(*token, ctx.now);
        if (check.status == AccessCheck::Status::expired) {
            // Spec 5.2.2: the description says that the access token expired.
            return invalid_access_token(challenge("invalid_token", kAccessTokenExpiredDescription));
        }
        if (check.status != AccessCheck::Status::valid) {
            return invalid_access_token(challenge("invalid_token", kAccessTokenInvalidDescription));
        }
        caller.account = check.account;
        caller.oauth = true;
        caller.scopes = check.scopes;
        caller.rate_key = grant_key(check.family);
    } else {
        // RFC 6750 3.1: no credentials, no error code in the challenge.
        return unauthorized("Authentication is required: send an API token in the " + options_.api_token_header +
                                " header or an access token as Authorization: Bearer.",
                            realm_challenge());
    }

    // 3. Spec 8.1: counted per credential.
    ctx.counted = rate_limiter_.hit(caller.rate_key, ctx.now);
    if (!ctx.counted->allowed) return api_error(429, "Rate limit exceeded. Retry after x-ratelimit-reset.");

    // 4. Spec 4.4-4.8: only the endpoints shared/ knows.
    const std::string_view api_path = std::string_view(ctx.path).substr(3);  // after "/v2"
    const auto match = match_endpoint(ctx.request.method, api_path);
    if (!match) return api_error(400, kInvalidEndpointMessage);

    // 5. Spec 5.5: an OAuth grant reaches only what its scopes allow.
    if (caller.oauth && !grant_allows(caller.scopes, match->endpoint)) {
        const std::string needed(required_scope(match->endpoint).value_or(""));
        HttpResponse r = api_error(403, "The access token does not grant the scope " + needed + ".");
        r.headers.set("WWW-Authenticate",
                      challenge("insufficient_scope", "The access token does not grant the required scope.", needed));
        return r;
    }

    // 6. Spec 4.1.3: POST and PUT bodies are application/x-www-form-urlencoded
    //    (DELETE /rooms/{room_id} carries action_type the same way).
    FormFields form;
    if (takes_file_part(endpoint_info(match->endpoint))) {
        // multipart/form-data, read (and refused with 400) in api_files.cpp.
    } else if (ctx.request.method != Method::Get) {
        if (!ctx.request.body.empty() || ctx.request.headers.has("Content-Type")) {
            if (!has_form_content_type(ctx.request.headers)) {
                return api_error(400, "The request body must be application/x-www-form-urlencoded.");
            }
            auto decoded = decode_form(ctx.request.body);
            if (!decoded) return api_error(400, "The request body is not valid form encoding.");
            form = std::move(decoded).value();
        }
    } else if (!ctx.request.body.empty()) {
        return api_error(400, "GET requests carry no body.");
    }

    // 7. The catalog's value rules (RAML: enums, minLength/maxLength, patterns).
    if (auto problem = parameter_problem(endpoint_info(match->endpoint), ctx.query, form)) return *problem;

    return api_endpoint(ctx, caller, *match, form);
}

}  // namespace roomkey::sandbox
