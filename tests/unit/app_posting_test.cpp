// app_posting_test.cpp: the posting feature through the App: the paced queue, per-room order, 429 waits, tasks and cancel (spec 4.6, 4.7, 7.3, 8)
// (tests/support/app_harness.hpp drives the App as the browser does).
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

// ---------------------------------------------------------------------------
// Posting queue (spec 4.6, 4.7, 8.2, 7.3)
// ---------------------------------------------------------------------------

// spec 8.2: a burst of 30 posts to one room goes at the speed the limit
// allows (10 per 10 s) and never gets a 429.
TEST(App, ThirtyPostsToOneRoomArePacedWithoutA429) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{std::string(AppHarness::kRoomId), "hello", 30});
    h.run_for(Seconds(25));

    EXPECT_EQ(h.app->posting().batch().delivered, 30) << "every post delivered";
    EXPECT_EQ(h.app->posting().batch().total, 30);
    EXPECT_EQ(h.per_room_429, 0) << "the pacing kept inside the per-room limit";
    EXPECT_EQ(h.app->counters().responses_429, 0);
    ASSERT_EQ(h.post_arrivals.size(), 30u);
    const Millis total = h.post_arrivals.back() - h.post_arrivals.front();
    EXPECT_GE(total, Seconds(20)) << "30 posts need two more 10-second windows";
    EXPECT_LE(total, Seconds(22)) << "within 10% of what the limit allows";
    // Order is kept: bodies numbered 1..30 arrive in order.
    std::vector<std::string> bodies;
    for (const HttpRequest& r : h.sent_to("/api/rooms/7/messages")) bodies.push_back(*form_value(r.body, "body"));
    ASSERT_EQ(bodies.size(), 30u);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        EXPECT_EQ(bodies[i], "hello (" + std::to_string(i + 1) + "/30)");
    }
}

// spec 7.3: a 429 that still happens waits about 10 s and is retried.
TEST(App, PerRoom429WaitsAboutTenSecondsAndRetries) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    // Another client filled the room's window just now.
    for (int i = 0; i < 10; ++i) h.room_posts["7"].push_back(h.now);
    h.apply(intent::QueueMessage{"7", "late", 1});
    EXPECT_EQ(h.per_room_429, 1);
    ASSERT_FALSE(h.app->posting().posts().empty()) << "the post was not queued";
    EXPECT_EQ(h.app->posting().posts().back().stage, PostStage::waiting);
    EXPECT_TRUE(contains(h.app->posting().posts().back().note, "429")) << h.app->posting().posts().back().note;
    h.run_for(Seconds(9));
    EXPECT_EQ(h.app->posting().posts().back().stage, PostStage::waiting) << "still waiting within the 10 s";
    h.run_for(Seconds(2));
    EXPECT_EQ(h.app->posting().posts().back().stage, PostStage::delivered) << h.app->posting().posts().back().note;
    EXPECT_EQ(h.app->counters().responses_429, 1);
}

// spec 8.1 / 7.3: a GET that gets 429 waits until x-ratelimit-reset, is
// retried once, and the wait is shown.
TEST(App, RateLimitedGetWaitsForTheResetAndIsRetriedOnce) {
    AppHarness h;
    h.start();
    h.me_429 = 1;
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    ASSERT_EQ(h.sent_to("/api/me").size(), 1u);
    EXPECT_EQ(h.app->counters().responses_429, 1);
    EXPECT_FALSE(h.app->last_error()) << "not a failure yet: " << h.app->last_error()->message;
    EXPECT_TRUE(h.app->dashboard().account().loading);
    // In words on the ordinary screen: no status, no header name (the 429 is counted above).
    EXPECT_FALSE(contains(h.app->dashboard().account().note, "429")) << h.app->dashboard().account().note;
    // x-ratelimit-reset is whole seconds; shared/'s scheduler waits its
    // reset margin (1 s) past it, in case the server rounded its window down.
    EXPECT_TRUE(contains(h.app->dashboard().account().note, "retrying once in 0:31"))
        << h.app->dashboard().account().note;
    EXPECT_EQ(h.app->notice(), "Reading your account: too many requests; retrying once in 0:31");
    const auto wake = h.app->next_wake_at(h.now);
    ASSERT_TRUE(wake) << "no wake-up set for the rate limit reset";
    EXPECT_EQ(*wake, t0 + Seconds(31)) << "the platform's timer is set for the reset (+ 1 s margin)";

    h.run_for(Seconds(30));
    EXPECT_EQ(h.sent_to("/api/me").size(), 1u) << "nothing before the reset";
    h.run_for(Seconds(2));
    EXPECT_EQ(h.sent_to("/api/me").size(), 2u) << "one retry after the reset";
    ASSERT_TRUE(h.app->dashboard().account().value) << h.app->dashboard().account().error;
    EXPECT_TRUE(h.app->dashboard().account().note.empty());
    EXPECT_FALSE(h.app->last_error());
}

TEST(App, RateLimitedGetGivesUpAfterItsOneRetry) {
    AppHarness h;
    h.start();
    h.me_429 = 2;
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.run_for(Seconds(35));
    EXPECT_EQ(h.sent_to("/api/me").size(), 2u) << "the first try and one retry";
    EXPECT_FALSE(h.app->dashboard().account().loading);
    ASSERT_TRUE(h.app->last_error()) << "no error reported; the session is " << h.app->session_shown().session_label();
    EXPECT_EQ(h.app->last_error()->code, "HTTP 429");
    EXPECT_TRUE(h.app->dashboard().status().value) << "the other calls were not held back for good";
}

// A background tab draws no frames: the platform only calls tick() when
// next_wake_at() says so, and the paced posts still all go out.
TEST(App, PostsGoOutWhenTickedOnlyAtTheWakeTimes) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    EXPECT_FALSE(h.app->next_wake_at(h.now)) << "nothing waits for time";
    h.apply(intent::QueueMessage{std::string(AppHarness::kRoomId), "background", 25});
    ASSERT_EQ(h.app->posting().batch().delivered, 10);
    int wakes = 0;
    while (auto wake = h.app->next_wake_at(h.now)) {
        ASSERT_GT(*wake, h.now) << "a wake time in the future, or the timer would spin";
        h.now = *wake;
        h.app->tick(h.now);
        h.settle();
        ASSERT_LT(++wakes, 100);
    }
    EXPECT_EQ(h.app->posting().batch().delivered, 25);
    EXPECT_EQ(h.per_room_429, 0);
    EXPECT_LE(h.post_arrivals.back() - h.post_arrivals.front(), Seconds(22));
}

TEST(App, WakeTimeIncludesTheAutomaticRefresh) {
    AppHarness h;
    h.sign_in();
    const auto wake = h.app->next_wake_at(h.now);
    const auto due = h.app->session().refresh_due_at();
    ASSERT_TRUE(wake) << "no wake-up set while signed in";
    ASSERT_TRUE(due) << "no refresh due while signed in";
    EXPECT_LE(*wake, *due);
    EXPECT_LT(*wake, *h.app->session_shown().access_expires_at());
    h.now = *wake;
    h.app->tick(h.now);
    h.settle();
    EXPECT_EQ(h.sent_to("/oauth/token").size(), 2u) << "the refresh went out at the wake time";
    h.apply(intent::SetAutoRefresh{false});
    EXPECT_FALSE(h.app->next_wake_at(h.now)) << "no timer for a refresh that is switched off";
}

TEST(App, TaskIsPostedWithAssigneesAndDueDate) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    intent::QueueTask task{"7", "Review", {"11", "12"}, 1'700'100'000, TaskLimitType::date};
    h.apply(task);
    const auto tasks = h.sent_to("/api/rooms/7/tasks");
    ASSERT_EQ(tasks.size(), 1u);
    EXPECT_EQ(form_value(tasks[0].body, "to_ids"), std::string("11,12"));
    EXPECT_EQ(form_value(tasks[0].body, "limit"), std::string("1700100000"));
    EXPECT_EQ(form_value(tasks[0].body, "limit_type"), std::string("date"));
    EXPECT_EQ(h.app->posting().posts().back().stage, PostStage::delivered);
}

TEST(App, EmptyMessageIsRefusedBeforeQueueing) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "", 1});
    EXPECT_TRUE(h.app->posting().posts().empty());
    EXPECT_TRUE(h.app->last_error());
}

TEST(App, CancelQueuedDropsWaitingPostsOnly) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "burst", 15});
    EXPECT_EQ(h.app->posting().batch().delivered, 10) << "the first window's ten went at once";
    h.apply(intent::CancelQueued{});
    h.run_for(Seconds(15));
    EXPECT_EQ(h.post_arrivals.size(), 10u) << "cancelled posts are never sent";
    EXPECT_EQ(h.app->posting().batch().total, 10);
}

// Signing out with posts still queued asks first; only the
// user's "discard them" drops them.
TEST(App, SignOutWithWaitingPostsAsksThenCancelsThem) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "burst", 12});
    h.apply(intent::SignOut{});
    ASSERT_TRUE(h.app->sign_out_confirm()) << "two posts still wait: the user is asked";
    EXPECT_EQ(*h.app->sign_out_confirm(), 2);
    EXPECT_EQ(h.app->holder(), CredentialHolder::api_token) << "still signed in until the user confirms";
    h.apply(intent::CancelSignOut{});
    EXPECT_FALSE(h.app->sign_out_confirm());
    h.apply(intent::SignOut{});
    h.apply(intent::SignOut{true});
    h.run_for(Seconds(12));
    EXPECT_EQ(h.post_arrivals.size(), 10u);
    EXPECT_EQ(h.app->holder(), CredentialHolder::none);
    EXPECT_FALSE(h.app->sign_out_confirm());
}


}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
