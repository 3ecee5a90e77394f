// app_session_test.cpp: the App's session: refresh, 401 retry, sign-out, API-token mode and a refresh with fewer scopes (spec 4.3, 5.1, 5.2)
// (tests/support/app_harness.hpp drives the App as the browser does).
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

// ---------------------------------------------------------------------------
// Session: refresh (spec 5.2.2, 5.2.3, 4.3)
// ---------------------------------------------------------------------------

// spec 5.2.2: 401 invalid_token -> one refresh, one retry, the call succeeds.
TEST(App, ExpiredAccessTokenIsRefreshedAndTheCallRetried) {
    AppHarness h;
    h.sign_in();
    h.service.expire_access_tokens();  // the service's clock moved on; ours did not
    h.apply(intent::ReloadAccount{});
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "the code exchange, then one refresh";
    EXPECT_EQ(form_value(h.sent_to("/oauth/token").back().body, "grant_type"), std::string("refresh_token"));
    EXPECT_EQ(h.app->counters().token_refreshes, 1);
    EXPECT_GE(h.app->counters().retries_after_401, 1);
    EXPECT_EQ(h.app->session_shown().session_label(), "signed in");
    EXPECT_TRUE(h.app->dashboard().account().error.empty()) << h.app->dashboard().account().error;
    EXPECT_FALSE(h.app->last_error());
}

// asonas/chatwork-ruby issue #42 (PR #43): the live service's 401 for an expired
// token has an empty body; the error is only in WWW-Authenticate. The app
// refreshes once and retries once, reading the header alone.
TEST(App, EmptyBodied401IsRefreshedAndRetriedOnce_ruby42) {
    ASSERT_EQ(roomkey::testing::FakeService::invalid_token(kAccessTokenExpiredDescription).body, "")
        << "the fake answers as the service";
    AppHarness h;
    h.sign_in();
    h.service.expire_access_tokens();
    const std::size_t before = h.sent_to("/api/me").size();
    h.apply(intent::ReloadAccount{});
    EXPECT_EQ(h.app->counters().token_refreshes, 1);
    EXPECT_EQ(h.sent_to("/api/me").size() - before, 2u) << "the refused call and its one retry";
    EXPECT_TRUE(h.app->dashboard().account().error.empty()) << h.app->dashboard().account().error;
    EXPECT_FALSE(h.app->last_error());
}

// spec 5.2.2: exactly one refresh and one retry; a second 401 gives up plainly.
TEST(App, StillUnauthorizedAfterTheRetryGivesUp) {
    AppHarness h;
    h.sign_in();
    h.service.reject_every_access_token = true;
    const std::size_t before = h.sent_to("/api/me").size();
    h.apply(intent::ReloadAccount{});
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "one refresh, not a loop";
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_TRUE(contains(h.app->last_error()->message, "unauthorized_after_retry")) << h.app->last_error()->message;
    // The box and the mirror say it in words; the reason's identifier is the page API's and the developer view's.
    EXPECT_EQ(h.app->last_error()->shown(), "It was not sent: you are not signed in, or the session ended.");
    EXPECT_EQ(h.sent_to("/api/me").size() - before, 2u) << "the first try and its one retry";
}

TEST(App, NoAnswerFromTheHelperIsShownPlainly) {
    AppHarness h;
    h.start();
    h.app->apply(intent::UseApiToken{std::string(AppHarness::kApiToken)}, h.now);
    h.drain();
    ASSERT_FALSE(h.outstanding.empty()) << "no request went out for the API token";
    while (!h.outstanding.empty()) {
        h.app->on_transport_error(h.outstanding.front().id, "network error", h.now);
        h.outstanding.pop_front();
        h.drain();
    }
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_TRUE(contains(h.app->last_error()->message, "No answer from roomkey-helper (network error)"))
        << h.app->last_error()->message;
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
}

// spec 5.2.3: refreshed ahead of the 30-minute expiry when auto refresh is on.
TEST(App, AutoRefreshHappensBeforeExpiry) {
    AppHarness h;
    h.sign_in();
    const auto expires = h.app->session_shown().access_expires_at();
    ASSERT_TRUE(expires) << "no access token expiry after the sign-in";
    h.now = *expires - Seconds(10);
    h.app->tick(h.now);
    h.settle();
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "refreshed before the access token expired";
    EXPECT_GT(*h.app->session_shown().access_expires_at(), *expires);
}

TEST(App, AutoRefreshOffWaitsForTheNextCall) {
    AppHarness h;
    h.sign_in();
    h.apply(intent::SetAutoRefresh{false});
    const auto expires = h.app->session_shown().access_expires_at();
    ASSERT_TRUE(expires) << "no access token expiry after the sign-in";
    h.now = *expires + Seconds(5);
    h.app->tick(h.now);
    h.settle();
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 1u) << "no background refresh while switched off";
    h.apply(intent::RefreshNow{});
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "refresh now still works";
    EXPECT_EQ(h.app->counters().token_refreshes, 1);
}

// spec 5.4.2: invalid_grant on refresh ends the session with a clear reason.
TEST(App, RevokedRefreshTokenEndsTheSession) {
    AppHarness h;
    h.sign_in();
    h.service.revoke_refresh_tokens();
    h.apply(intent::RefreshNow{});
    EXPECT_EQ(h.app->session_shown().session_label(), "failed");
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "invalid_grant");
    EXPECT_FALSE(h.app->dashboard().account().value) << "nothing of the ended session is shown as current";
}

// Spec 5.4.2: the grant ends 14 days after the sign-in, however often it is
// refreshed, though each refresh answer says "14 days" again (the fake answers
// as the service does). The end the session panel shows stays the grant's
// across refreshes days apart, and an hour past it the session has expired
// without sending the dead refresh token. (The BFF mode's cookie and
// /bff/session: BffGrantEnd in tests/integration/bff_grant_end_test.cpp.)
TEST(App, ThePagesSessionShowsTheGrantsEndAcrossRefreshes) {
    AppHarness h;
    h.sign_in();
    const Instant grant_end = h.now + Seconds(14 * 24 * 3600);
    ASSERT_TRUE(h.app->session().tokens()) << "signed in: " << h.app->session_shown().session_label();
    ASSERT_TRUE(h.app->session().tokens()->refresh_expires_at) << "the first refresh token has no end";
    EXPECT_EQ(*h.app->session().tokens()->refresh_expires_at, grant_end);
    const Instant signed_in_at = h.now;
    for (int day : {1, 5, 9, 13}) {
        SCOPED_TRACE("day " + std::to_string(day));
        const std::size_t before = h.sent_to("/oauth/token").size();
        h.now = signed_in_at + Seconds(day * 24 * 3600);
        h.app->tick(h.now);
        h.settle();
        ASSERT_EQ(h.sent_to("/oauth/token").size(), before + 1) << "the access token has long expired: one refresh";
        ASSERT_EQ(h.app->session_shown().session_label(), "signed in");
        ASSERT_TRUE(h.app->session().tokens()->refresh_expires_at) << "the refreshed refresh token has no end";
        EXPECT_EQ(*h.app->session().tokens()->refresh_expires_at, grant_end)
            << "the end shown moved with the refresh: " << unix_seconds(*h.app->session().tokens()->refresh_expires_at)
            << " instead of " << unix_seconds(grant_end);
    }
    const std::size_t before = h.sent_to("/oauth/token").size();
    h.now = grant_end + Seconds(3600);
    h.app->tick(h.now);
    h.settle();
    EXPECT_EQ(h.app->session_shown().session_label(), "expired");
    EXPECT_EQ(h.sent_to("/oauth/token").size(), before) << "a dead refresh token is not sent";
    EXPECT_EQ(h.app->counters().token_refreshes, 4);
}

TEST(App, SignOutForgetsTokensAndMasksTheLogForGood) {
    AppHarness h;
    h.sign_in();
    const auto& tokens = h.app->session().tokens();
    ASSERT_TRUE(tokens) << "no tokens after the sign-in";
    const std::string access = tokens->access_token;
    const std::string refresh = tokens->refresh_token;
    h.apply(intent::SignOut{});
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
    EXPECT_FALSE(h.app->session().tokens());
    EXPECT_FALSE(h.app->dashboard().account().value);
    ASSERT_FALSE(h.app->log().entries().empty()) << "the log keeps its entries";
    for (const LogEntry& entry : h.app->log().entries()) {
        const RenderedExchange shown = render(entry, h.app->redaction(), /*reveal=*/true);
        for (const auto& [name, value] : shown.request_headers) EXPECT_FALSE(contains(value, access)) << name;
        EXPECT_FALSE(contains(shown.request_body, refresh)) << "even revealed, the old secrets are gone";
        EXPECT_FALSE(contains(shown.response_body, access));
        EXPECT_FALSE(contains(shown.response_body, refresh));
    }
}

// Granted scopes beside requested ones, with a warning when they differ.
TEST(App, ScopesDifferWhenTheGrantIsNarrower) {
    AppHarness h;
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    EXPECT_FALSE(h.app->session_shown().scopes_differ()) << "the fake grants what was asked";
    h.apply(intent::SignOut{});
    h.navigations.clear();
    h.stored.clear();
    // A narrower grant: the token answer names fewer scopes than requested.
    h.app->apply(intent::SignIn{ScopeSet{"users.all:read", "rooms.all:read_write", "contacts.all:read"}}, h.now);
    h.drain();
    ASSERT_FALSE(h.stored.empty()) << "no pending authorization stored for the wider sign-in";
    auto pending = parse_pending(h.stored.back());
    ASSERT_TRUE(pending) << to_string(pending.error());
    h.reload();
    h.app->start(std::string(kRedirectUri) + "?code=narrow&state=" + pending->state, h.stored.back(), h.now);
    h.drain();
    ASSERT_EQ(h.outstanding.size(), 1u);  // /config.json
    h.app->on_response(h.outstanding.front().id, h.answer(h.outstanding.front().request), h.now);
    h.outstanding.pop_front();
    h.drain();
    ASSERT_EQ(h.outstanding.size(), 1u) << "the code exchange";
    h.app->on_response(h.outstanding.front().id,
                       make_token_response("at-narrow-0001", "rt-narrow-0001", 1800, ScopeSet{"users.all:read"}),
                       h.now);
    h.outstanding.clear();
    h.drain();
    EXPECT_EQ(h.app->session_shown().session_label(), "signed in");
    EXPECT_TRUE(h.app->session_shown().scopes_differ()) << "granted is narrower than requested";
}

// ---------------------------------------------------------------------------
// API-token mode (spec 5.1)
// ---------------------------------------------------------------------------

TEST(App, ApiTokenIsSentOnlyInItsHeaderAndMasked) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{"  " + std::string(AppHarness::kApiToken) + "\n"});
    EXPECT_EQ(h.app->session_shown().session_label(), "api token");
    ASSERT_TRUE(h.app->dashboard().account().value) << h.app->dashboard().account().error;
    EXPECT_EQ(h.app->dashboard().account().value->name, std::string("Demo User"));
    const auto api = h.sent_to("/api/");
    ASSERT_GE(api.size(), 3u);
    for (const HttpRequest& r : api) {
        EXPECT_EQ(r.headers.get("x-servicetoken"), std::string(AppHarness::kApiToken)) << "spec 5.1.1";
        EXPECT_FALSE(r.headers.has("authorization")) << "no Bearer in API-token mode";
        EXPECT_FALSE(contains(r.url, AppHarness::kApiToken)) << "spec 5.1.2: never in the URL";
    }
    EXPECT_FALSE(contains(h.app->sign_in().masked_api_token(), AppHarness::kApiToken));
    EXPECT_TRUE(h.sent_to("/oauth/token").empty());
}

TEST(App, WrongApiTokenIsReportedPlainly) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{"not-the-token-0000"});
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "HTTP 401");
    EXPECT_TRUE(contains(h.app->last_error()->title, "API token")) << h.app->last_error()->title;
}

TEST(App, ApiTokenWithControlCharactersIsRefusedBeforeSending) {
    AppHarness h;
    h.start();
    const std::size_t before = h.sent.size();
    h.apply(
        intent::UseApiToken{"abc\x01"
                            "def"});
    EXPECT_EQ(h.sent.size(), before) << "shared/'s builder refuses it: nothing is sent";
    EXPECT_EQ(h.app->holder(), CredentialHolder::none);
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
}


// ---------------------------------------------------------------------------
// Refresh with fewer scopes (spec 4.3)
// ---------------------------------------------------------------------------

TEST(App, RefreshWithFewerScopesSendsThemAndShowsTheNarrowerGrant) {
    AppHarness h;
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    ASSERT_EQ(h.app->session_shown().session_label(), "signed in");
    const std::size_t before = h.sent_to("/oauth/token").size();
    h.apply(intent::RefreshScopes{ScopeSet{"users.all:read"}});
    const auto token_requests = h.sent_to("/oauth/token");
    ASSERT_EQ(token_requests.size(), before + 1) << "one refresh";
    EXPECT_EQ(form_value(token_requests.back().body, "grant_type"), "refresh_token");
    EXPECT_EQ(form_value(token_requests.back().body, "scope"), "users.all:read");
    ASSERT_TRUE(h.app->session().tokens()) << "no tokens after the refresh";
    EXPECT_EQ(h.app->session().tokens()->scope, ScopeSet{"users.all:read"}) << "the fake service granted the subset";
    const ScopeRefresh& narrow = h.app->sign_in().scope_refresh();
    EXPECT_FALSE(narrow.pending());
    ASSERT_TRUE(narrow.granted_after()) << "no granted scopes recorded after the refresh";
    EXPECT_EQ(*narrow.granted_after(), ScopeSet{"users.all:read"});
    EXPECT_EQ(narrow.granted_before(), (ScopeSet{"users.all:read", "rooms.all:read_write"}));
    EXPECT_FALSE(h.app->session_shown().scopes_differ()) << "what was asked last is what was granted: no warning";
    EXPECT_EQ(h.app->counters().token_refreshes, 1);
}

TEST(App, RefreshWithMoreScopesIsRefusedBeforeAnythingIsSent) {
    AppHarness h;
    h.sign_in(ScopeSet{"users.all:read"});
    const std::size_t before = h.sent.size();
    h.apply(intent::RefreshScopes{ScopeSet{"users.all:read", "rooms.all:read"}});
    EXPECT_EQ(h.sent.size(), before) << "nothing sent: the service would refuse a wider scope";
    EXPECT_NE(h.app->sign_in().scope_refresh().error().find("only narrow"), std::string::npos)
        << h.app->sign_in().scope_refresh().error();
    EXPECT_EQ(h.app->session_shown().session_label(), "signed in") << "the session is untouched";
    h.apply(intent::SignOut{});
    EXPECT_EQ(h.app->sign_in().scope_refresh().error(), "") << "sign-out forgets it";
}


}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
