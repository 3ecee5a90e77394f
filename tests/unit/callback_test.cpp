// callback_test.cpp: the redirect back from the consent screen (spec 4.2, 7.1).
#include "roomkey/callback.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace callback_test {
namespace {

constexpr const char* kCallbackUrl = "https://127.0.0.1:8443/callback";
constexpr const char* kState = "state-abc_123";

PendingAuthorization pending(std::string redirect_uri_sent = "") {
    PendingAuthorization p;
    p.state = kState;
    p.code_verifier = std::string(43, 'v');
    p.redirect_uri_sent = std::move(redirect_uri_sent);
    p.client_id = "pub-client";
    p.scopes = {"rooms.all:read"};
    p.created_at = instant_from_unix_seconds(1'700'000'000);
    return p;
}

std::string landed(const FormFields& params) { return append_query(kCallbackUrl, params); }

TEST(Callback, CodeWithMatchingStateYieldsValidatedCallback) {  // spec 4.2 allow outcome
    std::optional<PendingAuthorization> slot = pending(kCallbackUrl);
    auto cb = validate_callback(landed({{"code", "abc"}, {"state", kState}}), slot);
    ASSERT_TRUE(cb) << to_string(cb.error().kind);
    EXPECT_EQ(cb->code(), "abc");
    EXPECT_EQ(cb->code_verifier(), std::string(43, 'v'));
    EXPECT_EQ(cb->redirect_uri_sent(), kCallbackUrl);
    EXPECT_EQ(cb->client_id(), "pub-client");
    EXPECT_EQ(cb->scopes(), ScopeSet{"rooms.all:read"});
    EXPECT_FALSE(slot.has_value()) << "the pending record is single use";
}

TEST(Callback, ReusedStateFails) {  // spec 4.2 state bound to one request
    std::optional<PendingAuthorization> slot = pending();
    const std::string url = landed({{"code", "abc"}, {"state", kState}});
    ASSERT_TRUE(validate_callback(url, slot)) << "the first landing with the right state was refused";
    auto again = validate_callback(url, slot);
    ASSERT_FALSE(again) << "the same state was accepted twice";
    EXPECT_EQ(again.error().kind, CallbackErrorKind::no_pending_authorization);
}

TEST(Callback, PendingIsSpentEvenWhenValidationFails) {  // spec 4.2: a failed attempt cannot be retried with the same state
    std::optional<PendingAuthorization> slot = pending();
    auto wrong = validate_callback(landed({{"code", "abc"}, {"state", "guess"}}), slot);
    ASSERT_FALSE(wrong) << "a guessed state was accepted";
    EXPECT_EQ(wrong.error().kind, CallbackErrorKind::state_mismatch);
    EXPECT_FALSE(slot.has_value());
    auto right = validate_callback(landed({{"code", "abc"}, {"state", kState}}), slot);
    ASSERT_FALSE(right) << "the state was accepted after a failed attempt spent it";
    EXPECT_EQ(right.error().kind, CallbackErrorKind::no_pending_authorization);
}

TEST(Callback, StateIsRequiredAndMustMatch) {  // spec 4.2 "the client must compare it with the session value"
    struct Case {
        FormFields params;
        CallbackErrorKind kind;
    };
    const Case cases[] = {
        {{{"code", "abc"}}, CallbackErrorKind::state_missing},
        {{{"code", "abc"}, {"state", ""}}, CallbackErrorKind::state_missing},
        {{{"code", "abc"}, {"state", "state-abc_124"}}, CallbackErrorKind::state_mismatch},
        {{{"code", "abc"}, {"state", "state-abc_12"}}, CallbackErrorKind::state_mismatch},
        // An error response from someone else's request is not ours to show.
        {{{"error", "access_denied"}, {"state", "other"}}, CallbackErrorKind::state_mismatch},
    };
    for (const auto& c : cases) {
        std::optional<PendingAuthorization> slot = pending();
        auto cb = validate_callback(landed(c.params), slot);
        ASSERT_FALSE(cb) << "accepted: " << landed(c.params);
        EXPECT_EQ(cb.error().kind, c.kind) << to_string(cb.error().kind);
    }
}

TEST(Callback, EmptyPendingStateNeverMatches) {
    std::optional<PendingAuthorization> slot = pending();
    slot->state.clear();
    auto cb = validate_callback(landed({{"code", "abc"}, {"state", "x"}}), slot);
    ASSERT_FALSE(cb) << "accepted against an empty pending state";
    EXPECT_EQ(cb.error().kind, CallbackErrorKind::state_mismatch);
}

TEST(Callback, DenyMapsToAccessDenied) {  // spec 4.2 deny outcome, 7.1 3001
    std::optional<PendingAuthorization> slot = pending();
    auto cb = validate_callback(landed({{"error", "access_denied"}, {"state", kState}}), slot);
    ASSERT_FALSE(cb) << "a denied consent was accepted as a callback";
    EXPECT_EQ(cb.error().kind, CallbackErrorKind::access_denied);
    EXPECT_EQ(cb.error().code, AuthorizationErrorCode::access_denied);
    EXPECT_EQ(cb.error().error, "access_denied");
}

TEST(Callback, OtherErrorsCarryTheirSpecCode) {  // spec 7.1
    std::optional<PendingAuthorization> slot = pending();
    auto cb = validate_callback(landed({{"error", "invalid_scope"},
                                        {"error_code", "5002"},
                                        {"error_description", "The scope is unknown."},
                                        {"state", kState}}),
                                slot);
    ASSERT_FALSE(cb) << "an authorization error was accepted as a callback";
    EXPECT_EQ(cb.error().kind, CallbackErrorKind::authorization_error);
    EXPECT_EQ(cb.error().code, AuthorizationErrorCode::scope_unknown);
    EXPECT_EQ(cb.error().error, "invalid_scope");
    EXPECT_EQ(cb.error().description, "The scope is unknown.");
}

TEST(Callback, UnlistedOrNonNumericErrorCodeGivesNoCode) {  // spec 7.1 lists only 16 codes
    for (const char* code : {"999", "abc", "-5002", "5002x", "", "99999999999999999999"}) {
        std::optional<PendingAuthorization> slot = pending();
        auto cb = validate_callback(landed({{"error", "server_error"}, {"error_code", code}, {"state", kState}}), slot);
        ASSERT_FALSE(cb) << "error_code " << code << " was accepted as a callback";
        EXPECT_EQ(cb.error().kind, CallbackErrorKind::authorization_error);
        EXPECT_FALSE(cb.error().code.has_value()) << "error_code=" << code;
    }
}

TEST(Callback, CodeIsRequired) {  // spec 2.2 code delivered as the query parameter `code`
    std::optional<PendingAuthorization> slot = pending();
    auto cb = validate_callback(landed({{"state", kState}, {"code", ""}}), slot);
    ASSERT_FALSE(cb) << "accepted without a code";
    EXPECT_EQ(cb.error().kind, CallbackErrorKind::code_missing);
}

TEST(Callback, RepeatedParametersAreRefused) {
    std::optional<PendingAuthorization> slot = pending();
    auto cb = validate_callback(landed({{"code", "a"}, {"code", "b"}, {"state", kState}}), slot);
    ASSERT_FALSE(cb) << "accepted with the code given twice";
    EXPECT_EQ(cb.error().kind, CallbackErrorKind::repeated_parameter);
}

TEST(Callback, MustLandOnTheRedirectUriThatWasSent) {
    std::optional<PendingAuthorization> slot = pending(kCallbackUrl);
    auto cb = validate_callback(append_query("https://127.0.0.1:8443/elsewhere", {{"code", "a"}, {"state", kState}}), slot);
    ASSERT_FALSE(cb) << "accepted on a path other than the redirect URI that was sent";
    EXPECT_EQ(cb.error().kind, CallbackErrorKind::redirect_mismatch);

    slot = pending("https://app.test/cb");
    auto default_port = validate_callback("https://app.test:443/cb?code=a&state=" + std::string(kState) + "#_", slot);
    EXPECT_TRUE(default_port) << "the default port and a fragment do not make it another endpoint";
}

TEST(Callback, MalformedUrlIsTyped) {
    std::optional<PendingAuthorization> slot = pending();
    auto cb = validate_callback("https://127.0.0.1:8443/callback?code=%zz&state=x", slot);
    ASSERT_FALSE(cb) << "accepted a malformed URL";
    EXPECT_EQ(cb.error().kind, CallbackErrorKind::malformed_url);
    slot = pending();
    EXPECT_EQ(validate_callback("not a url", slot).error().kind, CallbackErrorKind::malformed_url);
}

TEST(Callback, NoPendingAuthorization) {
    std::optional<PendingAuthorization> slot;
    auto cb = validate_callback(landed({{"code", "abc"}, {"state", kState}}), slot);
    ASSERT_FALSE(cb) << "accepted with no pending authorization";
    EXPECT_EQ(cb.error().kind, CallbackErrorKind::no_pending_authorization);
}

TEST(Callback, SandboxAllowRedirectIsAcceptedEndToEnd) {  // spec 4.2, both sides
    ValidatedAuthorization authz;
    authz.client_id = "pub-client";
    authz.redirect_uri = kCallbackUrl;
    authz.state = kState;
    std::optional<PendingAuthorization> slot = pending();
    auto cb = validate_callback(allow_redirect(authz, "c0de+/="), slot);
    ASSERT_TRUE(cb) << to_string(cb.error().kind);
    EXPECT_EQ(cb->code(), "c0de+/=") << "codes survive form encoding unchanged";

    slot = pending();
    auto denied = validate_callback(deny_redirect(authz), slot);
    ASSERT_FALSE(denied) << "the deny redirect was accepted as a callback";
    EXPECT_EQ(denied.error().kind, CallbackErrorKind::access_denied);
}

}  // namespace
}  // namespace callback_test
}  // namespace roomkey
