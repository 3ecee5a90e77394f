// app_language_test.cpp: the language through the page API: the intent
// {type:'set_language', lang} and the state's `lang`; every other name and
// value of the state stays English whatever the language; a status line
// written before a switch reads in the new language.
#include <functional>

#include "app/feedback.hpp"
#include "app/i18n.hpp"
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

class AppLanguage : public ::testing::Test {
protected:
    void TearDown() override { i18n::set_language(i18n::Lang::en); }
};

TEST_F(AppLanguage, SetLanguageSwitchesAndTheStateSaysWhich) {
    AppHarness h;
    h.sign_in();
    EXPECT_EQ(nlohmann::json::parse(page_state_json(*h.app, h.now))["lang"], "en");
    const auto action = parse_action(R"({"type":"set_language","lang":"ja"})");
    ASSERT_TRUE(action) << action.error();
    h.apply(*action);
    const auto state = nlohmann::json::parse(page_state_json(*h.app, h.now));
    EXPECT_EQ(state["lang"], "ja");
    EXPECT_EQ(i18n::language(), i18n::Lang::ja);
    // The page API's names and values stay English for scripts.
    EXPECT_EQ(state["session"], "signed in") << state.dump();
    EXPECT_EQ(state["mode"], "oauth");
    h.apply(*parse_action(R"({"type":"set_language","lang":"en"})"));
    EXPECT_EQ(nlohmann::json::parse(page_state_json(*h.app, h.now))["lang"], "en");
}

TEST_F(AppLanguage, AStatusLineWrittenBeforeASwitchReadsInTheNewLanguage) {
    AppHarness h;
    h.sign_in();
    const std::string english = h.app->notice();
    ASSERT_EQ(english, tr("sign_in.signed_in"));
    h.apply(*parse_action(R"({"type":"set_language","lang":"ja"})"));
    const std::string japanese = tr("sign_in.signed_in");
    ASSERT_NE(japanese, english) << "the catalog has its Japanese";
    EXPECT_EQ(h.app->notice(), japanese) << "the notice follows the language, not the one it was written in";
    EXPECT_EQ(nlohmann::json::parse(page_state_json(*h.app, h.now))["notice"], japanese);
    h.apply(*parse_action(R"({"type":"set_language","lang":"en"})"));
    EXPECT_EQ(h.app->notice(), english);
}

// Reads `notice` in English, switches to Japanese and back: each time the
// notice is `expected` in the language shown, not the one it was written in.
void follows_the_language(AppHarness& h, const std::function<std::string()>& expected) {
    const std::string english = h.app->notice();
    ASSERT_EQ(english, expected());
    h.apply(*parse_action(R"({"type":"set_language","lang":"ja"})"));
    const std::string japanese = expected();
    ASSERT_NE(japanese, english) << "the catalog has its Japanese";
    EXPECT_EQ(h.app->notice(), japanese) << "the notice follows the language, not the one it was written in";
    EXPECT_EQ(nlohmann::json::parse(page_state_json(*h.app, h.now))["notice"], japanese);
    h.apply(*parse_action(R"({"type":"set_language","lang":"en"})"));
    EXPECT_EQ(h.app->notice(), english);
}

TEST_F(AppLanguage, SignedOutWithPostsDiscardedReadsInTheNewLanguage) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::QueueMessage{"7", "burst", 12});  // two wait for the room's next window
    h.apply(intent::SignOut{true});
    follows_the_language(h, [] { return tr_n("notice.signed_out_discarded", 2); });
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::SignOut{});
    follows_the_language(h, [] { return std::string(tr("notice.signed_out")); });
}

TEST_F(AppLanguage, TheHelpersUnreachableAndBackNoticesReadInTheNewLanguage) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.faults.push_back(AppHarness::no_answer("/api/me", TransportFailure::network_error));
    h.faults.push_back(AppHarness::no_answer("/api/my/status", TransportFailure::network_error));
    h.apply(intent::ReloadAccount{});
    ASSERT_TRUE(h.app->helper_unreachable());
    follows_the_language(h, [] { return tr("helper.unreachable", {{"time", "0:01"}}); });
    h.run_for(Millis(1100));
    ASSERT_FALSE(h.app->helper_unreachable()) << "the probe got an answer";
    follows_the_language(h, [] { return std::string(tr("helper.back")); });
}

// The internal notice (an event the session table has no row for): a token
// answer that comes after sign-out is the one way to it from the App.
// A refresh answered after the user signed out is theirs to forget: "Signed
// out" stays, no internal fault replaces it.
TEST_F(AppLanguage, ARefreshAnsweredAfterSignOutLeavesTheSignedOutNotice) {
    AppHarness h;
    h.sign_in();
    h.app->apply(intent::RefreshNow{}, h.now);
    h.drain();  // the refresh is on its way
    ASSERT_FALSE(h.outstanding.empty());
    h.app->apply(intent::SignOut{}, h.now);
    const std::string signed_out = h.app->notice();
    h.settle();  // its answer comes late
    EXPECT_EQ(h.app->notice(), signed_out);
    EXPECT_EQ(h.app->session().state(), SessionState::signed_out);
}

// The internal notice (an event the session's table has no row for: a bug
// in the adapter, shown, not hidden) is kept as words like every notice.
TEST_F(AppLanguage, AnInternalNoticeReadsInTheNewLanguage) {
    Feedback feedback;
    feedback.set_notice(Words("notice.internal", "what", "invalid_transition"));
    const std::string english = feedback.notice();
    ASSERT_EQ(english, tr("notice.internal", {{"what", "invalid_transition"}}));
    i18n::set_language(i18n::Lang::ja);
    const std::string japanese = tr("notice.internal", {{"what", "invalid_transition"}});
    ASSERT_NE(japanese, english) << "the catalog has its Japanese";
    EXPECT_EQ(feedback.notice(), japanese) << "the notice follows the language, not the one it was written in";
}

// A notice built from pieces ("<what>: <rate-limit note>", "Copied as <format>")
// is kept as its keys and arguments: each piece reads in the language of now.
TEST_F(AppLanguage, ARateLimitNoteWrittenBeforeASwitchReadsInTheNewLanguage) {
    AppHarness h;
    h.start();
    h.me_429 = 1;
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    const auto written = [] {
        return tr("views.reading", {{"what", tr("views.your_account")}}) + ": " +
               tr("rate.retrying_once", {{"time", "0:31"}});
    };
    const std::string english = h.app->notice();
    ASSERT_EQ(english, written());
    h.apply(*parse_action(R"({"type":"set_language","lang":"ja"})"));
    ASSERT_NE(written(), english) << "the catalog has its Japanese";
    EXPECT_EQ(h.app->notice(), written()) << "both pieces follow the language";
}

// An action and what the notice it leaves says, in the language of now.
struct NoticeCase {
    std::string action;
    std::function<std::string()> written;
};

// Each action, applied in English, leaves its notice; after a switch to
// Japanese the same notice reads in Japanese (the catalog has both).
void expect_notices_follow_the_language(AppHarness& h, const std::vector<NoticeCase>& cases) {
    for (const NoticeCase& c : cases) {
        h.apply(*parse_action(R"({"type":"set_language","lang":"en"})"));
        auto action = parse_action(c.action);
        ASSERT_TRUE(action) << action.error();
        h.apply(*action);
        const std::string english = h.app->notice();
        ASSERT_EQ(english, c.written()) << c.action;
        h.apply(*parse_action(R"({"type":"set_language","lang":"ja"})"));
        ASSERT_NE(c.written(), english) << "the catalog has its Japanese: " << c.action;
        EXPECT_EQ(h.app->notice(), c.written()) << "the notice follows the language: " << c.action;
    }
}

// The id of the newest log entry for `url` (0: none).
std::uint64_t logged_id(const AppHarness& h, const std::string& url) {
    std::uint64_t id = 0;
    for (const LogEntry& entry : h.app->log().entries()) {
        if (entry.request.url == url) id = entry.id;
    }
    return id;
}

TEST_F(AppLanguage, CopyNoticesWrittenBeforeASwitchReadInTheNewLanguage) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    const std::uint64_t me = logged_id(h, "/api/me");
    ASSERT_NE(me, 0u);
    const std::vector<NoticeCase> cases = {
        {R"({"type":"copy_as","entry":)" + std::to_string(me) + R"(,"format":"curl_service"})",
         [] { return tr("log.copied_masked", {{"format", tr("log.format.curl_service")}}); }},
        {R"({"type":"copy_as","entry":)" + std::to_string(me) + R"(,"format":"python"})",
         [] { return tr("log.copied_masked", {{"format", "Python requests"}}); }},
        {R"({"type":"set_log_filter","status":"teapot"})",
         [] { return tr("notice.log_filter_unchanged", {{"problem", tr("log.bad_status")}}); }},
    };
    expect_notices_follow_the_language(h, cases);
    h.apply(*parse_action(R"({"type":"set_language","lang":"en"})"));
    h.apply(*parse_action(R"({"type":"export_har"})"));
    const std::string saved = h.app->notice();
    ASSERT_EQ(saved.rfind("Saved the HTTP log as ", 0), 0u) << saved;
    h.apply(*parse_action(R"({"type":"set_language","lang":"ja"})"));
    EXPECT_EQ(h.app->notice().rfind("HTTP ログを ", 0), 0u) << h.app->notice();
}

// A copy refused says why in words kept as keys: the reason reads in the
// language of now, like every notice.
TEST_F(AppLanguage, ARefusedCopyReadsInTheNewLanguage) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    const std::uint64_t config = logged_id(h, "/config.json");
    ASSERT_NE(config, 0u);
    const std::vector<NoticeCase> cases = {
        {R"({"type":"copy_as","entry":999999,"format":"python"})",
         [] { return tr("log.entry_gone", {{"id", "999999"}}); }},
        {R"({"type":"copy_as","entry":)" + std::to_string(config) + R"(,"format":"curl_service"})",
         [] { return tr("log.copy_not_api", {{"format", tr("log.format.curl_service")}}); }},
        {R"({"type":"copy_as","entry":)" + std::to_string(config) + R"(,"format":"python"})",
         [] { return tr("log.copy_not_api", {{"format", "Python requests"}}); }},
    };
    expect_notices_follow_the_language(h, cases);
    h.apply(*parse_action(R"({"type":"set_language","lang":"en"})"));
}

TEST_F(AppLanguage, AnUnknownLanguageIsRefusedWithWhatIsAccepted) {
    for (const char* text : {R"({"type":"set_language","lang":"fr"})", R"({"type":"set_language","lang":"ja-JP"})",
                             R"({"type":"set_language"})", R"({"type":"set_language","lang":1})"}) {
        const auto action = parse_action(text);
        ASSERT_FALSE(action) << text;
        EXPECT_NE(action.error().find("lang"), std::string::npos) << action.error();
    }
}

TEST_F(AppLanguage, ThePseudoLocaleReportsEnglish) {
    AppHarness h;
    h.apply(*parse_action(R"({"type":"set_language","lang":"qps"})"));
    EXPECT_EQ(i18n::language(), i18n::Lang::qps);
    EXPECT_EQ(nlohmann::json::parse(page_state_json(*h.app, h.now))["lang"], "en");
}

}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
