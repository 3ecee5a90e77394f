// app_user_errors_test.cpp: what the ordinary screen says of a failed call
// (web/app/user_errors.hpp): words in the language shown, no HTTP status
// nor error name; the page API's message and code stay as they were.
#include <gtest/gtest.h>

#include "app/feedback.hpp"
#include "app/i18n.hpp"
#include "app/post_words.hpp"
#include "app/time_text.hpp"
#include "app/user_errors.hpp"
#include "app/words.hpp"
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

// The text mirror's per-view error lines (state().error_words): each view's
// error as the box says it, kept per view until that view's next success.
TEST_F(UserErrorsTest, EachViewsErrorIsSaidAsTheBoxSaysItUntilThatViewSucceeds) {
    HttpResponse r;
    r.status = 500;
    r.body = R"({"errors":["Injected fault: server error."]})";
    Feedback feedback;
    feedback.set_error(api_error("Reading your account", r, Endpoint::me), ErrorSource::account);
    feedback.set_error(api_error("Reading your status", r, Endpoint::my_status), ErrorSource::status);
    EXPECT_EQ(feedback.said(ErrorSource::account),
              "Reading your account failed. Injected fault: server error. The service or the helper failed; try "
              "again in a moment.");
    EXPECT_FALSE(has_wire_words(feedback.said(ErrorSource::account))) << feedback.said(ErrorSource::account);
    feedback.clear_error(ErrorSource::account);
    EXPECT_EQ(feedback.said(ErrorSource::account), "");
    EXPECT_EQ(feedback.said(ErrorSource::status).rfind("Reading your status failed. ", 0), 0u) << "the other view's stays";
    i18n::set_language(i18n::Lang::ja);
    r.body.clear();
    feedback.set_error(api_error("アカウントの読み込み", r, Endpoint::me), ErrorSource::account);
    EXPECT_FALSE(has_wire_words(feedback.said(ErrorSource::account))) << feedback.said(ErrorSource::account);
    EXPECT_EQ(feedback.said(ErrorSource::account).find("Reading"), std::string::npos) << "in the language shown";
}

// What the box tells a user to do names no spec section nor status.
TEST_F(UserErrorsTest, TheBoxsRemediesAreWordsWithoutSpecReferences) {
    HttpResponse r;
    r.body = R"({"errors":["no"]})";
    for (const int status : {401, 403, 429}) {
        r.status = status;
        for (const i18n::Lang lang : {i18n::Lang::en, i18n::Lang::ja}) {
            i18n::set_language(lang);
            const UserError e = api_error("Reading your account", r, Endpoint::me);
            for (const std::string& text : {e.said(), e.remedy}) {
                EXPECT_EQ(text.find("spec"), std::string::npos) << status << ": " << text;
                EXPECT_EQ(text.find("仕様"), std::string::npos) << status << ": " << text;
                EXPECT_EQ(text.find(std::to_string(status)), std::string::npos) << status << ": " << text;
            }
        }
    }
    i18n::set_language(i18n::Lang::en);
    EXPECT_EQ(code_expired_error(Millis(61000)).shown().find("spec"), std::string::npos);
}

// A post that may not have arrived says why by its cause, never the note's
// wire words ("502: ...", "HTTP 500 ..."), in the language shown.
TEST_F(UserErrorsTest, APostThatMayNotHaveArrivedSaysWhyInWordsByItsCause) {
    PostJob job;
    job.stage = PostStage::unknown;
    job.note = "502: the service got the post but no answer came back. Retry (it may arrive twice) or Discard.";
    const UserTime utc(fixed_utc_offset(0));
    EXPECT_EQ(pending_words(job, utc), "May not have been sent: no answer came back from the service.");
    job.doubt = PostDoubt::timeout;
    EXPECT_EQ(pending_words(job, utc), "May not have been sent: the service did not answer in time.");
    job.doubt = PostDoubt::connection;
    EXPECT_EQ(pending_words(job, utc), "May not have been sent: the connection broke before an answer came.");
    job.doubt = PostDoubt::not_in_room;
    EXPECT_EQ(pending_words(job, utc), "May not have been sent: it is not among the room's latest messages.");
    i18n::set_language(i18n::Lang::ja);
    job.doubt = PostDoubt::timeout;
    EXPECT_EQ(pending_words(job, utc), "送信されていない可能性があります: サービスが時間内に応答しませんでした。");
}

// A post the service refused says what happened and what to do by its cause,
// never the note's "HTTP 400: ...", in the language shown.
TEST_F(UserErrorsTest, ARefusedPostSaysWhatHappenedAndWhatToDoInWords) {
    PostJob job;
    job.stage = PostStage::refused;
    job.note = "HTTP 404: Room not found. The text is kept: Edit, Retry or Discard.";
    const UserTime utc(fixed_utc_offset(0));
    job.refusal = PostRefusal::not_found;
    EXPECT_EQ(pending_words(job, utc),
              "Not sent: the room was not found (deleted, or you left it). Edit to keep the text, or Discard.");
    job.refusal = PostRefusal::forbidden;
    EXPECT_EQ(pending_words(job, utc),
              "Not sent: you are not allowed to post in this room. Edit to keep the text, or Discard.");
    job.refusal = PostRefusal::other;
    EXPECT_EQ(pending_words(job, utc), "Not sent: the service did not take it. Edit it and Retry, or Discard.");
    i18n::set_language(i18n::Lang::ja);
    job.refusal = PostRefusal::invalid;
    EXPECT_EQ(pending_words(job, utc),
              "未送信: サービスがこの内容を受け付けませんでした。編集して再送するか、破棄してください。");
}

// A member's role as the service's client says it; a word it does not know, as it is.
TEST_F(UserErrorsTest, AMembersRoleIsSaidInTheCatalogsWords) {
    EXPECT_EQ(role_words("admin"), "Admin");
    EXPECT_EQ(role_words("member"), "Member");
    EXPECT_EQ(role_words("readonly"), "Read only");
    EXPECT_EQ(role_words("owner"), "owner");
    i18n::set_language(i18n::Lang::ja);
    EXPECT_EQ(role_words("admin"), "管理者");
    EXPECT_EQ(role_words("member"), "メンバー");
    EXPECT_EQ(role_words("readonly"), "閲覧のみ");
}

// "Retrying at ..." and "checks the room again at ...": one clock, to the second, rounded up.
TEST(ClockSecondsText, LocalClockToTheSecondRoundedUp) {
    const std::int64_t at = 1700000000LL * 1000 + 1;  // 2023-11-14 22:13:20.001 UTC
    EXPECT_EQ(clock_seconds_text(at, UserTime(fixed_utc_offset(0))), "22:13:21");
    EXPECT_EQ(clock_seconds_text(at - 1, UserTime(fixed_utc_offset(540))), "07:13:20");
}

}  // namespace
}  // namespace roomkey::app
