// app_flow_steps_test.cpp: the authorization request and the callback are
// steps of the HTTP log, so the log tells the whole flow, with the code masked, the
// verifier never there, and the state compared.
#include "app/flow_steps.hpp"

#include <gtest/gtest.h>

#include "app/http_log.hpp"
#include "app/i18n.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {
namespace flow_steps_test {
namespace {

const std::string kConsent = "https://consent.example.test/oauth/authorize";
const std::string kRedirect = "https://127.0.0.1:8443/callback";
const std::string kVerifier = "verifier-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH";

ClientConfig public_client() {
    ClientConfig c;
    c.client_id = "roomkey-web";
    c.type = ClientType::public_client;
    c.redirect_uris = {kRedirect};
    return c;
}

PendingAuthorization pending() {
    PendingAuthorization p;
    p.state = "state-abc";
    p.code_verifier = kVerifier;
    p.redirect_uri_sent = kRedirect;
    p.client_id = "roomkey-web";
    p.scopes = {"users.all:read", "rooms.all:read_write"};
    return p;
}

std::string query_field(const std::string& url, std::string_view name) {
    const auto q = url.find('?');
    if (q == std::string::npos) return {};
    auto fields = form_decode(url.substr(q + 1));
    if (!fields) return {};
    for (const auto& [k, v] : *fields) {
        if (k == name) return v;
    }
    return {};
}

TEST(FlowSteps, TheAuthorizationRequestIsToldAgainFromThePendingRecordWithTheChallengeOnly) {
    const auto step = authorization_step(kConsent, public_client(), pending());
    ASSERT_TRUE(step) << "no authorization step from the pending record";
    const std::string& url = step->request.url;
    EXPECT_EQ(url.rfind(kConsent + "?", 0), 0u) << url;
    EXPECT_EQ(query_field(url, "response_type"), "code");
    EXPECT_EQ(query_field(url, "client_id"), "roomkey-web");
    EXPECT_EQ(query_field(url, "redirect_uri"), kRedirect);
    EXPECT_EQ(query_field(url, "state"), "state-abc");
    EXPECT_EQ(query_field(url, "code_challenge"), s256_challenge(kVerifier));
    EXPECT_EQ(query_field(url, "code_challenge_method"), "S256");
    EXPECT_EQ(url.find(kVerifier), std::string::npos) << "the verifier never leaves";
    EXPECT_NE(step->note.find("code_verifier stays in sessionStorage"), std::string::npos);
}

TEST(FlowSteps, TheCallbackIsLoggedWithItsCodeMaskedAndItsStateCompared) {
    HttpLog log;
    const std::string code = "auth-code-secret-42";
    const FlowStep ok = callback_step(kRedirect + "?code=" + code + "&state=state-abc", std::nullopt);
    log.add_step(1, ok.purpose, ok.request, ok.note, Instant{});
    RedactionRules rules;
    rules.known_secrets = {code};
    const RenderedExchange shown = render(log.entries().back(), rules, false);
    EXPECT_EQ(shown.request_line.find(code), std::string::npos) << shown.request_line;
    EXPECT_NE(shown.request_line.find("state=state-abc"), std::string::npos) << shown.request_line;
    EXPECT_NE(shown.status_line.find("state matched"), std::string::npos) << shown.status_line;
    EXPECT_NE(shown.title.find("callback"), std::string::npos) << shown.title;
    EXPECT_EQ(shown.title.find("pending"), std::string::npos) << "a step is not a request waiting";

    CallbackError mismatch{CallbackErrorKind::state_mismatch, std::nullopt, "", ""};
    const FlowStep refused = callback_step(kRedirect + "?code=x&state=other", mismatch);
    EXPECT_NE(refused.note.find("refused: state is not the one kept"), std::string::npos) << refused.note;
}


// In Japanese the steps' words are Japanese; the wire values beside them (the
// parameter names and values, the refusal's identifiers) stay as sent, and a
// spec 7.1 refusal says what to do (docs/errors.md's remedy).
TEST(FlowSteps, InJapaneseTheWordsAreJapaneseAndTheWireValuesStay) {
    struct English {
        ~English() { i18n::set_language(i18n::Lang::en); }
    } english;
    i18n::set_language(i18n::Lang::ja);
    const auto step = authorization_step(kConsent, public_client(), pending());
    ASSERT_TRUE(step) << "no authorization step in Japanese";
    EXPECT_EQ(step->purpose, "認可リクエスト(仕様 4.2)");
    bool noted = false;
    for (const StepParameter& p : step->parameters) {
        if (p.name != "code_challenge_method") continue;
        noted = true;
        EXPECT_EQ(p.value, "S256");
        EXPECT_EQ(p.note, "S256(plain は拒否されます)");
    }
    EXPECT_TRUE(noted);
    CallbackError unknown{CallbackErrorKind::authorization_error, AuthorizationErrorCode::scope_unknown, "invalid_scope",
                          ""};
    const FlowStep refused = callback_step(kRedirect + "?error=invalid_scope&state=state-abc", unknown, "state-abc");
    EXPECT_EQ(refused.purpose, "コールバック(仕様 4.2)");
    EXPECT_EQ(refused.note.rfind("拒否: callback.authorization_error (invalid_scope)。交換は行いません", 0), 0u) << refused.note;
    EXPECT_NE(refused.note.find("対処: 開発者: スコープ一覧(仕様 5.5)"), std::string::npos) << refused.note;
    HttpLog log;
    log.add_step(1, refused.purpose, refused.request, refused.note, Instant{});
    EXPECT_EQ(entry_title(log.entries().back()), "GET /callback -> ステップ  コールバック(仕様 4.2)");
}

TEST(FlowSteps, TheStepsShowTheirParametersDecodedWithTheChallengeBesideTheVerifierNote) {
    const auto step = authorization_step(kConsent, public_client(), pending());
    ASSERT_TRUE(step) << "no authorization step from the pending record";
    HttpLog log;
    log.add_step(1, step->purpose, step->request, step->note, Instant{}, step->parameters);
    RedactionRules rules;
    rules.known_secrets = {kVerifier};
    const RenderedExchange shown = render(log.entries().back(), rules, false);
    auto line = [&](std::string_view name) {
        for (const std::string& l : shown.parameters) {
            if (l.rfind(std::string(name) + ": ", 0) == 0) return l;
        }
        return std::string();
    };
    EXPECT_NE(line("scope").find("users.all:read rooms.all:read_write"), std::string::npos) << "decoded, not %3A";
    const std::string challenge = line("code_challenge");
    EXPECT_NE(challenge.find(s256_challenge(kVerifier)), std::string::npos) << challenge;
    EXPECT_NE(challenge.find("kept until the callback"), std::string::npos) << challenge;
    for (const std::string& l : shown.parameters) EXPECT_EQ(l.find(kVerifier), std::string::npos) << l;

    const std::string code = "auth-code-secret-42";
    const FlowStep back = callback_step(kRedirect + "?code=" + code + "&state=state-abc", std::nullopt, "state-abc");
    log.add_step(2, back.purpose, back.request, back.note, Instant{}, back.parameters);
    const RenderedExchange arrived = render(log.entries().back(), RedactionRules{}, false);
    ASSERT_EQ(arrived.parameters.size(), 2u);
    EXPECT_EQ(arrived.parameters[0].rfind("code: ********", 0), 0u) << "masked by name: " << arrived.parameters[0];
    EXPECT_NE(arrived.parameters[1].find("state-abc  (equals the state kept for this sign-in)"), std::string::npos)
        << arrived.parameters[1];
    const FlowStep forged = callback_step(kRedirect + "?code=x&state=forged", std::nullopt, "state-abc");
    EXPECT_NE(forged.parameters[1].note.find("differs from the state kept for this sign-in: state-abc"),
              std::string::npos);
    log.forget_secrets(RedactionRules{});
    EXPECT_EQ(log.entries().back().step_parameters[0].value, std::string(kMask)) << "sign-out rewrites it masked";
}

}  // namespace
}  // namespace flow_steps_test
}  // namespace roomkey::app
