// public_config_test.cpp: /config.json as one contract (shared/'s
// public_config.hpp): the helper's writer and the page's reader are the same
// struct's to_json and parse_public_config, so what one writes the other
// reads, in both session modes, with the bytes the helper has always sent.
#include "roomkey/public_config.hpp"

#include <gtest/gtest.h>

namespace roomkey {
namespace public_config_test {
namespace {

PublicConfig browser_config() {
    PublicConfig c;
    c.configured = true;
    c.client_id = "roomkey-web";
    c.consent_url = "https://127.0.0.1:9000/oauth/authorize";
    c.redirect_uri = "https://127.0.0.1:8443/callback";
    c.upstream_base_url = "https://127.0.0.1:9000/v2";
    c.upstream_auth_url = "https://127.0.0.1:9000";
    return c;
}

TEST(PublicConfigContract, TheDefaultsAreTheHelpersRoutesAndHeaders) {
    const PublicConfig c;
    EXPECT_EQ(c.token_endpoint, "/oauth/token");
    EXPECT_EQ(c.api_base, "/api");
    EXPECT_EQ(c.token_header, "x-servicetoken");
    EXPECT_EQ(c.request_header, "X-Roomkey-Request");
    EXPECT_EQ(c.session, SessionCustody::browser);
    EXPECT_EQ(kConfigPath, "/config.json");
}

TEST(PublicConfigContract, TheBrowserModeDocumentIsTheHelpersBytes) {
    const std::string text = to_json(browser_config());
    EXPECT_EQ(text, R"({"api_base":"/api","client_id":"roomkey-web","client_type":"public",)"
                    R"("configured":true,"consent_url":"https://127.0.0.1:9000/oauth/authorize",)"
                    R"("redirect_uri":"https://127.0.0.1:8443/callback","request_header":"X-Roomkey-Request",)"
                    R"("scope":"","session":"browser","token_endpoint":"/oauth/token","token_header":"x-servicetoken",)"
                    R"("upstream_auth_url":"https://127.0.0.1:9000","upstream_base_url":"https://127.0.0.1:9000/v2"})")
        << "members in name order, no bff_* routes in the browser mode";
    const auto back = parse_public_config(text);
    ASSERT_TRUE(back) << back.error();
    EXPECT_TRUE(back->configured);
    EXPECT_FALSE(back->bff());
    EXPECT_EQ(back->client_id, "roomkey-web");
    EXPECT_EQ(back->client_type, ClientType::public_client);
    EXPECT_EQ(back->redirect_uri, "https://127.0.0.1:8443/callback");
    EXPECT_EQ(back->token_endpoint, "/oauth/token");
    EXPECT_EQ(back->scope, "");
    EXPECT_EQ(back->default_scopes, fallback_default_scopes()) << "no scope named: the fallback";
    EXPECT_EQ(back->upstream_base_url, "https://127.0.0.1:9000/v2");
}

TEST(PublicConfigContract, TheBffModeRoundTripsWithItsRoutes) {
    PublicConfig c = browser_config();
    c.session = SessionCustody::bff;
    c.client_type = ClientType::confidential;
    c.token_endpoint = "";
    c.scope = "offline_access users.all:read";
    c.bff_login = "/bff/login";
    c.bff_session = "/bff/session";
    c.bff_logout = "/bff/logout";
    c.bff_refresh = "/bff/refresh";
    const auto back = parse_public_config(to_json(c));
    ASSERT_TRUE(back) << back.error();
    EXPECT_TRUE(back->bff());
    EXPECT_EQ(back->client_type, ClientType::confidential);
    EXPECT_EQ(back->token_endpoint, "");
    EXPECT_EQ(back->bff_login, "/bff/login");
    EXPECT_EQ(back->bff_session, "/bff/session");
    EXPECT_EQ(back->bff_logout, "/bff/logout");
    EXPECT_EQ(back->bff_refresh, "/bff/refresh");
    EXPECT_EQ(back->scope, c.scope);
    EXPECT_EQ(back->default_scopes.count("offline_access"), 1u) << "a confidential client keeps offline_access";
    EXPECT_EQ(to_json(*back), to_json(c)) << "read and written again: the same bytes";
}

TEST(PublicConfigContract, AFrontWithoutPreviewsSaysSoAndTheHelperDocumentIsUnchanged) {
    PublicConfig c = browser_config();
    EXPECT_TRUE(c.file_previews) << "the helper serves previews";
    EXPECT_EQ(to_json(c).find("file_previews"), std::string::npos) << "the helper's bytes stay as they were";
    c.file_previews = false;  // nginx alone (helper_fetch)
    const std::string text = to_json(c);
    EXPECT_NE(text.find(R"("file_previews":false)"), std::string::npos) << text;
    const auto back = parse_public_config(text);
    ASSERT_TRUE(back) << back.error();
    EXPECT_FALSE(back->file_previews);
    EXPECT_EQ(to_json(*back), text) << "read and written again: the same bytes";
    const auto bad = parse_public_config(R"({"file_previews":"no"})");
    ASSERT_FALSE(bad) << "a non-boolean is refused";
    EXPECT_NE(bad.error().find("file_previews"), std::string::npos) << bad.error();
}

TEST(PublicConfigContract, SessionCustodySpellsTheWireValues) {
    EXPECT_EQ(to_string(SessionCustody::browser), "browser");
    EXPECT_EQ(to_string(SessionCustody::bff), "bff");
}

}  // namespace
}  // namespace public_config_test
}  // namespace roomkey
