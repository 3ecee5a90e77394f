// helper_trust_test.cpp: `roomkey-helper trust` as a new user runs it, before
// any browser has started (no NSS database yet): a fresh, empty HOME, real certutil.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/tls.hpp"
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

// An NSS database where a browser would have made one (a Firefox profile
// gets its cert9.db at the profile's first start).
bool make_database(const std::string& db) {
    return std::system(("mkdir -p '" + db + "' && certutil -d 'sql:" + db + "' -N --empty-password").c_str()) == 0;
}

CliRun run(const TempDir& home, const std::string& command) {
    // An XDG_CONFIG_HOME of the machine's would lead trust out of this home.
    Child child({helper_binary(), command, "--state-dir", home / "state"},
                ChildOptions{{{"HOME", home.path()}, {"XDG_CONFIG_HOME", ""}}});
    const int code = child.wait_exit(30000);
    return {code, child.stderr_text()};
}

TEST(HelperTrust, TrustCreatesChromiumsDatabaseInAFreshHomeAndSaysWhatItCovered) {
    TempDir home;
    ASSERT_FALSE(exists(home / ".pki")) << "the fresh HOME already has ~/.pki";
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

// Firefox ESR 153 keeps new profiles in ~/.config/mozilla/firefox
// (XDG), ESR 140 in ~/.mozilla/firefox, the snap in its own home; trust
// covered the last two only, so ESR 153 kept warning.
TEST(HelperTrust, TrustCoversFirefoxProfilesOfEsr153Esr140AndTheSnap) {
    TempDir home;
    const std::string esr153 = home / ".config/mozilla/firefox/k3m9x2aa.default-esr";
    const std::string esr140 = home / ".mozilla/firefox/p0q1r2s3.default-esr";
    const std::string snap = home / "snap/firefox/common/.mozilla/firefox/z9y8x7w6.default";
    for (const std::string& db : {esr153, esr140, snap}) ASSERT_TRUE(make_database(db)) << db;

    const CliRun trusted = run(home, "trust");
    ASSERT_EQ(trusted.code, 0) << trusted.err;
    for (const std::string& db : {esr153, esr140, snap}) {
        EXPECT_NE(nss_listing(db).find("roomkey local CA"), std::string::npos) << db << ":\n" << nss_listing(db);
    }
    // It says which profiles it covered, by the Firefox that reads each.
    const auto covered = trusted.err.find("browsers covered:");
    ASSERT_NE(covered, std::string::npos) << trusted.err;
    const std::string line = trusted.err.substr(covered, trusted.err.find('\n', covered) - covered);
    EXPECT_NE(line.find("Firefox ESR 153+ profile k3m9x2aa.default-esr (" + esr153 + ")"), std::string::npos) << line;
    EXPECT_NE(line.find("Firefox profile p0q1r2s3.default-esr (" + esr140 + ")"), std::string::npos) << line;
    EXPECT_NE(line.find("Firefox (snap) profile z9y8x7w6.default (" + snap + ")"), std::string::npos) << line;
    EXPECT_EQ(trusted.err.find("no Firefox profile found"), std::string::npos) << trusted.err;

    const CliRun removed = run(home, "untrust");
    ASSERT_EQ(removed.code, 0) << removed.err;
    for (const std::string& db : {esr153, esr140, snap}) {
        EXPECT_EQ(nss_listing(db).find("roomkey local CA"), std::string::npos) << db;
    }
}

// The CA lives about a year: after a renewal, `trust` puts the new one in
// every database it covers and takes the old one out of each, so no
// browser keeps trusting a CA whose key is no longer in use.
TEST(HelperTrust, TrustAgainReplacesARenewedCaInEveryDatabase) {
    TempDir home;
    const std::string esr153 = home / ".config/mozilla/firefox/k3m9x2aa.default-esr";
    const std::string esr140 = home / ".mozilla/firefox/p0q1r2s3.default-esr";
    for (const std::string& db : {esr153, esr140}) ASSERT_TRUE(make_database(db)) << db;
    const std::string chromium = home / ".pki/nssdb";
    ASSERT_EQ(run(home, "trust").code, 0);
    // The nickname carries the start of the CA's fingerprint.
    auto nickname_part = [&] {
        std::string fp;
        for (char c : native::certificate_fingerprint(home / "state/ca-cert.pem")) {
            if (c != ':') fp += c;
        }
        return "roomkey local CA " + fp.substr(0, 16);
    };
    const std::string old_name = nickname_part();
    for (const std::string& db : {chromium, esr153, esr140}) {
        ASSERT_NE(nss_listing(db).find(old_name), std::string::npos) << db << ":\n" << nss_listing(db);
    }

    // A renewal makes a new CA (here: its key is gone, as when it expired).
    ASSERT_EQ(std::remove((home / "state/ca-key.pem").c_str()), 0);
    const CliRun again = run(home, "trust");
    ASSERT_EQ(again.code, 0) << again.err;
    const std::string new_name = nickname_part();
    ASSERT_NE(new_name, old_name) << "the CA was not renewed";
    for (const std::string& db : {chromium, esr153, esr140}) {
        const std::string listing = nss_listing(db);
        EXPECT_NE(listing.find(new_name), std::string::npos) << db << ":\n" << listing;
        EXPECT_EQ(listing.find(old_name), std::string::npos) << db << " still trusts the old CA:\n" << listing;
        EXPECT_EQ(listing.find("roomkey local CA"), listing.rfind("roomkey local CA")) << db << ":\n" << listing;
    }
}

TEST(HelperTrust, TrustSaysWhereItLookedWhenNoFirefoxProfileExists) {
    TempDir home;
    const CliRun trusted = run(home, "trust");
    ASSERT_EQ(trusted.code, 0) << trusted.err;
    const auto at = trusted.err.find("no Firefox profile found");
    ASSERT_NE(at, std::string::npos) << trusted.err;
    const std::string line = trusted.err.substr(at, trusted.err.find('\n', at) - at);
    for (const std::string& root :
         {home / ".config/mozilla/firefox", home / ".mozilla/firefox", home / "snap/firefox/common/.mozilla/firefox"}) {
        EXPECT_NE(line.find(root), std::string::npos) << line;
    }
}

}  // namespace
}  // namespace roomkey::integration
