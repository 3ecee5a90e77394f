// helper_trust_test.cpp: `roomkey-helper trust` as a new user runs it, before
// any browser has started (issue 14): a fresh, empty HOME, real certutil.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <string>

#include "support/child_process.hpp"
#include "support/temp_dir.hpp"

namespace roomkey::integration {
namespace {

std::string helper_binary() {
    return program_path("roomkey-helper");
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// certutil's listing of an NSS database (what a browser would trust).
std::string nss_listing(const std::string& db) {
    std::string out;
    FILE* p = ::popen(("certutil -d 'sql:" + db + "' -L 2>&1").c_str(), "r");
    if (p == nullptr) return out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
    ::pclose(p);
    return out;
}

struct CliRun {
    int code;
    std::string err;
};

CliRun run(const TempDir& home, const std::string& command) {
    Child child({helper_binary(), command, "--state-dir", home / "state"}, ChildOptions{{{"HOME", home.path()}}});
    const int code = child.wait_exit(30000);
    return {code, child.stderr_text()};
}

TEST(HelperTrust, TrustCreatesChromiumsDatabaseInAFreshHomeAndSaysWhatItCovered) {
    TempDir home;
    ASSERT_FALSE(exists(home / ".pki"));
    const CliRun trusted = run(home, "trust");
    ASSERT_EQ(trusted.code, 0) << trusted.err;
    const std::string db = home / ".pki/nssdb";
    EXPECT_TRUE(exists(db + "/cert9.db")) << "the database Chromium reads was created";
    EXPECT_NE(nss_listing(db).find("roomkey local CA"), std::string::npos) << nss_listing(db);
    EXPECT_NE(trusted.err.find("browsers covered: Chromium"), std::string::npos) << trusted.err;
    struct stat st {};
    ASSERT_EQ(::stat(db.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u) << "private, as Chromium makes it";

    // Trusting again replaces, never duplicates.
    ASSERT_EQ(run(home, "trust").code, 0);
    const std::string listing = nss_listing(db);
    EXPECT_EQ(listing.find("roomkey local CA"), listing.rfind("roomkey local CA")) << listing;
}

TEST(HelperTrust, UntrustIsIdempotentAndCreatesNothing) {
    TempDir home;
    const CliRun nothing = run(home, "untrust");
    EXPECT_EQ(nothing.code, 0) << nothing.err;
    EXPECT_FALSE(exists(home / ".pki")) << "untrust never creates a database";

    ASSERT_EQ(run(home, "trust").code, 0);
    const CliRun removed = run(home, "untrust");
    EXPECT_EQ(removed.code, 0) << removed.err;
    EXPECT_EQ(nss_listing(home / ".pki/nssdb").find("roomkey local CA"), std::string::npos);
    const CliRun again = run(home, "untrust");
    EXPECT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.err.find("nothing to remove"), std::string::npos) << again.err;
}

}  // namespace
}  // namespace roomkey::integration
