// helper_options_test.cpp: roomkey-helper's configuration: flags over
// environment over JSON file over defaults, the client
// secret only from a file or the environment, and --help for every command.
#include <gtest/gtest.h>

#include <map>

#include "helper/options.hpp"
#include "support/helper_fixture.hpp"

namespace roomkey::helper {
namespace {

using testing::env_of;

TEST(HelperOptions, DefaultsAreServeOn8443WithNoUpstream) {
    auto cmd = parse_command_line({}, env_of({{"HOME", "/home/u"}}));
    ASSERT_TRUE(cmd) << cmd.error();
    EXPECT_EQ(cmd->subcommand, Subcommand::serve);
    EXPECT_EQ(cmd->serve.port, 8443);
    EXPECT_EQ(cmd->serve.host, "127.0.0.1");
    EXPECT_FALSE(cmd->serve.upstream.configured());
    EXPECT_EQ(cmd->serve.upstream.token_header, "x-servicetoken");
    EXPECT_FALSE(cmd->serve.web_root.empty());
}

TEST(HelperOptions, ServeFlagsAreRead) {
    auto cmd = parse_command_line({"serve", "--port", "0", "--state-dir", "/s", "--web-root=/w", "--base-url",
                                   "https://127.0.0.1:9000/v2/", "--auth-url", "https://127.0.0.1:9000/oauth",
                                   "--consent-url", "https://127.0.0.1:9000/consent", "--client-id", "roomkey-web",
                                   "--scope", "users.all:read", "--token-header", "x-other"},
                                  env_of({}));
    ASSERT_TRUE(cmd) << cmd.error();
    const HelperConfig& c = cmd->serve;
    EXPECT_EQ(c.port, 0) << "0 = any free port";
    EXPECT_EQ(c.state_dir, "/s");
    EXPECT_EQ(c.web_root, "/w");
    EXPECT_EQ(c.upstream.base_url, "https://127.0.0.1:9000/v2") << "a trailing '/' would double the slash";
    EXPECT_EQ(c.upstream.auth_url, "https://127.0.0.1:9000/oauth");
    EXPECT_EQ(c.upstream.consent_url, "https://127.0.0.1:9000/consent");
    EXPECT_EQ(c.upstream.client_id, "roomkey-web");
    EXPECT_EQ(c.upstream.scope, "users.all:read");
    EXPECT_EQ(c.upstream.token_header, "x-other");
    EXPECT_EQ(c.upstream.client_type, ClientType::public_client);
}

TEST(HelperOptions, FlagsBeatEnvironmentWhichBeatsTheConfigFile) {
    TempDir dir;
    testing::write_file(dir / "roomkey.json", R"({"base_url": "https://file.example/v2",
        "auth_url": "https://file.example/oauth", "client_id": "from-file", "scope": "file-scope", "port": 9001})");
    auto cmd = parse_command_line({"--config", dir / "roomkey.json", "--client-id", "from-flag"},
                                  env_of({{"ROOMKEY_BASE_URL", "https://env.example/v2"}}));
    ASSERT_TRUE(cmd) << cmd.error();
    EXPECT_EQ(cmd->serve.upstream.client_id, "from-flag");
    EXPECT_EQ(cmd->serve.upstream.base_url, "https://env.example/v2");
    EXPECT_EQ(cmd->serve.upstream.auth_url, "https://file.example/oauth");
    EXPECT_EQ(cmd->serve.upstream.scope, "file-scope");
    EXPECT_EQ(cmd->serve.port, 9001);

    auto via_env = parse_command_line({}, env_of({{"ROOMKEY_CONFIG", dir / "roomkey.json"}}));
    ASSERT_TRUE(via_env) << via_env.error();
    EXPECT_EQ(via_env->serve.upstream.client_id, "from-file");
}

TEST(HelperOptions, ConfigFileErrorsNameTheProblem) {
    TempDir dir;
    testing::write_file(dir / "bad.json", "{not json");
    auto bad = parse_command_line({"--config", dir / "bad.json"}, env_of({}));
    ASSERT_FALSE(bad) << "the command line was accepted";
    EXPECT_NE(bad.error().find("bad.json"), std::string::npos) << bad.error();

    testing::write_file(dir / "typo.json", R"({"base_ulr": "https://x/v2"})");
    auto typo = parse_command_line({"--config", dir / "typo.json"}, env_of({}));
    ASSERT_FALSE(typo) << "the command line was accepted";
    EXPECT_NE(typo.error().find("base_ulr"), std::string::npos) << "unknown keys are reported, not ignored";
}

TEST(HelperOptions, SecretIsNeverAcceptedAsAFlagNorInlineInTheConfig) {
    auto flag = parse_command_line({"--client-type", "confidential", "--client-secret", "s3cr3t"}, env_of({}));
    ASSERT_FALSE(flag) << "the command line was accepted";
    EXPECT_NE(flag.error().find("--client-secret-file"), std::string::npos) << flag.error();
    EXPECT_EQ(flag.error().find("s3cr3t"), std::string::npos) << "the refused secret is not echoed";

    TempDir dir;
    testing::write_file(dir / "c.json", R"({"client_type": "confidential", "client_secret": "s3cr3t"})");
    auto inline_secret = parse_command_line({"--config", dir / "c.json"}, env_of({}));
    ASSERT_FALSE(inline_secret) << "the command line was accepted";
    EXPECT_NE(inline_secret.error().find("client_secret_file"), std::string::npos) << inline_secret.error();
    EXPECT_EQ(inline_secret.error().find("s3cr3t"), std::string::npos);
}

TEST(HelperOptions, SecretComesFromAFileOrTheEnvironment) {
    TempDir dir;
    testing::write_file(dir / "secret.txt", "file-secret\n");
    auto from_file = parse_command_line(
        {"--client-type", "confidential", "--client-id", "c", "--client-secret-file", dir / "secret.txt"}, env_of({}));
    ASSERT_TRUE(from_file) << from_file.error();
    EXPECT_EQ(from_file->serve.upstream.client_secret, "file-secret") << "first line, without the newline";

    auto from_env = parse_command_line({"--client-type", "confidential", "--client-id", "c"},
                                       env_of({{"ROOMKEY_CLIENT_SECRET", "env-secret"}}));
    ASSERT_TRUE(from_env) << from_env.error();
    EXPECT_EQ(from_env->serve.upstream.client_secret, "env-secret");
}

TEST(HelperOptions, ClientTypeAndSecretMustAgree) {
    auto missing = parse_command_line({"--client-type", "confidential"}, env_of({}));
    ASSERT_FALSE(missing) << "the command line was accepted";
    EXPECT_NE(missing.error().find("secret"), std::string::npos);
    // spec 2.1: a public client cannot keep a secret.
    auto public_with_secret = parse_command_line({}, env_of({{"ROOMKEY_CLIENT_SECRET", "x"}}));
    ASSERT_FALSE(public_with_secret) << "the command line was accepted";
    auto unknown = parse_command_line({"--client-type", "private"}, env_of({}));
    ASSERT_FALSE(unknown) << "the command line was accepted";
    // spec 4.3 / RFC 7617: Basic cannot carry a ':' in the client ID.
    auto colon = parse_command_line({"--client-type", "confidential", "--client-id", "a:b"},
                                    env_of({{"ROOMKEY_CLIENT_SECRET", "s"}}));
    ASSERT_FALSE(colon) << "the command line was accepted";
    EXPECT_NE(colon.error().find("':'"), std::string::npos) << colon.error();
}

TEST(HelperOptions, UpstreamUrlsMustBeHttps) {
    // spec 4.1: plain HTTP ends in a connection error.
    auto cmd = parse_command_line({"--base-url", "http://127.0.0.1/v2", "--auth-url", "https://127.0.0.1/oauth"},
                                  env_of({}));
    ASSERT_FALSE(cmd) << "the command line was accepted";
    EXPECT_NE(cmd.error().find("https"), std::string::npos);
    auto half = parse_command_line({"--base-url", "https://127.0.0.1/v2"}, env_of({}));
    EXPECT_FALSE(half) << "an API without a token endpoint cannot sign in";
}

TEST(HelperOptions, BadValuesAreRefused) {
    EXPECT_FALSE(parse_command_line({"--port", "70000"}, env_of({})));
    EXPECT_FALSE(parse_command_line({"--port", "-1"}, env_of({})));
    EXPECT_FALSE(parse_command_line({"--port"}, env_of({})));
    EXPECT_FALSE(parse_command_line({"--token-header", "bad header"}, env_of({})));
    EXPECT_FALSE(parse_command_line({"--cert", "/c.pem"}, env_of({}))) << "--cert needs --key";
    EXPECT_FALSE(parse_command_line({"--frobnicate"}, env_of({})));
    EXPECT_FALSE(parse_command_line({"launch"}, env_of({})));
}

TEST(HelperOptions, EveryCommandHasHelp) {
    // Every subcommand explains itself without the docs: --help for each.
    const std::vector<std::vector<std::string>> asks = {
        {"--help"}, {"-h"}, {"serve", "--help"}, {"trust", "--help"}, {"untrust", "-h"}, {"help"}, {"help", "trust"}};
    for (const auto& args : asks) {
        auto cmd = parse_command_line(args, env_of({}));
        ASSERT_TRUE(cmd) << args[0];
        EXPECT_EQ(cmd->subcommand, Subcommand::help);
        EXPECT_NE(cmd->help_text.find("Usage: roomkey-helper"), std::string::npos) << args[0];
    }
    EXPECT_NE(usage("serve").find("--port"), std::string::npos);
    EXPECT_NE(usage("trust").find("certutil"), std::string::npos);
    EXPECT_NE(usage("untrust").find("Removes"), std::string::npos);
    EXPECT_NE(usage("").find("serve"), std::string::npos);
}

TEST(HelperOptions, TrustTakesStateDirAndNssdb) {
    auto cmd = parse_command_line({"trust", "--state-dir", "/s", "--nssdb", "/n"}, env_of({}));
    ASSERT_TRUE(cmd) << cmd.error();
    EXPECT_EQ(cmd->subcommand, Subcommand::trust);
    EXPECT_EQ(cmd->trust.state_dir, "/s");
    EXPECT_EQ(cmd->trust.nssdb, "/n");
    auto untrust = parse_command_line({"untrust"}, env_of({{"ROOMKEY_STATE_DIR", "/e"}}));
    ASSERT_TRUE(untrust) << untrust.error();
    EXPECT_EQ(untrust->subcommand, Subcommand::untrust);
    EXPECT_EQ(untrust->trust.state_dir, "/e");
}

TEST(HelperOptions, Ipv6IsAnAdditionNeverAReplacement) {
    // The redirect URI the service knows is on 127.0.0.1: [::1] only adds a socket.
    auto plain = parse_command_line({"serve", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(plain) << plain.error();
    EXPECT_FALSE(plain->serve.ipv6);

    auto flag = parse_command_line({"serve", "--ipv6", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(flag) << flag.error();
    EXPECT_TRUE(flag->serve.ipv6);
    EXPECT_EQ(flag->serve.host, "127.0.0.1");

    auto host = parse_command_line({"serve", "--host", "::1", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(host) << host.error();
    EXPECT_TRUE(host->serve.ipv6) << "--host ::1 is the old spelling of --ipv6";
    EXPECT_EQ(host->serve.host, "127.0.0.1");

    TempDir dir;
    testing::write_file(dir / "on.json", R"({"ipv6": true})");
    auto file = parse_command_line({"--config", dir / "on.json", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(file) << file.error();
    EXPECT_TRUE(file->serve.ipv6);
    testing::write_file(dir / "bad.json", R"({"ipv6": "yes"})");
    EXPECT_FALSE(parse_command_line({"--config", dir / "bad.json", "--web-root", "/w"}, env_of({})));
    EXPECT_FALSE(parse_command_line({"--ipv6=1", "--web-root", "/w"}, env_of({})));
}

TEST(HelperOptions, PreconnectIsOnUnlessTurnedOff) {
    auto plain = parse_command_line({"serve", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(plain) << plain.error();
    EXPECT_TRUE(plain->serve.preconnect);
    auto off = parse_command_line({"serve", "--no-preconnect", "--web-root", "/w"}, env_of({}));
    ASSERT_TRUE(off) << off.error();
    EXPECT_FALSE(off->serve.preconnect);
    auto valued = parse_command_line({"serve", "--no-preconnect=yes", "--web-root", "/w"}, env_of({}));
    ASSERT_FALSE(valued) << "the command line was accepted";
    EXPECT_EQ(valued.error(), "--no-preconnect takes no value");
    EXPECT_NE(usage("serve").find("--no-preconnect"), std::string::npos);
}

TEST(HelperOptions, ServeHelpDocumentsTheLimits) {
    const std::string help = usage("serve");
    EXPECT_NE(help.find("--ipv6"), std::string::npos);
    EXPECT_NE(help.find("over 8 KiB is refused with 400"), std::string::npos) << help;
    EXPECT_NE(help.find("(431)"), std::string::npos) << help;
}

}  // namespace
}  // namespace roomkey::helper
