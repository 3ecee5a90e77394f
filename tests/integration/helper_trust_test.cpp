// helper_trust_test.cpp: `roomkey-helper trust` as a new user runs it, before
// any browser has started (no NSS database yet): a fresh, empty HOME, real certutil.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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
    // An XDG_CONFIG_HOME of the machine's would lead trust out of this home;
    // the system store is the test's own (SystemStore below), never the machine's.
    Child child({helper_binary(), command, "--state-dir", home / "state"},
                ChildOptions{{{"HOME", home.path()}, {"XDG_CONFIG_HOME", ""}, {"ROOMKEY_SYSTEM_CA_DIR", "none"}}});
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

// [system store] WebKitGTK (GNOME Web, MiniBrowser) reads no NSS database
// but the system trust GnuTLS loads, /etc/ssl/certs/ca-certificates.crt,
// which update-ca-certificates builds from /usr/local/share/ca-certificates.
// Here the store is a directory of the test's (ROOMKEY_SYSTEM_CA_DIR) and
// update-ca-certificates a stand-in first in PATH that notes each run: the
// machine's own store is never touched.
class SystemStore : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(::mkdir(store_.c_str(), 0755), 0);
        ASSERT_EQ(::mkdir(bin_.c_str(), 0755), 0);
        const std::string stub = bin_ + "/update-ca-certificates";
        FILE* f = std::fopen(stub.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fprintf(f, "#!/bin/sh\nls '%s' >> '%s'\necho ran >> '%s'\n", store_.c_str(), updates_.c_str(),
                     updates_.c_str());
        std::fclose(f);
        ASSERT_EQ(::chmod(stub.c_str(), 0755), 0);
    }
    CliRun run_with_store(const std::string& command, std::vector<std::string> prefix = {}) {
        std::vector<std::string> args = std::move(prefix);
        for (const std::string& a : {helper_binary(), command, std::string("--state-dir"), home_ / "state"}) {
            args.push_back(a);
        }
        const char* path = std::getenv("PATH");
        Child child(args, ChildOptions{{{"HOME", home_.path()},
                                        {"XDG_CONFIG_HOME", ""},
                                        {"ROOMKEY_SYSTEM_CA_DIR", store_},
                                        {"PATH", bin_ + ":" + (path != nullptr ? path : "/usr/bin:/bin")}}});
        const int code = child.wait_exit(30000);
        return {code, child.stderr_text()};
    }
    // The store's files, sorted, one a line.
    std::string listing() const {
        std::string out;
        FILE* p = ::popen(("ls '" + store_ + "'").c_str(), "r");
        char buf[512];
        while (p != nullptr && std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
        if (p != nullptr) ::pclose(p);
        return out;
    }
    int updates() const {
        std::string text = read_file(updates_);
        int n = 0;
        for (std::size_t at = text.find("ran"); at != std::string::npos; at = text.find("ran", at + 1)) ++n;
        return n;
    }
    static std::string read_file(const std::string& path) {
        std::string out;
        FILE* f = std::fopen(path.c_str(), "r");
        char buf[4096];
        std::size_t n = 0;
        while (f != nullptr && (n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
        if (f != nullptr) std::fclose(f);
        return out;
    }
    std::string ca_file_name() const {
        std::string fp;
        for (char c : native::certificate_fingerprint(home_ / "state/ca-cert.pem")) {
            if (c != ':') fp += c;
        }
        return "roomkey-local-ca-" + fp.substr(0, 16) + ".crt";
    }

    TempDir home_;
    std::string store_ = home_ / "store";
    std::string bin_ = home_ / "bin";
    std::string updates_ = home_ / "updates.log";
};

TEST_F(SystemStore, TrustAddsTheCaToTheSystemStoreReplacingAnOldRoomkeyCaAndUntrustRemovesIt) {
    // An earlier roomkey CA, and a CA of someone else's that stays.
    ASSERT_EQ(std::system(("echo old > '" + store_ + "/roomkey-local-ca-00aa00aa00aa00aa.crt'").c_str()), 0);
    ASSERT_EQ(std::system(("echo other > '" + store_ + "/corporate-proxy.crt'").c_str()), 0);

    const CliRun trusted = run_with_store("trust");
    ASSERT_EQ(trusted.code, 0) << trusted.err;
    const std::string name = ca_file_name();
    EXPECT_EQ(listing(), "corporate-proxy.crt\n" + name + "\n") << "the old roomkey CA is replaced, nothing else";
    EXPECT_EQ(read_file(store_ + "/" + name), read_file(home_ / "state/ca-cert.pem"));
    struct stat st {};
    ASSERT_EQ(::stat((store_ + "/" + name).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u) << "update-ca-certificates' readers are every user";
    EXPECT_EQ(updates(), 1) << "update-ca-certificates runs once the store holds the new CA";
    EXPECT_NE(read_file(updates_).find(name), std::string::npos) << read_file(updates_);
    EXPECT_NE(trusted.err.find("trusted " + (home_ / "state/ca-cert.pem") + " in the system store"), std::string::npos)
        << trusted.err;
    EXPECT_NE(trusted.err.find("WebKit browsers and curl (the system store)"), std::string::npos) << trusted.err;

    // Trusting again changes nothing, and updates nothing.
    const CliRun again = run_with_store("trust");
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_EQ(updates(), 1) << again.err;
    EXPECT_NE(again.err.find("the system store already trusts it"), std::string::npos) << again.err;

    const CliRun removed = run_with_store("untrust");
    ASSERT_EQ(removed.code, 0) << removed.err;
    EXPECT_EQ(listing(), "corporate-proxy.crt\n");
    EXPECT_EQ(updates(), 2);
    EXPECT_NE(removed.err.find("removed " + store_ + "/" + name + " from the system store"), std::string::npos)
        << removed.err;
    const CliRun nothing = run_with_store("untrust");
    EXPECT_EQ(nothing.code, 0) << nothing.err;
    EXPECT_EQ(updates(), 2) << "nothing to remove: nothing to update";
}

TEST_F(SystemStore, WithoutTheRightsTrustPrintsWhatAnAdministratorRunsAndTouchesNothing) {
    // A user who may not write the store: as root, the test runs trust as
    // nobody (root may write anywhere); otherwise the store is read-only.
    std::vector<std::string> as_user;
    if (::geteuid() == 0) {
        as_user = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
        ASSERT_EQ(::chmod(home_.path().c_str(), 0777), 0);
    } else {
        ASSERT_EQ(::chmod(store_.c_str(), 0555), 0);
    }
    const CliRun trusted = run_with_store("trust", as_user);
    ASSERT_EQ(trusted.code, 0) << "the NSS databases were covered; the system store is the user's step: "
                               << trusted.err;
    EXPECT_EQ(listing(), "");
    EXPECT_EQ(updates(), 0);
    const std::string name = ca_file_name();
    EXPECT_NE(trusted.err.find("needs an administrator"), std::string::npos) << trusted.err;
    EXPECT_NE(trusted.err.find("sudo install -m 644 " + (home_ / "state/ca-cert.pem") + " " + store_ + "/" + name),
              std::string::npos)
        << trusted.err;
    EXPECT_NE(trusted.err.find("sudo update-ca-certificates"), std::string::npos) << trusted.err;
}

}  // namespace
}  // namespace roomkey::integration
