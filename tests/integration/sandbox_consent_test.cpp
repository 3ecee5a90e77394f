// sandbox_consent_test.cpp: the consent screen of roomkey-sandbox on real
// sockets: login first, then consent (spec 4.2); Allow -> code + state, Deny
// -> access_denied + state; every spec 7.1 error code on its condition, on an
// error page, never redirected to an unregistered URI.
#include <algorithm>

#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxConsent : public SandboxTest {
protected:
    // Asserts an error page with `code` and no redirect; returns the page.
    std::string expect_error_page(const FormFields& query, int code) {
        Browser browser;
        auto res = open_consent(browser, query);
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        EXPECT_EQ(res->status, 400) << "error " << code << " must be shown on a page";
        EXPECT_FALSE(res->has_header("Location")) << "error " << code << " must never redirect";
        EXPECT_NE(res->body.find("<strong id=\"error-code\">" + std::to_string(code) + "</strong>"), std::string::npos)
            << "the page must show error_code " << code << ":\n" << res->body;
        return res->body;
    }
    FormFields base() { return web_request(pkce_); }
    FormFields without(FormFields q, const std::string& name) {
        q.erase(std::remove_if(q.begin(), q.end(), [&](const auto& f) { return f.first == name; }), q.end());
        return q;
    }
    FormFields with(FormFields q, const std::string& name, const std::string& value) {
        q = without(std::move(q), name);
        q.emplace_back(name, value);
        return q;
    }
    PkcePair pkce_ = make_pkce(kRandom);
};

// spec 4.2: no session -> the login screen first, then back to the consent screen.
TEST_F(SandboxConsent, LoginScreenComesFirstThenConsent_spec4_2) {
    auto first = get("/consent?" + form_encode(base()));
    ASSERT_TRUE(first) << why_no_answer(first);
    ASSERT_EQ(first->status, 303);
    EXPECT_EQ(first->get_header_value("Location").rfind("/login?request=", 0), 0u);

    Browser browser;
    auto page = open_consent(browser, base());
    ASSERT_TRUE(page) << why_no_answer(page);
    ASSERT_EQ(page->status, 200) << page->body;
    EXPECT_FALSE(browser.cookie.empty());
    EXPECT_NE(browser.cookie.find("__Host-roomkey-sandbox="), std::string::npos);
    // The requested scopes in words (spec 5.5 "Allows").
    EXPECT_NE(page->body.find("Read information tied to the own account."), std::string::npos);
    EXPECT_NE(page->body.find("roomkey web app"), std::string::npos);

    // Logged in already: the consent screen comes at once.
    auto again = get("/consent?" + form_encode(base()), {{"Cookie", browser.cookie}});
    ASSERT_TRUE(again) << why_no_answer(again);
    EXPECT_EQ(again->status, 200);
}

// spec 4.2: Allow -> redirect to the redirect URI with code and the state unchanged.
TEST_F(SandboxConsent, AllowRedirectsWithCodeAndState_spec4_2) {
    // httplib's client percent-decodes Location headers it receives, so the
    // state here avoids characters that decoding would blur ('%', '&', '=').
    const std::string state = "a state_with-unreserved.chars~ and spaces";
    Browser browser;
    auto page = open_consent(browser, web_request(pkce_, "users.all:read", state));
    ASSERT_TRUE(page) << why_no_answer(page);
    ASSERT_EQ(page->status, 200);
    auto res = decide(browser, page->body, "allow");
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 303);
    const std::string location = res->get_header_value("Location");
    EXPECT_EQ(location.rfind(kWebRedirect + "?", 0), 0u) << location;
    const FormFields q = location_query(res);
    EXPECT_EQ(field(q, "state"), state) << "state must come back unchanged: " << location;
    EXPECT_GE(field(q, "code").size(), 22u) << "a code carries at least 128 bits";
    EXPECT_EQ(form_count(q, "error"), 0u);
}

// spec 4.2 / 7.1 3001: Deny -> error=access_denied and state.
TEST_F(SandboxConsent, DenyRedirectsWithAccessDenied_spec4_2_7_1_3001) {
    Browser browser;
    auto page = open_consent(browser, base());
    ASSERT_TRUE(page) << why_no_answer(page);
    auto res = decide(browser, page->body, "deny");
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 303);
    const FormFields q = location_query(res);
    EXPECT_EQ(res->get_header_value("Location").rfind(kWebRedirect, 0), 0u);
    EXPECT_EQ(field(q, "error"), "access_denied");
    EXPECT_EQ(field(q, "state"), "state-123");
    EXPECT_EQ(form_count(q, "code"), 0u);
}

// spec 7.1 3001: the owner may also deny at the login screen.
TEST_F(SandboxConsent, CancelAtLoginIsAccessDenied_spec7_1_3001) {
    auto first = get("/consent?" + form_encode(base()));
    ASSERT_TRUE(first) << why_no_answer(first);
    const auto reservation = field(location_query_of(first->get_header_value("Location")), "request");
    auto res = post_form("/login", {{"request", reservation}, {"action", "cancel"}});
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 303);
    EXPECT_EQ(field(location_query(res), "error"), "access_denied");
    EXPECT_EQ(field(location_query(res), "state"), "state-123");
}

TEST_F(SandboxConsent, WrongPasswordShowsTheLoginScreenAgain) {
    Browser browser;
    auto res = open_consent(browser, base(), "alice@example.com", "wrong");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_NE(res->body.find("id=\"login-error\""), std::string::npos);
    EXPECT_FALSE(res->has_header("Set-Cookie")) << "no session for a wrong password";
}

// The consent form is bound to the session: no CSRF token, no decision.
TEST_F(SandboxConsent, ConsentPostNeedsTheSessionCsrfToken) {
    Browser browser;
    auto page = open_consent(browser, base());
    ASSERT_TRUE(page) << why_no_answer(page);
    auto res = post_form("/consent",
                         {{"request", hidden_value(page->body, "request")}, {"csrf", "forged"}, {"decision", "allow"}},
                         {{"Cookie", browser.cookie}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 403);
    EXPECT_FALSE(res->has_header("Location"));
}

// spec 7.1: a client deleted while its consent screen is open:
// Allow, Deny and Cancel show an error page and never redirect to its URI.
TEST_F(SandboxConsent, DecisionAfterClientDeletionNeverRedirects_spec7_1) {
    const std::string cookie = login_as("alice@example.com", "alice-demo");
    const std::string redirect = "https://127.0.0.1:7000/cb";
    auto request_for = [&](const std::string& client_id) {
        return FormFields{
            {"response_type", "code"},        {"client_id", client_id}, {"redirect_uri", redirect},
            {"scope", "users.all:read"},      {"state", "s"},           {"code_challenge", pkce_.challenge},
            {"code_challenge_method", "S256"}};
    };
    for (const std::string decision : {"allow", "deny", "cancel"}) {
        const std::string id = register_client_on_screen(cookie, "public", redirect, {"users.all:read"});
        ASSERT_FALSE(id.empty()) << "registering the client on the screen gave no id";
        auto decide_after_deletion = [&]() -> httplib::Result {
            if (decision == "cancel") {
                // No session: the login screen comes first and offers Cancel.
                auto first = get("/consent?" + form_encode(request_for(id)));
                EXPECT_TRUE(first && first->status == 303);
                const auto reservation =
                    field(location_query_of(first ? first->get_header_value("Location") : ""), "request");
                auto deleted = delete_client_on_screen(cookie, id);
                EXPECT_TRUE(deleted && deleted->status == 303);
                return post_form("/login", {{"request", reservation}, {"action", "cancel"}});
            }
            Browser browser{cookie};
            auto page = open_consent(browser, request_for(id));
            EXPECT_TRUE(page && page->status == 200);
            auto deleted = delete_client_on_screen(cookie, id);
            EXPECT_TRUE(deleted && deleted->status == 303);
            return decide(browser, page ? page->body : "", decision);
        };
        auto res = decide_after_deletion();
        ASSERT_TRUE(res) << decision;
        EXPECT_EQ(res->status, 400) << decision;
        EXPECT_FALSE(res->has_header("Location")) << decision << " redirected to " << res->get_header_value("Location");
        EXPECT_NE(res->body.find("id=\"error-code\""), std::string::npos) << decision << ": " << res->body;
        EXPECT_EQ(res->body.find(redirect), std::string::npos) << decision << ": no link to the deleted client's URI";
    }
}

// --- spec 7.1: each error code on its condition -----------------------------

TEST_F(SandboxConsent, ClientIdMissingIs11000_spec7_1) { expect_error_page(without(base(), "client_id"), 11000); }

TEST_F(SandboxConsent, ClientIdUnknownIs12000_spec7_1) {
    const std::string page = expect_error_page(with(base(), "client_id", "no-such-client"), 12000);
    EXPECT_NE(page.find("The client ID no-such-client is unknown."), std::string::npos);
    EXPECT_EQ(page.find("back-to-client"), std::string::npos) << "no link back without a known client";
}

// spec 4.2: redirect_uri is required when more than one is registered.
TEST_F(SandboxConsent, RedirectUriMissingWithTwoRegisteredIs13000_spec7_1) {
    FormFields q{{"response_type", "code"}, {"client_id", kConfidentialId}, {"scope", "users.all:read"}, {"state", "x"}};
    expect_error_page(q, 13000);
}

TEST_F(SandboxConsent, RedirectUriMalformedIs14000_spec7_1) {
    expect_error_page(with(base(), "redirect_uri", "https://exa mple/cb"), 14000);
}

// spec 4.2: never redirected to a redirect URI that is not registered.
TEST_F(SandboxConsent, RedirectUriUnregisteredIs15000AndNeverRedirected_spec7_1) {
    const std::string page = expect_error_page(with(base(), "redirect_uri", "https://evil.example/cb"), 15000);
    EXPECT_EQ(page.find("evil.example"), std::string::npos) << "the page must not even link to it";
    // Even with every other parameter wrong too, the unregistered URI wins over redirectable errors.
    expect_error_page(with(without(base(), "response_type"), "redirect_uri", "https://evil.example/cb"), 15000);
}

TEST_F(SandboxConsent, ResponseTypeMissingIs1001_spec7_1) {
    const std::string page = expect_error_page(without(base(), "response_type"), 1001);
    // The redirect URI is verified, so the page links back to it (and only to it).
    EXPECT_NE(page.find("href=\"" + kWebRedirect + "?error="), std::string::npos);
}

TEST_F(SandboxConsent, ResponseTypeTokenIs4001_spec7_1) {
    expect_error_page(with(base(), "response_type", "token"), 4001);
}

TEST_F(SandboxConsent, ResponseTypeUnknownIs4002_spec7_1) {
    const std::string page = expect_error_page(with(base(), "response_type", "magic"), 4002);
    EXPECT_NE(page.find("magic response type is unknown."), std::string::npos);
}

TEST_F(SandboxConsent, ScopeMissingIs5001_spec7_1) { expect_error_page(without(base(), "scope"), 5001); }

TEST_F(SandboxConsent, ScopeUnknownIs5002_spec7_1) {
    expect_error_page(with(base(), "scope", "users.all:read files.everything:write"), 5002);
}

TEST_F(SandboxConsent, ScopeNotRegisteredIs5003_spec7_1) {
    // The confidential client registered no contacts scope.
    FormFields q{{"response_type", "code"}, {"client_id", kConfidentialId}, {"redirect_uri", kConfidentialRedirect},
                 {"scope", "contacts.all:read"}, {"state", "x"}};
    expect_error_page(q, 5003);
    // spec 4.2: offline_access only for a confidential client.
    expect_error_page(with(base(), "scope", "offline_access users.all:read"), 5003);
}

TEST_F(SandboxConsent, ReservedRequestMissingIs16000_spec7_1) {
    Browser browser;
    auto page = open_consent(browser, base());
    ASSERT_TRUE(page) << why_no_answer(page);
    auto res = post_form("/consent",
                         {{"request", "not-a-reservation"}, {"csrf", hidden_value(page->body, "csrf")}, {"decision", "allow"}},
                         {{"Cookie", browser.cookie}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 400);
    EXPECT_NE(res->body.find(">16000<"), std::string::npos);
    EXPECT_FALSE(res->has_header("Location"));
}

// spec 7.1 16000: the reserved request times out (the sandbox keeps it 10 minutes).
TEST_F(SandboxConsent, ReservedRequestTimesOutIs16000_spec7_1) {
    Browser browser;
    auto page = open_consent(browser, base());
    ASSERT_TRUE(page) << why_no_answer(page);
    ASSERT_EQ(page->status, 200);
    advance_clock(11 * 60);
    auto res = decide(browser, page->body, "allow");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 400);
    EXPECT_NE(res->body.find(">16000<"), std::string::npos);
    // A decision on an used reservation is 16000 too (single use).
    auto page2 = open_consent(browser, base());
    ASSERT_TRUE(page2) << why_no_answer(page2);
    ASSERT_EQ(decide(browser, page2->body, "deny")->status, 303);
    auto replay = decide(browser, page2->body, "allow");
    ASSERT_TRUE(replay) << why_no_answer(replay);
    EXPECT_NE(replay->body.find(">16000<"), std::string::npos);
}

TEST_F(SandboxConsent, CodeChallengeMethodUnsupportedIs18000_spec7_1) {
    expect_error_page(with(base(), "code_challenge_method", "plain"), 18000);
}

// spec 4.2: code_challenge is required for a public client and must be 43-128 chars of the set.
TEST_F(SandboxConsent, CodeChallengeMalformedIs19000_spec7_1) {
    expect_error_page(without(without(base(), "code_challenge"), "code_challenge_method"), 19000);
    expect_error_page(with(base(), "code_challenge", std::string(42, 'a')), 19000);
    expect_error_page(with(base(), "code_challenge", std::string(129, 'a')), 19000);
    expect_error_page(with(base(), "code_challenge", std::string(43, 'a') + "!"), 19000);
}

// spec 4.2: PKCE is optional for a confidential client.
TEST_F(SandboxConsent, ConfidentialClientMayOmitPkce_spec4_2) {
    FormFields q{{"response_type", "code"}, {"client_id", kConfidentialId}, {"redirect_uri", kConfidentialRedirect2},
                 {"scope", "users.all:read offline_access"}, {"state", "x"}};
    const std::string code = authorize(q);
    EXPECT_FALSE(code.empty());
}

}  // namespace
}  // namespace roomkey::sandbox::testing
