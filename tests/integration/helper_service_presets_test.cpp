// helper_service_presets_test.cpp: `--service live`: the
// preset fills in the live service's four published values, anything given
// explicitly (flag, environment, config file) still wins, an unknown name is
// an error naming the allowed ones, and the page's /config.json then carries
// the live addresses.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "helper/options.hpp"
#include "helper/service_presets.hpp"
#include "support/helper_fixture.hpp"

// A namespace of its own: the test files build in unity batches.
namespace roomkey::helper::service_presets_tests {
namespace {

using testing::env_of;

// The service's published values, written out here on purpose (not read from
// the table): the RAML (chatwork/api, RAML/api-ja.raml) gives baseUri
// https://api.chatwork.com/{version} with version v2, authorizationUri
// https://www.chatwork.com/packages/oauth2/login.php and accessTokenUri
// https://oauth.chatwork.com/token; the API document names the header.
constexpr const char* kLiveBase = "https://api.chatwork.com/v2";
constexpr const char* kLiveAuth = "https://oauth.chatwork.com";
constexpr const char* kLiveConsent = "https://www.chatwork.com/packages/oauth2/login.php";
constexpr const char* kLiveHeader = "x-chatworktoken";

TEST(HelperServicePresets, LiveFillsInTheFourPublishedValues) {
    auto cmd = parse_command_line({"serve", "--service", "live", "--client-id", "my-client", "--web-root", "/w"},
                                  env_of({}));
    ASSERT_TRUE(cmd) << cmd.error();
    const UpstreamConfig& u = cmd->serve.upstream;
    EXPECT_EQ(u.base_url, kLiveBase);
    EXPECT_EQ(u.auth_url, kLiveAuth);
    EXPECT_EQ(u.auth_url + "/token", "https://oauth.chatwork.com/token") << "the RAML's accessTokenUri";
    EXPECT_EQ(u.consent_url, kLiveConsent);
    EXPECT_EQ(u.token_header, kLiveHeader);
    EXPECT_TRUE(u.configured());
    EXPECT_EQ(u.client_id, "my-client") << "the preset names no client: that is the user's registration";
}

TEST(HelperServicePresets, LiveIsAlsoReadFromTheEnvironmentAndTheConfigFile) {
    auto via_env = parse_command_line({"--web-root", "/w"}, env_of({{"ROOMKEY_SERVICE", "live"}}));
    ASSERT_TRUE(via_env) << via_env.error();
    EXPECT_EQ(via_env->serve.upstream.base_url, kLiveBase);
    EXPECT_EQ(via_env->serve.upstream.token_header, kLiveHeader);

    TempDir dir;
    testing::write_file(dir / "live.json", R"({"service": "live", "client_id": "from-file"})");
    auto via_file = parse_command_line({"--config", dir / "live.json", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(via_file) << via_file.error();
    EXPECT_EQ(via_file->serve.upstream.consent_url, kLiveConsent);
    EXPECT_EQ(via_file->serve.upstream.auth_url, kLiveAuth);
    EXPECT_EQ(via_file->serve.upstream.client_id, "from-file");
}

TEST(HelperServicePresets, ExplicitValuesBeatThePreset) {
    // A flag.
    auto flag = parse_command_line({"--service", "live", "--base-url", "https://mirror.example/v2", "--token-header",
                                    "x-other", "--web-root", "/w"},
                                   env_of({}));
    ASSERT_TRUE(flag) << flag.error();
    EXPECT_EQ(flag->serve.upstream.base_url, "https://mirror.example/v2");
    EXPECT_EQ(flag->serve.upstream.token_header, "x-other");
    EXPECT_EQ(flag->serve.upstream.auth_url, kLiveAuth) << "what was not given still comes from the preset";

    // An environment variable.
    auto env = parse_command_line({"--service", "live", "--web-root", "/w"},
                                  env_of({{"ROOMKEY_AUTH_URL", "https://oauth.mirror.example"}}));
    ASSERT_TRUE(env) << env.error();
    EXPECT_EQ(env->serve.upstream.auth_url, "https://oauth.mirror.example");
    EXPECT_EQ(env->serve.upstream.base_url, kLiveBase);

    // A config key, with the service named by a flag or in the same file.
    TempDir dir;
    testing::write_file(dir / "c.json", R"({"consent_url": "https://www.mirror.example/login"})");
    auto file = parse_command_line({"--service", "live", "--config", dir / "c.json", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(file) << file.error();
    EXPECT_EQ(file->serve.upstream.consent_url, "https://www.mirror.example/login");
    EXPECT_EQ(file->serve.upstream.token_header, kLiveHeader);
    testing::write_file(dir / "d.json", R"({"service": "live", "token_header": "x-file"})");
    auto same_file = parse_command_line({"--config", dir / "d.json", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(same_file) << same_file.error();
    EXPECT_EQ(same_file->serve.upstream.token_header, "x-file");

    // The service name itself layers like every setting: the flag beats the file.
    auto named = parse_command_line({"--service", "sandbox", "--config", dir / "d.json", "--web-root", "/w"},
                                    env_of({}));
    ASSERT_TRUE(named) << named.error();
    EXPECT_FALSE(named->serve.upstream.configured());
}

TEST(HelperServicePresets, SandboxAndNoServiceKeepTodaysBehaviour) {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--web-root", "/w"},
                                                 std::vector<std::string>{"--service", "sandbox", "--web-root", "/w"}}) {
        auto cmd = parse_command_line(args, env_of({}));
        ASSERT_TRUE(cmd) << cmd.error();
        EXPECT_FALSE(cmd->serve.upstream.configured());
        EXPECT_EQ(cmd->serve.upstream.consent_url, "");
        EXPECT_EQ(cmd->serve.upstream.token_header, "x-servicetoken");
    }
    auto sandbox = parse_command_line({"--service", "sandbox", "--base-url", "https://127.0.0.1:8444/v2",
                                       "--auth-url", "https://127.0.0.1:8444/oauth", "--web-root", "/w"},
                                      env_of({}));
    ASSERT_TRUE(sandbox) << sandbox.error();
    EXPECT_EQ(sandbox->serve.upstream.base_url, "https://127.0.0.1:8444/v2");
}

TEST(HelperServicePresets, UnknownServiceIsAnErrorNamingTheAllowedValues) {
    for (const char* name : {"Live", "chatwork", "prod"}) {
        auto cmd = parse_command_line({"--service", name, "--web-root", "/w"}, env_of({}));
        ASSERT_FALSE(cmd) << name;
        EXPECT_NE(cmd.error().find(std::string("\"") + name + "\""), std::string::npos) << cmd.error();
        EXPECT_NE(cmd.error().find("sandbox, live"), std::string::npos) << cmd.error();
    }
    auto env = parse_command_line({"--web-root", "/w"}, env_of({{"ROOMKEY_SERVICE", "staging"}}));
    ASSERT_FALSE(env) << "the command line was accepted";
    EXPECT_NE(env.error().find("staging"), std::string::npos) << env.error();
    EXPECT_EQ(service_preset_names(), "sandbox, live");
}

TEST(HelperServicePresets, ServeHelpListsThePresetsAndTheirValues) {
    const std::string help = usage("serve");
    EXPECT_NE(help.find("--service NAME"), std::string::npos) << help;
    EXPECT_NE(help.find("$ROOMKEY_SERVICE"), std::string::npos) << help;
    for (const char* value : {kLiveBase, kLiveAuth, kLiveConsent, kLiveHeader}) {
        EXPECT_NE(help.find(value), std::string::npos) << value << " missing from:\n" << help;
    }
    EXPECT_EQ(help.find("@SERVICE_PRESETS@"), std::string::npos) << help;
}

TEST(HelperServicePresets, ConfigJsonCarriesTheLiveAddresses) {
    // Starting the helper reaches nothing on the network (connections open
    // only when a sign-in returns), so the live preset can run here.
    TempDir dir;
    const HelperConfig base = testing::test_config(dir);
    auto cmd = parse_command_line({"serve", "--service", "live", "--client-id", "my-client", "--port", "0",
                                   "--state-dir", base.state_dir, "--web-root", base.web_root, "--no-preconnect"},
                                  env_of({}));
    ASSERT_TRUE(cmd) << cmd.error();
    testing::RunningHelper helper(cmd->serve);
    ASSERT_TRUE(helper.ok()) << helper.error();
    auto res = helper.client()->Get("/config.json");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    ASSERT_EQ(res->status, 200);
    const auto j = nlohmann::json::parse(res->body, nullptr, false);
    ASSERT_TRUE(j.is_object()) << res->body;
    EXPECT_EQ(j.value("consent_url", ""), kLiveConsent);
    EXPECT_EQ(j.value("token_header", ""), kLiveHeader);
    EXPECT_EQ(j.value("upstream_base_url", ""), kLiveBase);
    EXPECT_EQ(j.value("upstream_auth_url", ""), kLiveAuth);
    EXPECT_EQ(j.value("client_id", ""), "my-client");
    EXPECT_TRUE(j.value("configured", false));
}

}  // namespace
}  // namespace roomkey::helper::service_presets_tests
