// sandbox_token_test.cpp: roomkey-sandbox's token endpoint on real sockets
// (spec 4.3, 2.2, 2.3, 2.4, 5.3, 5.4, 8.3): code exchange, single use and
// replay, concurrent redemption, PKCE, client authentication, refresh
// rotation and reuse, scope narrowing, lifetimes via the sandbox clock.
#include <atomic>
#include <thread>

#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxToken : public SandboxTest {
protected:
    static nlohmann::json body(const httplib::Result& res) {
        return res ? nlohmann::json::parse(res->body, nullptr, false) : nlohmann::json();
    }
    // Asserts a spec 2.4 error body with `error` and returns the description.
    static std::string expect_token_error(const httplib::Result& res, int status, const std::string& error) {
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        EXPECT_EQ(res->status, status) << res->body;
        const auto j = body(res);
        EXPECT_EQ(json_string(j, "error"), error) << res->body;
        EXPECT_TRUE(j.is_object() && j.contains("error_uri") && j["error_uri"].is_null())
            << "spec 2.4: error_uri is always null: " << res->body;
        EXPECT_TRUE(j.is_object() && j.contains("error_description") && j["error_description"].is_string())
            << res->body;
        // spec 2.3 / issue item 6: error responses carry the cache headers too.
        EXPECT_EQ(res->get_header_value("Cache-Control"), "no-store") << res->body;
        EXPECT_EQ(res->get_header_value("Pragma"), "no-cache") << res->body;
        return json_string(j, "error_description");
    }
    int me_status(const std::string& access_token) {
        auto res = bearer_get("/me", access_token);
        return res ? res->status : -1;
    }
    // A confidential client's code (no PKCE) for the given scope.
    std::string confidential_code(const std::string& scope, const std::string& redirect = kConfidentialRedirect) {
        return authorize({{"response_type", "code"}, {"client_id", kConfidentialId}, {"redirect_uri", redirect},
                          {"scope", scope}, {"state", "x"}});
    }
    FormFields confidential_exchange(const std::string& code, const std::string& redirect = kConfidentialRedirect) {
        return {{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", redirect}};
    }
};

// spec 4.3 / 2.3: the token set and its headers.
TEST_F(SandboxToken, CodeExchangeReturnsTheTokenSet_spec2_3_4_3) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    auto res = exchange_public(code, pkce.verifier);
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 200) << res->body;
    EXPECT_EQ(res->get_header_value("Cache-Control"), "no-store");
    EXPECT_EQ(res->get_header_value("Pragma"), "no-cache");
    EXPECT_NE(res->get_header_value("Content-Type").find("application/json"), std::string::npos);
    const auto j = body(res);
    EXPECT_EQ(json_string(j, "token_type"), "Bearer");
    ASSERT_TRUE(j.contains("expires_in") && j["expires_in"].is_number_integer()) << j.dump();
    EXPECT_EQ(j["expires_in"].get<int>(), 1800) << "spec 2.3: 30 minutes";
    EXPECT_EQ(json_string(j, "scope"), "users.all:read rooms.all:read_write");
    // At least 128 bits: 32 random bytes are 43 base64url characters.
    EXPECT_GE(json_string(j, "access_token").size(), 43u);
    EXPECT_GE(json_string(j, "refresh_token").size(), 43u);
    EXPECT_EQ(me_status(json_string(j, "access_token")), 200);
}

// spec 4.3: a public client's client_id "stated as a query string parameter"
// is accepted as well as the form-body form the roomkey client sends.
TEST_F(SandboxToken, PublicClientIdInTheQueryStringIsAccepted_spec4_3) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    auto res = post_form("/oauth/token?client_id=roomkey-web",
                         {{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", kWebRedirect},
                          {"code_verifier", pkce.verifier}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200) << res->body;
    EXPECT_FALSE(json_string(body(res), "access_token").empty());
}

// spec 2.2 / 8.3: single use; a replay is invalid_grant and revokes the tokens issued from the code.
TEST_F(SandboxToken, ReplayedCodeIsRefusedAndRevokesItsTokens_spec2_2) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    auto first = exchange_public(code, pkce.verifier);
    ASSERT_TRUE(first) << why_no_answer(first);
    ASSERT_EQ(first->status, 200);
    const auto tokens = body(first);
    ASSERT_EQ(me_status(json_string(tokens, "access_token")), 200);

    expect_token_error(exchange_public(code, pkce.verifier), 400, "invalid_grant");
    EXPECT_EQ(me_status(json_string(tokens, "access_token")), 401) << "the replay must revoke the access token";
    expect_token_error(refresh_public(json_string(tokens, "refresh_token")), 400, "invalid_grant");
}

// spec 2.2: two concurrent redemptions of one code -> exactly one success.
TEST_F(SandboxToken, ConcurrentRedemptionsGiveExactlyOneSuccess_spec2_2) {
    for (int round = 0; round < 3; ++round) {
        const PkcePair pkce = make_pkce(kRandom);
        const std::string code = authorize(web_request(pkce));
        std::atomic<int> ready{0};
        int statuses[2] = {0, 0};
        std::thread threads[2];
        for (int i = 0; i < 2; ++i) {
            threads[i] = std::thread([&, i] {
                auto c = client();
                const std::string form = form_encode({{"grant_type", "authorization_code"}, {"code", code},
                                                      {"client_id", "roomkey-web"}, {"redirect_uri", kWebRedirect},
                                                      {"code_verifier", pkce.verifier}});
                ++ready;
                while (ready.load() < 2) std::this_thread::yield();
                auto res = c->Post("/oauth/token", form, "application/x-www-form-urlencoded");
                statuses[i] = res ? res->status : -1;
            });
        }
        for (auto& t : threads) t.join();
        const int successes = (statuses[0] == 200) + (statuses[1] == 200);
        EXPECT_EQ(successes, 1) << "statuses " << statuses[0] << " and " << statuses[1];
        EXPECT_TRUE(statuses[0] == 400 || statuses[1] == 400);
    }
}

// spec 2.2 / 8.3: a code is valid for 1 minute.
TEST_F(SandboxToken, CodeExpiresAfterOneMinute_spec8_3) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    advance_clock(61);
    const std::string why = expect_token_error(exchange_public(code, pkce.verifier), 400, "invalid_grant");
    EXPECT_NE(why.find("expired"), std::string::npos) << why;
}

// spec 4.3 / 5.4.1: a wrong verifier is invalid_grant, and the code is consumed.
TEST_F(SandboxToken, WrongVerifierIsInvalidGrantAndConsumesTheCode_spec5_4) {
    const PkcePair pkce = make_pkce(kRandom);
    const PkcePair other = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    expect_token_error(exchange_public(code, other.verifier), 400, "invalid_grant");
    expect_token_error(exchange_public(code, pkce.verifier), 400, "invalid_grant");
}

// spec 4.3: a verifier is required when a challenge was given.
TEST_F(SandboxToken, MissingVerifierIsInvalidGrant_spec4_3) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    expect_token_error(exchange_public(code, ""), 400, "invalid_grant");
}

// spec 7.1 20000 / 4.3: a malformed code_verifier is refused.
TEST_F(SandboxToken, MalformedVerifierIs20000_spec7_1) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    const std::string why = expect_token_error(exchange_public(code, "short"), 400, "invalid_request");
    EXPECT_EQ(why, "`code_verifier` is malformed.");
}

// spec 7.1 20000 / 2.2: the malformed verifier is refused with the 20000
// text, and the code is consumed like on every other redemption attempt.
TEST_F(SandboxToken, MalformedVerifierConsumesTheCode_spec7_1_2_2) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    const std::string why = expect_token_error(exchange_public(code, "short!"), 400, "invalid_request");
    EXPECT_EQ(why, "`code_verifier` is malformed.");
    const std::string after = expect_token_error(exchange_public(code, pkce.verifier), 400, "invalid_grant");
    EXPECT_NE(after.find("already used"), std::string::npos) << after;
}

// The code is consumed only for the client it was issued to: another
// client naming it (with a malformed verifier) cannot burn it.
TEST_F(SandboxToken, MalformedVerifierOfAnotherClientLeavesTheCode_spec7_1) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    expect_token_error(token_confidential({{"grant_type", "authorization_code"},
                                           {"code", code},
                                           {"redirect_uri", kWebRedirect},
                                           {"code_verifier", "short!"}}),
                       400, "invalid_request");
    auto res = exchange_public(code, pkce.verifier);
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200) << res->body;
}

// A verifier without an earlier challenge is refused (no PKCE downgrade).
TEST_F(SandboxToken, VerifierWithoutChallengeIsRefused_spec4_3) {
    const std::string code = confidential_code("users.all:read");
    FormFields f = confidential_exchange(code);
    f.emplace_back("code_verifier", make_pkce(kRandom).verifier);
    expect_token_error(token_confidential(f), 400, "invalid_grant");
}

// spec 4.3: redirect_uri must be sent, and match, when it was given on the consent request.
TEST_F(SandboxToken, RedirectUriMustBeRepeated_spec4_3) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    expect_token_error(exchange_public(code, pkce.verifier, ""), 400, "invalid_grant");
    const std::string code2 = authorize(web_request(pkce));
    expect_token_error(exchange_public(code2, pkce.verifier, "https://127.0.0.1:8443/other"), 400, "invalid_grant");
}

// spec 4.3 / 5.3: Basic for confidential clients; bad credentials -> 401 invalid_client.
TEST_F(SandboxToken, ConfidentialClientAuthenticatesWithBasic_spec5_3) {
    const std::string code = confidential_code("users.all:read");
    auto bad = token_confidential(confidential_exchange(code), "wrong-secret");
    expect_token_error(bad, 401, "invalid_client");
    EXPECT_NE(bad->get_header_value("WWW-Authenticate").find("Basic"), std::string::npos);
    // Without Basic, a confidential client is not authenticated.
    FormFields no_basic = confidential_exchange(confidential_code("users.all:read"));
    no_basic.emplace_back("client_id", kConfidentialId);
    expect_token_error(post_form("/oauth/token", no_basic), 401, "invalid_client");

    auto good = token_confidential(confidential_exchange(confidential_code("users.all:read")));
    ASSERT_TRUE(good) << why_no_answer(good);
    EXPECT_EQ(good->status, 200) << good->body;
}

// spec 4.3: the code is bound to its client.
TEST_F(SandboxToken, CodeOfAnotherClientIsInvalidGrant_spec4_3) {
    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize(web_request(pkce));
    expect_token_error(token_confidential({{"grant_type", "authorization_code"}, {"code", code},
                                           {"redirect_uri", kWebRedirect}}),
                       400, "invalid_grant");
}

// spec 5.3: a Basic header that is not valid Basic credentials -> 401 invalid_client.
TEST_F(SandboxToken, MalformedBasicHeaderIs401InvalidClient_spec5_3) {
    const FormFields grant{
        {"grant_type", "authorization_code"}, {"code", "x"}, {"redirect_uri", kConfidentialRedirect}};
    for (const std::string& header : {std::string("Basic !!!not-base64!!!"), "Basic " + base64_encode("no-colon"),
                                      std::string("Basic"), "Basic " + base64_encode(":secret-without-id")}) {
        auto res = post_form("/oauth/token", grant, {{"Authorization", header}});
        expect_token_error(res, 401, "invalid_client");
        EXPECT_NE(res->get_header_value("WWW-Authenticate").find("Basic"), std::string::npos) << header;
    }
}

// spec 4.3 / 5.3: one client authentication method, never both.
TEST_F(SandboxToken, BasicAndClientIdTogetherIs400_spec4_3) {
    const std::string code = confidential_code("users.all:read");
    FormFields f = confidential_exchange(code);
    f.emplace_back("client_id", kConfidentialId);
    expect_token_error(token_confidential(f), 400, "invalid_request");
}

TEST_F(SandboxToken, UnknownGrantTypeAndClient_spec4_3) {
    expect_token_error(post_form("/oauth/token", {{"grant_type", "password"}, {"client_id", "roomkey-web"}}), 400,
                       "unsupported_grant_type");
    expect_token_error(post_form("/oauth/token",
                                 {{"grant_type", "authorization_code"}, {"code", "x"}, {"client_id", "nobody"}}),
                       401, "invalid_client");
    // Secrets never travel in the URL: parameters in the query are refused.
    auto res = client()->Post("/oauth/token?code=abc", "grant_type=authorization_code&client_id=roomkey-web",
                              "application/x-www-form-urlencoded");
    expect_token_error(res, 400, "invalid_request");
}

// spec 4.3: refresh tokens rotate; reusing an old one revokes the family.
TEST_F(SandboxToken, RefreshRotatesAndReuseRevokesTheFamily_spec4_3) {
    const auto first = sign_in_web();
    auto second_res = refresh_public(json_string(first, "refresh_token"));
    ASSERT_TRUE(second_res) << why_no_answer(second_res);
    ASSERT_EQ(second_res->status, 200) << second_res->body;
    EXPECT_EQ(second_res->get_header_value("Cache-Control"), "no-store");
    const auto second = body(second_res);
    EXPECT_NE(json_string(second, "refresh_token"), json_string(first, "refresh_token"));
    EXPECT_EQ(me_status(json_string(second, "access_token")), 200);

    // The rotated-out token comes back: refused, and everything of this grant stops working.
    expect_token_error(refresh_public(json_string(first, "refresh_token")), 400, "invalid_grant");
    EXPECT_EQ(me_status(json_string(second, "access_token")), 401);
    expect_token_error(refresh_public(json_string(second, "refresh_token")), 400, "invalid_grant");
}

// Two concurrent refreshes with one token: one wins, the other is a reuse.
TEST_F(SandboxToken, ConcurrentRefreshGivesOneSuccessThenRevokes_spec4_3) {
    const auto tokens = sign_in_web();
    const std::string refresh = json_string(tokens, "refresh_token");
    std::atomic<int> ready{0};
    int statuses[2] = {0, 0};
    std::string bodies[2];
    std::thread threads[2];
    for (int i = 0; i < 2; ++i) {
        threads[i] = std::thread([&, i] {
            auto c = client();
            const std::string form = form_encode(
                {{"grant_type", "refresh_token"}, {"refresh_token", refresh}, {"client_id", "roomkey-web"}});
            ++ready;
            while (ready.load() < 2) std::this_thread::yield();
            auto res = c->Post("/oauth/token", form, "application/x-www-form-urlencoded");
            statuses[i] = res ? res->status : -1;
            bodies[i] = res ? res->body : std::string();
        });
    }
    for (auto& t : threads) t.join();
    ASSERT_EQ((statuses[0] == 200) + (statuses[1] == 200), 1) << statuses[0] << " " << statuses[1];
    const auto winner = nlohmann::json::parse(statuses[0] == 200 ? bodies[0] : bodies[1], nullptr, false);
    EXPECT_EQ(me_status(json_string(winner, "access_token")), 401) << "the reuse revokes the winner's tokens too";
}

// spec 4.3: scope on refresh may only narrow the grant.
TEST_F(SandboxToken, RefreshScopeMayOnlyNarrow_spec4_3) {
    const auto tokens = sign_in_web("users.all:read rooms.all:read_write");
    auto narrowed = refresh_public(json_string(tokens, "refresh_token"), "users.profile.me:read");
    ASSERT_TRUE(narrowed) << why_no_answer(narrowed);
    ASSERT_EQ(narrowed->status, 200) << narrowed->body;
    const auto n = body(narrowed);
    EXPECT_EQ(json_string(n, "scope"), "users.profile.me:read");
    EXPECT_EQ(me_status(json_string(n, "access_token")), 200);
    auto status = bearer_get("/my/status", json_string(n, "access_token"));
    ASSERT_TRUE(status) << why_no_answer(status);
    EXPECT_EQ(status->status, 403) << "the narrowed token lost users.status.me:read";

    // The grant itself keeps its scope: the next refresh may ask for all of it again.
    auto full = refresh_public(json_string(n, "refresh_token"), "users.all:read rooms.all:read_write");
    ASSERT_TRUE(full) << why_no_answer(full);
    ASSERT_EQ(full->status, 200) << full->body;
    const auto f = body(full);
    expect_token_error(refresh_public(json_string(f, "refresh_token"), "contacts.all:read"), 400, "invalid_scope");
}

// spec 2.3 / 5.4.2: without offline_access the refresh token stops after 14 days.
TEST_F(SandboxToken, RefreshTokenExpiresAfter14Days_spec5_4_2) {
    const auto tokens = sign_in_web();
    advance_clock(13 * 86400);
    auto ok = refresh_public(json_string(tokens, "refresh_token"));
    ASSERT_TRUE(ok) << why_no_answer(ok);
    ASSERT_EQ(ok->status, 200) << ok->body;
    advance_clock(86400 + 1);
    expect_token_error(refresh_public(json_string(body(ok), "refresh_token")), 400, "invalid_grant");
}

// spec 5.4.2: a refresh narrowed to exclude offline_access issues a refresh
// token that expires 14 days after the original consent (not after the
// refresh, and not extended by later refreshes).
TEST_F(SandboxToken, RefreshWithoutOfflineAccessExpires14DaysAfterConsent_spec5_4_2) {
    auto res = token_confidential(confidential_exchange(confidential_code("offline_access users.all:read")));
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 200) << res->body;
    auto refresh = [this](const std::string& token, const std::string& scope) {
        FormFields f{{"grant_type", "refresh_token"}, {"refresh_token", token}};
        if (!scope.empty()) f.emplace_back("scope", scope);
        return token_confidential(f);
    };
    auto narrowed = refresh(json_string(body(res), "refresh_token"), "users.all:read");
    ASSERT_TRUE(narrowed) << why_no_answer(narrowed);
    ASSERT_EQ(narrowed->status, 200) << narrowed->body;
    EXPECT_EQ(json_string(body(narrowed), "scope"), "users.all:read");
    advance_clock(10 * 86400);
    auto again = refresh(json_string(body(narrowed), "refresh_token"), "users.all:read");
    ASSERT_TRUE(again) << why_no_answer(again);
    ASSERT_EQ(again->status, 200) << again->body;
    advance_clock(4 * 86400 + 1);  // 14 days and a second after the consent
    const std::string why =
        expect_token_error(refresh(json_string(body(again), "refresh_token"), ""), 400, "invalid_grant");
    EXPECT_NE(why.find("expired"), std::string::npos) << why;
}

// spec 5.4.3: with offline_access (confidential only) the refresh token has no expiry.
TEST_F(SandboxToken, OfflineAccessRefreshTokenDoesNotExpire_spec5_4_3) {
    auto res = token_confidential(confidential_exchange(confidential_code("offline_access users.all:read")));
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const auto tokens = body(res);
    advance_clock(400 * 86400);
    auto refreshed = token_confidential(
        {{"grant_type", "refresh_token"}, {"refresh_token", json_string(tokens, "refresh_token")}});
    ASSERT_TRUE(refreshed) << why_no_answer(refreshed);
    EXPECT_EQ(refreshed->status, 200) << refreshed->body;
}

// A refresh token is bound to its client.
TEST_F(SandboxToken, RefreshTokenOfAnotherClientIsInvalidGrant_spec4_3) {
    const auto tokens = sign_in_web();
    expect_token_error(
        token_confidential({{"grant_type", "refresh_token"}, {"refresh_token", json_string(tokens, "refresh_token")}}),
        400, "invalid_grant");
}

}  // namespace
}  // namespace roomkey::sandbox::testing
