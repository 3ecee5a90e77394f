// helper_tls_test.cpp: the local CA and server certificate of helper/common/tls:
// created once with mode 0600 keys, reused, renewed before
// expiry, valid for 127.0.0.1, ::1 and localhost, safe for two processes.
#include <gtest/gtest.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <thread>

#include "common/tls.hpp"
#include "support/helper_fixture.hpp"

namespace roomkey::native {
namespace {

using helper::testing::file_mode;
using helper::testing::read_file;
using helper::testing::TempDir;

struct CertFree {
    void operator()(X509* c) const { X509_free(c); }
};
using CertPtr = std::unique_ptr<X509, CertFree>;

// The certificates of a PEM file, in order.
std::vector<CertPtr> load_chain(const std::string& path) {
    std::vector<CertPtr> out;
    const std::string text = read_file(path);
    BIO* bio = BIO_new_mem_buf(text.data(), static_cast<int>(text.size()));
    while (X509* c = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) out.emplace_back(c);
    BIO_free(bio);
    return out;
}

// Verifies `leaf` against `ca` alone, at time `at`, as a TLS server certificate.
bool verifies(X509* leaf, X509* ca, std::time_t at) {
    X509_STORE* store = X509_STORE_new();
    X509_STORE_add_cert(store, ca);
    X509_STORE_CTX* ctx = X509_STORE_CTX_new();
    X509_STORE_CTX_init(ctx, store, leaf, nullptr);
    X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER);
    X509_STORE_CTX_set_time(ctx, 0, at);
    const bool ok = X509_verify_cert(ctx) == 1;
    X509_STORE_CTX_free(ctx);
    X509_STORE_free(store);
    return ok;
}

TEST(HelperTls, FirstRunCreatesCaAndServerCertificateWithPrivateKeys) {
    TempDir dir;
    auto tls = ensure_tls_material(dir / "state");
    ASSERT_TRUE(tls) << tls.error().detail;
    EXPECT_TRUE(tls->created_ca);
    EXPECT_TRUE(tls->created_server);
    EXPECT_EQ(file_mode(dir / "state"), 0700u) << "the state dir holds private keys";
    EXPECT_EQ(file_mode(tls->ca_key_path), 0600u) << "the CA key must be readable by the user only";
    EXPECT_EQ(file_mode(tls->server_key_path), 0600u) << "the server key must be readable by the user only";
    EXPECT_EQ(file_mode(tls->ca_cert_path), 0644u);

    auto ca = load_chain(tls->ca_cert_path);
    auto chain = load_chain(tls->server_cert_path);
    ASSERT_EQ(ca.size(), 1u);
    ASSERT_EQ(chain.size(), 2u) << "server-cert.pem carries the server certificate, then the CA";
    EXPECT_EQ(X509_cmp(chain[1].get(), ca[0].get()), 0);
    EXPECT_GE(X509_check_ca(ca[0].get()), 1) << "the CA must be a CA";

    X509* leaf = chain[0].get();
    EXPECT_EQ(X509_check_ip_asc(leaf, "127.0.0.1", 0), 1);
    EXPECT_EQ(X509_check_ip_asc(leaf, "::1", 0), 1);
    EXPECT_EQ(X509_check_host(leaf, "localhost", 0, 0, nullptr), 1);
    EXPECT_NE(X509_check_host(leaf, "example.com", 0, 0, nullptr), 1) << "only loopback names";
    EXPECT_TRUE(verifies(leaf, ca[0].get(), std::time(nullptr))) << "the CA must sign a usable server cert";

    // EC P-256 keys.
    EVP_PKEY* key = X509_get0_pubkey(leaf);
    ASSERT_NE(key, nullptr);
    EXPECT_EQ(EVP_PKEY_get_base_id(key), EVP_PKEY_EC);
    char group[64] = {};
    size_t group_len = 0;
    EVP_PKEY_get_group_name(key, group, sizeof group, &group_len);
    EXPECT_STREQ(group, "prime256v1");

    // Lifetimes: CA ~13 months (397 days: a leaked key stops working within
    // the year), server ~1 year.
    const std::time_t now = std::time(nullptr);
    std::time_t in_390_days = now + 390L * 24 * 3600;
    std::time_t in_399_days = now + 399L * 24 * 3600;
    std::time_t in_300_days = now + 300L * 24 * 3600;
    std::time_t in_400_days = now + 400L * 24 * 3600;
    EXPECT_GT(X509_cmp_time(X509_get0_notAfter(ca[0].get()), &in_390_days), 0);
    EXPECT_LT(X509_cmp_time(X509_get0_notAfter(ca[0].get()), &in_399_days), 0);
    EXPECT_GT(X509_cmp_time(X509_get0_notAfter(leaf), &in_300_days), 0);
    EXPECT_LT(X509_cmp_time(X509_get0_notAfter(leaf), &in_400_days), 0) << "browsers cap leaf lifetimes";

    char cn[128] = {};
    X509_NAME_get_text_by_NID(X509_get_subject_name(ca[0].get()), NID_commonName, cn, sizeof cn);
    EXPECT_STREQ(cn, "roomkey local CA");
}

TEST(HelperTls, SecondRunReusesTheSameFiles) {
    TempDir dir;
    auto first = ensure_tls_material(dir / "state");
    ASSERT_TRUE(first) << first.error().detail;
    const std::string ca = read_file(first->ca_cert_path);
    const std::string server = read_file(first->server_cert_path);
    auto second = ensure_tls_material(dir / "state");
    ASSERT_TRUE(second) << second.error().detail;
    EXPECT_FALSE(second->created_ca);
    EXPECT_FALSE(second->created_server);
    EXPECT_EQ(read_file(second->ca_cert_path), ca) << "a trusted CA must survive restarts";
    EXPECT_EQ(read_file(second->server_cert_path), server);
    EXPECT_FALSE(certificate_fingerprint(first->ca_cert_path).empty());
}

TEST(HelperTls, ServerCertificateExpiringWithin30DaysIsRenewedWithTheSameCa) {
    TempDir dir;
    TlsOptions past;
    past.now = std::time(nullptr) - 340L * 24 * 3600;  // leaf then expires in ~25 days
    auto old = ensure_tls_material(dir / "state", past);
    ASSERT_TRUE(old) << old.error().detail;
    const std::string ca = read_file(old->ca_cert_path);
    const std::string server = read_file(old->server_cert_path);

    auto renewed = ensure_tls_material(dir / "state");
    ASSERT_TRUE(renewed) << renewed.error().detail;
    EXPECT_FALSE(renewed->created_ca) << "the CA (57 days left) is still good and stays trusted";
    EXPECT_TRUE(renewed->created_server) << "a leaf expiring within 30 days must be replaced";
    EXPECT_EQ(read_file(renewed->ca_cert_path), ca);
    EXPECT_NE(read_file(renewed->server_cert_path), server);
    auto chain = load_chain(renewed->server_cert_path);
    auto cas = load_chain(renewed->ca_cert_path);
    ASSERT_FALSE(chain.empty()) << "no certificate in " << renewed->server_cert_path;
    ASSERT_FALSE(cas.empty()) << "no certificate in " << renewed->ca_cert_path;
    // Until the CA's own end (57 days on), when both are replaced together
    // (helper_local_ca_test: the new pair holds for another year).
    EXPECT_TRUE(verifies(chain[0].get(), cas[0].get(), std::time(nullptr) + 50L * 24 * 3600));
}

TEST(HelperTls, ServerCertificateWithMoreThan30DaysLeftIsKept) {
    TempDir dir;
    TlsOptions past;
    past.now = std::time(nullptr) - 300L * 24 * 3600;  // ~65 days left
    ASSERT_TRUE(ensure_tls_material(dir / "state", past)) << "could not make the TLS material dated in the past";
    auto again = ensure_tls_material(dir / "state");
    ASSERT_TRUE(again) << again.error().detail;
    EXPECT_FALSE(again->created_server);
}

TEST(HelperTls, ExpiringCaIsRenewedTogetherWithTheServerCertificate) {
    TempDir dir;
    TlsOptions past;
    past.now = std::time(nullptr) - (397L - 10) * 24 * 3600;
    ASSERT_TRUE(ensure_tls_material(dir / "state", past)) << "could not make the TLS material dated in the past";
    auto again = ensure_tls_material(dir / "state");
    ASSERT_TRUE(again) << again.error().detail;
    EXPECT_TRUE(again->created_ca);
    EXPECT_TRUE(again->created_server) << "a leaf of the old CA would not verify against the new one";
}

TEST(HelperTls, DamagedOrMismatchedFilesAreReplaced) {
    TempDir dir;
    auto first = ensure_tls_material(dir / "state");
    ASSERT_TRUE(first) << first.error().detail;
    helper::testing::write_file(first->server_key_path, "not a key");
    auto again = ensure_tls_material(dir / "state");
    ASSERT_TRUE(again) << again.error().detail;
    EXPECT_FALSE(again->created_ca);
    EXPECT_TRUE(again->created_server) << "a server key that does not load must be regenerated";

    // A server certificate from another CA is not ours.
    TempDir other;
    auto foreign = ensure_tls_material(other / "state");
    ASSERT_TRUE(foreign) << foreign.error().detail;
    helper::testing::write_file(again->server_cert_path, read_file(foreign->server_cert_path));
    helper::testing::write_file(again->server_key_path, read_file(foreign->server_key_path));
    auto third = ensure_tls_material(dir / "state");
    ASSERT_TRUE(third) << third.error().detail;
    EXPECT_TRUE(third->created_server) << "a leaf not signed by our CA must be replaced";
}

TEST(HelperTls, ConcurrentFirstRunsAgreeOnOneCa) {
    // The helper and the sandbox start together in ./scripts/run.sh.
    TempDir dir;
    std::vector<std::string> fingerprints(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < fingerprints.size(); ++i) {
        threads.emplace_back([&, i] {
            auto tls = ensure_tls_material(dir / "state");
            if (tls) fingerprints[i] = certificate_fingerprint(tls->ca_cert_path);
        });
    }
    for (auto& t : threads) t.join();
    for (const auto& fp : fingerprints) {
        EXPECT_FALSE(fp.empty());
        EXPECT_EQ(fp, fingerprints[0]) << "two processes must not each make their own CA";
    }
}

TEST(HelperTls, UnusableStateDirIsAnError) {
    TempDir dir;
    helper::testing::write_file(dir / "file", "x");
    auto tls = ensure_tls_material(dir / "file");
    ASSERT_FALSE(tls) << "a file was taken as the state directory";
    EXPECT_EQ(tls.error().code, TlsError::state_dir_unusable);
    EXPECT_NE(tls.error().detail.find(dir / "file"), std::string::npos) << "the message names the path";
}

}  // namespace
}  // namespace roomkey::native
