// app_user_errors_test.cpp: what the ordinary screen says of a failed call
// (web/app/user_errors.hpp): words in the language shown, no HTTP status
// nor error name; the page API's message and code stay as they were.
#include <gtest/gtest.h>

#include "app/i18n.hpp"
#include "app/time_text.hpp"
#include "app/user_errors.hpp"
#include "roomkey/proxy_outcome.hpp"

namespace roomkey::app {
namespace {

class UserErrorsTest : public ::testing::Test {
protected:
    void TearDown() override { i18n::set_language(i18n::Lang::en); }
};

// The helper's own 502 when it could not connect (helper/proxy.cpp's words, spec 2.7's shape).
HttpResponse helper_gateway(int status, UpstreamOutcome outcome, const std::string& words) {
    HttpResponse r;
    r.status = status;
    r.headers.set(std::string(kUpstreamOutcomeHeader), std::string(to_string(outcome)));
    r.body = upstream_failure_body(ApiErrorBody{{words}}, outcome);
    return r;
}

bool has_wire_words(const std::string& text) {
    for (const char* wire : {"HTTP", "502", "504", "connect_failed", "timed_out", "status"}) {
        if (text.find(wire) != std::string::npos) return true;
    }
    return false;
}

TEST_F(UserErrorsTest, TheHelpersGatewayAnswerIsShownInWordsAndKeepsItsCodeForThePageApi) {
    const std::string helper_words =
        "the API could not be reached (connect_failed); the request was not sent, so it is safe to send again";
    const UserError e = api_error("Marking Roomkey project as read",
                                  helper_gateway(502, UpstreamOutcome::not_sent, helper_words), std::nullopt);
    EXPECT_EQ(e.code, "HTTP 502") << "the page API and the developer view keep the status";
    EXPECT_EQ(e.message, helper_words) << "the page API keeps the helper's words";
    EXPECT_EQ(e.shown(), "The service could not be reached, so nothing was sent or changed.");
    EXPECT_FALSE(has_wire_words(e.shown())) << e.shown();
    i18n::set_language(i18n::Lang::ja);
    const UserError ja = api_error("既読にする", helper_gateway(502, UpstreamOutcome::not_sent, helper_words), std::nullopt);
    EXPECT_EQ(ja.shown(), "サービスに接続できなかったため、何も送信・変更されていません。");
}

TEST_F(UserErrorsTest, AGatewayTimeoutSaysTheRequestMayHaveBeenCarriedOut) {
    const UserError e = api_error("Posting", helper_gateway(504, UpstreamOutcome::no_answer, "the API did not answer within 30 s"),
                                  std::nullopt);
    EXPECT_EQ(e.code, "HTTP 504");
    EXPECT_EQ(e.shown(), "The service did not answer; what was asked may have been done.");
    EXPECT_FALSE(has_wire_words(e.shown())) << e.shown();
}

TEST_F(UserErrorsTest, AStatusWithoutWordsIsShownWithoutTheNumber) {
    HttpResponse r;
    r.status = 500;
    const UserError e = api_error("Reading the room", r, std::nullopt);
    EXPECT_EQ(e.message, "The service answered with status 500.") << "the page API's message is unchanged";
    EXPECT_FALSE(has_wire_words(e.shown())) << e.shown();
    EXPECT_FALSE(e.remedy.empty());
}

TEST_F(UserErrorsTest, TheServicesOwnWordsAreShownAsTheyAre) {
    HttpResponse r;
    r.status = 400;
    r.body = R"({"errors":["Invalid Argument: body"]})";
    const UserError e = api_error("Posting", r, std::nullopt);
    EXPECT_EQ(e.shown(), "Invalid Argument: body");
}

// "Retrying at ..." and "checks the room again at ...": one clock, to the second, rounded up.
TEST(ClockSecondsText, LocalClockToTheSecondRoundedUp) {
    const std::int64_t at = 1700000000LL * 1000 + 1;  // 2023-11-14 22:13:20.001 UTC
    EXPECT_EQ(clock_seconds_text(at, UserTime(fixed_utc_offset(0))), "22:13:21");
    EXPECT_EQ(clock_seconds_text(at - 1, UserTime(fixed_utc_offset(540))), "07:13:20");
}

}  // namespace
}  // namespace roomkey::app
