// registration_test.cpp: client registration rules (spec 2.1, 5.4, 8.3).
#include "roomkey/registration.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace registration_test {
namespace {

std::string kinds_of(const std::vector<Violation>& violations) {
    std::string out;
    for (const auto& v : violations) {
        out += std::string(to_string(v.kind)) + "(" + v.detail + ") ";
    }
    return out;
}

bool has(const std::vector<Violation>& violations, RegistrationViolation kind, std::string_view detail = {}) {
    return std::any_of(violations.begin(), violations.end(),
                       [&](const Violation& v) { return v.kind == kind && (detail.empty() || v.detail == detail); });
}

ClientRegistration confidential_client() {
    return {"Report bot",
            ClientType::confidential,
            {"https://bot.example.com/callback"},
            {"rooms.all:read", "offline_access"}};
}

ClientRegistration public_client() {
    return {"Roomkey",
            ClientType::public_client,
            {"https://127.0.0.1:8443/callback", "com.example.app:/oauth2redirect"},
            {"users.all:read"}};
}

// spec 2.1: client type spelled "confidential" / "public".
TEST(ClientTypes, Spec21SpellingRoundTrips) {
    EXPECT_EQ(to_string(ClientType::confidential), "confidential");
    EXPECT_EQ(to_string(ClientType::public_client), "public");
    EXPECT_EQ(parse_client_type("public"), ClientType::public_client);
    EXPECT_EQ(parse_client_type("confidential"), ClientType::confidential);
    EXPECT_FALSE(parse_client_type("Public"));
    EXPECT_FALSE(parse_client_type(""));
}

// spec 2.1, 5.4.1, 5.4.3
TEST(ClientTypes, Spec54OfflineAccessAndPkceByType) {
    EXPECT_TRUE(offline_access_allowed(ClientType::confidential));
    EXPECT_FALSE(offline_access_allowed(ClientType::public_client));
    EXPECT_TRUE(pkce_required(ClientType::public_client));
    EXPECT_FALSE(pkce_required(ClientType::confidential));
}

TEST(Registration, ValidClientsHaveNoViolations) {
    auto c = check_registration(confidential_client());
    EXPECT_TRUE(c.empty()) << kinds_of(c);
    auto p = check_registration(public_client());
    EXPECT_TRUE(p.empty()) << kinds_of(p);
}

// spec 2.1: confidential redirect URIs must start with https://.
TEST(Registration, Spec21ConfidentialNeedsHttps) {
    auto reg = confidential_client();
    reg.redirect_uris = {"http://bot.example.com/cb", "com.example.app:/cb", "HTTPS://Bot.Example.com/cb"};
    auto v = check_registration(reg);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_not_https, "http://bot.example.com/cb")) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_not_https, "com.example.app:/cb")) << kinds_of(v);
    EXPECT_EQ(v.size(), 2u) << "the scheme compares case-insensitively: " << kinds_of(v);
}

// spec 2.1: a public client may use any scheme but http.
TEST(Registration, Spec21PublicRefusesHttpOnly) {
    auto reg = public_client();
    reg.redirect_uris = {"http://127.0.0.1/cb", "HTTP://localhost/cb", "myapp://callback", "https://a.example/cb"};
    auto v = check_registration(reg);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_http, "http://127.0.0.1/cb")) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_http, "HTTP://localhost/cb")) << kinds_of(v);
    EXPECT_EQ(v.size(), 2u) << kinds_of(v);
    EXPECT_EQ(check_redirect_uri(ClientType::public_client, "myapp://callback"), std::nullopt);
    EXPECT_EQ(check_redirect_uri(ClientType::confidential, "myapp://callback"),
              RegistrationViolation::redirect_uri_not_https);
}

// spec 8.3: 1 to 5 redirect URIs.
TEST(Registration, Spec83RedirectUriCount) {
    auto reg = public_client();
    reg.redirect_uris.clear();
    EXPECT_TRUE(has(check_registration(reg), RegistrationViolation::redirect_uri_count, "0"));
    for (int i = 0; i < 5; ++i) reg.redirect_uris.push_back("https://a.example/cb" + std::to_string(i));
    EXPECT_TRUE(check_registration(reg).empty()) << "5 is allowed: " << kinds_of(check_registration(reg));
    reg.redirect_uris.push_back("https://a.example/cb5");
    EXPECT_TRUE(has(check_registration(reg), RegistrationViolation::redirect_uri_count, "6"));
}

TEST(Registration, MalformedFragmentAndDuplicateUris) {
    auto reg = public_client();
    reg.redirect_uris = {"not a uri", "/relative/cb", "https://a.example/cb#frag", "https://a.example/x",
                         "https://a.example/x"};
    auto v = check_registration(reg);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_malformed, "not a uri")) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_malformed, "/relative/cb")) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_fragment, "https://a.example/cb#frag")) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_duplicate, "https://a.example/x")) << kinds_of(v);
    EXPECT_EQ(v.size(), 4u) << kinds_of(v);
}

// Each extra copy of a URI is one violation, and a form with thousands of
// URIs (the sandbox reads what a client posts) is still checked in one pass.
TEST(Registration, EveryExtraCopyOfAUriIsReportedOnceEvenInAHugeForm) {
    auto reg = public_client();
    reg.redirect_uris.assign(3, "https://a.example/x");
    for (int i = 0; i < 50000; ++i) reg.redirect_uris.push_back("https://a.example/cb" + std::to_string(i));
    const auto v = check_registration(reg);
    std::size_t duplicates = 0;
    for (const auto& violation : v) duplicates += violation.kind == RegistrationViolation::redirect_uri_duplicate;
    EXPECT_EQ(duplicates, 2u) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_count, "50003")) << kinds_of(v);
}

// spec 8.3 (at least one scope), 5.5 (known names), 2.1 (offline_access), 5.4.4 (not alone).
TEST(Registration, Spec83ScopeRules) {
    auto reg = confidential_client();
    reg.scopes.clear();
    EXPECT_TRUE(has(check_registration(reg), RegistrationViolation::scope_missing));
    reg.scopes = {"rooms.all:read", "rooms:read"};
    EXPECT_TRUE(has(check_registration(reg), RegistrationViolation::scope_unknown, "rooms:read"));
    reg.scopes = {"offline_access"};
    EXPECT_TRUE(has(check_registration(reg), RegistrationViolation::offline_access_alone));
    auto pub = public_client();
    pub.scopes.push_back("offline_access");
    auto v = check_registration(pub);
    EXPECT_TRUE(has(v, RegistrationViolation::offline_access_public)) << kinds_of(v);
    EXPECT_EQ(v.size(), 1u) << kinds_of(v);
}

TEST(Registration, ReportsEveryViolationAtOnce) {
    ClientRegistration reg{" \t", ClientType::public_client, {}, {"offline_access", "nope"}};
    auto v = check_registration(reg);
    EXPECT_TRUE(has(v, RegistrationViolation::name_missing)) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::redirect_uri_count)) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::scope_unknown, "nope")) << kinds_of(v);
    EXPECT_TRUE(has(v, RegistrationViolation::offline_access_public)) << kinds_of(v);
    EXPECT_FALSE(has(v, RegistrationViolation::offline_access_alone))
        << "another scope is present (even if unknown, that is reported on its own): " << kinds_of(v);
    EXPECT_EQ(v.size(), 4u) << kinds_of(v);
}

TEST(Registration, ViolationIdentifiersAndMessagesAreDistinct) {
    std::set<std::string_view> names;
    std::set<std::string_view> messages;
    for (int i = 0; i <= static_cast<int>(RegistrationViolation::offline_access_alone); ++i) {
        auto kind = static_cast<RegistrationViolation>(i);
        EXPECT_TRUE(names.insert(to_string(kind)).second) << i;
        EXPECT_TRUE(messages.insert(user_message(kind)).second) << to_string(kind);
    }
}

}  // namespace
}  // namespace registration_test
}  // namespace roomkey
