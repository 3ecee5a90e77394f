// app_bff_session_test.cpp: the page side of the BFF contract (docs/bff.md)
// as pure functions (web/app/bff_session.hpp, bff_flow_steps.hpp,
// public_config.hpp): the mode read from /config.json, /bff/session's
// answer, the helper's token-request reports and their log steps (masked),
// the "no session" 401, the #bff_error fragment, and the requests the page
// sends.
#include "app/bff_session.hpp"

#include <gtest/gtest.h>

#include "app/bff_flow_steps.hpp"
#include "app/http_log.hpp"
#include "app/i18n.hpp"
#include "app/user_errors.hpp"
#include "roomkey/public_config.hpp"
#include "roomkey/bff_session.hpp"
#include "roomkey/launch_url.hpp"
#include "roomkey/token.hpp"
#include "json_answer.hpp"

namespace roomkey::app {
namespace bff_session_test {
namespace {

const Instant t0 = instant_from_unix_seconds(1'700'000'000);

constexpr std::string_view kBffConfig =
    R"({"configured":true,"client_id":"roomkey-web","client_type":"confidential","session":"bff",)"
    R"("consent_url":"https://127.0.0.1:9000/oauth/authorize","redirect_uri":"https://127.0.0.1:8443/callback",)"
    R"("token_endpoint":"","api_base":"/api","bff_login":"/bff/login","bff_session":"/bff/session",)"
    R"("bff_logout":"/bff/logout","bff_refresh":"/bff/refresh","scope":"offline_access users.all:read"})";

constexpr std::string_view kRefreshReport =
    R"j({"grant_type":"refresh_token","status":200,"ms":12,"at":1700000100,"scope":"users.all:read",)j"
    R"j("request":"POST https://127.0.0.1:9000/token grant_type=refresh_token&refresh_token=•••• (Basic client authentication)",)j"
    R"j("response":"200 {access_token: ••••, refresh_token: ••••, expires_in: 1800, scope: users.all:read}","error":""})j";

using roomkey::testing::json_answer;

TEST(BffConfig, TheModeComesFromConfigJsonWithItsRoutes) {
    auto config = parse_public_config(kBffConfig);
    ASSERT_TRUE(config) << config.error();
    EXPECT_TRUE(config->bff());
    EXPECT_EQ(config->bff_login, "/bff/login");
    EXPECT_EQ(config->bff_session, "/bff/session");
    EXPECT_EQ(config->bff_logout, "/bff/logout");
    EXPECT_EQ(config->bff_refresh, "/bff/refresh");
    EXPECT_EQ(config->default_scopes.count("offline_access"), 1u) << "a confidential client may ask for it";

    auto browser = parse_public_config(R"({"configured":true,"client_id":"c","client_type":"public"})");
    ASSERT_TRUE(browser) << browser.error();
    EXPECT_FALSE(browser->bff()) << "no \"session\": a helper from before the BFF mode";
}

TEST(BffConfig, ABffConfigWithoutItsRoutesOrAnUnknownModeIsRefusedSayingWhich) {
    auto missing = parse_public_config(R"({"configured":true,"client_id":"c","client_type":"confidential",)"
                                       R"("session":"bff","bff_login":"/bff/login"})");
    ASSERT_FALSE(missing) << "a BFF config without bff_session was accepted";
    EXPECT_NE(missing.error().find("bff_session"), std::string::npos) << missing.error();
    auto foreign = parse_public_config(R"({"session":"bff","bff_login":"https://evil.example/login",)"
                                       R"("bff_session":"/s","bff_logout":"/o","bff_refresh":"/r"})");
    ASSERT_FALSE(foreign) << "a bff_login on another origin was accepted";
    EXPECT_NE(foreign.error().find("bff_login"), std::string::npos) << foreign.error();
    EXPECT_FALSE(parse_public_config(R"({"session":"bff","bff_login":"//evil.example/x",)"
                                     R"("bff_session":"/s","bff_logout":"/o","bff_refresh":"/r"})"));
    auto unknown = parse_public_config(R"({"session":"cookie"})");
    ASSERT_FALSE(unknown) << "an unknown session kind was accepted";
    EXPECT_NE(unknown.error().find("session"), std::string::npos) << unknown.error();
}

TEST(BffSessionAnswer, SignedInCarriesScopeLifetimesAndTheHelpersTokenRequests) {
    auto info = read_bff_session(std::string(R"({"signed_in":true,"scope":"users.all:read rooms.all:read_write",)") +
                                 R"("expires_in":1790,"refresh_expires_in":null,"token_requests":[)" +
                                 std::string(kRefreshReport) + "]}");
    ASSERT_TRUE(info) << info.error();
    EXPECT_TRUE(info->signed_in);
    EXPECT_EQ(info->scope, (ScopeSet{"users.all:read", "rooms.all:read_write"}));
    EXPECT_EQ(info->expires_in, 1790);
    EXPECT_FALSE(info->refresh_expires_in) << "null: unknown (offline_access)";
    ASSERT_EQ(info->token_requests.size(), 1u);
    EXPECT_EQ(info->token_requests[0].grant_type, GrantType::refresh_token);
    EXPECT_EQ(info->token_requests[0].status, 200);

    BffSessionView session;
    session.on_session(*info, t0);
    EXPECT_TRUE(session.signed_in());
    EXPECT_EQ(session.access_expires_at(), t0 + Seconds(1790)) << "the countdown starts when it was read";
    EXPECT_FALSE(session.refresh_expires_at());

    auto out = read_bff_session(R"({"signed_in":false})");
    ASSERT_TRUE(out) << out.error();
    session.on_session(*out, t0);
    EXPECT_FALSE(session.signed_in());
    EXPECT_FALSE(session.access_expires_at());
}

TEST(BffSessionAnswer, AnUnreadableAnswerSaysWhatIsWrong) {
    for (const char* body : {"<html>", "{}", R"({"signed_in":"yes"})", R"({"signed_in":true,"scope":"made:up",)"
                                                                        R"("expires_in":10})",
                             R"({"signed_in":true,"scope":"users.all:read"})",
                             R"({"signed_in":true,"scope":"users.all:read","expires_in":1,"token_requests":{}})",
                             R"({"signed_in":true,"scope":"users.all:read","expires_in":1,"token_requests":[{}]})"}) {
        auto info = read_bff_session(body);
        ASSERT_FALSE(info) << body;
        EXPECT_FALSE(info.error().empty()) << body;
    }
}

TEST(BffSessionAnswer, OnlyA401MarkedNoSessionMeansSignedOutWithTheHelpersReason) {
    HttpResponse none = json_answer(401, R"({"errors":["roomkey session: the refresh token was refused; sign in again"]})");
    none.headers.set("X-Roomkey-Session", "none");
    EXPECT_EQ(bff_session_ended(none), std::optional<std::string>(
                                           "roomkey session: the refresh token was refused; sign in again"));
    HttpResponse service_401 = json_answer(401, R"({"errors":["Invalid API token"]})");
    EXPECT_FALSE(bff_session_ended(service_401)) << "the service's own 401, relayed: not a sign-out";
    HttpResponse forbidden = json_answer(403, "{}");
    forbidden.headers.set("X-Roomkey-Session", "none");
    EXPECT_FALSE(bff_session_ended(forbidden));
    HttpResponse bare = json_answer(401, "");
    bare.headers.set("X-Roomkey-Session", "none");
    ASSERT_TRUE(bff_session_ended(bare)) << "a 401 saying X-Roomkey-Session: none did not end the session";
    EXPECT_NE(bff_session_ended(bare)->find("sign in again"), std::string::npos);
}

TEST(BffTokenRequests, TheHeaderIsReadAndAReportIsLoggedOnceMasked) {
    HttpResponse r = json_answer(200, "{}");
    r.headers.set("X-Roomkey-Token-Request", std::string(kRefreshReport));
    auto report = token_request_header(r);
    ASSERT_TRUE(report) << "the X-Roomkey-Token-Request header was not read";
    EXPECT_EQ(report->at, 1700000100);
    EXPECT_FALSE(token_request_header(json_answer(200, "{}")));
    HttpResponse broken = json_answer(200, "{}");
    broken.headers.set("X-Roomkey-Token-Request", "not json");
    EXPECT_FALSE(token_request_header(broken));

    BffSessionView session;
    EXPECT_TRUE(session.first_report(*report));
    EXPECT_FALSE(session.first_report(*report)) << "the header, then /bff/session: one entry";

    const FlowStep step = helper_token_step(*report);
    EXPECT_EQ(step.request.method, Method::Post);
    EXPECT_EQ(step.request.url, "https://127.0.0.1:9000/token");
    HttpLog log;
    log.add_step(1, step.purpose, step.request, step.note, t0, step.parameters);
    RedactionRules rules;
    const RenderedExchange shown = render(log.entries().back(), rules, false);
    EXPECT_NE(shown.title.find("token request by roomkey-helper (refresh_token)"), std::string::npos) << shown.title;
    EXPECT_NE(shown.status_line.find("answered 200"), std::string::npos) << shown.status_line;
    bool sent_line = false;
    for (const std::string& line : shown.parameters) sent_line |= line.find("refresh_token=••••") != std::string::npos;
    EXPECT_TRUE(sent_line) << "the helper's masked request line is shown";
    const std::string curl = copy_as_curl(log.entries().back().request, "https://127.0.0.1:8443", rules, false);
    EXPECT_EQ(curl.find("refresh_token="), std::string::npos) << curl;
}

TEST(BffTokenRequests, ASecretTheHelperLeftInAReportIsMaskedByItsName) {
    BffTokenRequestReport report;
    report.grant_type = GrantType::authorization_code;
    report.status = 200;
    report.request = "POST https://auth.example/token grant_type=authorization_code";
    const FlowStep step = helper_token_step(report);
    HttpLog log;
    std::vector<StepParameter> parameters = step.parameters;
    parameters.push_back(StepParameter{"access_token", "leaked-access-token-value", ""});
    log.add_step(1, step.purpose, step.request, step.note, t0, parameters);
    const RenderedExchange shown = render(log.entries().back(), RedactionRules{}, false);
    for (const std::string& line : shown.parameters) {
        EXPECT_EQ(line.find("leaked-access-token-value"), std::string::npos) << line;
    }
}

// The token step shows the service's error identifier as it is and, beside
// it, the remedy the page's own sign-in shows for it (docs/errors.md), in the
// user's language.
TEST(BffTokenRequests, TheTokenErrorShowsItsRemedyBesideTheIdentifier) {
    struct English {  // the thread's language back to English, whatever happens
        ~English() { i18n::set_language(i18n::Lang::en); }
    } english;
    BffTokenRequestReport report;
    report.grant_type = GrantType::refresh_token;
    report.status = 400;
    report.request = "POST https://auth.example/token grant_type=refresh_token";
    report.error = "invalid_grant";
    for (const i18n::Lang lang : {i18n::Lang::en, i18n::Lang::ja}) {
        i18n::set_language(lang);
        const FlowStep step = helper_token_step(report);
        const StepParameter* error = nullptr;
        for (const StepParameter& p : step.parameters) {
            if (p.name == "error") error = &p;
        }
        ASSERT_NE(error, nullptr) << "no error parameter";
        EXPECT_EQ(error->value, "invalid_grant") << "the wire value stays";
        EXPECT_NE(error->note.find(token_error_remedy("invalid_grant")), std::string::npos) << error->note;
        EXPECT_NE(error->note.find(lang == i18n::Lang::ja ? "もう一度ログインしてください" : "sign in again"),
                  std::string::npos)
            << error->note;
    }
    report.error = "no_such_error";
    i18n::set_language(i18n::Lang::en);
    const FlowStep odd = helper_token_step(report);
    EXPECT_NE(odd.parameters.back().note.find(token_error_remedy("no_such_error")), std::string::npos)
        << "an identifier RFC 6749 does not define gets the generic remedy";
}

TEST(BffCallback, TheFragmentErrorIsReadAndTheStepSaysTheHelperCheckedState) {
    auto error = read_launch_url(
        "https://127.0.0.1:8443/#bff_error=state_mismatch&bff_error_description=the%20state%20did%20not%20match")
                     .bff_error;
    ASSERT_TRUE(error) << "the #bff_error fragment was not read";
    EXPECT_EQ(error->code, "state_mismatch");
    EXPECT_EQ(error->description, "the state did not match");
    EXPECT_FALSE(read_launch_url("https://127.0.0.1:8443/").bff_error);
    EXPECT_FALSE(read_launch_url("https://127.0.0.1:8443/#room=7").bff_error);

    const FlowStep refused = bff_callback_step("https://127.0.0.1:8443/callback", error);
    EXPECT_NE(refused.note.find("refused by roomkey-helper (state_mismatch)"), std::string::npos) << refused.note;
    const FlowStep ok = bff_callback_step("https://127.0.0.1:8443/callback", std::nullopt);
    EXPECT_NE(ok.note.find("compared state with its login cookie"), std::string::npos) << ok.note;
    HttpLog log;
    log.add_step(1, ok.purpose, ok.request, ok.note, t0, ok.parameters);
    const RenderedExchange shown = render(log.entries().back(), RedactionRules{}, false);
    ASSERT_FALSE(shown.parameters.empty()) << "the step shows no parameters";
    EXPECT_EQ(shown.parameters[0].rfind("code: ********", 0), 0u) << shown.parameters[0];
}

TEST(BffRequests, LoginIsANavigationWithTheScopeAndRefreshNarrowsInItsBody) {
    const std::string url = bff_login_url("/bff/login", ScopeSet{"users.all:read", "offline_access"});
    EXPECT_EQ(url, "/bff/login?scope=offline_access+users.all%3Aread");
    const FlowStep step = bff_login_step(url);
    ASSERT_FALSE(step.parameters.empty()) << "the login step shows no parameters";
    EXPECT_EQ(step.parameters[0].name, "scope");
    EXPECT_EQ(step.parameters[0].value, "offline_access users.all:read");
    EXPECT_NE(step.note.find("made the state and the PKCE S256 pair"), std::string::npos) << step.note;

    const HttpRequest refresh = bff_refresh_request("/bff/refresh", ScopeSet{"users.all:read"});
    EXPECT_EQ(refresh.method, Method::Post);
    EXPECT_EQ(refresh.body, R"({"scope":"users.all:read"})");
    EXPECT_TRUE(bff_refresh_request("/bff/refresh", std::nullopt).body.empty());
    EXPECT_EQ(bff_logout_request("/bff/logout").method, Method::Post);
    EXPECT_FALSE(bff_session_request("/bff/session").headers.get("authorization"));

    EXPECT_EQ(bff_logout_note(json_answer(200, R"({"signed_in":false,"note":"roomkey forgot the tokens"})")),
              "roomkey forgot the tokens");
    EXPECT_NE(bff_logout_note(json_answer(200, "{}")).find("stays granted"), std::string::npos);
}


// The two sides of the contract: what roomkey-helper writes (shared/'s
// bff_session_body, bff_token_request_json) the page reads, and no secret
// of the session reaches what the page reads.
TEST(BffSessionAnswer, ThePageReadsWhatTheHelperWrites) {
    roomkey::BffSession held;
    held.id = "AAAAAAAAAAAAAAAAAAAAAA";
    held.access_token = "access-token-secret-value-0123";
    held.refresh_token = "refresh-token-secret-value-4567";
    held.scope = ScopeSet{"users.all:read", "rooms.all:read_write"};
    held.access_expires_at = t0 + Seconds(1800);
    held.refresh_expires_at = t0 + Seconds(1209600);
    roomkey::BffTokenRequest exchange;
    exchange.grant_type = GrantType::authorization_code;
    exchange.status = 200;
    exchange.ms = 15;
    exchange.at = 1'700'000'000;
    exchange.scope = "users.all:read rooms.all:read_write";
    exchange.expires_in = 1800;
    held.token_requests.push_back(exchange);
    const std::string body =
        bff_session_body(held, t0 + Seconds(100), "https://auth.example/token", "https://127.0.0.1:8443/callback");
    EXPECT_EQ(body.find(held.access_token), std::string::npos);
    EXPECT_EQ(body.find(held.refresh_token), std::string::npos);
    auto info = read_bff_session(body);
    ASSERT_TRUE(info) << info.error() << "\n" << body;
    EXPECT_TRUE(info->signed_in);
    EXPECT_EQ(info->scope, held.scope);
    EXPECT_EQ(info->expires_in, 1700);
    ASSERT_TRUE(info->refresh_expires_in) << "the refresh token's lifetime was not read";
    EXPECT_EQ(*info->refresh_expires_in, 1209500);
    ASSERT_EQ(info->token_requests.size(), 1u);
    EXPECT_EQ(info->token_requests[0].grant_type, GrantType::authorization_code);
    EXPECT_EQ(info->token_requests[0].status, 200);
    EXPECT_EQ(info->token_requests[0].at, 1'700'000'000);
    const FlowStep step = helper_token_step(info->token_requests[0]);
    EXPECT_EQ(step.request.url, "https://auth.example/token") << "its request line names the token endpoint";

    auto header = read_helper_token_request(
        bff_token_request_json(exchange, "https://auth.example/token", "https://127.0.0.1:8443/callback"));
    ASSERT_TRUE(header) << header.error();
    EXPECT_TRUE(same_request(*header, info->token_requests[0])) << "the header and /bff/session: one request";
    auto out = read_bff_session(bff_signed_out_body());
    ASSERT_TRUE(out) << out.error();
    EXPECT_FALSE(out->signed_in);
}

// Spec 5.4.2, the BFF mode seen from the page: every refresh's answer says
// "14 days" again, but the grant ends 14 days after the sign-in. What the
// page shows (the session panel's lifetimes, state().bff) comes from
// /bff/session: across refreshes days apart it counts down to that first
// end, never 14 days from the latest refresh. (The helper's cookie and its
// answers through a running helper: BffGrantEnd in
// tests/integration/bff_grant_end_test.cpp; the page's own session:
// App.ThePagesSessionShowsTheGrantsEndAcrossRefreshes.)
TEST(BffSessionAnswer, ThePageShowsTheGrantsFirstEndAcrossTheHelpersRefreshes) {
    constexpr Seconds kFourteenDays{14 * 24 * 3600};
    const Instant grant_end = t0 + kFourteenDays;
    roomkey::BffSession held;
    TokenSet first;
    first.access_token = "access-0";
    first.refresh_token = "refresh-0";
    first.scope = ScopeSet{"users.all:read"};
    first.access_expires_at = t0 + Seconds(1800);
    first.refresh_expires_at = grant_end;
    roomkey::BffTokenRequest exchange;
    exchange.grant_type = GrantType::authorization_code;
    adopt_token_set(held, first, exchange);
    BffSessionView view;
    for (int day : {1, 5, 9, 13}) {
        SCOPED_TRACE("day " + std::to_string(day));
        const Instant at = t0 + Seconds(day * 24 * 3600);
        TokenSet refreshed = first;
        refreshed.refresh_token = "refresh-" + std::to_string(day);
        refreshed.access_expires_at = at + Seconds(1800);
        refreshed.refresh_expires_at = at + kFourteenDays;  // what the answer says
        roomkey::BffTokenRequest refresh;
        refresh.grant_type = GrantType::refresh_token;
        adopt_token_set(held, refreshed, refresh);
        const auto info = read_bff_session(bff_session_body(held, at, "https://a/token", "https://b/callback"));
        ASSERT_TRUE(info) << info.error();
        ASSERT_TRUE(info->refresh_expires_in) << "a grant without offline_access has an end";
        EXPECT_EQ(*info->refresh_expires_in, (14 - day) * 24 * 3600) << "counts down to the sign-in's 14 days";
        view.on_session(*info, at);
        ASSERT_TRUE(view.refresh_expires_at());
        EXPECT_EQ(*view.refresh_expires_at(), grant_end)
            << unix_seconds(*view.refresh_expires_at()) << " instead of " << unix_seconds(grant_end);
        EXPECT_EQ(*view.access_expires_at(), at + Seconds(1800)) << "the access token's own lifetime is the refresh's";
    }
}

}  // namespace
}  // namespace bff_session_test
}  // namespace roomkey::app
