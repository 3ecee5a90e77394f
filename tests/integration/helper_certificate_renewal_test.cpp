// helper_certificate_renewal_test.cpp: a helper that runs for months keeps a
// valid certificate: the periodic check renews the server
// certificate when it is due and the next handshake gets the new one, no
// restart; with nothing due, nothing changes; a CA near its end (it lives
// about a year) is renewed with it, and the log says to trust it again. Time is the injected clock.
// The sandbox, which shares the helper's state directory, runs the same check
// (common/certificate_renewal.hpp): it renews what is due itself and takes up
// what the helper renewed, without a restart; its tests call the check
// directly with the clock set, no wait.
#include <gtest/gtest.h>

#include <atomic>
#include <ctime>

#include "common/tls.hpp"
#include "support/helper_fixture.hpp"
#include "support/sandbox_fixture.hpp"

namespace roomkey::helper {
namespace {

constexpr std::time_t kDay = 24 * 3600;

// Polls `done` for up to `ms`.
template <class Done>
bool eventually(Done done, int ms) {
    for (int waited = 0; waited < ms; waited += 20) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

class HelperCertificateRenewal : public ::testing::Test {
protected:
    void SetUp() override {
        HelperConfig config = testing::test_config(dir_);
        config.clock = [this] { return now_.load(); };
        config.certificate_check_interval = std::chrono::milliseconds(50);
        helper_ = std::make_unique<RunningHelper>(config);
        ASSERT_TRUE(helper_->ok()) << helper_->error();
        cert_path_ = helper_->server().tls()->server_cert_path;
    }
    std::string served_fingerprint() const {
        RawTls conn(helper_->port());
        return conn.peer_fingerprint();
    }

    TempDir dir_;
    std::atomic<std::time_t> now_{std::time(nullptr)};
    std::unique_ptr<RunningHelper> helper_;
    std::string cert_path_;
};

TEST_F(HelperCertificateRenewal, NothingChangesWhileTheCertificateIsFresh) {
    const std::string before = native::certificate_fingerprint(cert_path_);
    ASSERT_FALSE(before.empty()) << "no certificate fingerprint for " << cert_path_;
    EXPECT_EQ(served_fingerprint(), before);
    now_ += 200 * kDay;  // a 365-day certificate is renewed within 30 days of its end
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // several checks
    EXPECT_EQ(native::certificate_fingerprint(cert_path_), before);
    EXPECT_EQ(served_fingerprint(), before);
    EXPECT_EQ(helper_->log().find("renewed"), std::string::npos) << helper_->log();
}

TEST_F(HelperCertificateRenewal, DueCertificateIsRenewedAndServedWithoutRestart) {
    const std::string ca_before = native::certificate_fingerprint(helper_->server().tls()->ca_cert_path);
    const std::string before = native::certificate_fingerprint(cert_path_);
    ASSERT_EQ(served_fingerprint(), before);

    now_ += 340 * kDay;  // 25 days before the end of a 365-day certificate
    ASSERT_TRUE(eventually([&] { return native::certificate_fingerprint(cert_path_) != before; }, 3000))
        << "the running helper did not renew the certificate on disk";
    const std::string after = native::certificate_fingerprint(cert_path_);
    EXPECT_TRUE(eventually([&] { return served_fingerprint() == after; }, 3000))
        << "new connections still get the old certificate";
    EXPECT_NE(helper_->wait_for_log("renewed the server certificate").find("renewed the server certificate"),
              std::string::npos)
        << helper_->log();
    EXPECT_EQ(native::certificate_fingerprint(helper_->server().tls()->ca_cert_path), ca_before)
        << "the CA (57 days left) stays: browsers that trust it keep trusting";
}

TEST_F(HelperCertificateRenewal, ACaNearItsEndIsRenewedWithTheServerCertificateAndTheLogSaysTrustAgain) {
    const std::string ca_path = helper_->server().tls()->ca_cert_path;
    const std::string ca_before = native::certificate_fingerprint(ca_path);
    const std::string before = native::certificate_fingerprint(cert_path_);

    now_ += 380 * kDay;  // 17 days before the end of the CA
    ASSERT_TRUE(eventually([&] { return native::certificate_fingerprint(ca_path) != ca_before; }, 3000))
        << "the running helper did not renew the CA";
    // The server certificate is written just after the CA.
    ASSERT_TRUE(eventually([&] { return native::certificate_fingerprint(cert_path_) != before; }, 3000))
        << "the server certificate was not renewed with the CA";
    const std::string after = native::certificate_fingerprint(cert_path_);
    EXPECT_TRUE(eventually([&] { return served_fingerprint() == after; }, 3000))
        << "new connections still get the certificate of the old CA";
    const std::string log = helper_->wait_for_log("roomkey-helper trust` again");
    EXPECT_NE(log.find("and the local CA " + ca_path), std::string::npos) << log;
    EXPECT_NE(log.find("roomkey-helper trust` again"), std::string::npos) << log;
}

class SandboxCertificateRenewal : public ::testing::Test {
protected:
    void SetUp() override {
        sandbox::SandboxOptions options = sandbox::testing::test_options();
        options.state_dir = dir_.path();  // its own: the shared one is other tests' too
        options.certificate_clock = [this] { return now_.load(); };
        sandbox_ = std::make_unique<sandbox::Sandbox>(options);
        auto started = sandbox_->start();
        ASSERT_TRUE(started) << started.error();
        cert_path_ = dir_ / std::string(native::kServerCertFile);
    }
    std::string served_fingerprint() const {
        RawTls conn(sandbox_->port());
        return conn.peer_fingerprint();
    }

    TempDir dir_;
    std::atomic<std::time_t> now_{std::time(nullptr)};
    std::unique_ptr<sandbox::Sandbox> sandbox_;
    std::string cert_path_;
};

TEST_F(SandboxCertificateRenewal, ADueCertificateIsRenewedAndServedWithoutRestart) {
    const std::string before = native::certificate_fingerprint(cert_path_);
    ASSERT_EQ(served_fingerprint(), before);
    now_ += 200 * kDay;
    EXPECT_EQ(sandbox_->check_certificate(), std::nullopt) << "nothing is due 165 days before the end";
    EXPECT_EQ(served_fingerprint(), before);

    now_ += 140 * kDay;  // 25 days before the end of a 365-day certificate
    const auto line = sandbox_->check_certificate();
    ASSERT_TRUE(line.has_value()) << "the sandbox did not renew a certificate 25 days from its end";
    EXPECT_NE(line->find("renewed the server certificate " + cert_path_), std::string::npos) << *line;
    const std::string after = native::certificate_fingerprint(cert_path_);
    EXPECT_NE(after, before);
    EXPECT_EQ(served_fingerprint(), after) << "the next connection gets the new certificate";
}

TEST_F(SandboxCertificateRenewal, ACertificateTheHelperRenewedInTheSharedStateDirectoryIsServedWithoutRestart) {
    const std::string ca_path = dir_ / std::string(native::kCaCertFile);
    const std::string ca_before = native::certificate_fingerprint(ca_path);
    const std::string before = native::certificate_fingerprint(cert_path_);
    ASSERT_EQ(served_fingerprint(), before);

    // The helper's own check, 17 days before the CA's end: a new CA, and a
    // new server certificate signed by it.
    now_ += 380 * kDay;
    native::TlsOptions helper_clock;
    helper_clock.now = now_.load();
    auto renewed = native::ensure_tls_material(dir_.path(), helper_clock);
    ASSERT_TRUE(renewed) << renewed.error().detail;
    ASSERT_TRUE(renewed->created_ca);
    ASSERT_NE(native::certificate_fingerprint(ca_path), ca_before);
    EXPECT_EQ(served_fingerprint(), before) << "served from memory until the sandbox's check";

    const auto line = sandbox_->check_certificate();
    ASSERT_TRUE(line.has_value()) << "the sandbox's check did not take up the helper's renewal";
    EXPECT_NE(line->find("serving the server certificate renewed in " + cert_path_), std::string::npos) << *line;
    EXPECT_EQ(served_fingerprint(), native::certificate_fingerprint(cert_path_))
        << "the next connection gets the certificate of the new CA";
    EXPECT_EQ(sandbox_->check_certificate(), std::nullopt) << "once taken up, nothing more to do";
}

}  // namespace
}  // namespace roomkey::helper
