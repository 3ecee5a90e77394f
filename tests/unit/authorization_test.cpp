// authorization_test.cpp: the authorization request (spec 4.2, 7.1), client
// side (URL, state, pending record) and sandbox side (validation, redirects).
#include "roomkey/authorization.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace authorization_test {
namespace {

const RandomSource kOnes = [](unsigned char* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = 1;
};
const RandomSource kTwos = [](unsigned char* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = 2;
};

constexpr const char* kConsent = "https://sandbox.test/oauth/authorize";
constexpr const char* kCallback = "https://127.0.0.1:8443/callback";

ClientConfig public_client() {
    return ClientConfig{"pub-client", ClientType::public_client, {kCallback}, {}};
}
ClientConfig confidential_client() {
    return ClientConfig{"conf-client",
                        ClientType::confidential,
                        {"https://app.test/cb1", "https://app.test/cb2"},
                        {"offline_access", "rooms.all:read_write", "users.all:read"}};
}

AuthorizationRequest basic_request(const PkcePair& pkce) {
    AuthorizationRequest r;
    r.scopes = {"users.profile.me:read", "rooms.all:read"};
    r.state = make_state(kOnes);
    r.pkce = pkce;
    return r;
}

// The query of `url` as a name -> value map (fails the test on repeated names).
std::map<std::string, std::string> query_of(const std::string& url) {
    auto parsed = parse_url(url);
    EXPECT_TRUE(parsed) << url;
    if (!parsed) return {};
    auto fields = form_decode(parsed->query.value_or(""));
    EXPECT_TRUE(fields) << to_string(fields.error()) << ": " << url;
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : *fields) EXPECT_TRUE(out.emplace(k, v).second) << "repeated " << k;
    return out;
}

// ---------------------------------------------------------------------------
// Client side
// ---------------------------------------------------------------------------

TEST(AuthorizationClient, StateIs256BitsOfBase64url) {  // spec 4.2 state (anti-CSRF)
    const std::string a = make_state(kOnes);
    EXPECT_EQ(a.size(), 43u) << "32 bytes base64url without padding";
    EXPECT_EQ(a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), std::string::npos);
    EXPECT_NE(a, make_state(kTwos));
}

TEST(AuthorizationClient, PublicClientUrlCarriesEveryParameter) {  // spec 4.2
    const PkcePair pkce = make_pkce(kTwos);  // other bytes than the state's, so the search below means something
    const AuthorizationRequest request = basic_request(pkce);
    auto url = build_authorization_url(kConsent, public_client(), request);
    ASSERT_TRUE(url) << to_string(url.error().kind);
    EXPECT_EQ(url->rfind(std::string(kConsent) + "?", 0), 0u) << *url;
    const auto q = query_of(*url);
    EXPECT_EQ(q.at("response_type"), "code");
    EXPECT_EQ(q.at("client_id"), "pub-client");
    EXPECT_EQ(q.count("redirect_uri"), 0u) << "one registered URI and none chosen: not sent";
    EXPECT_EQ(q.at("scope"), format_scope_list(request.scopes));
    EXPECT_NE(q.at("scope").find(' '), std::string::npos) << "space-delimited";
    EXPECT_EQ(q.at("state"), request.state);
    EXPECT_EQ(q.at("code_challenge"), pkce.challenge);
    EXPECT_EQ(q.at("code_challenge_method"), "S256");
    EXPECT_EQ(q.size(), 6u);
    EXPECT_EQ(url->find(pkce.verifier), std::string::npos) << "the verifier must never appear in a URL";
}

TEST(AuthorizationClient, ChosenRedirectUriIsSent) {  // spec 4.2 redirect_uri optional with one registered
    AuthorizationRequest request = basic_request(make_pkce(kOnes));
    request.redirect_uri = kCallback;
    auto url = build_authorization_url(kConsent, public_client(), request);
    ASSERT_TRUE(url) << to_string(url.error().kind);
    EXPECT_EQ(query_of(*url).at("redirect_uri"), kCallback);
}

TEST(AuthorizationClient, RedirectUriRequiredWithSeveralRegistered) {  // spec 4.2, 7.1 13000
    AuthorizationRequest request = basic_request(make_pkce(kOnes));
    auto url = build_authorization_url(kConsent, confidential_client(), request);
    ASSERT_FALSE(url) << "built without a redirect_uri: " << *url;
    EXPECT_EQ(url.error().kind, AuthorizationRequestErrorKind::redirect_uri_missing);
    EXPECT_EQ(url.error().code, AuthorizationErrorCode::redirect_uri_missing);
    request.redirect_uri = "https://app.test/cb2";
    EXPECT_TRUE(build_authorization_url(kConsent, confidential_client(), request));
}

TEST(AuthorizationClient, RedirectUriMustBeRegisteredAndWellFormed) {  // spec 4.2, 7.1 14000/15000
    AuthorizationRequest request = basic_request(make_pkce(kOnes));
    request.redirect_uri = "https://127.0.0.1:8443/other";
    auto unregistered = build_authorization_url(kConsent, public_client(), request);
    ASSERT_FALSE(unregistered) << "built with an unregistered redirect_uri: " << *unregistered;
    EXPECT_EQ(unregistered.error().code, AuthorizationErrorCode::redirect_uri_unregistered);
    request.redirect_uri = "not a uri";
    auto malformed = build_authorization_url(kConsent, public_client(), request);
    ASSERT_FALSE(malformed) << "built with a malformed redirect_uri: " << *malformed;
    EXPECT_EQ(malformed.error().code, AuthorizationErrorCode::redirect_uri_malformed);
}

TEST(AuthorizationClient, PkceRequiredForPublicClientsOnly) {  // spec 4.2, 5.4.1
    AuthorizationRequest request = basic_request(make_pkce(kOnes));
    request.pkce.reset();
    auto pub = build_authorization_url(kConsent, public_client(), request);
    ASSERT_FALSE(pub) << "built without PKCE for a public client: " << *pub;
    EXPECT_EQ(pub.error().kind, AuthorizationRequestErrorKind::pkce_required);
    request.redirect_uri = "https://app.test/cb1";
    auto conf = build_authorization_url(kConsent, confidential_client(), request);
    ASSERT_TRUE(conf) << to_string(conf.error().kind);
    EXPECT_EQ(query_of(*conf).count("code_challenge"), 0u);
    EXPECT_EQ(query_of(*conf).count("code_challenge_method"), 0u);
}

TEST(AuthorizationClient, MalformedPkceIsRefused) {  // spec 4.2 code_challenge format, 7.1 19000/20000
    AuthorizationRequest request = basic_request(make_pkce(kOnes));
    request.pkce->challenge = "short";
    auto bad_challenge = build_authorization_url(kConsent, public_client(), request);
    ASSERT_FALSE(bad_challenge) << "built with a malformed code_challenge: " << *bad_challenge;
    EXPECT_EQ(bad_challenge.error().code, AuthorizationErrorCode::code_challenge_malformed);
    request.pkce = make_pkce(kOnes);
    request.pkce->verifier += "+";
    auto bad_verifier = build_authorization_url(kConsent, public_client(), request);
    ASSERT_FALSE(bad_verifier) << "built with a malformed code_verifier: " << *bad_verifier;
    EXPECT_EQ(bad_verifier.error().code, AuthorizationErrorCode::code_verifier_malformed);
}

TEST(AuthorizationClient, ScopeRules) {  // spec 4.2, 5.4.3, 5.4.4, 5.5, 7.1 5001-5003
    const PkcePair pkce = make_pkce(kOnes);
    struct Case {
        ScopeSet scopes;
        AuthorizationRequestErrorKind kind;
        AuthorizationErrorCode code;
    };
    const Case cases[] = {
        {{}, AuthorizationRequestErrorKind::scope_missing, AuthorizationErrorCode::scope_missing},
        {{"rooms.all:read", "rooms.everything"}, AuthorizationRequestErrorKind::scope_unknown,
         AuthorizationErrorCode::scope_unknown},
        {{"offline_access", "rooms.all:read"}, AuthorizationRequestErrorKind::offline_access_public_client,
         AuthorizationErrorCode::scope_unregistered},
    };
    for (const auto& c : cases) {
        AuthorizationRequest request = basic_request(pkce);
        request.scopes = c.scopes;
        auto url = build_authorization_url(kConsent, public_client(), request);
        ASSERT_FALSE(url) << format_scope_list(c.scopes);
        EXPECT_EQ(url.error().kind, c.kind) << to_string(url.error().kind);
        EXPECT_EQ(url.error().code, c.code);
    }
}

TEST(AuthorizationClient, OfflineAccessOnlyWithOtherScopesForConfidential) {  // spec 5.4.3, 5.4.4
    AuthorizationRequest request = basic_request(make_pkce(kOnes));
    request.redirect_uri = "https://app.test/cb1";
    request.scopes = {"offline_access"};
    auto alone = build_authorization_url(kConsent, confidential_client(), request);
    ASSERT_FALSE(alone) << "built with offline_access alone: " << *alone;
    EXPECT_EQ(alone.error().kind, AuthorizationRequestErrorKind::offline_access_alone);
    request.scopes = {"offline_access", "rooms.messages:read"};
    auto combined = build_authorization_url(kConsent, confidential_client(), request);
    ASSERT_TRUE(combined) << to_string(combined.error().kind);
    EXPECT_EQ(query_of(*combined).at("scope"), "offline_access rooms.messages:read");
}

TEST(AuthorizationClient, KnownRegistrationRefusesUnregisteredScopes) {  // spec 2.1, 7.1 5003
    AuthorizationRequest request = basic_request(make_pkce(kOnes));
    request.redirect_uri = "https://app.test/cb1";
    request.scopes = {"rooms.messages:write"};  // inside the registered aggregate rooms.all:read_write
    EXPECT_TRUE(build_authorization_url(kConsent, confidential_client(), request));
    request.scopes = {"contacts.all:read"};
    auto url = build_authorization_url(kConsent, confidential_client(), request);
    ASSERT_FALSE(url) << "built with a scope the client did not register: " << *url;
    EXPECT_EQ(url.error().kind, AuthorizationRequestErrorKind::scope_unregistered);
}

TEST(AuthorizationClient, StateClientIdAndConsentUrlAreChecked) {  // spec 4.2, 7.1 11000
    const AuthorizationRequest good = basic_request(make_pkce(kOnes));
    AuthorizationRequest no_state = good;
    no_state.state.clear();
    EXPECT_EQ(build_authorization_url(kConsent, public_client(), no_state).error().kind,
              AuthorizationRequestErrorKind::state_missing);
    ClientConfig anonymous = public_client();
    anonymous.client_id.clear();
    EXPECT_EQ(build_authorization_url(kConsent, anonymous, good).error().code, AuthorizationErrorCode::client_id_missing);
    EXPECT_EQ(build_authorization_url("http://sandbox.test/authorize", public_client(), good).error().kind,
              AuthorizationRequestErrorKind::consent_url_invalid)
        << "the consent screen is reached over HTTPS only";
    EXPECT_EQ(build_authorization_url("/authorize", public_client(), good).error().kind,
              AuthorizationRequestErrorKind::consent_url_invalid);
    ClientConfig unregistered = public_client();
    unregistered.redirect_uris.clear();
    EXPECT_EQ(build_authorization_url(kConsent, unregistered, good).error().kind,
              AuthorizationRequestErrorKind::no_registered_redirect_uri);
}

TEST(AuthorizationClient, ConsentUrlWithQueryGetsParametersAppended) {
    auto url = build_authorization_url("https://sandbox.test/authorize?lang=en", public_client(),
                                       basic_request(make_pkce(kOnes)));
    ASSERT_TRUE(url) << to_string(url.error().kind);
    EXPECT_EQ(url->rfind("https://sandbox.test/authorize?lang=en&response_type=code&", 0), 0u) << *url;
}

TEST(AuthorizationClient, PendingRoundTripsThroughSessionStorageText) {  // spec 4.2 state kept by the client
    AuthorizationRequest request = basic_request(make_pkce(kOnes));
    request.redirect_uri = kCallback;
    const Instant now = instant_from_unix_ms(1'700'000'000'123);
    const PendingAuthorization pending = make_pending(public_client(), request, now);
    EXPECT_EQ(pending.code_verifier, request.pkce->verifier);
    EXPECT_EQ(pending.redirect_uri_sent, kCallback);
    EXPECT_EQ(pending.client_id, "pub-client");
    auto back = parse_pending(serialize(pending));
    ASSERT_TRUE(back) << to_string(back.error());
    EXPECT_EQ(back->state, pending.state);
    EXPECT_EQ(back->code_verifier, pending.code_verifier);
    EXPECT_EQ(back->redirect_uri_sent, pending.redirect_uri_sent);
    EXPECT_EQ(back->client_id, pending.client_id);
    EXPECT_EQ(back->scopes, pending.scopes);
    EXPECT_EQ(back->created_at, now);
}

TEST(AuthorizationClient, PendingParseErrorsAreTyped) {
    EXPECT_EQ(parse_pending("{").error(), PendingError::not_json);
    EXPECT_EQ(parse_pending("[]").error(), PendingError::not_object);
    EXPECT_EQ(parse_pending(R"({"state":"s"})").error(), PendingError::version_unsupported);
    EXPECT_EQ(parse_pending(R"({"v":2})").error(), PendingError::version_unsupported);
    const std::string head = R"({"v":1,"code_verifier":"","redirect_uri":"","client_id":"c",)";
    EXPECT_EQ(parse_pending(head + R"("scope":"rooms.all:read","created_at_ms":1})").error(), PendingError::field_missing);
    EXPECT_EQ(parse_pending(head + R"("state":7,"scope":"rooms.all:read","created_at_ms":1})").error(),
              PendingError::field_wrong_type);
    EXPECT_EQ(parse_pending(head + R"("state":"s","scope":"nope","created_at_ms":1})").error(), PendingError::scope_invalid);
    EXPECT_EQ(parse_pending(head + R"("state":"s","scope":"rooms.all:read","created_at_ms":1.5})").error(),
              PendingError::field_wrong_type);
    EXPECT_EQ(parse_pending(head + R"("state":"s","scope":"rooms.all:read","created_at_ms":18446744073709551615})").error(),
              PendingError::field_wrong_type);
    EXPECT_TRUE(parse_pending(head + R"("state":"s","scope":"rooms.all:read","created_at_ms":1})"));
}

// ---------------------------------------------------------------------------
// Sandbox side
// ---------------------------------------------------------------------------

struct Registry {
    std::map<std::string, ClientConfig> clients;
    Registry() {
        ClientConfig pub = public_client();
        pub.scopes = {"rooms.all:read", "users.profile.me:read"};
        clients.emplace(pub.client_id, pub);
        ClientConfig conf = confidential_client();
        clients.emplace(conf.client_id, conf);
    }
    ClientLookup lookup() const {
        return [this](std::string_view id) -> const ClientConfig* {
            auto it = clients.find(std::string(id));
            return it == clients.end() ? nullptr : &it->second;
        };
    }
};

FormFields public_query() {
    return {{"response_type", "code"},
            {"client_id", "pub-client"},
            {"scope", "rooms.all:read"},
            {"state", "xyz"},
            {"code_challenge", make_pkce(kOnes).challenge},
            {"code_challenge_method", "S256"}};
}

FormFields with(FormFields q, const std::string& name, const std::string& value) {
    for (auto& [k, v] : q) {
        if (k == name) {
            v = value;
            return q;
        }
    }
    q.emplace_back(name, value);
    return q;
}

FormFields without(FormFields q, const std::string& name) {
    FormFields out;
    for (auto& f : q) {
        if (f.first != name) out.push_back(f);
    }
    return out;
}

TEST(AuthorizationServer, AcceptsAValidPublicRequest) {  // spec 4.2
    Registry registry;
    auto v = validate_authorization_request(public_query(), registry.lookup());
    ASSERT_TRUE(v) << v.error().description;
    EXPECT_EQ(v->client_id, "pub-client");
    EXPECT_EQ(v->client_type, ClientType::public_client);
    EXPECT_EQ(v->redirect_uri, kCallback) << "the single registered URI is used when none is given";
    EXPECT_FALSE(v->redirect_uri_given);
    EXPECT_EQ(v->scopes, ScopeSet{"rooms.all:read"});
    EXPECT_EQ(v->state, "xyz");
    EXPECT_EQ(v->code_challenge, make_pkce(kOnes).challenge);
}

TEST(AuthorizationServer, ErrorsBeforeTheRedirectUriIsVerifiedAreNeverRedirected) {  // spec 7.1, RFC 6749 4.1.2.1
    Registry registry;
    struct Case {
        FormFields query;
        AuthorizationErrorCode code;
    };
    const Case cases[] = {
        {without(public_query(), "client_id"), AuthorizationErrorCode::client_id_missing},
        {with(public_query(), "client_id", "nobody"), AuthorizationErrorCode::client_id_unknown},
        {with(public_query(), "redirect_uri", "https://evil.test/cb"), AuthorizationErrorCode::redirect_uri_unregistered},
        {with(public_query(), "redirect_uri", "https://127.0.0.1:8443/callback#frag"),
         AuthorizationErrorCode::redirect_uri_malformed},
        {with(public_query(), "redirect_uri", "no scheme"), AuthorizationErrorCode::redirect_uri_malformed},
        {with(with(public_query(), "client_id", "conf-client"), "scope", "rooms.all:read"),
         AuthorizationErrorCode::redirect_uri_missing},
    };
    for (const auto& c : cases) {
        auto v = validate_authorization_request(c.query, registry.lookup());
        ASSERT_FALSE(v) << to_number(c.code);
        EXPECT_EQ(v.error().code, c.code) << v.error().description;
        EXPECT_FALSE(v.error().redirect_to.has_value()) << "error " << to_number(c.code) << " must be shown on a page";
        EXPECT_FALSE(v.error().description.empty());
    }
}

TEST(AuthorizationServer, UnknownClientIdIsNamedInTheDescription) {  // spec 7.1 12000
    Registry registry;
    auto v = validate_authorization_request(with(public_query(), "client_id", "nobody"), registry.lookup());
    ASSERT_FALSE(v) << "accepted an unknown client_id";
    EXPECT_NE(v.error().description.find("nobody"), std::string::npos) << v.error().description;
}

TEST(AuthorizationServer, LaterErrorsRedirectWithCodeAndState) {  // spec 7.1, 4.2
    Registry registry;
    struct Case {
        FormFields query;
        AuthorizationErrorCode code;
    };
    const Case cases[] = {
        {without(public_query(), "response_type"), AuthorizationErrorCode::response_type_missing},
        {with(public_query(), "response_type", "token"), AuthorizationErrorCode::token_response_type_unsupported},
        {with(public_query(), "response_type", "id_token"), AuthorizationErrorCode::response_type_unknown},
        {without(public_query(), "scope"), AuthorizationErrorCode::scope_missing},
        {with(public_query(), "scope", "rooms.all:read bogus"), AuthorizationErrorCode::scope_unknown},
        {with(public_query(), "scope", "rooms.all:write"), AuthorizationErrorCode::scope_unregistered},
        {with(public_query(), "scope", "offline_access rooms.all:read"), AuthorizationErrorCode::scope_unregistered},
        {with(public_query(), "code_challenge_method", "plain"), AuthorizationErrorCode::code_challenge_method_unsupported},
        {without(public_query(), "code_challenge_method"), AuthorizationErrorCode::code_challenge_method_unsupported},
        {with(public_query(), "code_challenge", "tooshort"), AuthorizationErrorCode::code_challenge_malformed},
        {without(without(public_query(), "code_challenge"), "code_challenge_method"),
         AuthorizationErrorCode::code_challenge_malformed},
        {without(public_query(), "code_challenge"), AuthorizationErrorCode::code_challenge_malformed},
    };
    for (const auto& c : cases) {
        auto v = validate_authorization_request(c.query, registry.lookup());
        ASSERT_FALSE(v) << to_number(c.code);
        EXPECT_EQ(v.error().code, c.code) << v.error().description;
        ASSERT_TRUE(v.error().redirect_to.has_value()) << "error " << to_number(c.code) << " goes back to the client";
        EXPECT_EQ(v.error().redirect_to->rfind(std::string(kCallback) + "?", 0), 0u) << *v.error().redirect_to;
        const auto q = query_of(*v.error().redirect_to);
        EXPECT_EQ(q.at("error"), info(c.code).oauth_error);
        EXPECT_EQ(q.at("error_code"), std::to_string(to_number(c.code)));
        EXPECT_EQ(q.at("error_description"), v.error().description);
        EXPECT_EQ(q.at("state"), "xyz") << "state is returned unchanged";
    }
}

TEST(AuthorizationServer, ConfidentialClientRules) {  // spec 4.2, 5.4
    Registry registry;
    const FormFields base{{"response_type", "code"},
                          {"client_id", "conf-client"},
                          {"redirect_uri", "https://app.test/cb2"},
                          {"scope", "offline_access rooms.messages:read"}};
    auto v = validate_authorization_request(base, registry.lookup());
    ASSERT_TRUE(v) << v.error().description;
    EXPECT_TRUE(v->redirect_uri_given);
    EXPECT_EQ(v->redirect_uri, "https://app.test/cb2");
    EXPECT_FALSE(v->code_challenge.has_value()) << "PKCE is optional for confidential clients";
    EXPECT_FALSE(v->state.has_value());

    auto alone = validate_authorization_request(with(base, "scope", "offline_access"), registry.lookup());
    ASSERT_FALSE(alone) << "accepted offline_access alone";
    EXPECT_EQ(alone.error().code, AuthorizationErrorCode::scope_missing) << "offline_access alone (spec 5.4.4)";
    ASSERT_TRUE(alone.error().redirect_to) << "the refusal does not redirect back to the established client";
    EXPECT_EQ(query_of(*alone.error().redirect_to).count("state"), 0u) << "no state given, none returned";
}

TEST(AuthorizationServer, RepeatedParametersAreMalformed) {  // RFC 6749 3.1
    Registry registry;
    FormFields twice_client = public_query();
    twice_client.emplace_back("client_id", "pub-client");
    auto a = validate_authorization_request(twice_client, registry.lookup());
    ASSERT_FALSE(a) << "accepted a request with client_id twice";
    EXPECT_FALSE(a.error().redirect_to) << "the client is not established";
    FormFields twice_scope = public_query();
    twice_scope.emplace_back("scope", "rooms.all:read");
    auto b = validate_authorization_request(twice_scope, registry.lookup());
    ASSERT_FALSE(b) << "accepted a request with scope twice";
    EXPECT_TRUE(b.error().redirect_to);
}

TEST(AuthorizationServer, CallerSuppliedScopeCheckIsUsed) {  // spec 7.1 5003
    Registry registry;
    auto refuse_all = [](std::string_view) { return false; };
    auto v = validate_authorization_request(public_query(), registry.lookup(), refuse_all);
    ASSERT_FALSE(v) << "accepted a scope the server refuses";
    EXPECT_EQ(v.error().code, AuthorizationErrorCode::scope_unregistered);
}

TEST(AuthorizationServer, ClientBuiltUrlPassesTheSandboxValidator) {  // one rule, two sides
    Registry registry;
    AuthorizationRequest request = basic_request(make_pkce(kTwos));
    request.scopes = {"rooms.messages:read", "users.profile.me:read"};
    request.redirect_uri = kCallback;
    auto url = build_authorization_url(kConsent, registry.clients.at("pub-client"), request);
    ASSERT_TRUE(url) << to_string(url.error().kind);
    auto parsed = parse_url(*url);
    ASSERT_TRUE(parsed) << to_string(parsed.error()) << ": " << *url;
    auto query = form_decode(*parsed->query);
    ASSERT_TRUE(query) << to_string(query.error()) << ": " << *parsed->query;
    auto v = validate_authorization_request(*query, registry.lookup());
    ASSERT_TRUE(v) << v.error().description;
    EXPECT_EQ(v->state, request.state);
    EXPECT_EQ(v->scopes, request.scopes);
    EXPECT_EQ(v->code_challenge, request.pkce->challenge);
}

TEST(AuthorizationServer, BuildRedirectAppendsToAnExistingQuery) {
    EXPECT_EQ(build_redirect("https://a.test/cb", {{"code", "c 1"}}), "https://a.test/cb?code=c+1");
    EXPECT_EQ(build_redirect("https://a.test/cb?x=1", {{"code", "c"}, {"state", "s"}}),
              "https://a.test/cb?x=1&code=c&state=s");
    EXPECT_EQ(build_redirect("https://a.test/cb?", {{"code", "c"}}), "https://a.test/cb?code=c");
}

TEST(AuthorizationServer, AllowAndDenyRedirects) {  // spec 4.2 outcomes
    Registry registry;
    auto v = validate_authorization_request(public_query(), registry.lookup());
    ASSERT_TRUE(v) << v.error().description;
    const auto allow = query_of(allow_redirect(*v, "the-code"));
    EXPECT_EQ(allow.at("code"), "the-code");
    EXPECT_EQ(allow.at("state"), "xyz");
    EXPECT_EQ(allow.size(), 2u);
    const auto deny = query_of(deny_redirect(*v));
    EXPECT_EQ(deny.at("error"), "access_denied");
    EXPECT_EQ(deny.at("error_code"), "3001");
    EXPECT_EQ(deny.at("state"), "xyz");
    EXPECT_EQ(deny.count("code"), 0u);
    const auto timeout = query_of(error_redirect(*v, AuthorizationErrorCode::reserved_request_not_found));
    EXPECT_EQ(timeout.at("error_code"), "16000");
}

}  // namespace
}  // namespace authorization_test
}  // namespace roomkey
