// api.cpp: the policy in front of every REST API call (spec 4.1, 5.1, 5.2,
// 7.3, 8.1, 8.2), applied in this one place and in this order:
//   1. an injected fault (tests only)
//   2. credentials: never in the query; API token header or Bearer, not both
//   3. the overall rate limit per credential (x-ratelimit-* on every answer)
//   4. the endpoint allowlist (shared/'s match_endpoint)
//   5. scopes for Bearer tokens (shared/'s grant_allows) -> 403 insufficient_scope
//   6. form-urlencoded bodies for POST/PUT
//   7. the per-room posting limit for POST messages/tasks
// Then api_handlers.cpp answers the endpoint.
#include "roomkey/errors.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/www_authenticate.hpp"
#include "sandbox/app.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

namespace {

constexpr std::string_view kRealm = "roomkey-sandbox";

HttpResponse unauthorized(std::string_view message, std::string challenge) {
    HttpResponse r = api_error(401, message);
    r.headers.set("WWW-Authenticate", std::move(challenge));
    return r;
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

// "Bearer <token>": the scheme is case-insensitive (RFC 9110 11.1), the
// token is b64token (RFC 6750 2.1).
std::optional<std::string> bearer_token(std::string_view header) {
    constexpr std::string_view kScheme = "Bearer ";
    if (header.size() <= kScheme.size() || !iequals(header.substr(0, kScheme.size()), kScheme)) return std::nullopt;
    std::string_view token = header.substr(kScheme.size());
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

}  // namespace

HttpResponse SandboxApp::api(const RequestContext& ctx) {
    // 1. Faults first, so a test can make any call fail.
    if (auto fault = injected_fault(FaultTarget::api)) return *fault;

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
        caller.rate_key = "api-token:" + std::to_string(account->account_id);
    } else if (authorization) {
        const auto token = bearer_token(*authorization);
        if (!token) {
            return unauthorized("Use Authorization: Bearer <access token> or the " + options_.api_token_header +
                                    " header.",
                                realm_challenge());
        }
        const AccessCheck check = oauth_.check_access_token(*token, ctx.now);
        if (check.status == AccessCheck::Status::expired) {
            // Spec 5.2.2: the description says that the access token expired.
            return unauthorized(kAccessTokenExpiredDescription,
                                challenge("invalid_token", kAccessTokenExpiredDescription));
        }
        if (check.status != AccessCheck::Status::valid) {
            return unauthorized(kAccessTokenInvalidDescription,
                                challenge("invalid_token", kAccessTokenInvalidDescription));
        }
        caller.account = check.account;
        caller.oauth = true;
        caller.scopes = check.scopes;
        // Per grant, so refreshing does not buy a fresh allowance.
        caller.rate_key = "grant:" + std::to_string(check.family);
    } else {
        // RFC 6750 3.1: no credentials, no error code in the challenge.
        return unauthorized("Authentication is required: send an API token in the " + options_.api_token_header +
                                " header or an access token as Authorization: Bearer.",
                            realm_challenge());
    }

    // 3. Spec 8.1: counted per credential; the headers go on every answer from here on.
    const RateDecision decision = rate_limiter_.hit(caller.rate_key, ctx.now);
    auto with_headers = [&decision](HttpResponse r) {
        write_rate_limit(r.headers, RateLimit{static_cast<long>(decision.limit),
                                              static_cast<long>(decision.remaining), decision.reset});
        return r;
    };
    if (!decision.allowed) return with_headers(api_error(429, "Rate limit exceeded. Retry after x-ratelimit-reset."));

    // 4. Spec 4.4-4.8: only the endpoints shared/ knows.
    const std::string_view api_path = std::string_view(ctx.path).substr(3);  // after "/v2"
    const auto match = match_endpoint(ctx.request.method, api_path);
    if (!match) return with_headers(api_error(404, "Resource not found"));

    // 5. Spec 5.5: an OAuth grant reaches only what its scopes allow.
    if (caller.oauth && !grant_allows(caller.scopes, match->endpoint)) {
        const std::string needed(required_scope(match->endpoint).value_or(""));
        HttpResponse r = api_error(403, "The access token does not grant the scope " + needed + ".");
        r.headers.set("WWW-Authenticate",
                      challenge("insufficient_scope", "The access token does not grant the required scope.", needed));
        return with_headers(std::move(r));
    }

    // 6. Spec 4.1.3: POST and PUT bodies are application/x-www-form-urlencoded
    //    (DELETE /rooms/{room_id} carries action_type the same way).
    FormFields form;
    if (ctx.request.method != Method::Get) {
        if (!ctx.request.body.empty() || ctx.request.headers.has("Content-Type")) {
            if (!is_form_content(ctx.request.headers)) {
                return with_headers(
                    api_error(400, "The request body must be application/x-www-form-urlencoded."));
            }
            auto decoded = decode_form(ctx.request.body);
            if (!decoded) return with_headers(api_error(400, "The request body is not valid form encoding."));
            form = std::move(decoded).value();
        }
    } else if (!ctx.request.body.empty()) {
        return with_headers(api_error(400, "GET requests carry no body."));
    }

    // 7. Spec 8.2: messages and tasks of one room share 10 POSTs per 10 s.
    if (is_room_post(match->endpoint) && !room_limiter_.hit("room:" + match->room_id, ctx.now)) {
        return with_headers(api_error(429, kPerRoomRateLimitMessage));
    }

    return with_headers(api_endpoint(ctx, caller, *match, form));
}

}  // namespace roomkey::sandbox
