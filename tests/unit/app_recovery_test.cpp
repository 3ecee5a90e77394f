// app_recovery_test.cpp: posts that survive faults and roomkey-helper unreachable
// (the errors on screen: app_errors_test.cpp)
// (tests/support/app_harness.hpp drives the App as the browser does).
#include "app_harness.hpp"

#include "app/i18n.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

// ---------------------------------------------------------------------------
// Posts survive faults; every error reaches state()
// ---------------------------------------------------------------------------

AppHarness& signed_in_with_api_token(AppHarness& h) {
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    return h;
}

const PostJob& only_post(const AppHarness& h) {
    EXPECT_EQ(h.app->posting().posts().size(), 1u);
    return h.app->posting().posts().back();
}

std::size_t posts_sent(const AppHarness& h) {
    std::size_t n = 0;
    for (const HttpRequest& r : h.sent_to("/api/rooms/7/messages")) n += r.method == Method::Post ? 1 : 0;
    return n;
}

// 503: the service did not act. Again by itself after 1 s, then 2 s.
TEST(App, PostAfter503GoesAgainByItselfWithBackoff) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 503, R"({"errors":["maintenance"]})"));
    h.faults.push_back(AppHarness::status_fault("/messages", 503, R"({"errors":["maintenance"]})"));
    h.apply(intent::QueueMessage{"7", "hello", 1});
    EXPECT_EQ(only_post(h).stage, PostStage::retrying);
    EXPECT_TRUE(contains(only_post(h).note, "503")) << only_post(h).note;
    ASSERT_TRUE(h.app->next_wake_at(h.now)) << "the platform's timer wakes the app for the retry";
    EXPECT_EQ(*h.app->next_wake_at(h.now), h.now + Seconds(1));
    h.run_for(Millis(900));
    EXPECT_EQ(posts_sent(h), 1u) << "not before the backoff";
    h.run_for(Millis(200));
    EXPECT_EQ(posts_sent(h), 2u) << "again after 1 s";
    EXPECT_EQ(only_post(h).stage, PostStage::retrying);
    h.run_for(Millis(1800));
    EXPECT_EQ(posts_sent(h), 2u) << "the second wait is 2 s";
    h.run_for(Millis(300));
    EXPECT_EQ(posts_sent(h), 3u);
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"hello"});
}

// The helper's 502 "could not reach the service" is not sent either.
TEST(App, PostTheHelperCouldNotForwardGoesAgainByItself) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::helper_gateway_fault("/messages", UpstreamOutcome::not_sent));
    h.apply(intent::QueueMessage{"7", "hello", 1});
    EXPECT_EQ(only_post(h).stage, PostStage::retrying);
    h.run_for(Millis(1100));
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
}

// Retries keep the room's order: the next post waits behind the retrying one.
TEST(App, ARetryingPostKeepsItsPlaceInTheRoom) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 503, "{}"));
    h.apply(intent::QueueMessage{"7", "first", 1});
    h.apply(intent::QueueMessage{"7", "second", 1});
    EXPECT_TRUE(h.room_bodies["7"].empty()) << "the second does not overtake the first";
    h.run_for(Millis(1100));
    EXPECT_EQ(h.room_bodies["7"], (std::vector<std::string>{"first", "second"}));
}

// The answer was lost after the service stored the post: it is found in the
// room and counted delivered, never sent twice.
TEST(App, UnknownPostFoundInTheRoomIsDeliveredNotResent) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::no_answer("/messages", TransportFailure::network_error, true));
    h.apply(intent::QueueMessage{"7", "stored, answer lost", 1});
    EXPECT_EQ(only_post(h).stage, PostStage::checking);
    h.run_for(Seconds(3));
    EXPECT_EQ(only_post(h).stage, PostStage::delivered) << only_post(h).note;
    EXPECT_EQ(posts_sent(h), 1u) << "never resent by itself";
    EXPECT_EQ(h.room_bodies["7"].size(), 1u);
}

// A 500: maybe acted on. Looked up, not there: the user decides, with why.
TEST(App, UnknownPostNotFoundWaitsForTheUserThenRetries) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 500, R"({"errors":["boom"]})"));
    h.apply(intent::QueueMessage{"7", "maybe", 1});
    h.run_for(Seconds(60));
    const PostJob& job = only_post(h);
    EXPECT_EQ(job.stage, PostStage::unknown);
    EXPECT_TRUE(contains(job.note, "not among the room's latest messages")) << job.note;
    EXPECT_EQ(posts_sent(h), 1u) << "a minute later: still never resent by itself";
    ASSERT_TRUE(h.app->last_error()) << "the user is told";
    // The box says it by its cause, in words; the page API's message keeps the note ("HTTP 500: ...").
    EXPECT_EQ(h.app->last_error()->shown(), "It was sent, but it is not among the room's latest messages.");
    EXPECT_TRUE(contains(h.app->last_error()->message, "HTTP 500")) << h.app->last_error()->message;
    const nlohmann::json post = nlohmann::json::parse(page_state_json(*h.app, h.now))["posts"][0];
    EXPECT_EQ(post["words"], "May not have been sent: it is not among the room's latest messages.") << post;
    EXPECT_EQ(post["note"], job.note) << "the page API's note stays";
    EXPECT_FALSE(h.app->posting().error().empty());
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), R"("stage":"unknown")"));
    h.apply(intent::RetryPost{job.id});
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"maybe"});
    EXPECT_FALSE(h.app->last_error()) << "the error clears once the post went through";
    EXPECT_TRUE(h.app->posting().error().empty());
}

// A timeout is unknown too; a task cannot be looked up: the user decides at once.
TEST(App, TaskWithUnknownOutcomeIsLeftToTheUser) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::no_answer("/tasks", TransportFailure::timeout));
    h.apply(intent::QueueTask{"7", "do it", {"4242"}, std::nullopt, TaskLimitType::none});
    EXPECT_EQ(only_post(h).stage, PostStage::unknown);
    h.run_for(Seconds(40));
    EXPECT_EQ(h.sent_to("/api/rooms/7/tasks").size(), 1u);
    h.apply(intent::DiscardPost{only_post(h).id});
    EXPECT_EQ(only_post(h).stage, PostStage::cancelled);
    EXPECT_FALSE(h.app->last_error());
}

// A 4xx keeps the text; the user can change it and send it again, or drop it.
TEST(App, RefusedPostKeepsItsTextForEditRetryOrDiscard) {
    AppHarness h;
    signed_in_with_api_token(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 400, R"({"errors":["body is too long."]})"));
    h.apply(intent::QueueMessage{"7", "a very long text", 1});
    const PostJob& job = only_post(h);
    EXPECT_EQ(job.stage, PostStage::refused);
    EXPECT_EQ(job.body, "a very long text");
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "HTTP 400");
    EXPECT_TRUE(contains(job.note, "body is too long.")) << job.note;
    // Where it stands, and in the mirror: what happened and what to do, in words (no "HTTP 400").
    const nlohmann::json post = nlohmann::json::parse(page_state_json(*h.app, h.now))["posts"][0];
    EXPECT_EQ(post["words"], "Not sent: the service refused it as written. Edit it and Retry, or Discard.") << post;
    EXPECT_TRUE(contains(post["note"].get<std::string>(), "HTTP 400")) << "the page API's note stays: " << post;
    h.apply(intent::EditPost{job.id, "short"});
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"short"});
    EXPECT_FALSE(h.app->last_error());
}

// The error box of a refused post says it by its cause in the language
// shown, not the service's own (English) message; that message stays the
// developer view's and the page API's (last_error.message, the post's note).
TEST(App, ARefusedPostsErrorBoxIsInTheLanguageShownNotTheServicesEnglish) {
    AppHarness h;
    signed_in_with_api_token(h);
    i18n::set_language(i18n::Lang::ja);
    h.faults.push_back(AppHarness::status_fault("/messages", 404, R"({"errors":["Room not found."]})"));
    h.apply(intent::QueueMessage{"7", "hello", 1});
    const std::optional<UserError> error = h.app->last_error();
    const nlohmann::json state = nlohmann::json::parse(page_state_json(*h.app, h.now));
    i18n::set_language(i18n::Lang::en);
    ASSERT_TRUE(error) << "no error reported";
    EXPECT_EQ(error->shown(), "未送信: チャットが見つかりません(削除されたか、退出しました)。編集して本文を残すか、破棄してください。");
    EXPECT_EQ(error->said().find("Room not found"), std::string::npos) << error->said();
    EXPECT_EQ(error->message, "Room not found.") << "the developer view's and the page API's words stay";
    EXPECT_EQ(state["last_error"]["shown"], error->shown()) << state["last_error"];
    EXPECT_EQ(state["error_words"]["posting"].get<std::string>().find("Room not found"), std::string::npos)
        << state["error_words"];
    EXPECT_TRUE(contains(state["posts"][0]["note"].get<std::string>(), "Room not found.")) << state["posts"][0];
}

// No answer at all from the helper: requests wait while it is probed; posts
// queued meanwhile go by themselves once it answers.
TEST(App, HelperUnreachableHoldsRequestsAndProbesUntilItAnswers) {
    AppHarness h;
    signed_in_with_api_token(h);
    // The helper is gone: both reads of the account get no connection.
    h.faults.push_back(AppHarness::no_answer("/api/me", TransportFailure::network_error));
    h.faults.push_back(AppHarness::no_answer("/api/my/status", TransportFailure::network_error));
    h.apply(intent::ReloadAccount{});
    EXPECT_TRUE(h.app->helper_unreachable());
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_TRUE(contains(h.app->last_error()->message, "roomkey-helper")) << h.app->last_error()->message;
    EXPECT_FALSE(h.app->dashboard().account().error.empty());
    EXPECT_TRUE(contains(page_state_json(*h.app, h.now), R"("helper":"unreachable")"));
    h.faults.push_back(AppHarness::no_answer("/config.json", TransportFailure::network_error));
    h.apply(intent::QueueMessage{"7", "while away", 1});
    EXPECT_EQ(posts_sent(h), 0u) << "nothing is handed to a helper that does not answer";
    h.run_for(Millis(1100));
    EXPECT_TRUE(h.app->helper_unreachable()) << "the first probe failed too";
    EXPECT_EQ(posts_sent(h), 0u);
    h.run_for(Millis(2100));
    EXPECT_FALSE(h.app->helper_unreachable()) << "the second probe (after 2 s) got an answer";
    EXPECT_EQ(only_post(h).stage, PostStage::delivered);
    h.apply(intent::ReloadAccount{});
    EXPECT_FALSE(h.app->last_error()) << "the account error clears once the account is read";
    EXPECT_TRUE(h.app->dashboard().account().error.empty());
}

}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
