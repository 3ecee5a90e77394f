// app_public_config_test.cpp: reading roomkey-helper's /config.json
// (shared/public_config.hpp).
#include "roomkey/public_config.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_public_config_test {
namespace {

constexpr std::string_view kHelperConfig =
    R"({"configured":true,"client_id":"roomkey-web","client_type":"public",)"
    R"("consent_url":"https://127.0.0.1:9000/oauth/authorize","redirect_uri":"https://127.0.0.1:8443/callback",)"
    R"("token_endpoint":"/oauth/token","api_base":"/api","token_header":"x-servicetoken",)"
    R"("request_header":"X-Roomkey-Request","scope":"","upstream_base_url":"https://127.0.0.1:9000/v2",)"
    R"("upstream_auth_url":"https://127.0.0.1:9000"})";

TEST(AppPublicConfig, ReadsTheHelpersConfig) {
    auto config = parse_public_config(kHelperConfig);
    ASSERT_TRUE(config) << config.error();
    EXPECT_TRUE(config->configured);
    EXPECT_EQ(config->client_id, "roomkey-web");
    EXPECT_EQ(config->client_type, ClientType::public_client);
    EXPECT_EQ(config->redirect_uri, "https://127.0.0.1:8443/callback");
    EXPECT_EQ(config->token_endpoint, "/oauth/token");
    EXPECT_EQ(config->default_scopes, fallback_default_scopes()) << "no scope named: the dashboard's scopes";
    const ClientConfig client = config->client();
    EXPECT_EQ(client.redirect_uris, std::vector<std::string>{"https://127.0.0.1:8443/callback"});
    EXPECT_TRUE(client.scopes.empty()) << "the browser does not know the registered scopes";
}

// spec 2.1 / 5.4.3: a public client never starts with offline_access selected.
TEST(AppPublicConfig, PublicClientDropsOfflineAccessFromTheDefault) {
    auto config = parse_public_config(
        R"({"configured":true,"client_id":"c","client_type":"public","scope":"offline_access users.all:read"})");
    ASSERT_TRUE(config) << config.error();
    EXPECT_EQ(config->default_scopes, ScopeSet{"users.all:read"});
    auto confidential = parse_public_config(
        R"({"configured":true,"client_id":"c","client_type":"confidential","scope":"offline_access users.all:read"})");
    ASSERT_TRUE(confidential) << confidential.error();
    EXPECT_EQ(confidential->default_scopes.count("offline_access"), 1u);
}

TEST(AppPublicConfig, BadConfigSaysWhat) {
    EXPECT_FALSE(parse_public_config("<html>"));
    EXPECT_FALSE(parse_public_config("[]"));
    auto type = parse_public_config(R"({"client_type":"Public"})");
    ASSERT_FALSE(type) << "client_type Public (wrong case) was accepted";
    EXPECT_NE(type.error().find("client_type"), std::string::npos);
    EXPECT_FALSE(parse_public_config(R"({"client_id":42})"));
    EXPECT_FALSE(parse_public_config(R"({"scope":"made:up"})"));
}

TEST(AppPublicConfig, UnconfiguredHelperIsReported) {
    auto config = parse_public_config(R"({"configured":false,"client_id":"","client_type":"public"})");
    ASSERT_TRUE(config) << config.error();
    EXPECT_FALSE(config->configured);
}

}  // namespace
}  // namespace app_public_config_test
}  // namespace roomkey::app
