// app_log_test.cpp: the HTTP log, its masking and the clipboard, and a page restored from the back/forward cache
// (tests/support/app_harness.hpp drives the App as the browser does).
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

// ---------------------------------------------------------------------------
// HTTP log and copy as curl
// ---------------------------------------------------------------------------

TEST(App, LogMasksSecretsUnlessRevealed) {
    AppHarness h;
    const std::string redirect = h.sign_in();
    const std::string code = *query_value(redirect, "code");
    const std::string access = h.app->session().tokens()->access_token;
    const LogEntry* exchange = nullptr;
    for (const LogEntry& entry : h.app->log().entries()) {
        if (entry.request.url == "/oauth/token") exchange = &entry;
    }
    ASSERT_NE(exchange, nullptr) << "the token exchange is logged";
    const RenderedExchange masked = render(*exchange, h.app->redaction(), false);
    EXPECT_FALSE(contains(masked.request_body, code)) << masked.request_body;
    EXPECT_TRUE(contains(masked.request_body, "code=" + std::string(kMask)));
    EXPECT_FALSE(contains(masked.response_body, access)) << masked.response_body;
    const RenderedExchange revealed = render(*exchange, h.app->redaction(), true);
    EXPECT_TRUE(contains(revealed.request_body, code)) << "reveal shows it on screen";
    EXPECT_TRUE(contains(revealed.response_body, access));

    h.apply(intent::CopyCurl{exchange->id});
    ASSERT_EQ(h.copied.size(), 1u);
    EXPECT_FALSE(contains(h.copied[0], code)) << "copy as curl is masked unless revealed";
    EXPECT_TRUE(contains(h.copied[0], "https://127.0.0.1:8443/oauth/token"));
    h.apply(intent::SetReveal{true});
    h.apply(intent::CopyCurl{exchange->id, /*may_reveal=*/true});  // the UI's button
    ASSERT_EQ(h.copied.size(), 2u);
    EXPECT_TRUE(contains(h.copied[1], code));
}

// The page API can neither switch reveal on nor get a revealed copy: only the
// UI's own intents can, and what the page API reads stays masked.
TEST(App, PageApiCannotObtainAnUnmaskedToken) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    const LogEntry* me = nullptr;
    for (const LogEntry& entry : h.app->log().entries()) {
        if (entry.request.url == "/api/me") me = &entry;
    }
    ASSERT_NE(me, nullptr);
    const std::string entry = std::to_string(me->id);

    auto run_page_actions = [&](const std::string& json) {
        std::vector<std::string> errors;
        for (const Intent& intent : parse_actions(json, errors)) h.apply(intent);
        return errors;
    };
    // A script tries to reveal and copy.
    auto errors = run_page_actions(R"([{"type":"set_reveal","on":true},{"type":"copy_curl","entry":)" + entry + "}]");
    EXPECT_EQ(errors.size(), 1u) << "set_reveal refused";
    EXPECT_FALSE(h.app->reveal());
    ASSERT_EQ(h.copied.size(), 1u);
    EXPECT_FALSE(contains(h.copied[0], AppHarness::kApiToken)) << h.copied[0];

    // The user reveals on screen; a script's copy is still masked.
    h.apply(intent::SetReveal{true});
    run_page_actions(R"([{"type":"copy_curl","entry":)" + entry + "}]");
    ASSERT_EQ(h.copied.size(), 2u);
    EXPECT_FALSE(contains(h.copied[1], AppHarness::kApiToken)) << "page API copies are masked even when revealed";
    EXPECT_FALSE(contains(page_state_json(*h.app, h.now), AppHarness::kApiToken));

    // Only the UI's own copy button reveals.
    h.apply(intent::CopyCurl{me->id, true});
    ASSERT_EQ(h.copied.size(), 3u);
    EXPECT_TRUE(contains(h.copied[2], AppHarness::kApiToken));
    EXPECT_FALSE(contains(page_state_json(*h.app, h.now), AppHarness::kApiToken));
}

// Sign-out resets everything that belonged to the session: reveal, the
// clipboard (the system's too when the session copied to it), posts, counters.
TEST(App, SignOutResetsRevealClipboardPostsAndCounters) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "private text", 3});
    h.apply(intent::SetReveal{true});
    h.apply(intent::CopyCurl{h.app->log().entries().back().id, true});
    ASSERT_TRUE(contains(h.copied.back(), AppHarness::kApiToken)) << h.copied.back();
    ASSERT_GT(h.app->counters().requests_sent, 0);
    h.apply(intent::SignOut{});

    EXPECT_FALSE(h.app->reveal()) << "reveal does not outlive the session";
    ASSERT_EQ(h.forgot_clipboard.size(), 1u) << "the paste buffer is emptied";
    EXPECT_TRUE(h.forgot_clipboard[0].system) << "the copy is overwritten on the system clipboard";
    EXPECT_TRUE(h.app->posting().posts().empty()) << "the session's post texts are gone";
    EXPECT_EQ(h.app->posting().batch().total, 0);
    EXPECT_EQ(h.app->counters().requests_sent, 0);
    EXPECT_EQ(h.app->counters().responses_429, 0);
    EXPECT_TRUE(h.app->sign_in().masked_api_token().empty());
    EXPECT_FALSE(h.app->dashboard().account().value);
    EXPECT_TRUE(h.app->dashboard().selected_room().empty());

    // A masked copy is overwritten too: it holds the session's
    // URLs and bodies (a message's text).
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::CopyCurl{h.app->log().entries().back().id, true});
    h.apply(intent::SignOut{});
    ASSERT_EQ(h.forgot_clipboard.size(), 2u);
    EXPECT_TRUE(h.forgot_clipboard.back().system);

    // A session that copied nothing leaves the system clipboard alone.
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::SignOut{});
    ASSERT_EQ(h.forgot_clipboard.size(), 3u);
    EXPECT_FALSE(h.forgot_clipboard.back().system);
}

// Firefox and WebKit refuse a clipboard write without a recent
// click or key press. The platform says so (ClipboardCleared{false}), the
// app tells the user, and the platform clears at the next gesture.
TEST(App, AClipboardClearTheBrowserRefusedIsShownUntilItIsDone) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::CopyCurl{h.app->log().entries().back().id, false});
    h.apply(intent::SignOut{});
    ASSERT_TRUE(h.forgot_clipboard.back().system) << "the system clipboard was not cleared at sign-out";
    EXPECT_EQ(h.app->clipboard_notice(), "");

    h.apply(intent::ClipboardCleared{false});
    EXPECT_NE(h.app->clipboard_notice().find("next click or key press"), std::string::npos)
        << h.app->clipboard_notice();
    EXPECT_NE(page_state_json(*h.app, h.now).find(R"("clipboard_notice":"The clipboard still holds)"),
              std::string::npos);
    h.apply(intent::ClipboardCleared{true});
    EXPECT_EQ(h.app->clipboard_notice(), "");
    EXPECT_NE(page_state_json(*h.app, h.now).find(R"("clipboard_notice":null)"), std::string::npos);

    // A new copy while a clear waits is the user's: the wait ends.
    h.apply(intent::ClipboardCleared{false});
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::CopyCurl{h.app->log().entries().back().id, false});
    EXPECT_EQ(h.app->clipboard_notice(), "");
}

// Back from the consent screen restores the page from the
// back/forward cache as it was, "signing in". The sign-in is abandoned:
// signed out, Sign in usable, the pending authorization removed from
// storage, so a callback with its state is refused afterwards.
TEST(App, APageRestoredWhileSigningInAbandonsTheSignIn) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    ASSERT_EQ(h.app->session_shown().session_label(), "signing in");
    ASSERT_EQ(h.stored.size(), 1u);
    const std::string abandoned = h.navigations.back();

    h.apply(intent::PageRestored{});
    EXPECT_EQ(h.app->session_shown().session_label(), "signed out");
    EXPECT_EQ(h.app->holder(), CredentialHolder::none);
    EXPECT_EQ(h.forgot_pending, 1) << "the pending authorization leaves sessionStorage";
    EXPECT_NE(h.app->notice().find("came back from the consent screen"), std::string::npos) << h.app->notice();
    EXPECT_FALSE(h.app->last_error());

    // The consent screen reached again (Forward) and allowed: the callback
    // loads a new page, and storage holds no record for it any more.
    auto redirect = h.service.consent(abandoned);
    ASSERT_TRUE(redirect) << redirect.error().description;
    AppHarness callback_page;
    callback_page.start(*redirect, std::nullopt);
    EXPECT_NE(callback_page.app->session_shown().session_label(), "exchanging");
    EXPECT_TRUE(callback_page.app->last_error()) << "a callback for an abandoned sign-in is refused";
    EXPECT_TRUE(callback_page.sent_to("/oauth/token").empty()) << "its code is never exchanged";

    // The restored page signs in again, with a new state; the abandoned
    // callback does not match the record that sign-in keeps either.
    h.apply(intent::SignIn{kScopes});
    EXPECT_EQ(h.app->session_shown().session_label(), "signing in");
    ASSERT_EQ(h.stored.size(), 2u);
    EXPECT_NE(query_value(h.navigations.back(), "state"), query_value(abandoned, "state"));
    AppHarness mismatched;
    mismatched.start(*redirect, h.stored.back());
    EXPECT_TRUE(mismatched.app->last_error());
    EXPECT_TRUE(mismatched.sent_to("/oauth/token").empty());
}

TEST(App, APageRestoredInAnyOtherStateIsLeftAsItWas) {
    AppHarness h;
    h.sign_in();
    ASSERT_EQ(h.app->session_shown().session_label(), "signed in");
    h.apply(intent::PageRestored{});
    EXPECT_EQ(h.app->session_shown().session_label(), "signed in");
    EXPECT_EQ(h.forgot_pending, 0);

    AppHarness signed_out;
    signed_out.start();
    signed_out.apply(intent::PageRestored{});
    EXPECT_EQ(signed_out.app->session_shown().session_label(), "signed out");
    EXPECT_EQ(signed_out.forgot_pending, 0);
    EXPECT_EQ(signed_out.app->notice(), "");
}


}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
