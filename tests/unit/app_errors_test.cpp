// app_errors_test.cpp: every error reaches state() and clears only when the
// same action succeeds; form errors (tests/support/app_harness.hpp drives the
// App as the browser does).
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

// A 2xx whose JSON is cut off is an error on screen, in state() and the
// mirror's source, with the old value kept; the next good read clears it.
TEST(App, UnreadableAnswerIsReportedAndClearedByTheNextSuccess) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    ASSERT_TRUE(h.app->dashboard().account().value) << h.app->dashboard().account().error;
    h.faults.push_back(AppHarness::status_fault("/api/me", 200, R"({"account_id": 42)"));
    h.apply(intent::ReloadAccount{});
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "unreadable answer");
    EXPECT_FALSE(h.app->dashboard().account().error.empty());
    EXPECT_EQ(h.app->dashboard().account().value->account_id, "4242") << "the last good account stays";
    const std::string state = page_state_json(*h.app, h.now);
    EXPECT_TRUE(contains(state, R"("code":"unreadable answer")")) << state;
    EXPECT_TRUE(contains(state, R"("account":"The answer could not be read)")) << state;
    h.apply(intent::ReloadAccount{});
    EXPECT_FALSE(h.app->last_error());
    EXPECT_TRUE(h.app->dashboard().account().error.empty());
}

// Another view's success does not clear an error it did not cause.
TEST(App, AnErrorClearsOnlyWhenTheSameActionSucceeds) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.faults.push_back(AppHarness::status_fault("/api/me", 500, R"({"errors":["boom"]})"));
    h.apply(intent::ReloadAccount{});  // /me fails, /my/status succeeds
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    h.apply(intent::ReloadRooms{});
    EXPECT_TRUE(h.app->last_error()) << "the room list's success says nothing about the account";
    h.apply(intent::ReloadAccount{});
    EXPECT_FALSE(h.app->last_error());
}

TEST(App, FormErrorsAreInTheState) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::FormError{"Due date: a real date as YYYY-MM-DD."});
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), R"("form":"Due date: a real date as YYYY-MM-DD.")"));
    h.apply(intent::FormError{""});
    EXPECT_TRUE(h.app->form_error().empty());
}

}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
