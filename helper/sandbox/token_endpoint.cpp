// token_endpoint.cpp: POST {auth_url}/token (spec 4.3, 2.3, 2.4, 5.3). The
// request is parsed by shared/ (parse_token_request); this file authenticates
// the client against the registry and hands the grant to OAuthState, which
// checks the code binding with shared/'s check_code_grant.
#include "roomkey/pkce.hpp"
#include "roomkey/token.hpp"
#include "sandbox/app.hpp"
#include "sandbox/http_util.hpp"

namespace roomkey::sandbox {

namespace {

HttpResponse token_error_response(std::string_view error, std::string description, bool basic_used) {
    HttpResponse r = make_token_error_response(TokenError{std::string(error), std::move(description)});
    // RFC 6749 5.2: a 401 to a client that tried the Authorization header
    // names the scheme it should use.
    if (r.status == 401 && basic_used) r.headers.set("WWW-Authenticate", "Basic realm=\"roomkey-sandbox\"");
    return r;
}

// A code request that shared/'s parser refused for its malformed
// code_verifier (spec 7.1 20000; it stops there, before naming the code):
// the same request parsed without the verifier, to learn the client and the
// code. nullopt for anything else.
std::optional<TokenRequest> code_request_behind_malformed_verifier(const HttpRequest& request) {
    auto fields = decode_form(request.body);
    if (!fields) return std::nullopt;
    const auto verifier = form_get(*fields, "code_verifier");
    if (!verifier || validate_code_verifier(*verifier)) return std::nullopt;
    FormFields kept;
    for (auto& f : *fields) {
        if (f.first != "code_verifier") kept.push_back(std::move(f));
    }
    HttpRequest stripped = request;
    stripped.body = form_encode(kept);
    auto parsed = parse_token_request(stripped);
    if (!parsed || parsed->grant_type != GrantType::authorization_code) return std::nullopt;
    return std::move(parsed).value();
}

}  // namespace

HttpResponse SandboxApp::token(const RequestContext& ctx) {
    if (auto fault = injected_fault(FaultTarget::token, ctx)) return *fault;
    const bool basic_used = ctx.request.headers.has("Authorization");
    // Spec 4.3 states a public client's client_id "as a query string
    // parameter"; that one is accepted there. Anything else in the query
    // (codes, tokens, secrets) is refused: they never travel in a URL.
    HttpRequest effective = ctx.request;
    for (const auto& [name, value] : ctx.query) {
        if (name != "client_id" || form_count(ctx.query, "client_id") != 1) {
            return token_error_response(token_error::invalid_request,
                                        "Send the parameters in the form body, not in the query string.",
                                        basic_used);
        }
        const auto body = decode_form(effective.body);
        if (body && form_count(*body, "client_id") == 0) {
            effective.body += std::string(effective.body.empty() ? "" : "&") + form_encode({{name, value}});
        }
    }
    auto parsed = parse_token_request(effective);
    if (!parsed) {
        const TokenError& e = parsed.error();
        // docs/sandbox.md: every redemption attempt consumes the code, this
        // one too when its client authenticates and the code is that client's.
        // The answer stays the parser's (20000).
        if (const auto named = code_request_behind_malformed_verifier(effective)) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!authenticate_token_client(*named, basic_used)) oauth_.consume_code(named->code, named->client_id);
        }
        return token_error_response(e.error, e.description, basic_used);
    }
    const TokenRequest& request = parsed.value();

    std::lock_guard<std::mutex> lock(mutex_);
    if (auto refused = authenticate_token_client(request, basic_used)) return *refused;

    auto issued = request.grant_type == GrantType::authorization_code ? oauth_.redeem_code(request, ctx.now)
                                                                      : oauth_.refresh(request, ctx.now);
    if (!issued) return token_error_response(issued.error().error, issued.error().description, basic_used);
    const IssuedTokens& t = issued.value();
    if (options_.test_controls) remember_issued(t);
    return make_token_response(t.access_token, t.refresh_token, t.expires_in, t.scopes);
}

std::optional<HttpResponse> SandboxApp::authenticate_token_client(const TokenRequest& request, bool basic_used) {
    // Spec 4.3 / 5.3: confidential clients authenticate with Basic, public
    // clients name themselves with client_id and have nothing to authenticate with.
    const RegisteredClient* client = oauth_.client(request.client_id);
    if (!client) return token_error_response(token_error::invalid_client, "The client is unknown.", basic_used);
    if (client->config.type == ClientType::confidential) {
        if (!request.client_secret) {
            return token_error_response(token_error::invalid_client,
                                        "A confidential client authenticates with HTTP Basic.", basic_used);
        }
        if (!constant_time_equals(*request.client_secret, client->secret)) {
            return token_error_response(token_error::invalid_client, "The client credentials are wrong.",
                                        basic_used);
        }
    } else if (request.client_secret) {
        return token_error_response(token_error::invalid_client,
                                    "A public client has no secret: send client_id without Basic authentication.",
                                    basic_used);
    }
    return std::nullopt;
}

}  // namespace roomkey::sandbox
