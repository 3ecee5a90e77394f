// helper_local_ca_test.cpp: the local CA a user trusts cannot vouch for the
// world. Whoever holds ca-key.pem can mint a certificate for any name, but
// OpenSSL's own verification (X509_verify_cert, what curl, the helper's
// upstream client and nginx use) refuses every one outside 127.0.0.0/8, ::1
// and localhost; the served certificate passes. The CA lives about a year and
// is replaced, with a new server certificate, before it ends; a CA from before
// the constraints (ten years, any name) is replaced on the next start.
#include <gtest/gtest.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <ctime>
#include <memory>
#include <string>

#include "common/state_dir.hpp"
#include "common/tls.hpp"
#include "support/temp_dir.hpp"

namespace roomkey::integration {
namespace local_ca_test {
namespace {

constexpr std::time_t kDay = 24 * 3600;

struct X509Free { void operator()(X509* p) const { X509_free(p); } };
struct PkeyFree { void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); } };
using X509Ptr = std::unique_ptr<X509, X509Free>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

X509Ptr read_cert(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "r");
    if (f == nullptr) return nullptr;
    X509Ptr cert(PEM_read_X509(f, nullptr, nullptr, nullptr));
    std::fclose(f);
    return cert;
}

PkeyPtr read_key(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "r");
    if (f == nullptr) return nullptr;
    PkeyPtr key(PEM_read_PrivateKey(f, nullptr, nullptr, nullptr));
    std::fclose(f);
    return key;
}

bool add_ext(X509* cert, X509* issuer, int nid, const char* value) {
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    if (ext == nullptr) return false;
    const bool ok = X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

// What someone holding the CA key could make: a server certificate for
// `names` (subjectAltName syntax), signed with `ca_key`. issuer == nullptr:
// a self-signed CA of ten years without name constraints, as before.
X509Ptr mint(EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key, const std::string& names, std::time_t now) {
    X509Ptr cert(X509_new());
    std::time_t start = now;
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), static_cast<long>(now & 0x7fffffff));
    X509_time_adj_ex(X509_getm_notBefore(cert.get()), 0, -3600, &start);
    X509_time_adj_ex(X509_getm_notAfter(cert.get()), issuer != nullptr ? 90 : 3650, 0, &start);
    X509_set_pubkey(cert.get(), key);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(cert.get()), "CN", MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(issuer != nullptr ? "minted" : "roomkey local CA"),
                               -1, -1, 0);
    X509* signer = issuer != nullptr ? issuer : cert.get();
    X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
    const bool ok = issuer != nullptr
                        ? add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE") &&
                              add_ext(cert.get(), signer, NID_ext_key_usage, "serverAuth") &&
                              add_ext(cert.get(), signer, NID_subject_alt_name, names.c_str())
                        : add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
                              add_ext(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
    if (!ok || X509_sign(cert.get(), issuer_key, EVP_sha256()) <= 0) return nullptr;
    return cert;
}

PkeyPtr new_key() { return PkeyPtr(EVP_EC_gen("P-256")); }

// OpenSSL's verdict on `leaf` for a client that trusts only `ca`, at `now`,
// checking the name `host` (a DNS name or an IP address): X509_V_OK or why not.
int verify(X509* leaf, X509* ca, const std::string& host, std::time_t now) {
    X509_STORE* store = X509_STORE_new();
    X509_STORE_add_cert(store, ca);
    X509_STORE_CTX* ctx = X509_STORE_CTX_new();
    X509_STORE_CTX_init(ctx, store, leaf, nullptr);
    X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(ctx);
    X509_VERIFY_PARAM_set_time(param, now);
    X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
    if (X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1) {
        ERR_clear_error();
        X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
    }
    const int verdict = X509_verify_cert(ctx) == 1 ? X509_V_OK : X509_STORE_CTX_get_error(ctx);
    X509_STORE_CTX_free(ctx);
    X509_STORE_free(store);
    ERR_clear_error();
    return verdict;
}

class LocalCa : public ::testing::Test {
protected:
    void SetUp() override {
        native::TlsOptions options;
        options.now = now_;
        auto tls = native::ensure_tls_material(dir_.path(), options);
        ASSERT_TRUE(tls) << tls.error().detail;
        material_ = *tls;
        ca_ = read_cert(material_.ca_cert_path);
        ca_key_ = read_key(material_.ca_key_path);
        ASSERT_TRUE(ca_ && ca_key_);
    }
    ::testing::AssertionResult refused(const std::string& names, const std::string& host) {
        PkeyPtr key = new_key();
        X509Ptr leaf = mint(key.get(), ca_.get(), ca_key_.get(), names, now_);
        if (!leaf) return ::testing::AssertionFailure() << "could not mint " << names;
        const int verdict = verify(leaf.get(), ca_.get(), host, now_);
        if (verdict == X509_V_ERR_PERMITTED_VIOLATION) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << names << " for " << host << ": "
                                             << X509_verify_cert_error_string(verdict);
    }

    TempDir dir_;
    std::time_t now_ = std::time(nullptr);
    native::TlsMaterial material_;
    X509Ptr ca_;
    PkeyPtr ca_key_;
};

TEST_F(LocalCa, TheServedCertificateIsAcceptedForLoopbackAndLocalhost) {
    X509Ptr served = read_cert(material_.server_cert_path);
    ASSERT_TRUE(served) << "the served certificate is not readable at " << material_.server_cert_path;
    for (const std::string host : {"127.0.0.1", "::1", "localhost"}) {
        EXPECT_EQ(verify(served.get(), ca_.get(), host, now_), X509_V_OK) << host;
    }
}

TEST_F(LocalCa, ALeafForAnyOtherNameSignedWithTheCaKeyIsRefused) {
    EXPECT_TRUE(refused("DNS:example.com", "example.com"));
    EXPECT_TRUE(refused("DNS:localhost.example.com", "localhost.example.com"));
    EXPECT_TRUE(refused("IP:10.0.0.1", "10.0.0.1"));
    EXPECT_TRUE(refused("IP:128.0.0.1", "128.0.0.1"));
    EXPECT_TRUE(refused("IP:::2", "::2"));
    // One out-of-scope name spoils the certificate for the loopback names too.
    EXPECT_TRUE(refused("IP:127.0.0.1,DNS:example.com", "127.0.0.1"));
}

TEST_F(LocalCa, ALeafForOtherLoopbackNamesIsAccepted) {
    for (const auto& [names, host] : {std::pair<std::string, std::string>{"IP:127.0.0.2", "127.0.0.2"},
                                      {"IP:127.255.255.254", "127.255.255.254"},
                                      {"DNS:app.localhost", "app.localhost"}}) {
        PkeyPtr key = new_key();
        X509Ptr leaf = mint(key.get(), ca_.get(), ca_key_.get(), names, now_);
        ASSERT_TRUE(leaf) << names;
        EXPECT_EQ(verify(leaf.get(), ca_.get(), host, now_), X509_V_OK) << names;
    }
}

TEST_F(LocalCa, TheConstraintsAreCriticalAndTheCaLivesAboutAYear) {
    const int at = X509_get_ext_by_NID(ca_.get(), NID_name_constraints, -1);
    ASSERT_GE(at, 0) << "no name constraints";
    EXPECT_EQ(X509_EXTENSION_get_critical(X509_get_ext(ca_.get(), at)), 1)
        << "a client that does not understand them must refuse the CA, not ignore them";
    int days = 0;
    int seconds = 0;
    ASSERT_EQ(ASN1_TIME_diff(&days, &seconds, X509_get0_notBefore(ca_.get()), X509_get0_notAfter(ca_.get())), 1);
    EXPECT_LE(days, 398) << "the CA lives at most about a year";
    EXPECT_GT(days, 60) << "not so short that it must be trusted again every month";
}

TEST_F(LocalCa, ACaNearItsEndIsReplacedWithANewServerCertificate) {
    const std::string before = native::certificate_fingerprint(material_.ca_cert_path);
    native::TlsOptions options;
    options.now = now_ + 340 * kDay;  // 57 days left: kept
    auto kept = native::ensure_tls_material(dir_.path(), options);
    ASSERT_TRUE(kept) << kept.error().detail;
    EXPECT_FALSE(kept->created_ca);
    EXPECT_EQ(native::certificate_fingerprint(material_.ca_cert_path), before);

    options.now = now_ + 380 * kDay;  // 17 days left: replaced
    auto renewed = native::ensure_tls_material(dir_.path(), options);
    ASSERT_TRUE(renewed) << renewed.error().detail;
    EXPECT_TRUE(renewed->created_ca);
    EXPECT_TRUE(renewed->created_server) << "the server certificate is signed by the new CA";
    EXPECT_NE(native::certificate_fingerprint(material_.ca_cert_path), before);
    X509Ptr ca = read_cert(material_.ca_cert_path);
    X509Ptr served = read_cert(material_.server_cert_path);
    ASSERT_TRUE(ca && served);
    EXPECT_EQ(verify(served.get(), ca.get(), "127.0.0.1", *options.now + 300 * kDay), X509_V_OK)
        << "the new pair holds for most of another year";
    EXPECT_GE(X509_get_ext_by_NID(ca.get(), NID_name_constraints, -1), 0) << "the new CA is constrained too";
}

TEST_F(LocalCa, AServerCertificateNeverOutlivesItsCa) {
    native::TlsOptions options;
    options.now = now_ + 340 * kDay;  // the server certificate is due, the CA is not yet
    auto renewed = native::ensure_tls_material(dir_.path(), options);
    ASSERT_TRUE(renewed) << renewed.error().detail;
    ASSERT_TRUE(renewed->created_server);
    ASSERT_FALSE(renewed->created_ca);
    X509Ptr served = read_cert(material_.server_cert_path);
    ASSERT_TRUE(served) << "the renewed certificate is not readable at " << material_.server_cert_path;
    EXPECT_LE(ASN1_TIME_compare(X509_get0_notAfter(served.get()), X509_get0_notAfter(ca_.get())), 0);
}

TEST_F(LocalCa, AnUnconstrainedCaFromBeforeIsReplaced) {
    // The CA earlier versions made: ten years, no name constraints.
    PkeyPtr key = new_key();
    X509Ptr old_ca = mint(key.get(), nullptr, key.get(), "", now_);
    ASSERT_TRUE(old_ca) << "could not mint the old-style CA";
    FILE* f = std::fopen(material_.ca_cert_path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    PEM_write_X509(f, old_ca.get());
    std::fclose(f);
    f = std::fopen(material_.ca_key_path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    std::fclose(f);
    const std::string old_fingerprint = native::certificate_fingerprint(material_.ca_cert_path);

    native::TlsOptions options;
    options.now = now_;
    auto replaced = native::ensure_tls_material(dir_.path(), options);
    ASSERT_TRUE(replaced) << replaced.error().detail;
    EXPECT_TRUE(replaced->created_ca) << "a CA that can sign for any name is not kept";
    EXPECT_NE(native::certificate_fingerprint(material_.ca_cert_path), old_fingerprint);
    X509Ptr ca = read_cert(material_.ca_cert_path);
    ASSERT_TRUE(ca) << "the replaced CA is not readable at " << material_.ca_cert_path;
    EXPECT_GE(X509_get_ext_by_NID(ca.get(), NID_name_constraints, -1), 0);
}

}  // namespace
}  // namespace local_ca_test
}  // namespace roomkey::integration
