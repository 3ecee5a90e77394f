// helper_sandbox_test.cpp: a whole sign-in through roomkey-helper against
// roomkey-sandbox, driven from the test without a browser:
// /config.json, consent page + login + Allow, the redirect to the helper's
// /callback, the code exchange and a refresh through the token proxy, /me and
// /my/status through the API proxy; BFF mode with a confidential client; and
// a log of all of it that holds none of the secrets that crossed the helper.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/rand.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "roomkey/encoding.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/url.hpp"
#include "sandbox/server.hpp"
#include "support/free_port.hpp"
#include "support/helper_fixture.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/trust_only.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::helper {
namespace {

const std::string kConfidentialId = "helper-bff-client";
const std::string kConfidentialSecret = "helper-bff-secret-0123456789abcdef0123";

void random_source(unsigned char* out, std::size_t size) { RAND_bytes(out, static_cast<int>(size)); }

FormFields query_of(const std::string& url) {
    const auto q = url.find('?');
    if (q == std::string::npos) return {};
    auto fields = form_decode(url.substr(q + 1));
    return fields ? *fields : FormFields{};
}

std::string hidden_value(const std::string& html, const std::string& name) {
    const std::regex re("name=\"" + name + "\" value=\"([^\"]*)\"");
    std::smatch m;
    return std::regex_search(html, m, re) ? m[1].str() : std::string();
}

nlohmann::json parse(const std::string& text) { return nlohmann::json::parse(text, nullptr, false); }

std::string str(const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

class HelperWithSandbox : public ::testing::Test {
protected:
    // Starts the sandbox, then the helper pointing at it, both with the same state dir.
    void start(bool confidential) {
        web_port_ = integration::free_port();  // registered with the sandbox before the helper starts
        sandbox::SandboxOptions so;
        so.port = 0;
        so.state_dir = dir_ / "state";
        so.web_port = web_port_;
        so.log_requests = false;
        sandbox::ClientSpec bff;
        bff.client_id = kConfidentialId;
        bff.client_secret = kConfidentialSecret;
        bff.registration.name = "Helper BFF";
        bff.registration.type = roomkey::ClientType::confidential;
        bff.registration.redirect_uris = {"https://127.0.0.1:" + std::to_string(web_port_) + "/callback"};
        bff.registration.scopes = {"users.all:read", "rooms.all:read_write"};
        so.clients.push_back(bff);
        sandbox_ = std::make_unique<sandbox::Sandbox>(so);
        auto started = sandbox_->start();
        ASSERT_TRUE(started) << started.error();

        HelperConfig config = testing::test_config(dir_);
        config.port = web_port_;
        config.upstream.base_url = sandbox_->base_url();
        config.upstream.auth_url = sandbox_->auth_url();
        config.upstream.consent_url = sandbox_->consent_url();
        config.upstream.scope = "users.all:read rooms.all:read_write";
        if (confidential) {
            config.upstream.client_id = kConfidentialId;
            config.upstream.client_type = ClientType::confidential;
            config.upstream.client_secret = kConfidentialSecret;
        } else {
            config.upstream.client_id = "roomkey-web";
        }
        helper_ = std::make_unique<RunningHelper>(config);
        ASSERT_TRUE(helper_->ok()) << helper_->error();
        app_ = helper_->client();
    }
    void TearDown() override {
        helper_.reset();
        if (sandbox_) sandbox_->stop();
    }

    // A browser on the sandbox's screens (trusts the shared local CA).
    std::unique_ptr<httplib::SSLClient> browser_to_sandbox() const {
        auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", sandbox_->port());
        integration::trust_only(*c, "127.0.0.1", dir_ / "state/ca-cert.pem");
        c->set_url_encode(false);  // a browser sends the form-encoded query as is
        return c;
    }

    // Consent URL -> login -> Allow: the Location of the final redirect.
    std::string sign_in_at_sandbox(const std::string& consent_url, const FormFields& query) {
        auto url = parse_url(consent_url);
        EXPECT_TRUE(url) << to_string(url.error()) << ": " << consent_url;
        if (!url) return {};
        auto b = browser_to_sandbox();
        auto res = b->Get((url->path + "?" + form_encode(query)).c_str());
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        std::string cookie;
        if (res->status == 303 && res->get_header_value("Location").rfind("/login?", 0) == 0) {
            const std::string request = form_get(query_of(res->get_header_value("Location")), "request").value_or("");
            auto login = b->Post("/login", form_encode({{"login", "alice@example.com"}, {"password", "alice-demo"},
                                                        {"request", request}}),
                                 "application/x-www-form-urlencoded");
            EXPECT_TRUE(login) << why_no_answer(login);
            if (!login) return {};
            EXPECT_EQ(login->status, 303) << login->body;
            const std::string set_cookie = login->get_header_value("Set-Cookie");
            cookie = set_cookie.substr(0, set_cookie.find(';'));
            res = b->Get(login->get_header_value("Location").c_str(), {{"Cookie", cookie}});
            EXPECT_TRUE(res) << why_no_answer(res);
            if (!res) return {};
        }
        EXPECT_EQ(res->status, 200) << "consent page expected for " << form_encode(query) << ": " << res->body.substr(res->body.find("<main>"));
        auto allow = b->Post("/consent", {{"Cookie", cookie}},
                             form_encode({{"request", hidden_value(res->body, "request")},
                                          {"csrf", hidden_value(res->body, "csrf")},
                                          {"decision", "allow"}}),
                             "application/x-www-form-urlencoded");
        EXPECT_TRUE(allow) << why_no_answer(allow);
        if (!allow) return {};
        EXPECT_EQ(allow->status, 303) << allow->body;
        return allow->get_header_value("Location");
    }

    httplib::Result token_via_helper(const FormFields& form) {
        return app_->Post("/oauth/token", helper_->app_headers(), form_encode(form), "application/x-www-form-urlencoded");
    }
    httplib::Result api_via_helper(const std::string& path, const std::string& access_token) {
        return app_->Get(("/api" + path).c_str(),
                         {{"X-Roomkey-Request", "1"}, {"Authorization", "Bearer " + access_token}});
    }

    TempDir dir_;
    int web_port_ = 0;
    std::unique_ptr<sandbox::Sandbox> sandbox_;
    std::unique_ptr<RunningHelper> helper_;
    std::unique_ptr<httplib::SSLClient> app_;
};

// asonas/chatwork-ruby issue #42 (PR #43): the service's 401 for an invalid or
// expired access token has an empty body; the helper relays it as it came
// (it used to fill empty error bodies with "401\n"), WWW-Authenticate included.
TEST_F(HelperWithSandbox, AnEmptyBodied401IsRelayedEmpty_ruby42) {
    start(false);
    auto res = api_via_helper("/me", "never-issued-token");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 401);
    EXPECT_EQ(res->body, "");
    EXPECT_NE(res->get_header_value("WWW-Authenticate").find("invalid_token"), std::string::npos);
    // The helper's own refusals still say their status.
    auto refused = app_->Get("/api/me", {{"Authorization", "Bearer x"}});  // no X-Roomkey-Request
    ASSERT_TRUE(refused) << why_no_answer(refused);
    EXPECT_EQ(refused->status, 403);
    EXPECT_FALSE(refused->body.empty()) << "the 403 does not say why";
}

// The mark that keeps a relayed body as it came (common/route_answer.hpp)
// ends with its answer: an answer httplib makes itself on the same
// connection still says its status. (A relayed 200 used to leave it set, and
// the next request httplib refused was answered with an empty body.)
TEST_F(HelperWithSandbox, HttplibsOwnRefusalAfterARelayedAnswerSaysItsStatus) {
    start(false);
    app_->set_keep_alive(true);  // one connection: both requests on one helper thread
    auto relayed =
        app_->Get("/api/me", {{"X-Roomkey-Request", "1"}, {"x-servicetoken", sandbox::testing::kAliceToken}});
    ASSERT_TRUE(relayed) << why_no_answer(relayed);
    ASSERT_EQ(relayed->status, 200) << relayed->body;
    // A field line over 8 KB: httplib answers 400 itself, before any route.
    auto refused = app_->Get("/config.json", {{"X-Huge", std::string(9000, 'h')}});
    ASSERT_TRUE(refused) << why_no_answer(refused);
    EXPECT_EQ(refused->status, 400);
    EXPECT_EQ(refused->body, "400\n");
}

TEST_F(HelperWithSandbox, PublicClientSignsInAndCallsTheApiThroughTheHelper) {
    start(false);
    // 1. The page learns the upstream from the helper.
    auto cfg_res = app_->Get("/config.json");
    ASSERT_TRUE(cfg_res) << why_no_answer(cfg_res);
    const auto cfg = parse(cfg_res->body);
    const std::string redirect_uri = str(cfg, "redirect_uri");
    EXPECT_EQ(redirect_uri, "https://127.0.0.1:" + std::to_string(web_port_) + "/callback");
    EXPECT_EQ(str(cfg, "consent_url"), sandbox_->consent_url());
    EXPECT_EQ(str(cfg, "client_id"), "roomkey-web");

    // 2. Consent screen with PKCE (spec 4.2), login, Allow.
    const PkcePair pkce = make_pkce(random_source);
    const std::string state = "st-" + base64url_encode(random_bytes(random_source, 12));
    const std::string location = sign_in_at_sandbox(
        str(cfg, "consent_url"), {{"response_type", "code"}, {"client_id", str(cfg, "client_id")},
                                  {"redirect_uri", redirect_uri}, {"scope", str(cfg, "scope")}, {"state", state},
                                  {"code_challenge", pkce.challenge}, {"code_challenge_method", "S256"}});
    ASSERT_EQ(location.rfind(redirect_uri + "?", 0), 0u) << "redirect to the helper's /callback: " << location;
    const FormFields back = query_of(location);
    const std::string code = form_get(back, "code").value_or("");
    ASSERT_FALSE(code.empty()) << location;
    EXPECT_EQ(form_get(back, "state").value_or(""), state);

    // 3. The helper serves the app at the redirect URI.
    auto page = app_->Get(location.substr(location.find("/callback")).c_str());
    ASSERT_TRUE(page) << why_no_answer(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_EQ(page->body, testing::kIndexHtml);

    // 4. Code exchange through the token proxy (spec 4.3, public client).
    auto token = token_via_helper({{"grant_type", "authorization_code"}, {"code", code},
                                   {"redirect_uri", redirect_uri}, {"code_verifier", pkce.verifier},
                                   {"client_id", "roomkey-web"}});
    ASSERT_TRUE(token) << why_no_answer(token);
    ASSERT_EQ(token->status, 200) << token->body;
    EXPECT_EQ(token->get_header_value("Cache-Control"), "no-store");
    EXPECT_EQ(token->get_header_value("Pragma"), "no-cache");
    const auto tokens = parse(token->body);
    const std::string access = str(tokens, "access_token");
    const std::string refresh = str(tokens, "refresh_token");
    ASSERT_FALSE(access.empty()) << token->body;
    ASSERT_FALSE(refresh.empty()) << token->body;

    // 5. API calls through the API proxy (spec 4.4, 4.5, 8.1).
    auto me = api_via_helper("/me", access);
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
    EXPECT_TRUE(parse(me->body).contains("account_id")) << me->body;
    auto status = api_via_helper("/my/status", access);
    ASSERT_TRUE(status) << why_no_answer(status);
    EXPECT_EQ(status->status, 200) << status->body;
    EXPECT_TRUE(parse(status->body).contains("unread_num")) << status->body;
    EXPECT_FALSE(status->get_header_value("x-ratelimit-limit").empty()) << "spec 8.1 headers are relayed";
    EXPECT_FALSE(status->get_header_value("x-ratelimit-remaining").empty());
    EXPECT_FALSE(status->get_header_value("x-ratelimit-reset").empty());

    auto bad = api_via_helper("/me", "not-a-token");
    ASSERT_TRUE(bad) << why_no_answer(bad);
    EXPECT_EQ(bad->status, 401);
    EXPECT_NE(bad->get_header_value("WWW-Authenticate").find("invalid_token"), std::string::npos)
        << "spec 5.2: the reason travels in WWW-Authenticate";

    // 6. Refresh through the token proxy.
    auto refreshed = token_via_helper({{"grant_type", "refresh_token"}, {"refresh_token", refresh},
                                       {"client_id", "roomkey-web"}});
    ASSERT_TRUE(refreshed) << why_no_answer(refreshed);
    EXPECT_EQ(refreshed->status, 200) << refreshed->body;
    const std::string access2 = str(parse(refreshed->body), "access_token");
    const std::string refresh2 = str(parse(refreshed->body), "refresh_token");
    EXPECT_FALSE(access2.empty());

    // The code is single use (spec 2.2): a second exchange fails upstream
    // (and revokes what it issued), and the helper relays that failure
    // rather than retrying or hiding it. Last, since it revokes the tokens.
    auto reused = token_via_helper({{"grant_type", "authorization_code"}, {"code", code},
                                    {"redirect_uri", redirect_uri}, {"code_verifier", pkce.verifier},
                                    {"client_id", "roomkey-web"}});
    ASSERT_TRUE(reused) << why_no_answer(reused);
    EXPECT_GE(reused->status, 400);
    EXPECT_EQ(str(parse(reused->body), "error"), "invalid_grant") << reused->body;

    // 7. The log holds none of it (logs are kept and shared). httplib logs after the
    // answer is sent: wait for the line of the last request (the third
    // token request), so the grep covers the whole flow.
    const std::string log = helper_->wait_for_log_count("POST /oauth/token", 3);
    EXPECT_NE(log.find("POST /oauth/token " + std::to_string(reused->status)), std::string::npos) << log;
    EXPECT_NE(log.find("GET /api/my/status 200"), std::string::npos) << log;
    for (const std::string& secret : {access, refresh, access2, refresh2, code, pkce.verifier, state}) {
        if (secret.empty()) continue;
        EXPECT_EQ(log.find(secret), std::string::npos) << "the helper log leaks a secret:\n" << log;
    }
}

TEST_F(HelperWithSandbox, ConfidentialClientInBffModeNeverShowsItsSecret) {
    start(true);
    auto cfg_res = app_->Get("/config.json");
    ASSERT_TRUE(cfg_res) << why_no_answer(cfg_res);
    EXPECT_EQ(cfg_res->body.find(kConfidentialSecret), std::string::npos) << "the page never sees the secret";
    const auto cfg = parse(cfg_res->body);
    EXPECT_EQ(str(cfg, "client_type"), "confidential");
    const std::string redirect_uri = str(cfg, "redirect_uri");

    const PkcePair pkce = make_pkce(random_source);
    const std::string location = sign_in_at_sandbox(
        str(cfg, "consent_url"), {{"response_type", "code"}, {"client_id", kConfidentialId},
                                  {"redirect_uri", redirect_uri}, {"scope", "users.all:read"}, {"state", "bff-state"},
                                  {"code_challenge", pkce.challenge}, {"code_challenge_method", "S256"}});
    const std::string code = form_get(query_of(location), "code").value_or("");
    ASSERT_FALSE(code.empty()) << location;

    // The page speaks as a public client would (client_id, no secret), as the
    // web app does; the helper takes client_id out and adds Basic, since the
    // service accepts one way of client authentication, not both (spec 4.3).
    auto token = token_via_helper({{"grant_type", "authorization_code"}, {"code", code},
                                   {"redirect_uri", redirect_uri}, {"code_verifier", pkce.verifier},
                                   {"client_id", kConfidentialId}});
    ASSERT_TRUE(token) << why_no_answer(token);
    ASSERT_EQ(token->status, 200) << token->body;
    const std::string access = str(parse(token->body), "access_token");
    auto me = api_via_helper("/me", access);
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;

    const std::string log = helper_->wait_for_log("GET /api/me");
    for (const std::string& secret : {kConfidentialSecret, base64_encode(kConfidentialId + ":" + kConfidentialSecret),
                                      access, code, pkce.verifier}) {
        EXPECT_EQ(log.find(secret), std::string::npos) << "the helper log leaks a secret:\n" << log;
    }
}

}  // namespace
}  // namespace roomkey::helper
