// sandbox_cli_test.cpp: the roomkey-sandbox program itself, run as a child
// process: --help, a bad flag, and a real start on port 0
// with a fresh state directory: the one ready line, HTTPS from the local CA
// it made, a generated secret announced on stderr, a clean stop on SIGTERM.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <regex>

#include "support/child_process.hpp"
#include "support/temp_dir.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/trust_only.hpp"

namespace roomkey::sandbox::testing {
namespace {

std::string sandbox_binary() { return integration::program_path("roomkey-sandbox"); }

using integration::Child;

using integration::TempDir;

class SandboxCli : public ::testing::Test {
protected:
    void SetUp() override {
        // tests/integration/CMakeLists.txt makes the tests depend on the program.
        ASSERT_EQ(::access(sandbox_binary().c_str(), X_OK), 0) << "not built: " << sandbox_binary();
    }
};

TEST_F(SandboxCli, HelpExitsZero) {
    Child child({sandbox_binary(), "--help"});
    EXPECT_EQ(child.wait_exit(5000), 0);
    const std::string out = child.rest_of_stdout();
    EXPECT_NE(out.find("usage: roomkey-sandbox"), std::string::npos) << out;
    EXPECT_NE(out.find("--enable-test-controls"), std::string::npos);
}

TEST_F(SandboxCli, BadFlagExitsNonZeroWithAMessage) {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--bogus"},
                                                 {"--port", "70000"},
                                                 {"--register-client", "name=x,redirect_uri=myapp://a"}}) {
        std::vector<std::string> full{sandbox_binary()};
        full.insert(full.end(), args.begin(), args.end());
        Child child(full);
        const int code = child.wait_exit(5000);
        EXPECT_NE(code, 0) << args[0];
        EXPECT_NE(code, -1) << args[0] << ": did not exit";
        const std::string err = child.stderr_text();
        EXPECT_EQ(err.rfind("roomkey-sandbox: ", 0), 0u) << args[0] << ": " << err;
        EXPECT_NE(err.find(args[0]), std::string::npos) << "the message names the argument: " << err;
        EXPECT_EQ(child.rest_of_stdout(), "") << "no ready line";
    }
}

// As scripts/run.sh starts it: HTTPS on 127.0.0.1 with a certificate from a local CA made
// in the state directory, one machine-readable ready line with the three
// base addresses, a clean stop.
TEST_F(SandboxCli, StartsOnPortZeroAndPrintsTheReadyLine_spec4_1) {
    TempDir dir;
    ASSERT_FALSE(dir.path().empty()) << "no temporary state directory";
    Child child({sandbox_binary(), "--port", "0", "--state-dir", dir.path(), "--quiet", "--register-client",
                 "name=Server app,type=confidential,redirect_uri=https://127.0.0.1:9000/cb,scope=users.all:read,"
                 "client_id=cli-server"});
    const std::string ready = child.read_line(20000);
    std::smatch m;
    const std::regex re(R"(^roomkey-sandbox: ready base_url=https://127\.0\.0\.1:(\d+)/v2 )"
                        R"(auth_url=https://127\.0\.0\.1:(\d+)/oauth consent_url=https://127\.0\.0\.1:(\d+)/consent$)");
    ASSERT_TRUE(std::regex_match(ready, m, re)) << "ready line: \"" << ready << "\"; stderr: " << child.stderr_text();
    const int port = std::stoi(m[1].str());
    EXPECT_NE(port, 0);
    EXPECT_EQ(m[2].str(), m[1].str());
    EXPECT_EQ(m[3].str(), m[1].str());

    httplib::SSLClient client("127.0.0.1", port);
    ASSERT_TRUE(integration::trust_only(client, "127.0.0.1", dir / "ca-cert.pem"))
        << "cannot trust the CA file only: unreadable, or the name check could not be set up";
    auto res = client.Get("/v2/me", httplib::Headers{{"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    EXPECT_NE(res->body.find("\"account_id\":1001"), std::string::npos) << res->body;

    // The start-up client's generated secret is shown nowhere else.
    const std::string err = child.stderr_text();
    EXPECT_NE(err.find("client_id cli-server): generated client_secret "), std::string::npos) << err;

    child.signal(SIGTERM);
    EXPECT_EQ(child.wait_exit(8000), 0) << child.stderr_text();
    EXPECT_EQ(child.rest_of_stdout(), "") << "stdout carries exactly one line";
}

}  // namespace
}  // namespace roomkey::sandbox::testing
