// bff_options_test.cpp: how the BFF mode is asked for and refused
// (docs/bff.md): --session / "session" / ROOMKEY_SESSION, the confidential
// client it needs, --front-origin, nginx-config's --bff-helper, and the
// rotate-bff-key command.
#include <gtest/gtest.h>

#include "helper/options.hpp"
#include "support/helper_fixture.hpp"

namespace roomkey::helper {
namespace bff_options_test {
namespace {

using testing::env_of;

std::vector<std::string> confidential_upstream(const std::string& secret_file) {
    return {"--base-url",    "https://127.0.0.1:9000/v2", "--auth-url",  "https://127.0.0.1:9000/oauth",
            "--consent-url", "https://127.0.0.1:9000/consent", "--client-id", "bff-app",
            "--client-type", "confidential", "--client-secret-file", secret_file};
}

TEST(BffOptions, TheSessionModeComesFromAFlagTheEnvironmentOrTheConfigFile) {
    TempDir dir;
    testing::write_file(dir / "secret", "s3cr3t\n");
    auto args = confidential_upstream(dir / "secret");
    auto browser = parse_command_line(args, env_of({}));
    ASSERT_TRUE(browser) << browser.error();
    EXPECT_EQ(browser->serve.session, SessionMode::browser) << "the default";

    auto flag = args;
    flag.insert(flag.end(), {"--session", "bff"});
    auto from_flag = parse_command_line(flag, env_of({}));
    ASSERT_TRUE(from_flag) << from_flag.error();
    EXPECT_EQ(from_flag->serve.session, SessionMode::bff);

    auto from_env = parse_command_line(args, env_of({{"ROOMKEY_SESSION", "bff"}}));
    ASSERT_TRUE(from_env) << from_env.error();
    EXPECT_EQ(from_env->serve.session, SessionMode::bff);

    testing::write_file(dir / "c.json", R"({"session": "bff"})");
    auto file_args = args;
    file_args.insert(file_args.end(), {"--config", dir / "c.json"});
    auto from_file = parse_command_line(file_args, env_of({}));
    ASSERT_TRUE(from_file) << from_file.error();
    EXPECT_EQ(from_file->serve.session, SessionMode::bff);
}

TEST(BffOptions, TheBffModeNeedsAConfidentialClientAndTheServicesAddresses) {
    auto public_client = parse_command_line({"--session", "bff", "--base-url", "https://a.example/v2", "--auth-url",
                                             "https://a.example/oauth", "--client-id", "web"},
                                            env_of({}));
    ASSERT_FALSE(public_client) << "the command line was accepted";
    EXPECT_NE(public_client.error().find("confidential client"), std::string::npos) << public_client.error();
    EXPECT_NE(public_client.error().find("--client-secret-file"), std::string::npos) << public_client.error();

    TempDir dir;
    testing::write_file(dir / "secret", "s3cr3t\n");
    auto no_consent = parse_command_line({"--session", "bff", "--base-url", "https://a.example/v2", "--auth-url",
                                          "https://a.example/oauth", "--client-id", "c", "--client-type",
                                          "confidential", "--client-secret-file", dir / "secret"},
                                         env_of({}));
    ASSERT_FALSE(no_consent) << "the command line was accepted";
    EXPECT_NE(no_consent.error().find("--consent-url"), std::string::npos) << no_consent.error();

    auto unknown = parse_command_line({"--session", "server"}, env_of({}));
    ASSERT_FALSE(unknown) << "the command line was accepted";
    EXPECT_NE(unknown.error().find("browser or bff"), std::string::npos) << unknown.error();
}

TEST(BffOptions, AFrontOriginIsAnHttpsOriginAndNothingMore) {
    auto ok = parse_command_line({"--front-origin", "https://127.0.0.1:8443/"}, env_of({}));
    ASSERT_TRUE(ok) << ok.error();
    EXPECT_EQ(ok->serve.front_origin, "https://127.0.0.1:8443");
    for (const char* bad : {"http://127.0.0.1:8443", "https://host/path", "https://", "https://a@b"}) {
        auto refused = parse_command_line({"--front-origin", bad}, env_of({}));
        EXPECT_FALSE(refused) << bad;
    }
}

TEST(BffOptions, NginxConfigInTheBffModeNamesItsHelpers) {
    TempDir dir;
    testing::write_file(dir / "secret", "s3cr3t\n");
    auto args = confidential_upstream(dir / "secret");
    args.insert(args.begin(), "nginx-config");
    args.insert(args.end(), {"--session", "bff"});
    auto missing = parse_command_line(args, env_of({}));
    ASSERT_FALSE(missing) << "the command line was accepted";
    EXPECT_NE(missing.error().find("--bff-helper PORT"), std::string::npos) << missing.error();
    args.insert(args.end(), {"--bff-helper", "9001", "--bff-helper", "9002"});
    auto cmd = parse_command_line(args, env_of({}));
    ASSERT_TRUE(cmd) << cmd.error();
    EXPECT_EQ(cmd->nginx.bff_helper_ports, (std::vector<int>{9001, 9002}));
    auto zero = parse_command_line({"nginx-config", "--bff-helper", "0"}, env_of({}));
    EXPECT_FALSE(zero) << "--bff-helper 0 was accepted";
}

TEST(BffOptions, RotateBffKeyTakesTheStateDir) {
    auto cmd = parse_command_line({"rotate-bff-key", "--state-dir", "/s"}, env_of({}));
    ASSERT_TRUE(cmd) << cmd.error();
    EXPECT_EQ(cmd->subcommand, Subcommand::rotate_bff_key);
    EXPECT_EQ(cmd->trust.state_dir, "/s");
    auto help = parse_command_line({"rotate-bff-key", "--help"}, env_of({}));
    ASSERT_TRUE(help) << help.error();
    EXPECT_NE(help->help_text.find("bff-key.previous"), std::string::npos);
    EXPECT_FALSE(parse_command_line({"rotate-bff-key", "--nssdb", "/x"}, env_of({})));
}

}  // namespace
}  // namespace bff_options_test
}  // namespace roomkey::helper
