// helper_cli_test.cpp: the roomkey-helper program itself, as scripts and
// users run it: the one ready line, clean exit on SIGINT/SIGTERM,
// clear errors for a taken port or a missing build, --help, trust/untrust.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <regex>

#include "support/child_process.hpp"
#include "support/helper_fixture.hpp"
#include "support/trust_only.hpp"

namespace roomkey::helper {
namespace {

std::string helper_binary() {
    return integration::program_path("roomkey-helper");
}

using integration::Child;
using integration::ChildOptions;

std::vector<std::string> serve_args(const TempDir& dir, const std::string& port = "0") {
    testing::make_web_root(dir / "web");
    return {helper_binary(), "serve", "--port", port, "--state-dir", dir / "state", "--web-root", dir / "web"};
}

int port_of(const std::string& ready_line) {
    std::smatch m;
    static const std::regex re(R"(^roomkey: app at https://127\.0\.0\.1:(\d+)/$)");
    if (!std::regex_match(ready_line, m, re)) return 0;
    return std::stoi(m[1].str());
}

class HelperCli : public ::testing::Test {
protected:
    void SetUp() override {
        if (::access(helper_binary().c_str(), X_OK) != 0) {
            GTEST_SKIP() << "roomkey-helper not built next to the tests: " << helper_binary();
        }
    }
};

void expect_clean_stop(int sig) {
    TempDir dir;
    Child child(serve_args(dir));
    const std::string ready = child.read_line(15000);
    const int port = port_of(ready);
    ASSERT_NE(port, 0) << "ready line expected, got \"" << ready << "\"; stderr: " << child.stderr_text();

    httplib::SSLClient client("127.0.0.1", port);
    ASSERT_TRUE(integration::trust_only(client, "127.0.0.1", dir / "state/ca-cert.pem"))
        << "cannot trust the CA file only: unreadable, or the name check could not be set up";
    auto res = client.Get("/roomkey.wasm");
    ASSERT_TRUE(res) << "the program serves as soon as it printed the line";
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/wasm");

    child.signal(sig);
    EXPECT_EQ(child.wait_exit(8000), 0) << "clean exit on signal " << sig << "; stderr: " << child.stderr_text();
    EXPECT_EQ(child.rest_of_stdout(), "") << "stdout carries exactly one line";
    EXPECT_EQ(child.stderr_text().find("BEGIN"), std::string::npos) << "no key material in the output";
}

TEST_F(HelperCli, PrintsOneReadyLineAndStopsCleanlyOnSigterm) {
    expect_clean_stop(SIGTERM);
}

TEST_F(HelperCli, StopsCleanlyOnCtrlC) {
    expect_clean_stop(SIGINT);
}

TEST_F(HelperCli, TakenPortIsAClearErrorNamingTheFix) {
    TempDir dir;
    Child first(serve_args(dir));
    const int port = port_of(first.read_line(15000));
    ASSERT_NE(port, 0) << first.stderr_text();
    TempDir other;
    Child second(serve_args(other, std::to_string(port)));
    EXPECT_EQ(second.wait_exit(10000), 3) << second.stderr_text();
    const std::string err = second.stderr_text();
    EXPECT_NE(err.find("already in use"), std::string::npos) << err;
    EXPECT_NE(err.find("--port"), std::string::npos) << err;
    EXPECT_EQ(second.rest_of_stdout(), "") << "no ready line when not listening";
}

TEST_F(HelperCli, MissingBuildIsAClearErrorNamingTheCommand) {
    TempDir dir;
    Child child({helper_binary(), "--port", "0", "--state-dir", dir / "state", "--web-root", dir / "nothing"});
    EXPECT_EQ(child.wait_exit(10000), 2);
    const std::string err = child.stderr_text();
    EXPECT_NE(err.find("./scripts/run.sh"), std::string::npos) << err;
    EXPECT_NE(err.find("cmake --build --preset wasm"), std::string::npos) << err;
}

TEST_F(HelperCli, HelpForEveryCommand) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--help"}, {"serve", "--help"}, {"trust", "--help"}, {"untrust", "--help"}}) {
        std::vector<std::string> full{helper_binary()};
        full.insert(full.end(), args.begin(), args.end());
        Child child(full);
        EXPECT_EQ(child.wait_exit(5000), 0) << args[0];
        EXPECT_NE(child.rest_of_stdout().find("Usage: roomkey-helper"), std::string::npos) << args[0];
    }
    Child bad({helper_binary(), "--nonsense"});
    EXPECT_EQ(bad.wait_exit(5000), 2);
    EXPECT_NE(bad.stderr_text().find("--nonsense"), std::string::npos);
}

bool have_certutil() {
    return std::system("command -v certutil >/dev/null 2>&1") == 0;
}

std::string certutil_list(const std::string& db) {
    std::string out;
    FILE* p = ::popen(("certutil -d sql:'" + db + "' -L 2>&1").c_str(), "r");
    if (p == nullptr) return out;
    char buf[256];
    while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
    ::pclose(p);
    return out;
}

TEST_F(HelperCli, TrustAddsTheLocalCaToAnNssDatabaseAndUntrustRemovesIt) {
    if (!have_certutil()) GTEST_SKIP() << "certutil (libnss3-tools) is not installed";
    TempDir dir;
    const std::string db = dir / "nssdb";
    Child trust({helper_binary(), "trust", "--state-dir", dir / "state", "--nssdb", db});
    ASSERT_EQ(trust.wait_exit(20000), 0) << trust.stderr_text();
    const std::string listed = certutil_list(db);
    EXPECT_NE(listed.find("roomkey local CA"), std::string::npos) << listed;
    EXPECT_NE(listed.find("C,,"), std::string::npos) << "trusted as a CA for TLS servers: " << listed;

    // Trusting twice keeps one entry.
    Child again({helper_binary(), "trust", "--state-dir", dir / "state", "--nssdb", db});
    ASSERT_EQ(again.wait_exit(20000), 0) << again.stderr_text();
    const std::string twice = certutil_list(db);
    EXPECT_EQ(twice.find("roomkey local CA"), twice.rfind("roomkey local CA")) << twice;

    Child untrust({helper_binary(), "untrust", "--state-dir", dir / "state", "--nssdb", db});
    ASSERT_EQ(untrust.wait_exit(20000), 0) << untrust.stderr_text();
    EXPECT_EQ(certutil_list(db).find("roomkey local CA"), std::string::npos);
}

// A stand-in for certutil, first on PATH: support/signal_probe.cpp, which
// records its own signal mask and ignored signals in
// $ROOMKEY_FAKE_CERTUTIL_MARK, then sleeps (when $ROOMKEY_FAKE_CERTUTIL_SLEEP
// is set) or fails. Compiled, so that nothing forks between the exec and the
// read of /proc/self/status.
std::string fake_certutil_dir(const TempDir& dir) {
    const std::string bin = dir / "bin";
    ::mkdir(bin.c_str(), 0755);
    EXPECT_EQ(::symlink(ROOMKEY_SIGNAL_PROBE, (bin + "/certutil").c_str()), 0) << ROOMKEY_SIGNAL_PROBE;
    return bin;
}

// The mask in a "SigBlk:"/"SigIgn:" line of /proc/PID/status.
unsigned long long signal_mask(const std::string& status, const std::string& field) {
    const auto at = status.find(field + ":");
    if (at == std::string::npos) return ~0ull;
    return std::strtoull(status.c_str() + at + field.size() + 1, nullptr, 16);
}

bool has_signal(unsigned long long mask, int sig) {
    return (mask >> (sig - 1)) & 1u;
}

std::string wait_for_file(const std::string& path, int ms) {
    for (int waited = 0; waited < ms; waited += 20) {
        if (::access(path.c_str(), F_OK) == 0) return testing::read_file(path);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return {};
}

std::string path_with(const std::string& dir) {
    const char* path = std::getenv("PATH");
    return dir + ":" + (path != nullptr ? path : "/usr/bin:/bin");
}

TEST_F(HelperCli, TrustAndItsCertutilStopOnCtrlC) {
    // Only `serve` waits for SIGINT/SIGTERM on a thread; `trust` must keep the
    // default action, and so must the certutil it starts (a signal mask is
    // inherited through fork and execvp).
    TempDir dir;
    const std::string mark = dir / "mark";
    Child trust({helper_binary(), "trust", "--state-dir", dir / "state", "--nssdb", dir / "nssdb"},
                {{{"PATH", path_with(fake_certutil_dir(dir))},
                  {"ROOMKEY_FAKE_CERTUTIL_MARK", mark},
                  {"ROOMKEY_FAKE_CERTUTIL_SLEEP", "30"}},
                 true});
    const std::string status = wait_for_file(mark, 15000);
    ASSERT_FALSE(status.empty()) << "certutil was not started: " << trust.stderr_text();
    const auto blocked = signal_mask(status, "SigBlk");
    EXPECT_FALSE(has_signal(blocked, SIGINT)) << "certutil inherited a blocked SIGINT: " << status;
    EXPECT_FALSE(has_signal(blocked, SIGTERM)) << "certutil inherited a blocked SIGTERM: " << status;

    trust.signal_group(SIGINT);
    EXPECT_TRUE(trust.ended_within(3000)) << "Ctrl-C did not stop `roomkey-helper trust` while certutil ran";
}

TEST_F(HelperCli, ServeStartsCertutilWithTheDefaultSignalState) {
    // serve blocks SIGINT/SIGTERM and ignores SIGPIPE for itself; the
    // certutil it runs for the trust hint must not inherit either.
    TempDir dir;
    const std::string home = dir / "home";
    std::system(("mkdir -p '" + home + "/.pki/nssdb'").c_str());
    testing::write_file(home + "/.pki/nssdb/cert9.db", "");  // the fake certutil never reads it
    const std::string mark = dir / "mark";
    Child serve(
        serve_args(dir),
        {{{"PATH", path_with(fake_certutil_dir(dir))}, {"HOME", home}, {"ROOMKEY_FAKE_CERTUTIL_MARK", mark}}, false});
    ASSERT_NE(port_of(serve.read_line(15000)), 0) << serve.stderr_text();
    const std::string status = wait_for_file(mark, 5000);
    ASSERT_FALSE(status.empty()) << "the trust hint did not run certutil: " << serve.stderr_text();
    EXPECT_FALSE(has_signal(signal_mask(status, "SigBlk"), SIGINT)) << status;
    EXPECT_FALSE(has_signal(signal_mask(status, "SigBlk"), SIGTERM)) << status;
    EXPECT_FALSE(has_signal(signal_mask(status, "SigIgn"), SIGPIPE)) << status;
    serve.signal(SIGTERM);
    EXPECT_EQ(serve.wait_exit(8000), 0) << serve.stderr_text();
}

TEST_F(HelperCli, TrustHintChecksEveryDatabaseTrustWouldWrite) {
    // A CA trusted in Chromium's database but not in a Firefox profile is not
    // trusted "by the browser" yet: the hint names the profile.
    if (!have_certutil()) GTEST_SKIP() << "certutil (libnss3-tools) is not installed";
    TempDir dir;
    const std::string home = dir / "home";
    const std::string chromium = home + "/.pki/nssdb";
    const std::string firefox = home + "/.mozilla/firefox/abcd1234.default-release";
    for (const std::string& db : {chromium, firefox}) {
        ASSERT_EQ(std::system(("mkdir -p '" + db + "' && certutil -d sql:'" + db + "' -N --empty-password").c_str()),
                  0);
    }
    const ChildOptions in_home{{{"HOME", home}}, false};

    Child chromium_only({helper_binary(), "trust", "--state-dir", dir / "state", "--nssdb", chromium}, in_home);
    ASSERT_EQ(chromium_only.wait_exit(20000), 0) << chromium_only.stderr_text();
    {
        Child serve(serve_args(dir), in_home);
        ASSERT_NE(port_of(serve.read_line(15000)), 0) << serve.stderr_text();
        serve.signal(SIGTERM);
        EXPECT_EQ(serve.wait_exit(8000), 0);
        const std::string err = serve.stderr_text();
        const auto at = err.find("does not trust it yet");
        ASSERT_NE(at, std::string::npos) << err;
        const std::string hint = err.substr(at, err.find('\n', at) - at);
        EXPECT_NE(hint.find(firefox), std::string::npos) << "the hint names the Firefox profile: " << hint;
        EXPECT_EQ(hint.find("/.pki/nssdb"), std::string::npos) << "Chromium's database already trusts it: " << hint;
    }

    // Every NSS database; not the machine's system store.
    Child everywhere({helper_binary(), "trust", "--state-dir", dir / "state", "--no-system-store"}, in_home);
    ASSERT_EQ(everywhere.wait_exit(20000), 0) << everywhere.stderr_text();
    EXPECT_NE(certutil_list(firefox).find("roomkey local CA"), std::string::npos);
    {
        Child serve(serve_args(dir), in_home);
        ASSERT_NE(port_of(serve.read_line(15000)), 0) << serve.stderr_text();
        serve.signal(SIGTERM);
        EXPECT_EQ(serve.wait_exit(8000), 0);
        EXPECT_EQ(serve.stderr_text().find("does not trust it yet"), std::string::npos) << serve.stderr_text();
    }
}

}  // namespace
}  // namespace roomkey::helper
