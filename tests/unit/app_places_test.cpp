// app_places_test.cpp: where the user is, as the address says it
// (state().location, which shell/page.js keeps in the address and history):
// the open room, its Tasks tab (show_details), the developer view; and the
// service the first screen's "Sign in to <service>" names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/intents.hpp"
#include "app/page_state.hpp"
#include "app/sign_in.hpp"
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

using json = nlohmann::json;

std::string location(const AppHarness& h) {
    return json::parse(page_state_json(*h.app, h.now))["location"].get<std::string>();
}

Intent action(const char* text) {
    auto parsed = parse_action(text);
    EXPECT_TRUE(parsed) << text;
    return parsed ? *parsed : Intent{intent::ShowDetails{}};
}

TEST(Places, TheTasksTabOfARoomIsAPlaceOfItsOwn) {
    AppHarness h;
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    EXPECT_EQ(location(h), "#/") << "no room open";
    h.apply(intent::OpenRoom{"7"});
    EXPECT_EQ(location(h), "#/rooms/7");
    h.apply(action(R"({"type":"show_details","tab":"tasks"})"));
    EXPECT_EQ(h.app->workspace().details(), DetailsTab::tasks);
    EXPECT_EQ(location(h), "#/rooms/7/tasks");
    h.apply(action(R"({"type":"show_details","tab":"members"})"));
    EXPECT_EQ(location(h), "#/rooms/7") << "the other tabs are the room's own place";
    h.apply(action(R"({"type":"show_details","tab":"tasks"})"));
    h.apply(intent::OpenRoom{"7"});
    EXPECT_EQ(location(h), "#/rooms/7/tasks") << "the same room again keeps its tab";
    h.apply(intent::OpenRoom{"8"});
    EXPECT_EQ(location(h), "#/rooms/8") << "another room opens with its details closed";
    EXPECT_EQ(h.app->workspace().details(), DetailsTab::none);
    h.apply(intent::ShowView{true});
    EXPECT_EQ(location(h), "#/developer");
}

TEST(Places, EachChangeOfTheDetailsMovesItsSequenceOnce) {
    Workspace ws;
    const auto seq = ws.details_seq();
    ws.show_details(DetailsTab::tasks);
    ws.show_details(DetailsTab::tasks);
    EXPECT_EQ(ws.details_seq(), seq + 1) << "the same tab again is no change";
    ws.show_details(DetailsTab::none);
    EXPECT_EQ(ws.details_seq(), seq + 2);
}

TEST(Places, ShowDetailsSaysWhichTabsThereAre) {
    for (const char* bad : {R"({"type":"show_details"})", R"({"type":"show_details","tab":"Tasks"})",
                            R"({"type":"show_details","tab":3})"}) {
        const auto parsed = parse_action(bad);
        ASSERT_FALSE(parsed) << bad;
        EXPECT_NE(parsed.error().find("\"tasks\", \"members\", \"files\" or \"none\""), std::string::npos)
            << parsed.error();
    }
    const auto none = parse_action(R"({"type":"show_details","tab":"none"})");
    ASSERT_TRUE(none) << none.error();
    EXPECT_EQ(std::get<intent::ShowDetails>(*none).tab, DetailsTab::none);
}

TEST(SignInScreen, TheButtonNamesTheServiceByItsAddress) {
    EXPECT_EQ(service_name("https://api.chatwork.com/v2"), "Chatwork");
    EXPECT_EQ(service_name("https://chat.example.org"), "Example");
    EXPECT_EQ(service_name("https://127.0.0.1:8444/v2"), "127.0.0.1:8444") << "an IP address is said as it is";
    EXPECT_EQ(service_name("http://localhost:9000/v2"), "localhost:9000");
    EXPECT_EQ(service_name(""), "");
}

}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
