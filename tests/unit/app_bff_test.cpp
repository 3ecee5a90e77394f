// app_bff_test.cpp: the App in roomkey-helper's BFF mode (docs/bff.md),
// driven like the browser drives it against an in-memory helper: sign-in is
// a navigation to /bff/login, a new page load asks /bff/session and is
// signed in (a reload keeps the session), API calls carry no credential, a
// 401 marked "no session" signs out with the helper's reason, narrowing and
// sign-out go through the helper, and the log tells every step; no token
// ever reaches the App.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/app.hpp"
#include "app/page_state.hpp"
#include "json_answer.hpp"
#include "roomkey/bff_session.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {
namespace app_bff_test {
namespace {

const Instant t0 = instant_from_unix_seconds(1'700'000'000);
constexpr std::string_view kOrigin = "https://127.0.0.1:8443";

constexpr std::string_view kConfig =
    R"({"configured":true,"client_id":"roomkey-web","client_type":"confidential","session":"bff",)"
    R"("consent_url":"https://127.0.0.1:9000/oauth/authorize","redirect_uri":"https://127.0.0.1:8443/callback",)"
    R"("token_endpoint":"","api_base":"/api","token_header":"x-servicetoken","request_header":"X-Roomkey-Request",)"
    R"("bff_login":"/bff/login","bff_session":"/bff/session","bff_logout":"/bff/logout",)"
    R"("bff_refresh":"/bff/refresh","scope":"users.all:read rooms.all:read_write"})";

RandomSource zero_random() {
    return [](unsigned char* out, std::size_t size) {
        for (std::size_t i = 0; i < size; ++i) out[i] = 0;
    };
}

using roomkey::testing::json_answer;

// The helper's report of a token request it made, written as roomkey-helper
// writes it (shared/'s report_of and to_json), so this fake speaks the wire
// the helper speaks; the wire's literal text is pinned once, in
// bff_session_report_test (BffSessionReport.TheWireTextIsPinned).
BffTokenRequestReport token_report(GrantType grant, std::int64_t at, const std::string& scope) {
    BffTokenRequest request;
    request.grant_type = grant;
    request.status = 200;
    request.ms = 9;
    request.at = at;
    request.scope = scope;
    request.expires_in = 1800;
    return report_of(request, "https://127.0.0.1:9000/token", "https://127.0.0.1:8443/callback");
}

// roomkey-helper in BFF mode, in memory: it holds the session (a cookie the
// page never reads), answers the page's routes, and says which requests it
// got. It never gives the page a token: the test checks the App has none.
class FakeBffHelper {
public:
    bool session = false;
    std::string scope = "users.all:read rooms.all:read_write";
    std::int64_t expires_in = 1800;
    std::vector<BffTokenRequestReport> reports{token_report(GrantType::authorization_code, 1'700'000'000, scope)};
    bool end_session_on_next_api = false;     // the helper's refresh was refused
    std::optional<std::string> token_header;  // X-Roomkey-Token-Request on the next /api answer
    std::vector<HttpRequest> got;

    HttpResponse answer(const HttpRequest& request) {
        got.push_back(request);
        const std::string path = request.url.substr(0, request.url.find('?'));
        if (path == "/config.json") return json_answer(200, std::string(kConfig));
        if (path == "/bff/session") return session_body();
        if (path == "/bff/logout") {
            session = false;
            return json_answer(200, R"({"signed_in":false,"note":"roomkey forgot the tokens; the authorization )"
                                    R"(itself stays granted at the service until revoked there"})");
        }
        if (path == "/bff/refresh") {
            if (!session) return no_session();
            if (!request.body.empty()) {
                auto asked = nlohmann::json::parse(request.body);
                scope = asked["scope"].get<std::string>();
            }
            reports.push_back(token_report(GrantType::refresh_token, 1'700'000'500, scope));
            return session_body();
        }
        if (path.rfind("/api/", 0) == 0) {
            if (!session || end_session_on_next_api) {
                session = false;
                return no_session();
            }
            HttpResponse r = api(path);
            if (token_header) {
                r.headers.set("X-Roomkey-Token-Request", *token_header);
                token_header.reset();
            }
            return r;
        }
        return json_answer(404, R"({"errors":["not found"]})");
    }

private:
    HttpResponse session_body() {
        if (!session) return json_answer(200, R"({"signed_in":false})");
        BffSessionInfo body;
        body.signed_in = true;
        body.scope = *parse_scope_list(scope);
        body.expires_in = expires_in;
        body.refresh_expires_in = 1209600;
        body.token_requests = reports;
        return json_answer(200, to_json(body));
    }
    static HttpResponse no_session() {
        HttpResponse r = json_answer(401, R"({"errors":["roomkey session: the refresh token was refused; sign in again"]})");
        r.headers.set("X-Roomkey-Session", "none");
        return r;
    }
    static HttpResponse api(const std::string& path) {
        if (path == "/api/me") return json_answer(200, R"({"account_id":1001,"name":"Alice"})");
        if (path == "/api/my/status") {
            return json_answer(200, R"({"unread_room_num":0,"mention_room_num":0,"mytask_room_num":0,)"
                                    R"("unread_num":0,"mention_num":0,"mytask_num":0})");
        }
        if (path == "/api/rooms") return json_answer(200, R"([{"room_id":7,"name":"Team","type":"group"}])");
        return json_answer(200, R"({"message_id":"5"})");
    }
};

class BffHarness {
public:
    Instant now = t0;
    FakeBffHelper helper;
    std::unique_ptr<App> app;
    std::vector<std::string> navigations;

    // A page load at `url` (a reload, or the helper's 303 to / after the callback).
    void load(std::string_view url = "https://127.0.0.1:8443/") {
        app = std::make_unique<App>(zero_random(), std::string(kOrigin));
        app->start(url, std::nullopt, now);
        settle();
    }
    void apply(const Intent& intent) {
        app->apply(intent, now);
        settle();
    }
    void settle() {
        for (int round = 0; round < 50; ++round) {
            bool any = false;
            for (Effect& e : app->take_effects()) {
                if (auto* send = std::get_if<effect::Send>(&e)) {
                    any = true;
                    app->on_response(send->id, helper.answer(send->request), now);
                } else if (auto* nav = std::get_if<effect::Navigate>(&e)) {
                    navigations.push_back(nav->url);
                }
            }
            if (!any) return;
        }
    }
    // The user signs in: the navigation, the helper's consent round trip
    // (the browser never shows this page meanwhile), then / again.
    void sign_in(const ScopeSet& scopes) {
        apply(intent::SignIn{scopes});
        helper.session = true;
        helper.scope = format_scope_list(scopes);
        load();
    }
    std::vector<std::string> titles() const {
        std::vector<std::string> out;
        for (const LogEntry& entry : app->log().entries()) out.push_back(entry_title(entry));
        return out;
    }
    bool log_has(std::string_view text) const {
        for (const std::string& title : titles()) {
            if (title.find(text) != std::string::npos) return true;
        }
        return false;
    }
};

TEST(AppBff, SignInIsANavigationToTheHelperAndThePageKeepsNoState) {
    BffHarness h;
    h.load();
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
    h.apply(intent::SignIn{ScopeSet{"users.all:read", "rooms.all:read_write"}});
    ASSERT_EQ(h.navigations.size(), 1u);
    EXPECT_EQ(h.navigations[0], "/bff/login?" + form_encode({{"scope", "users.all:read rooms.all:read_write"}}));
    EXPECT_EQ(h.app->session_shown().session_label(), "signing in");
    for (const HttpRequest& request : h.helper.got) {
        EXPECT_NE(request.url, "/oauth/token") << "the page never calls a token endpoint in BFF mode";
    }
    EXPECT_TRUE(h.log_has("sign-in through roomkey-helper (BFF)"));
}

TEST(AppBff, ALoadAsksTheHelperAndAReloadKeepsTheSession) {
    BffHarness h;
    h.load();
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    EXPECT_EQ(h.app->holder(), CredentialHolder::helper);
    EXPECT_EQ(h.app->session_shown().session_label(), "signed in");
    ASSERT_TRUE(h.app->dashboard().account().value) << "no account after the BFF sign-in";
    EXPECT_EQ(h.app->dashboard().account().value->account_id, "1001");
    EXPECT_EQ(h.app->session_shown().tokens_held_by(), "held by roomkey-helper (BFF), never in this page");
    EXPECT_EQ(h.app->session_shown().access_expires_at(), h.now + Seconds(1800)) << "the countdown from expires_in";

    h.now += Seconds(60);
    h.load();  // a reload
    EXPECT_EQ(h.app->session_shown().session_label(), "signed in") << "a reload keeps the session";
    ASSERT_TRUE(h.app->dashboard().account().value) << "no account after the reload";
    ASSERT_TRUE(h.app->session_shown().granted_scopes()) << "no granted scopes after the reload";
    EXPECT_EQ(format_scope_list(*h.app->session_shown().granted_scopes()), "users.all:read rooms.all:read_write");
}

TEST(AppBff, ApiCallsCarryNoCredentialOnlyTheAntiCsrfHeader) {
    BffHarness h;
    h.load();
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    h.apply(intent::QueueMessage{"7", "hello", 1});
    int api_calls = 0;
    for (const HttpRequest& request : h.helper.got) {
        if (request.url.rfind("/api/", 0) != 0 && request.url.rfind("/bff/", 0) != 0) continue;
        ++api_calls;
        EXPECT_FALSE(request.headers.get("authorization")) << request.url;
        EXPECT_FALSE(request.headers.get("x-servicetoken")) << request.url;
        EXPECT_EQ(request.headers.get("X-Roomkey-Request"), std::optional<std::string>("1")) << request.url;
    }
    EXPECT_GE(api_calls, 5) << "session, /me, /my/status, /rooms and the post";
    ASSERT_FALSE(h.app->posting().posts().empty()) << "the post was never queued";
    EXPECT_EQ(h.app->posting().posts().back().stage, PostStage::delivered);
}

TEST(AppBff, TheLogTellsHowTheSessionWasMadeFromTheHelpersReport) {
    BffHarness h;
    h.load();
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    const auto titles = h.titles();
    auto at = [&](std::string_view text) {
        for (std::size_t i = 0; i < titles.size(); ++i) {
            if (titles[i].find(text) != std::string::npos) return static_cast<long>(i);
        }
        return -1L;
    };
    const long login = at("sign-in through roomkey-helper (BFF)");
    const long callback = at("GET /callback -> step  callback to roomkey-helper");
    const long exchange = at("token request by roomkey-helper (authorization_code)");
    EXPECT_TRUE(login >= 0 && callback > login && exchange > callback) << ::testing::PrintToString(titles);

    // A token request made while answering an API call: a header, logged once.
    h.helper.reports.push_back(token_report(GrantType::refresh_token, 1'700'000'900, h.helper.scope));
    h.helper.token_header = to_json(h.helper.reports.back());
    h.apply(intent::ReloadRooms{});
    long refreshes = 0;
    for (const std::string& title : h.titles()) refreshes += title.find("(refresh_token)") != std::string::npos;
    EXPECT_EQ(refreshes, 1) << "the header, then /bff/session's report of it: one entry";
}

TEST(AppBff, ANoSessionAnswerSignsOutWithTheHelpersReason) {
    BffHarness h;
    h.load();
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    h.helper.end_session_on_next_api = true;
    h.apply(intent::ReloadRooms{});
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
    EXPECT_EQ(h.app->holder(), CredentialHolder::none);
    ASSERT_TRUE(h.app->last_error()) << "signed out without an error to show";
    EXPECT_EQ(h.app->last_error()->title, "Signed out by roomkey-helper");
    EXPECT_NE(h.app->last_error()->message.find("the refresh token was refused"), std::string::npos);
    EXPECT_FALSE(h.app->dashboard().account().value) << "the account's data went with the session";
}

TEST(AppBff, AnErrorTheCallbackPutInTheFragmentIsShownAndLogged) {
    BffHarness h;
    h.load("https://127.0.0.1:8443/#bff_error=access_denied&bff_error_description=The%20user%20denied%20access");
    ASSERT_TRUE(h.app->last_error()) << "the #bff_error fragment showed no error";
    EXPECT_EQ(h.app->last_error()->title, "Sign-in denied");
    EXPECT_EQ(h.app->last_error()->code, "access_denied");
    EXPECT_TRUE(h.app->last_error()->offers_try_again);
    EXPECT_TRUE(h.log_has("callback to roomkey-helper (BFF)"));
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
}

TEST(AppBff, NarrowingAndRefreshGoThroughTheHelper) {
    BffHarness h;
    h.load();
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    h.apply(intent::RefreshScopes{ScopeSet{"users.all:read"}});
    bool sent = false;
    for (const HttpRequest& request : h.helper.got) {
        if (request.url == "/bff/refresh" && request.body == R"({"scope":"users.all:read"})") sent = true;
    }
    EXPECT_TRUE(sent) << "POST /bff/refresh with the narrower scope";
    ASSERT_TRUE(h.app->sign_in().scope_refresh().granted_after()) << "the narrower grant was not recorded";
    EXPECT_EQ(format_scope_list(*h.app->sign_in().scope_refresh().granted_after()), "users.all:read");
    EXPECT_EQ(format_scope_list(*h.app->session_shown().granted_scopes()), "users.all:read");
    EXPECT_TRUE(h.log_has("token request by roomkey-helper (refresh_token)"));

    // A scope not within the grant is refused before anything is sent.
    const std::size_t before = h.helper.got.size();
    h.apply(intent::RefreshScopes{ScopeSet{"rooms.all:read_write"}});
    EXPECT_EQ(h.helper.got.size(), before);
    EXPECT_FALSE(h.app->sign_in().scope_refresh().error().empty());

    h.apply(intent::RefreshNow{});
    EXPECT_EQ(h.helper.got.back().url, "/bff/refresh");
    EXPECT_TRUE(h.helper.got.back().body.empty());
    EXPECT_EQ(h.app->counters().token_refreshes, 2);
}

TEST(AppBff, IncrementalConsentIsANewLoginForTheUnionOfScopes) {
    BffHarness h;
    h.load();
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    h.navigations.clear();
    h.apply(intent::AddScopes{"offline_access"});
    ASSERT_EQ(h.navigations.size(), 1u);
    EXPECT_NE(h.navigations[0].find("offline_access"), std::string::npos) << h.navigations[0];
    EXPECT_NE(h.navigations[0].find("users.all%3Aread"), std::string::npos) << h.navigations[0];
    EXPECT_EQ(h.navigations[0].rfind("/bff/login?", 0), 0u);
}

TEST(AppBff, SignOutPostsToTheHelperAndShowsItsNote) {
    BffHarness h;
    h.load();
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    h.apply(intent::SignOut{});
    EXPECT_EQ(h.helper.got.back().url, "/bff/logout");
    EXPECT_EQ(h.helper.got.back().method, Method::Post);
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
    EXPECT_NE(h.app->notice().find("stays granted at the service"), std::string::npos) << h.app->notice();
    h.load();
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out") << "the helper forgot the session";
}

TEST(AppBff, ThePageStateSaysWhereTheTokensAreAndCarriesNone) {
    BffHarness h;
    h.load();
    h.sign_in(ScopeSet{"users.all:read", "rooms.all:read_write"});
    const auto state = nlohmann::json::parse(page_state_json(*h.app, h.now));
    EXPECT_EQ(state["mode"], "bff");
    EXPECT_EQ(state["tokens_held_by"], "helper");
    EXPECT_EQ(state["config"]["session"], "bff");
    EXPECT_EQ(state["bff"]["signed_in"], true);
    EXPECT_EQ(state["bff"]["expires_in"], 1800);
    EXPECT_EQ(state["access_expires_in"], 1800);
    EXPECT_EQ(state["scopes"]["granted"], "users.all:read rooms.all:read_write");
    EXPECT_EQ(state["bff"]["token_requests"][0]["grant_type"], "authorization_code");
}

}  // namespace
}  // namespace app_bff_test
}  // namespace roomkey::app
