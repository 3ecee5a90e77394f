// app_language_test.cpp: the language through the page API: the intent
// {type:'set_language', lang} and the state's `lang`; every other name and
// value of the state stays English whatever the language; a status line
// written before a switch reads in the new language.
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
