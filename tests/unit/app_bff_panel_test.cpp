// The BFF panel on its own (web/app/bff_panel.hpp), driven through a host
// that records what it is asked: what a user relies on when roomkey-helper
// holds the session. Signing in leaves the page for the helper's
// /bff/login with the scopes asked for, and the page keeps no state,
// verifier or token; on load the page asks /bff/session once, and a
// session there signs the page in with the helper holding the
// credentials, its lifetimes as the helper counts them; a refresh is one
// at a time; the helper saying there is no session (401 X-Roomkey-Session:
// none) signs the page out, drops every waiting call and tells the user.
#include "app/bff_panel.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recording_sign_in_host.hpp"
#include "roomkey/bff_session.hpp"

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together.
namespace app_bff_panel_test {
namespace {

struct Host : test_support::RecordingSignInHost<BffHost> {
    std::vector<std::pair<BffRoute, HttpRequest>> sent;
    std::vector<std::string> navigated;
    int dropped = 0;

    void send_bff(BffRoute route, std::string, HttpRequest request, Instant) override {
        sent.emplace_back(route, std::move(request));
    }
    void navigate(std::string url) override { navigated.push_back(std::move(url)); }
    void drop_calls(const std::string&, Instant) override { ++dropped; }

    int sent_to(BffRoute route) const {
        int n = 0;
        for (const auto& [r, request] : sent) n += r == route;
        return n;
    }
};

struct Fixture {
    Host host;
    RestClient client{SessionConfig{}};
    RandomSource random = [](unsigned char* out, std::size_t size) {
        for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<unsigned char>(i + 3);
    };
    SignIn sign_in{host, client, random};
    BffPanel panel{host, client, sign_in};
    Instant t0 = instant_from_unix_seconds(1'800'000'000);

    Fixture() {
        PublicConfig config;
        config.configured = true;
        config.session = SessionCustody::bff;
        config.bff_login = "/bff/login";
        config.bff_session = "/bff/session";
        config.bff_refresh = "/bff/refresh";
        config.bff_logout = "/bff/logout";
        host.loaded = config;
    }
    static HttpResponse session_answer(std::int64_t expires_in, std::optional<std::int64_t> refresh_expires_in) {
        BffSessionInfo info;
        info.signed_in = true;
        info.scope = {"users.all:read", "rooms.all:read_write"};
        info.expires_in = expires_in;
        info.refresh_expires_in = refresh_expires_in;
        HttpResponse response;
        response.status = 200;
        response.headers.set("content-type", "application/json");
        response.body = to_json(info);
        return response;
    }
};

TEST(BffPanel, SigningInLeavesForTheHelpersLoginWithTheScopesAndKeepsNoSecret) {
    Fixture f;
    f.panel.sign_in({"users.all:read", "rooms.all:read_write"}, f.t0);
    ASSERT_EQ(f.host.navigated.size(), 1u);
    const std::string& url = f.host.navigated[0];
    EXPECT_EQ(url.rfind("/bff/login?", 0), 0u) << url;
    EXPECT_NE(url.find("users.all"), std::string::npos) << "the scopes asked for go with it: " << url;
    EXPECT_EQ(url.find("code_challenge"), std::string::npos) << "PKCE is the helper's: " << url;
    EXPECT_EQ(url.find("state="), std::string::npos) << "so is the state: " << url;
    EXPECT_TRUE(f.panel.signing_in());
    EXPECT_TRUE(f.host.secrets.empty()) << "the page holds no verifier, code or token";
    EXPECT_TRUE(f.host.sent.empty());
}

TEST(BffPanel, OnLoadThePageAsksTheHelperOnceAndASessionThereSignsItIn) {
    Fixture f;
    f.panel.on_config(f.t0);
    f.panel.on_config(f.t0);  // asked again while the first is on its way
    EXPECT_EQ(f.host.sent_to(BffRoute::session), 1) << "one GET /bff/session in flight";
    ASSERT_FALSE(f.host.sent.empty());
    EXPECT_EQ(f.host.sent[0].second.method, Method::Get);
    EXPECT_FALSE(f.panel.view().signed_in());

    f.panel.on_answer(BffRoute::session, Fixture::session_answer(3600, 14 * 86400 - 60), "", f.t0);
    EXPECT_TRUE(f.panel.view().signed_in());
    EXPECT_EQ(f.client.holder(), CredentialHolder::helper) << "API calls go with the helper's cookie, no token";
    EXPECT_EQ(f.host.signed_in_count, 1) << "the account loads";
    ASSERT_TRUE(f.panel.view().access_expires_at().has_value());
    EXPECT_EQ(*f.panel.view().access_expires_at(), f.t0 + Seconds(3600)) << "the lifetime as the helper counts it";
    ASSERT_TRUE(f.panel.view().refresh_expires_at().has_value());
    EXPECT_EQ(*f.panel.view().refresh_expires_at(), f.t0 + Seconds(14 * 86400 - 60));
    EXPECT_FALSE(f.host.error);
}

TEST(BffPanel, ARefreshIsOneAtATime) {
    Fixture f;
    f.panel.on_config(f.t0);
    f.panel.on_answer(BffRoute::session, Fixture::session_answer(3600, std::nullopt), "", f.t0);
    f.panel.refresh(std::nullopt, f.t0);
    EXPECT_TRUE(f.panel.refreshing());
    f.panel.refresh(std::nullopt, f.t0);
    EXPECT_EQ(f.host.sent_to(BffRoute::refresh), 1) << "a second refresh waits for the first";
    f.panel.on_answer(BffRoute::refresh, Fixture::session_answer(3600, std::nullopt), "", f.t0 + Seconds(1));
    EXPECT_FALSE(f.panel.refreshing());
    EXPECT_TRUE(f.panel.view().signed_in());
    f.panel.refresh(std::nullopt, f.t0 + Seconds(2));
    EXPECT_EQ(f.host.sent_to(BffRoute::refresh), 2);
}

TEST(BffPanel, TheHelperSayingThereIsNoSessionSignsThePageOutAndTellsTheUser) {
    Fixture f;
    f.panel.on_config(f.t0);
    f.panel.on_answer(BffRoute::session, Fixture::session_answer(3600, std::nullopt), "", f.t0);
    ASSERT_EQ(f.client.holder(), CredentialHolder::helper);
    HttpResponse none;
    none.status = 401;
    none.headers.set(std::string(kBffSessionHeader), std::string(kBffNoSession));
    f.panel.on_answer(BffRoute::session, none, "", f.t0 + Seconds(5));
    EXPECT_FALSE(f.panel.view().signed_in());
    EXPECT_EQ(f.client.holder(), CredentialHolder::none) << "nobody holds credentials any more";
    EXPECT_EQ(f.host.dropped, 1) << "every waiting call goes";
    ASSERT_TRUE(f.host.error) << "the user is told why, and to sign in again";
    EXPECT_FALSE(f.host.error->remedy.empty());
}

}  // namespace
}  // namespace app_bff_panel_test
}  // namespace roomkey::app
