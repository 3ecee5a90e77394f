// fake_service.hpp: an in-memory stand-in for the chat service, for unit tests
// (no sockets): the consent screen (auto-approve), the token endpoint
// (authorization_code with PKCE, refresh_token with rotation), GET /me and
// GET /my/status, with x-ratelimit-* headers and an injectable clock. It uses
// the sandbox-side rules of shared/ (validate_authorization_request,
// parse_token_request, check_code_grant, ...), like roomkey-sandbox does.
#pragma once

#include "roomkey/authorization.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/http.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/scopes.hpp"
#include "roomkey/time.hpp"
#include "roomkey/token.hpp"
#include "roomkey/url.hpp"
#include "roomkey/www_authenticate.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace roomkey::testing {

class FakeService {
public:
    using Clock = std::function<Instant()>;

    static constexpr std::string_view kConsentUrl = "https://consent.example.test/oauth/authorize";
    static constexpr std::string_view kTokenUrl = "https://auth.example.test/token";
    static constexpr std::string_view kBaseUrl = "https://api.example.test/v2";
    static constexpr long kAccountId = 4242;

    FakeService(ClientConfig client, Clock clock, std::string client_secret = {})
        : client_(std::move(client)), secret_(std::move(client_secret)), clock_(std::move(clock)) {}

    // ---- Knobs and counters for tests ----
    Seconds access_lifetime = kAccessTokenLifetime;  // spec 2.3: 30 minutes
    long rate_limit = 300;                           // spec 8.1: per 5 minutes
    bool reject_every_access_token = false;          // every bearer gets 401 invalid_token
    int code_exchanges = 0;
    int refreshes = 0;
    int api_calls = 0;

    // The access tokens issued so far stop working (as if they expired).
    void expire_access_tokens() { access_tokens_.clear(); }
    // The authorization is revoked: every refresh token stops working.
    void revoke_refresh_tokens() { refresh_tokens_.clear(); }
    bool refresh_token_valid(const std::string& token) const { return refresh_tokens_.count(token) > 0; }

    // ---- spec 4.2: the consent screen; the owner presses "allow" ----
    // The URL the browser is redirected to (code + state), or the rejection.
    Result<std::string, AuthorizationRejection> consent(std::string_view authorization_url) {
        auto url = parse_url(authorization_url);
        if (!url || !url->query) return Err{reject(AuthorizationErrorCode::response_type_missing)};
        auto query = form_decode(*url->query);
        if (!query) return Err{reject(AuthorizationErrorCode::response_type_missing)};
        auto validated = validate_authorization_request(*query, [this](std::string_view id) -> const ClientConfig* {
            return id == client_.client_id ? &client_ : nullptr;
        });
        if (!validated) return Err{validated.error()};
        const std::string code = "code-" + std::to_string(++counter_);
        codes_[code] = CodeRecord{CodeGrantBinding{validated->client_id, validated->redirect_uri,
                                                   validated->redirect_uri_given, validated->code_challenge},
                                  validated->scopes, clock_()};
        return allow_redirect(*validated, code);
    }

    // ---- The HTTP side: token endpoint and REST API ----
    HttpResponse handle(const HttpRequest& request) {
        if (request.url == kTokenUrl) return token_endpoint(request);
        if (request.url.rfind(std::string(kBaseUrl) + "/", 0) == 0) {
            std::string path = request.url.substr(kBaseUrl.size());
            if (const auto q = path.find('?'); q != std::string::npos) path.resize(q);
            return with_rate_limit(api(request, path));
        }
        return HttpResponse{404, {{"content-type", "application/json"}}, R"({"errors":["Not Found"]})"};
    }

private:
    struct CodeRecord {
        CodeGrantBinding binding;
        ScopeSet scopes;
        Instant issued_at;
    };
    struct RefreshRecord {
        ScopeSet scopes;
        std::optional<Instant> expires_at;
    };
    struct AccessRecord {
        ScopeSet scopes;
        Instant expires_at;
    };

    static AuthorizationRejection reject(AuthorizationErrorCode code) { return {code, describe(code), std::nullopt}; }

    static HttpResponse token_error(std::string_view error, std::string_view description) {
        return make_token_error_response(TokenError{std::string(error), std::string(description)});
    }

    // spec 4.3 / 5.3: Basic for a confidential client, client_id for a public one.
    bool client_authenticated(const TokenRequest& r) const {
        if (r.client_id != client_.client_id) return false;
        if (client_.type == ClientType::public_client) return !r.client_secret.has_value();
        return r.client_secret && *r.client_secret == secret_;
    }

    HttpResponse issue(const ScopeSet& scopes) {
        const Instant now = clock_();
        const std::string n = std::to_string(++counter_);
        const std::string access = "at-" + n;
        const std::string refresh = "rt-" + n;
        access_tokens_[access] = AccessRecord{scopes, now + access_lifetime};
        // spec 2.3 / 5.4: 14 days, none with offline_access.
        std::optional<Instant> refresh_expiry;
        if (scopes.count(std::string(kOfflineAccessScope)) == 0) refresh_expiry = now + kRefreshTokenLifetime;
        refresh_tokens_[refresh] = RefreshRecord{scopes, refresh_expiry};
        return make_token_response(access, refresh, access_lifetime.count(), scopes);
    }

    HttpResponse token_endpoint(const HttpRequest& request) {
        auto parsed = parse_token_request(request);
        if (!parsed) return make_token_error_response(parsed.error());
        const TokenRequest& r = *parsed;
        if (!client_authenticated(r)) return token_error(token_error::invalid_client, "Client authentication failed.");
        const Instant now = clock_();
        if (r.grant_type == GrantType::authorization_code) {
            ++code_exchanges;
            const auto it = codes_.find(r.code);
            if (it == codes_.end()) return token_error(token_error::invalid_grant, "The code is invalid.");
            const CodeRecord record = it->second;
            codes_.erase(it);  // single use
            // spec 2.2: valid for 1 minute.
            if (now >= record.issued_at + kAuthorizationCodeLifetime)
                return token_error(token_error::invalid_grant, "The code expired.");
            if (auto ok = check_code_grant(r, record.binding); !ok) return make_token_error_response(ok.error());
            return issue(record.scopes);
        }
        ++refreshes;
        const auto it = refresh_tokens_.find(r.refresh_token);
        if (it == refresh_tokens_.end())
            return token_error(token_error::invalid_grant, "The refresh token is invalid.");
        const RefreshRecord record = it->second;
        refresh_tokens_.erase(it);  // rotation: the old refresh token is spent
        if (record.expires_at && now >= *record.expires_at)
            return token_error(token_error::invalid_grant, "The refresh token expired.");
        ScopeSet scopes = record.scopes;
        if (r.scope) {
            if (!is_subset_grant(*r.scope, record.scopes))
                return token_error(token_error::invalid_scope, "The scope exceeds the grant.");
            scopes = *r.scope;
        }
        return issue(scopes);
    }

    static HttpResponse json(int status, std::string body) {
        return HttpResponse{status, {{"content-type", "application/json"}}, std::move(body)};
    }

public:
    // spec 5.2.2: 401 with the Bearer invalid_token challenge and, as the live
    // service answers it (asonas/chatwork-ruby issue #42, PR #43), an empty body.
    static HttpResponse invalid_token(std::string_view description) {
        HttpResponse r{401, {}, {}};
        r.headers.set("WWW-Authenticate", format_bearer_challenge("invalid_token", description));
        return r;
    }

private:

    HttpResponse api(const HttpRequest& request, const std::string& path) {
        ++api_calls;
        const Instant now = clock_();
        const auto auth = request.headers.get("authorization");
        const std::string prefix = "Bearer ";
        if (!auth || auth->rfind(prefix, 0) != 0) return invalid_token(kAccessTokenInvalidDescription);
        const auto it = access_tokens_.find(auth->substr(prefix.size()));
        if (reject_every_access_token || it == access_tokens_.end())
            return invalid_token(kAccessTokenInvalidDescription);
        if (now >= it->second.expires_at) return invalid_token(kAccessTokenExpiredDescription);
        const auto match = match_endpoint(request.method, path);
        if (!match) return json(400, R"({"errors":["Invalid Endpoint or HTTP method"]})");  // hubot-chatwork #6
        if (!grant_allows(it->second.scopes, match->endpoint))
            return json(403, R"({"errors":["The scope does not allow this endpoint"]})");
        switch (match->endpoint) {
            case Endpoint::me: return json(200, R"({"account_id":)" + std::to_string(kAccountId) + "}");
            case Endpoint::my_status:
                return json(200, R"({"unread_room_num":2,"mention_room_num":1,"mytask_room_num":3,)"
                                 R"("unread_num":12,"mention_num":1,"mytask_num":8})");
            default: return json(404, R"({"errors":["Not implemented by the fake"]})");
        }
    }

    // spec 8.1: every response carries the rate-limit headers; fixed windows of 5 minutes.
    HttpResponse with_rate_limit(HttpResponse response) {
        const Instant now = clock_();
        if (now >= window_reset_) {
            window_reset_ = instant_from_unix_seconds(unix_seconds(now)) + Seconds(300);
            window_used_ = 0;
        }
        ++window_used_;
        if (window_used_ > rate_limit) response = json(429, R"({"errors":["Rate limit exceeded"]})");
        write_rate_limit(response.headers,
                         RateLimit{rate_limit, std::max(0L, rate_limit - window_used_), window_reset_});
        return response;
    }

    ClientConfig client_;
    std::string secret_;
    Clock clock_;
    long counter_ = 0;
    std::map<std::string, CodeRecord> codes_;
    std::map<std::string, RefreshRecord> refresh_tokens_;
    std::map<std::string, AccessRecord> access_tokens_;
    Instant window_reset_;
    long window_used_ = 0;
};

}  // namespace roomkey::testing
