// app_settings_test.cpp: the user's settings (web/app/settings.hpp) and the
// composer's drafts (web/app/drafts.hpp): set through the page API with a
// clear error for a wrong name or value, published in the page state, kept
// as text for the browser's storage and read back; drafts are per room and
// per account.
#include "app/settings.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/app.hpp"
#include "app/drafts.hpp"
#include "app/intents.hpp"
#include "app/page_state.hpp"

namespace roomkey::app {
namespace {

TEST(Settings, CtrlEnterSendsAndViewingMarksReadUntilChanged) {
    Settings s;
    EXPECT_EQ(s.send_key(), SendKey::ctrl_enter);
    EXPECT_TRUE(s.mark_read_on_view());
    EXPECT_TRUE(s.set("send_key", "enter"));
    EXPECT_FALSE(s.set("send_key", "shift"));
    EXPECT_EQ(s.send_key(), SendKey::enter);
    EXPECT_TRUE(s.set("mark_read_on_view", "false"));
    Settings back;
    back.restore(s.stored());
    EXPECT_EQ(back.send_key(), SendKey::enter);
    EXPECT_FALSE(back.mark_read_on_view());
    Settings junk;
    junk.restore("{\"send_key\":\"space\",\"mark_read_on_view\":\"no\"}");
    EXPECT_EQ(junk.send_key(), SendKey::ctrl_enter);
    EXPECT_TRUE(junk.mark_read_on_view());
}

TEST(Settings, ThePageApiSetsThemAndSaysWhatIsWrong) {
    auto ok = parse_action(R"({"type":"set_setting","name":"mark_read_on_view","value":false})");
    ASSERT_TRUE(ok) << ok.error();
    const auto* set = std::get_if<intent::SetSetting>(&*ok);
    ASSERT_NE(set, nullptr);
    EXPECT_EQ(set->value, "false");
    auto bad = parse_action(R"({"type":"set_setting","name":"send_key","value":"shift"})");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("\"enter\" or \"ctrl_enter\""), std::string::npos) << bad.error();
    auto unknown = parse_action(R"({"type":"set_setting","name":"theme","value":"dark"})");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().find("send_key or mark_read_on_view"), std::string::npos) << unknown.error();

    App app([](unsigned char* out, std::size_t n) { std::fill(out, out + n, 7); }, "https://127.0.0.1:8443");
    const Instant now = instant_from_unix_seconds(1'700'000'000);
    app.apply(intent::SetSetting{"send_key", "enter"}, now);
    const auto state = nlohmann::json::parse(page_state_json(app, now));
    EXPECT_EQ(state["settings"]["send_key"], "enter");
    EXPECT_EQ(state["settings"]["mark_read_on_view"], true);
    EXPECT_EQ(state["composer"]["text"], "");  // no room open
}

TEST(Drafts, ArePerRoomAndPerAccount) {
    Drafts d;
    d.restore("1001", "");
    d.set("2100", "half a thought");
    d.set("2200", "another");
    d.set("2200", "");
    EXPECT_EQ(d.text("2100"), "half a thought");
    EXPECT_EQ(d.text("2200"), "");
    const std::string kept = d.stored();
    d.restore("1002", "");
    EXPECT_EQ(d.text("2100"), "") << "another account does not see them";
    d.restore("1001", kept);
    EXPECT_EQ(d.text("2100"), "half a thought");
    d.restore("", "");
    EXPECT_EQ(d.text("2100"), "") << "signed out: none in memory";
}

TEST(Drafts, TypedBeforeTheAccountWasKnownTheyStay) {
    Drafts d;
    d.set("2100", "typed early");
    d.restore("1001", R"({"2200":"from before"})");
    EXPECT_EQ(d.text("2100"), "typed early");
    EXPECT_EQ(d.text("2200"), "from before");
}

}  // namespace
}  // namespace roomkey::app
