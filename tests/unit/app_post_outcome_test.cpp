// app_post_outcome_test.cpp: web/app/post_outcome: which answers let a post
// go again by itself (the service certainly did not act), which hold it as
// unknown (never resent by itself), which are refusals the user handles; the
// backoff; and settling an unknown post from the room's latest messages.
#include <gtest/gtest.h>

#include "app/post_outcome.hpp"

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_post_outcome_test {
namespace {

HttpResponse answer(int status, std::string body = {}) {
    HttpResponse r;
    r.status = status;
    r.headers.set("Content-Type", "application/json");
    r.body = std::move(body);
    return r;
}

TEST(PostOutcome, SuccessIsDelivered) {
    EXPECT_EQ(classify_post(answer(200, R"({"message_id":"1"})")).verdict, PostVerdict::delivered);
}

TEST(PostOutcome, ServiceUnavailableIsRetriedAutomatically) {
    const PostOutcome outcome = classify_post(answer(503, R"({"errors":["maintenance"]})"));
    EXPECT_EQ(outcome.verdict, PostVerdict::retry_automatically);
    EXPECT_NE(outcome.why.find("503"), std::string::npos) << outcome.why;
}

TEST(PostOutcome, RateLimitGoesToThePacer) {
    EXPECT_EQ(classify_post(answer(429)).verdict, PostVerdict::rate_limited);
}

// The helper's own 502/504 (helper/helper/proxy.cpp, shared/'s proxy_outcome.hpp).
HttpResponse helper_gateway(int status, std::string_view outcome) {
    HttpResponse r = answer(status, std::string(R"({"errors":["the API could not be reached"],"roomkey_upstream":")") +
                                        std::string(outcome) + "\"}");
    r.headers.set("X-Roomkey-Upstream", std::string(outcome));
    return r;
}

TEST(PostOutcome, HelperCouldNotReachUpstreamIsRetried) {
    const auto r = helper_gateway(502, "not_sent");
    EXPECT_EQ(read_gateway_failure(r), GatewayFailure::not_sent);
    EXPECT_EQ(classify_post(r).verdict, PostVerdict::retry_automatically);
}

TEST(PostOutcome, HelperSentButGotNoAnswerIsUnknown) {
    for (int status : {502, 504}) {
        const auto r = helper_gateway(status, "no_answer");
        EXPECT_EQ(read_gateway_failure(r), GatewayFailure::sent_no_answer) << status;
        EXPECT_EQ(classify_post(r).verdict, PostVerdict::unknown) << status;
    }
}

TEST(PostOutcome, OnlyTheHeaderCountsNotTheBody) {
    // A body that merely says not_sent, without the helper's header, may come
    // from anywhere: never a reason to resend.
    const auto r = answer(502, R"({"errors":["x"],"roomkey_upstream":"not_sent"})");
    EXPECT_EQ(read_gateway_failure(r), std::nullopt);
    EXPECT_EQ(classify_post(r).verdict, PostVerdict::unknown);
}

TEST(PostOutcome, AnUpstreamsOwn502IsUnknown) {
    // Not the helper's words: the service (or a proxy before it) may have acted.
    EXPECT_EQ(read_gateway_failure(answer(502, R"({"errors":["Bad gateway"]})")), std::nullopt);
    EXPECT_EQ(classify_post(answer(502, "<html>bad gateway</html>")).verdict, PostVerdict::unknown);
}

TEST(PostOutcome, OtherServerErrorsAreUnknown) {
    for (int status : {500, 504, 599}) EXPECT_EQ(classify_post(answer(status)).verdict, PostVerdict::unknown) << status;
}

TEST(PostOutcome, ClientErrorsAreRefusals) {
    for (int status : {400, 401, 403, 404, 413}) {
        EXPECT_EQ(classify_post(answer(status)).verdict, PostVerdict::refused) << status;
    }
}

TEST(PostOutcome, NoAnswerIsNeverResentByItself) {
    // XHR cannot tell a refused connection from one broken after sending.
    EXPECT_EQ(classify_post_failure(TransportFailure::network_error).verdict, PostVerdict::unknown);
    EXPECT_EQ(classify_post_failure(TransportFailure::timeout).verdict, PostVerdict::unknown);
    EXPECT_FALSE(classify_post_failure(TransportFailure::timeout).why.empty());
}

TEST(PostOutcome, BackoffDoublesFromOneSecondUpToThirty) {
    EXPECT_EQ(retry_backoff(1), Millis(1000));
    EXPECT_EQ(retry_backoff(2), Millis(2000));
    EXPECT_EQ(retry_backoff(3), Millis(4000));
    EXPECT_EQ(retry_backoff(4), Millis(8000));
    EXPECT_EQ(retry_backoff(5), Millis(16000));
    EXPECT_EQ(retry_backoff(6), Millis(30000));
    EXPECT_EQ(retry_backoff(1000), Millis(30000));
    EXPECT_EQ(retry_backoff(0), Millis(1000));
}

const Instant kQueued = instant_from_unix_seconds(1'700'000'010);

std::string message(const char* id, long account, const char* body, long send_time) {
    return std::string(R"({"message_id":")") + id + R"(","account":{"account_id":)" + std::to_string(account) +
           R"(,"name":"A"},"body":")" + body + R"(","send_time":)" + std::to_string(send_time) + R"(,"update_time":0})";
}

TEST(PostSettlement, FindsTheBodyFromTheSameAccount) {
    const auto list = answer(200, "[" + message("1", 1002, "older", 1'699'999'000) + "," +
                                      message("2", 1001, "hello (2/3)", 1'700'000'011) + "]");
    EXPECT_EQ(find_posted_message(list, "1001", "hello (2/3)", kQueued), Settlement::found);
}

TEST(PostSettlement, SameTextFromSomeoneElseOrEarlierDoesNotCount) {
    const auto list = answer(
        200, "[" + message("1", 1002, "hi", 1'700'000'011) + "," + message("2", 1001, "hi", 1'699'000'000) + "]");
    EXPECT_EQ(find_posted_message(list, "1001", "hi", kQueued), Settlement::not_found);
}

TEST(PostSettlement, ASendTimeRoundedDownToTheSecondStillCounts) {
    const auto list = answer(200, "[" + message("1", 1001, "hi", 1'700'000'009) + "]");
    EXPECT_EQ(find_posted_message(list, "1001", "hi", kQueued + Millis(700)), Settlement::found);
}

TEST(PostSettlement, AnEmptyRoomIsNotFound) {
    HttpResponse empty;
    empty.status = 204;
    EXPECT_EQ(find_posted_message(empty, "1001", "hi", kQueued), Settlement::not_found);
}

TEST(PostSettlement, AnUnreadableListSaysNothing) {
    EXPECT_EQ(find_posted_message(answer(200, "[{\"message_id\":"), "1001", "hi", kQueued), Settlement::unreadable);
    EXPECT_EQ(find_posted_message(answer(200, "{}"), "1001", "hi", kQueued), Settlement::unreadable);
    EXPECT_EQ(find_posted_message(answer(500, "[]"), "1001", "hi", kQueued), Settlement::unreadable);
    EXPECT_EQ(find_posted_message(answer(200, "[{\"body\":1}]"), "1001", "hi", kQueued), Settlement::unreadable);
}

}  // namespace
}  // namespace app_post_outcome_test
}  // namespace roomkey::app
