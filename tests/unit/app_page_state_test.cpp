// app_page_state_test.cpp: the page API's snapshot of the App (page_state.cpp)
// (tests/support/app_harness.hpp drives the App as the browser does).
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

// ---------------------------------------------------------------------------
// The page API snapshot (app/page_state.hpp)
// ---------------------------------------------------------------------------

// The page's state() and text mirror never carry a token, code or verifier.
TEST(AppPageState, SnapshotHoldsNoSecretAndNamesTheAccount) {
    AppHarness h;
    const std::string redirect = h.sign_in();
    const std::string code = *query_value(redirect, "code");
    const auto tokens = *h.app->session().tokens();
    const std::string json = page_state_json(*h.app, h.now);
    EXPECT_FALSE(contains(json, tokens.access_token));
    EXPECT_FALSE(contains(json, tokens.refresh_token));
    EXPECT_FALSE(contains(json, code));
    EXPECT_TRUE(contains(json, R"("session":"signed in")")) << json;
    EXPECT_TRUE(contains(json, R"("account_id":"4242")")) << json;
    EXPECT_TRUE(contains(json, R"("unread_num":12)")) << json;
    EXPECT_TRUE(contains(json, R"("responses_429":0)")) << json;
}

// `catalog` lists every endpoint with the page API's field names, so a script needs no copy of the catalog.
TEST(AppPageState, CatalogListsEveryEndpointWithItsScope) {
    AppHarness h;
    const auto state = nlohmann::json::parse(page_state_json(*h.app, h.now));
    ASSERT_TRUE(state["catalog"].is_array()) << "no catalog in the page state";
    EXPECT_EQ(state["catalog"].size(), endpoint_catalog().size());
    bool saw_task_status = false;
    for (const auto& entry : state["catalog"]) {
        for (const char* field : {"method", "path", "scope", "room_post", "destructive"}) {
            EXPECT_TRUE(entry.contains(field)) << entry.dump();
        }
        if (entry["path"] == "/rooms/{room_id}/tasks/{task_id}/status") {
            saw_task_status = true;
            EXPECT_EQ(entry["method"], "PUT");
            EXPECT_EQ(entry["scope"], "rooms.tasks:write");
            EXPECT_EQ(entry["room_post"], false);
        }
        if (entry["path"] == "/rooms/{room_id}/messages" && entry["method"] == "POST") {
            EXPECT_EQ(entry["room_post"], true);
        }
    }
    EXPECT_TRUE(saw_task_status);
}

TEST(AppPageState, FreshAppIsSignedOut) {
    AppHarness h;
    h.start();
    const std::string json = page_state_json(*h.app, h.now);
    EXPECT_TRUE(contains(json, R"("session":"signed out")")) << json;
    EXPECT_TRUE(contains(json, R"("last_error":null)")) << json;
}


}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
