// token_test.cpp: the token endpoint (spec 4.3, 2.3, 2.4, 5.3, 5.4, 8.3),
// client requests and response reading, and the sandbox's request parsing.
#include "roomkey/token.hpp"

#include <gtest/gtest.h>

#include "json_answer.hpp"

#include <map>
#include <string>

#include "roomkey/encoding.hpp"

namespace roomkey {
// A namespace of its own: unity batches put test files together, and
// several define helpers of the same names (t0, kScopes, kTokenUrl, ...).
namespace token_test {
namespace {

using testing::json_answer;

constexpr const char* kTokenTestUrl = "https://auth.test/token";
constexpr const char* kCallback = "https://127.0.0.1:8443/callback";
const Instant kNow = instant_from_unix_seconds(1'700'000'000);

ValidatedCallback callback(std::string redirect_uri_sent, std::string verifier) {
    PendingAuthorization p;
    p.state = "s";
    p.code_verifier = std::move(verifier);
    p.redirect_uri_sent = std::move(redirect_uri_sent);
    p.client_id = "pub-client";
    p.scopes = {"rooms.all:read"};
    std::optional<PendingAuthorization> slot = p;
    auto cb = validate_callback(std::string(kCallback) + "?code=the-code&state=s", slot);
    EXPECT_TRUE(cb) << to_string(cb.error().kind);
    return std::move(cb).value();
}

std::map<std::string, std::string> body_of(const HttpRequest& request) {
    auto fields = form_decode(request.body);
    EXPECT_TRUE(fields) << request.body;
    std::map<std::string, std::string> out;
    if (!fields) return out;
    for (const auto& [k, v] : *fields) EXPECT_TRUE(out.emplace(k, v).second) << "repeated " << k;
    return out;
}

const std::string kVerifier(43, 'v');

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

TEST(TokenRequestBuilder, PublicCodeExchange) {  // spec 4.3, 5.3 public client
    const HttpRequest r = build_code_exchange(kTokenTestUrl, callback(kCallback, kVerifier), PublicClient{"pub-client"});
    EXPECT_EQ(r.method, Method::Post);
    EXPECT_EQ(r.url, kTokenTestUrl) << "nothing secret goes into the URL";
    EXPECT_EQ(r.headers.get("content-type"), "application/x-www-form-urlencoded");
    EXPECT_FALSE(r.headers.has("Authorization")) << "public clients send no Basic authentication";
    const auto body = body_of(r);
    EXPECT_EQ(body.at("grant_type"), "authorization_code");
    EXPECT_EQ(body.at("code"), "the-code");
    EXPECT_EQ(body.at("redirect_uri"), kCallback);
    EXPECT_EQ(body.at("code_verifier"), kVerifier);
    EXPECT_EQ(body.at("client_id"), "pub-client");
    EXPECT_EQ(body.size(), 5u);
}

TEST(TokenRequestBuilder, RedirectUriAndVerifierOnlyWhenUsed) {  // spec 4.3 redirect_uri / code_verifier rules
    const HttpRequest r = build_code_exchange(kTokenTestUrl, callback("", ""), PublicClient{"pub-client"});
    const auto body = body_of(r);
    EXPECT_EQ(body.count("redirect_uri"), 0u) << "redirect_uri was not sent on the consent request";
    EXPECT_EQ(body.count("code_verifier"), 0u) << "PKCE was not used";
}

TEST(TokenRequestBuilder, ConfidentialUsesBasicAndNoClientId) {  // spec 4.3, 5.3, RFC 6749 2.3.1
    const HttpRequest r =
        build_code_exchange(kTokenTestUrl, callback("", ""), ConfidentialClient{"conf-client", "s3cret"});
    EXPECT_EQ(r.headers.get("Authorization"), "Basic " + base64_encode("conf-client:s3cret"));
    EXPECT_EQ(body_of(r).count("client_id"), 0u);
    EXPECT_EQ(r.body.find("s3cret"), std::string::npos) << "the secret travels only in the header";
}

// Spec 4.3: "client ID and client secret, joined with a colon and Base64-encoded",
// byte for byte: a secret with '+', '/', '=' or ':' is not form-encoded first.
TEST(TokenRequestBuilder, BasicCredentialsAreIdColonSecretAsSpec43Words) {
    const HttpRequest r =
        build_code_exchange(kTokenTestUrl, callback("", ""), ConfidentialClient{"conf-client", "p@ss:w/rd+=="});
    const std::string header = r.headers.get("Authorization").value_or("");
    ASSERT_EQ(header.rfind("Basic ", 0), 0u);
    auto decoded = base64_decode(header.substr(6));
    ASSERT_TRUE(decoded) << to_string(decoded.error()) << ": " << header;
    EXPECT_EQ(*decoded, "conf-client:p@ss:w/rd+==");
    auto parsed = parse_token_request(r);
    ASSERT_TRUE(parsed) << parsed.error().description;
    EXPECT_EQ(parsed->client_id, "conf-client");
    EXPECT_EQ(parsed->client_secret, "p@ss:w/rd+==") << "the secret runs from the first colon to the end";
}


TEST(TokenRequestBuilder, RefreshRequest) {  // spec 4.3 re-issue
    const HttpRequest plain = build_refresh_request(kTokenTestUrl, "rt-1", std::nullopt, PublicClient{"pub-client"});
    auto body = body_of(plain);
    EXPECT_EQ(body.at("grant_type"), "refresh_token");
    EXPECT_EQ(body.at("refresh_token"), "rt-1");
    EXPECT_EQ(body.at("client_id"), "pub-client");
    EXPECT_EQ(body.count("scope"), 0u);
    const HttpRequest scoped = build_refresh_request(kTokenTestUrl, "rt-1", ScopeSet{"rooms.all:read", "users.all:read"},
                                                     ConfidentialClient{"c", "s"});
    body = body_of(scoped);
    EXPECT_EQ(body.at("scope"), "users.all:read rooms.all:read") << "space-delimited, catalog order (spec 4.3, 5.5)";
    EXPECT_EQ(body.count("client_id"), 0u);
    EXPECT_TRUE(scoped.headers.has("authorization"));
}

// ---------------------------------------------------------------------------
// Reading the response
// ---------------------------------------------------------------------------

const char* kGoodBody =
    R"({"access_token":"at","refresh_token":"rt","token_type":"Bearer","expires_in":1800,"scope":"rooms.all:read users.profile.me:read"})";

TEST(TokenResponse, ReadsTheTokenSet) {  // spec 2.3, 5.4.2
    auto set = read_token_response(json_answer(kGoodBody), kNow);
    ASSERT_TRUE(set) << to_string(set.error().kind) << " " << set.error().field;
    EXPECT_EQ(set->access_token, "at");
    EXPECT_EQ(set->refresh_token, "rt");
    EXPECT_EQ(set->token_type, "Bearer");
    EXPECT_EQ(set->expires_in, 1800);
    EXPECT_EQ(set->scope, (ScopeSet{"rooms.all:read", "users.profile.me:read"}));
    EXPECT_EQ(set->access_expires_at, kNow + Seconds(1800));
    ASSERT_TRUE(set->refresh_expires_at.has_value()) << "no refresh token expiry without offline_access";
    EXPECT_EQ(*set->refresh_expires_at, kNow + Seconds(14 * 24 * 3600)) << "14 days without offline_access";
}

TEST(TokenResponse, OfflineAccessRefreshTokenHasNoExpiry) {  // spec 2.3, 5.4.3
    auto set = read_token_response(
        json_answer(R"({"access_token":"at","refresh_token":"rt","token_type":"Bearer","expires_in":1800,"scope":"offline_access rooms.all:read"})"),
        kNow);
    ASSERT_TRUE(set) << to_string(set.error().kind);
    EXPECT_FALSE(set->refresh_expires_at.has_value());
}

TEST(TokenResponse, TokenTypeIsCaseInsensitiveBearer) {  // spec 2.3, RFC 6749 5.1
    auto set = read_token_response(
        json_answer(R"({"access_token":"at","refresh_token":"rt","token_type":"bEARER","expires_in":60,"scope":"rooms.all:read"})"),
        kNow);
    ASSERT_TRUE(set) << to_string(set.error().kind);
    EXPECT_EQ(set->token_type, "Bearer");
    auto mac = read_token_response(
        json_answer(R"({"access_token":"at","refresh_token":"rt","token_type":"mac","expires_in":60,"scope":"rooms.all:read"})"),
        kNow);
    ASSERT_FALSE(mac) << "a token set was read with token_type mac";
    EXPECT_EQ(mac.error().kind, TokenResponseErrorKind::token_type_unsupported);
}

// The good body with one member replaced (or removed when `value` is empty).
std::string body_with(const std::string& name, const std::string& value) {
    std::map<std::string, std::string> members{{"access_token", R"("at")"},
                                               {"refresh_token", R"("rt")"},
                                               {"token_type", R"("Bearer")"},
                                               {"expires_in", "1800"},
                                               {"scope", R"("rooms.all:read")"}};
    if (value.empty()) {
        members.erase(name);
    } else {
        members[name] = value;
    }
    std::string out = "{";
    for (const auto& [k, v] : members) out += (out.size() > 1 ? "," : "") + ("\"" + k + "\":" + v);
    return out + "}";
}

TEST(TokenResponse, MalformedSuccessBodiesNameTheField) {  // spec 2.3 field types
    using K = TokenResponseErrorKind;
    struct Case {
        std::string body;
        K kind;
        std::string field;
    };
    const Case cases[] = {
        {"not json", K::not_json, ""},
        {"", K::not_json, ""},
        {"[1,2]", K::not_object, ""},
        {body_with("access_token", ""), K::field_missing, "access_token"},
        {body_with("refresh_token", ""), K::field_missing, "refresh_token"},
        {body_with("token_type", ""), K::field_missing, "token_type"},
        {body_with("expires_in", ""), K::field_missing, "expires_in"},
        {body_with("scope", ""), K::field_missing, "scope"},
        {body_with("access_token", "42"), K::field_wrong_type, "access_token"},
        {body_with("access_token", R"("")"), K::field_empty, "access_token"},
        {body_with("refresh_token", "null"), K::field_wrong_type, "refresh_token"},
        {body_with("token_type", "true"), K::field_wrong_type, "token_type"},
        {body_with("expires_in", R"("1800")"), K::field_wrong_type, "expires_in"},
        {body_with("expires_in", "1800.5"), K::field_wrong_type, "expires_in"},
        {body_with("expires_in", "0"), K::expires_in_invalid, "expires_in"},
        {body_with("expires_in", "-30"), K::expires_in_invalid, "expires_in"},
        {body_with("expires_in", "18446744073709551615"), K::expires_in_invalid, "expires_in"},
        {body_with("expires_in", "9223372036854775807"), K::expires_in_invalid, "expires_in"},
        {body_with("scope", R"(["rooms.all:read"])"), K::field_wrong_type, "scope"},
        {body_with("scope", R"("")"), K::scope_invalid, "scope"},
        {body_with("scope", R"("   ")"), K::scope_invalid, "scope"},
        {R"({"error":"invalid_grant"})", K::field_missing, "access_token"},
    };
    for (const auto& c : cases) {
        auto set = read_token_response(json_answer(c.body), kNow);
        ASSERT_FALSE(set) << c.body;
        EXPECT_EQ(set.error().kind, c.kind) << c.body << " -> " << to_string(set.error().kind);
        EXPECT_EQ(set.error().field, c.field) << c.body;
        EXPECT_EQ(set.error().status, 200);
    }
}

TEST(TokenResponse, ErrorBodyIsReturnedTyped) {  // spec 2.4, 7.2
    auto set = read_token_response(
        HttpResponse{400, {}, R"({"error":"invalid_grant","error_description":"code expired","error_uri":null})"}, kNow);
    ASSERT_FALSE(set) << "a token set was read from a 400";
    EXPECT_EQ(set.error().kind, TokenResponseErrorKind::error_response);
    EXPECT_EQ(set.error().status, 400);
    ASSERT_TRUE(set.error().error.has_value()) << "the 400's error body was not read: " << to_string(set.error().kind);
    EXPECT_EQ(set.error().error->error, "invalid_grant");
    EXPECT_EQ(set.error().error->description, "code expired");
}

TEST(TokenResponse, UnreadableErrorBodyIsTyped) {  // spec 2.4 (peer broke the contract)
    for (const char* body : {"<html>bad gateway</html>", "", R"({"error":5})", R"({"message":"x"})"}) {
        auto set = read_token_response(HttpResponse{502, {}, body}, kNow);
        ASSERT_FALSE(set) << body;
        EXPECT_EQ(set.error().kind, TokenResponseErrorKind::malformed_error_body) << body;
        EXPECT_EQ(set.error().status, 502);
        EXPECT_FALSE(set.error().error.has_value());
    }
    // A success body with a non-200 status is still not a token set.
    auto set = read_token_response(HttpResponse{201, {}, kGoodBody}, kNow);
    ASSERT_FALSE(set) << "a token set was read from a 201";
    EXPECT_EQ(set.error().kind, TokenResponseErrorKind::malformed_error_body);
}

TEST(TokenResponse, SandboxResponseRoundTrips) {  // spec 2.3 (both sides)
    const HttpResponse response = make_token_response("at\"x", "rt", 1800, {"rooms.all:read", "offline_access"});
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.headers.get("cache-control"), "no-store");
    EXPECT_EQ(response.headers.get("pragma"), "no-cache");
    EXPECT_EQ(response.headers.get("content-type"), "application/json");
    auto set = read_token_response(response, kNow);
    ASSERT_TRUE(set) << to_string(set.error().kind);
    EXPECT_EQ(set->access_token, "at\"x");
    EXPECT_EQ(set->scope, (ScopeSet{"offline_access", "rooms.all:read"}));
}

TEST(TokenResponse, SandboxErrorResponseRoundTrips) {  // spec 2.4, 7.2
    const HttpResponse bad = make_token_error_response(TokenError{"invalid_client", "who are you"});
    EXPECT_EQ(bad.status, 401);
    EXPECT_TRUE(bad.headers.has("WWW-Authenticate"));
    EXPECT_EQ(bad.headers.get("cache-control"), "no-store");
    auto set = read_token_response(bad, kNow);
    ASSERT_FALSE(set) << "a token set was read from a 401";
    ASSERT_TRUE(set.error().error) << "the 401's error body was not read: " << to_string(set.error().kind);
    EXPECT_EQ(set.error().error->error, "invalid_client");
    EXPECT_EQ(make_token_error_response(TokenError{"invalid_grant", ""}).status, 400);
}

// ---------------------------------------------------------------------------
// Sandbox: parsing requests
// ---------------------------------------------------------------------------

HttpRequest form_post(std::string body, Headers headers = {}) {
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/x-www-form-urlencoded");
    return HttpRequest{Method::Post, "/token", std::move(headers), std::move(body)};
}

std::string basic(const std::string& id_secret) { return "Basic " + base64_encode(id_secret); }

TEST(TokenEndpoint, ParsesTheClientsOwnCodeExchange) {  // spec 4.3 (both sides)
    auto parsed = parse_token_request(build_code_exchange(kTokenTestUrl, callback(kCallback, kVerifier), PublicClient{"pub-client"}));
    ASSERT_TRUE(parsed) << parsed.error().error << ": " << parsed.error().description;
    EXPECT_EQ(parsed->grant_type, GrantType::authorization_code);
    EXPECT_EQ(parsed->client_id, "pub-client");
    EXPECT_FALSE(parsed->client_secret.has_value());
    EXPECT_EQ(parsed->code, "the-code");
    EXPECT_EQ(parsed->redirect_uri, kCallback);
    EXPECT_EQ(parsed->code_verifier, kVerifier);
}

TEST(TokenEndpoint, ParsesTheClientsOwnRefresh) {  // spec 4.3 re-issue
    auto parsed = parse_token_request(
        build_refresh_request(kTokenTestUrl, "rt", ScopeSet{"rooms.all:read"}, ConfidentialClient{"conf", "sec"}));
    ASSERT_TRUE(parsed) << parsed.error().description;
    EXPECT_EQ(parsed->grant_type, GrantType::refresh_token);
    EXPECT_EQ(parsed->client_id, "conf");
    EXPECT_EQ(parsed->client_secret, "sec");
    EXPECT_EQ(parsed->refresh_token, "rt");
    EXPECT_EQ(parsed->scope, ScopeSet{"rooms.all:read"});
}

// Spec 4.3: a public client's client_id is "stated as a query string
// parameter"; RFC 6749 puts it in the body. The service side takes either.
TEST(TokenEndpoint, PublicClientIdMayComeInTheQueryString_spec4_3) {
    HttpRequest in_query = form_post("grant_type=authorization_code&code=c");
    in_query.url = "/token?client_id=pub";
    auto parsed = parse_token_request(in_query);
    ASSERT_TRUE(parsed) << parsed.error().description;
    EXPECT_EQ(parsed->client_id, "pub");

    HttpRequest both_agree = form_post("grant_type=authorization_code&code=c&client_id=pub");
    both_agree.url = "/token?client_id=pub";
    EXPECT_TRUE(parse_token_request(both_agree));

    HttpRequest differ = both_agree;
    differ.url = "/token?client_id=other";
    auto refused = parse_token_request(differ);
    ASSERT_FALSE(refused) << "accepted with two different client_ids";
    EXPECT_EQ(refused.error().error, "invalid_request");

    HttpRequest with_basic = form_post("grant_type=authorization_code&code=c", Headers{{"Authorization", basic("a:b")}});
    with_basic.url = "/token?client_id=a";
    auto both_ways = parse_token_request(with_basic);
    ASSERT_FALSE(both_ways) << "Basic and client_id together (spec 4.3: one or the other)";
    EXPECT_EQ(both_ways.error().error, "invalid_request");
}

TEST(TokenEndpoint, RefusesMalformedRequests) {  // spec 4.3, 5.3, 7.1 20000, RFC 6749 5.2
    const std::string code_body = "grant_type=authorization_code&code=c&client_id=pub";
    struct Case {
        HttpRequest request;
        std::string_view error;
        const char* why;
    };
    HttpRequest get = form_post(code_body);
    get.method = Method::Get;
    const Case cases[] = {
        {get, token_error::invalid_request, "POST only"},
        {form_post(code_body, {{"Content-Type", "application/json"}}), token_error::invalid_request, "content type"},
        {HttpRequest{Method::Post, "/token", {}, code_body}, token_error::invalid_request, "no content type"},
        {form_post(code_body + "&code=d"), token_error::invalid_request, "repeated parameter"},
        {form_post("code=c&client_id=pub"), token_error::invalid_request, "grant_type missing"},
        {form_post("grant_type=password&client_id=pub"), token_error::unsupported_grant_type, "password grant"},
        {form_post("grant_type=client_credentials&client_id=pub"), token_error::unsupported_grant_type, "client credentials"},
        {form_post("grant_type=authorization_code&code=c"), token_error::invalid_client, "no client authentication"},
        {form_post(code_body, {{"Authorization", basic("pub:secret")}}), token_error::invalid_request, "Basic and client_id"},
        {form_post(code_body + "&client_secret=x"), token_error::invalid_request, "secret in the body"},
        {form_post("grant_type=authorization_code&code=c", {{"Authorization", "Basic !!!"}}), token_error::invalid_client,
         "Basic not base64"},
        {form_post("grant_type=authorization_code&code=c", {{"Authorization", basic("no-colon")}}),
         token_error::invalid_client, "Basic without ':'"},
        {form_post("grant_type=authorization_code&code=c", {{"Authorization", "Bearer abc"}}), token_error::invalid_client,
         "not Basic"},
        {form_post("grant_type=authorization_code&client_id=pub"), token_error::invalid_request, "code missing"},
        {form_post(code_body + "&code_verifier=short"), token_error::invalid_request, "code_verifier malformed"},
        {form_post("grant_type=refresh_token&client_id=pub"), token_error::invalid_request, "refresh_token missing"},
        {form_post("grant_type=refresh_token&refresh_token=r&client_id=pub&scope=nope"), token_error::invalid_scope,
         "unknown scope"},
        {form_post("grant_type=authorization_code&code=%zz&client_id=pub"), token_error::invalid_request, "bad encoding"},
    };
    for (const auto& c : cases) {
        auto parsed = parse_token_request(c.request);
        ASSERT_FALSE(parsed) << c.why;
        EXPECT_EQ(parsed.error().error, c.error) << c.why << ": " << parsed.error().description;
        EXPECT_FALSE(parsed.error().description.empty()) << c.why;
    }
}

TEST(TokenEndpoint, MalformedVerifierUsesThe20000Text) {  // spec 7.1 20000
    auto parsed = parse_token_request(form_post("grant_type=authorization_code&code=c&client_id=p&code_verifier=" +
                                                std::string(43, '+')));
    ASSERT_FALSE(parsed) << "accepted with a malformed code_verifier";
    EXPECT_EQ(parsed.error().description, describe(AuthorizationErrorCode::code_verifier_malformed));
}

TEST(TokenEndpoint, ContentTypeParametersAndCaseAreTolerated) {
    auto parsed = parse_token_request(form_post("grant_type=authorization_code&code=c&client_id=p",
                                                {{"content-type", "Application/X-WWW-Form-Urlencoded; charset=UTF-8"}}));
    EXPECT_TRUE(parsed) << parsed.error().description;
}

TEST(TokenEndpoint, EmptyParametersCountAsOmitted) {  // RFC 6749 3.2
    auto parsed = parse_token_request(form_post("grant_type=authorization_code&code=c&client_id=&redirect_uri=",
                                                {{"Authorization", basic("conf:sec")}}));
    ASSERT_TRUE(parsed) << parsed.error().description;
    EXPECT_EQ(parsed->client_id, "conf");
    EXPECT_FALSE(parsed->redirect_uri.has_value());
}

// ---------------------------------------------------------------------------
// Sandbox: checking a code grant
// ---------------------------------------------------------------------------

TokenRequest code_request(std::optional<std::string> redirect_uri, std::optional<std::string> verifier) {
    TokenRequest r;
    r.grant_type = GrantType::authorization_code;
    r.client_id = "pub";
    r.code = "c";
    r.redirect_uri = std::move(redirect_uri);
    r.code_verifier = std::move(verifier);
    return r;
}

TEST(TokenEndpoint, CodeGrantBindingRules) {  // spec 4.3 redirect_uri and code_verifier rules, 5.4.1
    const PkcePair pkce = make_pkce([](unsigned char* out, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>(i);
    });
    const CodeGrantBinding given{"pub", kCallback, true, pkce.challenge};
    EXPECT_TRUE(check_code_grant(code_request(kCallback, pkce.verifier), given));

    struct Case {
        TokenRequest request;
        CodeGrantBinding binding;
        const char* why;
    };
    const CodeGrantBinding not_given{"pub", kCallback, false, std::nullopt};
    TokenRequest other_client = code_request(kCallback, pkce.verifier);
    other_client.client_id = "someone-else";
    const Case refused[] = {
        {code_request(std::nullopt, pkce.verifier), given, "redirect_uri given on consent but not repeated"},
        {code_request("https://127.0.0.1:8443/other", pkce.verifier), given, "redirect_uri differs"},
        {code_request(kCallback, std::nullopt), given, "code_verifier missing"},
        {code_request(kCallback, std::string(43, 'x')), given, "code_verifier wrong"},
        {other_client, given, "another client's code"},
        {code_request(std::nullopt, pkce.verifier), not_given, "verifier without a challenge (PKCE downgrade)"},
        {code_request("https://127.0.0.1:8443/other", std::nullopt), not_given, "a redirect_uri that is not the effective one"},
    };
    for (const auto& c : refused) {
        auto result = check_code_grant(c.request, c.binding);
        ASSERT_FALSE(result) << c.why;
        EXPECT_EQ(result.error().error, token_error::invalid_grant) << c.why;
    }
    EXPECT_TRUE(check_code_grant(code_request(std::nullopt, std::nullopt), not_given));
    EXPECT_TRUE(check_code_grant(code_request(kCallback, std::nullopt), not_given))
        << "repeating the effective redirect URI is harmless";
}

TEST(TokenEndpoint, TokenSetJsonHasTheSpecFields) {  // spec 2.3
    const std::string json = token_set_json("a", "r", 1800, {"rooms.all:read"});
    EXPECT_EQ(json,
              R"({"access_token":"a","refresh_token":"r","token_type":"Bearer","expires_in":1800,"scope":"rooms.all:read"})");
}

}  // namespace

// RFC 7617: the first ':' ends the user-id, so a client ID with one cannot
// authenticate with Basic as spec 4.3 describes.
TEST(TokenRequestBuilder, ClientIdWithAColonCannotUseBasic_spec4_3) {
    EXPECT_TRUE(usable_with_basic_authentication("conf-client"));
    EXPECT_FALSE(usable_with_basic_authentication("conf:client"));
    EXPECT_FALSE(usable_with_basic_authentication(""));
}

// A scope the service grants that our catalog does not know yet (spec 5.5 may
// grow) is kept, not a reason to refuse the whole token set.
TEST(TokenResponseReader, KeepsGrantedScopesNewerThanTheCatalog_spec2_3) {
    auto set = read_token_response(
        json_answer(R"({"access_token":"at","refresh_token":"rt","token_type":"Bearer","expires_in":1800,)"
           R"("scope":"rooms.all:read  rooms.pins:read"})"),
        kNow);
    ASSERT_TRUE(set) << to_string(set.error().kind);
    EXPECT_EQ(set->scope, (ScopeSet{"rooms.all:read", "rooms.pins:read"}));
}

}  // namespace token_test
}  // namespace roomkey
