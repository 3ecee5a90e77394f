// app_scope_help_test.cpp: the scope explanations the picker shows inline and
// the page's scope description reads (web/app/scope_help.hpp, spec 5.5).
#include "app/scope_help.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_scope_help_test {
namespace {

TEST(AppScopeHelp, ExplanationSaysWhatItAllowsAndIncludes) {
    const ScopeInfo* rooms = find_scope("rooms.all:read_write");
    ASSERT_NE(rooms, nullptr);
    const std::string text = scope_explanation(*rooms, false);
    EXPECT_EQ(text.rfind(std::string(rooms->allows), 0), 0u) << text;
    EXPECT_NE(text.find("Includes: rooms.all:read rooms.all:write."), std::string::npos) << text;
    EXPECT_NE(scope_explanation(*find_scope("rooms.all:read"), false, true).find("Included by an aggregate"),
              std::string::npos);
}

// spec 2.1 / 5.4.3: offline_access is greyed out for a public client, and says why.
TEST(AppScopeHelp, OfflineAccessExplainsWhyAPublicClientCannotAsk) {
    const ScopeInfo* offline = find_scope(kOfflineAccessScope);
    ASSERT_NE(offline, nullptr);
    EXPECT_NE(scope_explanation(*offline, false).find("confidential clients"), std::string::npos);
    EXPECT_EQ(scope_explanation(*offline, true).find("confidential clients"), std::string::npos);
}

TEST(AppScopeHelp, JsonListsTheWholeCatalog) {
    const auto list = nlohmann::json::parse(scope_help_json(ClientType::public_client), nullptr, false);
    ASSERT_TRUE(list.is_array()) << "not a JSON array: " << scope_help_json(ClientType::public_client);
    ASSERT_EQ(list.size(), scope_catalog().size());
    for (const auto& item : list) {
        ASSERT_TRUE(item["name"].is_string()) << "an entry without a name: " << item;
        EXPECT_FALSE(item["explanation"].get<std::string>().empty()) << item["name"];
        EXPECT_EQ(item["available"].get<bool>(), item["name"] != "offline_access") << item["name"];
    }
    const auto confidential = nlohmann::json::parse(scope_help_json(ClientType::confidential), nullptr, false);
    EXPECT_TRUE(confidential[0]["available"].get<bool>()) << confidential[0]["name"];
}

}  // namespace
}  // namespace app_scope_help_test
}  // namespace roomkey::app
