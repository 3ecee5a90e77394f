// app_signin_test.cpp: the App's sign-in: its start, the callback, and a refused or late callback that makes no token request (spec 4.2, 4.3, 7.1)
// (tests/support/app_harness.hpp drives the App as the browser does).
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

// ---------------------------------------------------------------------------
// Sign-in start (spec 4.2, 5.4)
// ---------------------------------------------------------------------------

// spec 4.2 / 5.4.1: Sign in makes a PKCE pair and a state through shared/,
// keeps them single-use for the callback and goes to the consent screen.
TEST(App, SignInStartKeepsPendingAuthorizationAndNavigatesToConsent) {
    AppHarness h;
    h.start();
    ASSERT_TRUE(h.app->config()) << "the helper's /config.json is read at start: " << h.app->config_error();
    h.apply(intent::SignIn{kScopes});

    ASSERT_EQ(h.stored.size(), 1u) << "the pending authorization goes to sessionStorage";
    ASSERT_EQ(h.navigations.size(), 1u) << "the browser is sent to the consent screen";
    auto pending = parse_pending(h.stored[0]);
    ASSERT_TRUE(pending) << to_string(pending.error());
    const std::string& url = h.navigations[0];
    EXPECT_EQ(url.rfind(std::string(roomkey::testing::FakeService::kConsentUrl), 0), 0u);
    EXPECT_EQ(query_value(url, "state"), pending->state) << "the state sent is the state kept";
    EXPECT_EQ(query_value(url, "code_challenge"), s256_challenge(pending->code_verifier))
        << "S256 challenge of the kept verifier (spec 4.2)";
    EXPECT_EQ(query_value(url, "code_challenge_method"), std::string("S256"));
    EXPECT_EQ(query_value(url, "client_id"), std::string(kClientId));
    EXPECT_EQ(query_value(url, "redirect_uri"), std::string(kRedirectUri));
    EXPECT_FALSE(contains(url, pending->code_verifier)) << "the verifier never goes in a URL";
    EXPECT_EQ(h.app->session_shown().session_label(), "signing in");
    EXPECT_TRUE(h.sent_to("/oauth/token").empty()) << "no token request before the callback";
}

// spec 5.4.3 / 2.1: a public client's sign-in with offline_access is refused
// by shared/ before the browser leaves the page.
TEST(App, SignInWithOfflineAccessAsPublicClientIsRefusedLocally) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{ScopeSet{"offline_access", "users.all:read"}});
    EXPECT_TRUE(h.navigations.empty()) << "no navigation for a request the service would refuse";
    EXPECT_TRUE(h.stored.empty());
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_TRUE(contains(h.app->last_error()->code, "5003")) << h.app->last_error()->code;
}

TEST(App, SignInWithoutHelperConfigExplainsWhy) {
    AppHarness h;
    h.answer_config = false;
    h.start();
    h.apply(intent::SignIn{kScopes});
    EXPECT_TRUE(h.navigations.empty());
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    EXPECT_FALSE(h.app->config_error().empty());
}

// ---------------------------------------------------------------------------
// The callback (spec 4.2, 4.3, 7.1)
// ---------------------------------------------------------------------------

// spec 4.2 -> 4.3: the validated callback is exchanged once, through the
// helper's token route, then /me and /my/status are read (spec 4.4, 4.5).
// Every step of the flow in the HTTP log, so a failed sign-in can be read there: the navigation
// to the consent screen (told again on the page the callback loads, from the
// record it consumed) and the callback, before the token exchange.
TEST(App, TheLogShowsTheAuthorizationRequestAndTheCallbackAsSteps) {
    AppHarness h;
    const std::string redirect = h.sign_in();
    ASSERT_FALSE(redirect.empty()) << "the sign-in never reached the consent redirect";
    std::vector<std::string> titles;
    for (const LogEntry& entry : h.app->log().entries()) titles.push_back(entry_title(entry));
    ASSERT_GE(titles.size(), 3u);
    auto index_of = [&](std::string_view needle) {
        for (std::size_t i = 0; i < titles.size(); ++i) {
            if (titles[i].find(needle) != std::string::npos) return static_cast<long>(i);
        }
        return -1L;
    };
    const long request = index_of("authorization request");
    const long callback = index_of("callback (spec 4.2)");
    const long exchange = index_of("/oauth/token");
    std::string all;
    for (const auto& t : titles) all += t + "\n";
    ASSERT_GE(request, 0) << all;
    ASSERT_GE(callback, 0);
    ASSERT_GE(exchange, 0);
    EXPECT_LT(request, callback);
    EXPECT_LT(callback, exchange);
    const std::string code = query_value(redirect, "code").value_or("");
    ASSERT_FALSE(code.empty()) << "no code in " << redirect;
    for (const LogEntry& entry : h.app->log().entries()) {
        const RenderedExchange shown = render(entry, h.app->redaction(), false);
        EXPECT_EQ(shown.request_line.find(code), std::string::npos) << "the code is masked: " << shown.request_line;
    }
}

TEST(App, FullSignInExchangesTheCodeAndLoadsTheDashboard) {
    AppHarness h;
    const std::string redirect = h.sign_in();
    ASSERT_FALSE(redirect.empty()) << "the sign-in never reached the consent redirect";

    const auto token_requests = h.sent_to("/oauth/token");
    ASSERT_EQ(token_requests.size(), 1u) << "exactly one code exchange";
    const HttpRequest& exchange = token_requests[0];
    EXPECT_EQ(exchange.method, Method::Post);
    EXPECT_EQ(exchange.headers.get("X-Roomkey-Request"), std::string("1")) << "the helper's anti-CSRF header";
    EXPECT_EQ(form_value(exchange.body, "grant_type"), std::string("authorization_code"));
    EXPECT_EQ(form_value(exchange.body, "code"), query_value(redirect, "code"));
    EXPECT_TRUE(form_value(exchange.body, "code_verifier")) << "PKCE verifier sent (spec 4.3)";
    EXPECT_EQ(form_value(exchange.body, "client_id"), std::string(kClientId)) << "public client (spec 4.3)";
    EXPECT_FALSE(exchange.headers.has("authorization")) << "no Basic for a public client";

    EXPECT_EQ(h.app->session_shown().session_label(), "signed in");
    ASSERT_TRUE(h.app->dashboard().account().value) << h.app->dashboard().account().error;
    EXPECT_EQ(h.app->dashboard().account().value->account_id, "4242");
    ASSERT_TRUE(h.app->dashboard().status().value) << h.app->dashboard().status().error;
    EXPECT_EQ(h.app->dashboard().status().value->unread_num, 12);
    ASSERT_TRUE(h.app->dashboard().rooms().value) << h.app->dashboard().rooms().error;
    EXPECT_EQ(h.app->dashboard().selected_room(), "7") << "the first room is chosen";
    EXPECT_FALSE(h.app->last_error());

    for (const HttpRequest& api : h.sent_to("/api/")) {
        const auto auth = api.headers.get("authorization");
        ASSERT_TRUE(auth) << api.url;
        EXPECT_EQ(auth->rfind("Bearer ", 0), 0u) << "spec 5.2.1: Bearer in the header";
        EXPECT_FALSE(contains(api.url, auth->substr(7))) << "the token never goes in the URL (spec 5.1.2)";
    }
}

TEST(App, ReloadAfterSignInAsksToSignInAgain) {
    AppHarness h;
    h.sign_in();
    ASSERT_EQ(h.app->session_shown().session_label(), "signed in");
    h.reload();
    h.start("https://127.0.0.1:8443/callback", std::nullopt);
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out") << "tokens lived in memory only";
    EXPECT_FALSE(h.app->dashboard().account().value);
}

// spec 4.2: a state that is not ours ends in a clear error and no token request.
TEST(App, TamperedStateMakesNoTokenRequest) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto redirect = h.service.consent(h.navigations.at(0));
    ASSERT_TRUE(redirect) << redirect.error().description;
    const std::string code = *query_value(*redirect, "code");
    h.reload();
    h.start(std::string(kRedirectUri) + "?code=" + code + "&state=forged-state-value", h.stored.at(0));

    EXPECT_TRUE(h.sent_to("/oauth/token").empty()) << "no token request after a rejected callback";
    EXPECT_EQ(h.app->session_shown().session_label(), "failed");
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_TRUE(contains(h.app->last_error()->title, "state")) << h.app->last_error()->title;
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    h.apply(intent::TryAgain{});
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
    EXPECT_FALSE(h.app->last_error());
}

// spec 4.2 / 7.1 3001: Deny -> error=access_denied.
TEST(App, DeniedConsentShows3001AndMakesNoTokenRequest) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto pending = parse_pending(h.stored.at(0));
    ASSERT_TRUE(pending) << to_string(pending.error());
    h.reload();
    h.start(std::string(kRedirectUri) + "?error=access_denied&state=" + pending->state, h.stored.at(0));
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "3001 access_denied");
    EXPECT_FALSE(h.app->last_error()->remedy.empty()) << "the remedy comes from shared/'s catalog";
}

// spec 7.1: an error code on the redirect is shown with its number.
TEST(App, ConsentScreenErrorShowsTheSpecCode) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto pending = parse_pending(h.stored.at(0));
    ASSERT_TRUE(pending) << to_string(pending.error());
    h.reload();
    h.start(std::string(kRedirectUri) + "?error=invalid_scope&error_code=5003&state=" + pending->state, h.stored.at(0));
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "5003 scope_unregistered");
}

// The pending record is single use: a replayed callback URL has nothing to match.
TEST(App, CallbackWithoutPendingAuthorizationMakesNoTokenRequest) {
    AppHarness h;
    h.start(std::string(kRedirectUri) + "?code=abc&state=xyz", std::nullopt);
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
}

// spec 2.2 / 8.3: a code older than 1 minute is refused (invalid_grant).
TEST(App, ExpiredCodeEndsInInvalidGrantWithTryAgain) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto redirect = h.service.consent(h.navigations.at(0));
    ASSERT_TRUE(redirect) << redirect.error().description;
    h.now += Seconds(61);
    h.reload();
    h.start(*redirect, h.stored.at(0));
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 1u) << "the exchange was tried once, never retried";
    EXPECT_EQ(h.app->session_shown().session_label(), "failed");
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "invalid_grant");
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    EXPECT_FALSE(h.app->dashboard().account().value);
}

// spec 2.2 / 8.3: the code lives 1 minute. A validated callback that waited
// longer than that for the helper's /config.json is not exchanged at all.
TEST(App, CallbackThatWaitedOverAMinuteForTheConfigIsNotExchanged) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto redirect = h.service.consent(h.navigations.at(0));
    ASSERT_TRUE(redirect) << redirect.error().description;
    h.reload();
    h.app->start(*redirect, h.stored.at(0), h.now);
    h.drain();
    ASSERT_EQ(h.outstanding.size(), 1u) << "only /config.json is asked for";
    EXPECT_EQ(h.app->session_shown().session_label(), "exchanging") << "validated, waiting for the token route";
    h.now += Seconds(61);  // the helper's configuration was slow to come
    h.settle();

    EXPECT_TRUE(h.sent_to("/oauth/token").empty()) << "no token request with an expired code";
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "code expired");
    EXPECT_TRUE(contains(h.app->last_error()->message, "61 s")) << h.app->last_error()->message;
    EXPECT_TRUE(contains(h.app->last_error()->message, "1 minute")) << h.app->last_error()->message;
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    EXPECT_FALSE(h.app->session().tokens());
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), "code expired"));
    h.apply(intent::TryAgain{});
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
    EXPECT_FALSE(h.app->last_error());
}

TEST(App, CallbackThatWaitedUnderAMinuteIsExchanged) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto redirect = h.service.consent(h.navigations.at(0));
    ASSERT_TRUE(redirect) << redirect.error().description;
    h.reload();
    h.app->start(*redirect, h.stored.at(0), h.now);
    h.drain();
    h.now += Seconds(50);
    h.settle();
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 1u);
    EXPECT_EQ(h.app->session_shown().session_label(), "signed in");
}

// spec 7.1: every one of the 16 authorization error codes on the redirect
// ends in a message that names the code, offers try again, and no token request.
// The parameter is the spec's number; shared/ holds the rest of the row.
class AppAuthorizationErrorTest : public ::testing::TestWithParam<int> {};

TEST_P(AppAuthorizationErrorTest, ShowsTheCodeOffersTryAgainAndMakesNoTokenRequest) {
    const auto code = authorization_error_from_number(GetParam());
    ASSERT_TRUE(code) << GetParam() << " is in shared/'s spec 7.1 table";
    const AuthorizationErrorInfo& error = info(*code);
    const std::string number = std::to_string(GetParam());
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto pending = parse_pending(h.stored.at(0));
    ASSERT_TRUE(pending) << to_string(pending.error());
    h.reload();
    h.start(std::string(kRedirectUri) + "?error=" + std::string(error.oauth_error) + "&error_code=" + number +
                "&state=" + pending->state,
            h.stored.at(0));

    EXPECT_TRUE(h.sent_to("/oauth/token").empty()) << number << ": no token request";
    ASSERT_TRUE(h.app->last_error()) << number;
    EXPECT_EQ(h.app->last_error()->code, number + " " + std::string(error.identifier));
    EXPECT_TRUE(h.app->last_error()->offers_try_again) << number;
    EXPECT_FALSE(h.app->last_error()->remedy.empty()) << number << ": the remedy from shared/'s catalog";
    EXPECT_EQ(h.app->session_shown().session_label(), "failed");
    // What the page API and the text mirror show.
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), "\"code\":\"" + number + " ")) << number;
    h.apply(intent::TryAgain{});
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
}

// Spec 7.1, all 16 rows.
const std::vector<int> kSpec71Codes = {1001,  3001,  4001,  4002,  5001,  5002,  5003,  11000,
                                       12000, 13000, 14000, 15000, 16000, 18000, 19000, 20000};

INSTANTIATE_TEST_SUITE_P(Spec71, AppAuthorizationErrorTest, ::testing::ValuesIn(kSpec71Codes),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                             const auto code = authorization_error_from_number(param_info.param);
                             return "E" + std::to_string(param_info.param) + "_" +
                                    std::string(code ? to_string(*code) : "unknown");
                         });

TEST(App, EverySpec71CodeIsTested) {
    std::vector<int> shared_table;
    for (const auto& error : all_authorization_errors()) shared_table.push_back(to_number(error.code));
    EXPECT_EQ(shared_table, kSpec71Codes) << "shared/'s table and this test list the same 16 codes";
}


}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
