// tls.cpp: the local CA and the loopback server certificate, with the OpenSSL 3
// API (EVP_PKEY + X509; EC P-256 keys, SHA-256 signatures). The CA is name
// constrained to loopback (kCaNameConstraints): once a user trusts it, its key
// can still only vouch for 127.0.0.0/8, ::1 and localhost, never for a site.
//
// [SECTION] OpenSSL handles
// [SECTION] building keys and certificates
// [SECTION] checking what is on disk
// [SECTION] ensure_tls_material
#include "common/tls.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <ctime>
#include <cstring>
#include <memory>
#include <vector>

#include "common/state_dir.hpp"

namespace roomkey::native {

std::string_view to_string(TlsError error) {
    switch (error) {
        case TlsError::state_dir_unusable: return "state_dir_unusable";
        case TlsError::key_generation_failed: return "key_generation_failed";
        case TlsError::certificate_failed: return "certificate_failed";
        case TlsError::write_failed: return "write_failed";
        case TlsError::read_failed: return "read_failed";
    }
    return "unknown";
}

namespace {

// [SECTION] OpenSSL handles -------------------------------------------------

struct PkeyFree { void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); } };
struct X509Free { void operator()(X509* p) const { X509_free(p); } };
struct BioFree { void operator()(BIO* p) const { BIO_free(p); } };
struct PkeyCtxFree { void operator()(EVP_PKEY_CTX* p) const { EVP_PKEY_CTX_free(p); } };
struct BnFree { void operator()(BIGNUM* p) const { BN_free(p); } };
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using BioPtr = std::unique_ptr<BIO, BioFree>;


TlsFailure fail(TlsError code, std::string detail) { return TlsFailure{code, std::move(detail)}; }

std::string join(const std::string& dir, std::string_view file) { return dir + "/" + std::string(file); }

std::string bio_contents(BIO* bio) {
    char* data = nullptr;
    const long size = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data);
    if (size <= 0 || data == nullptr) return {};
    return std::string(data, static_cast<std::size_t>(size));
}

// [SECTION] building keys and certificates ----------------------------------

PkeyPtr generate_p256_key() {
    std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
    if (!ctx || EVP_PKEY_keygen_init(ctx.get()) <= 0 ||
        EVP_PKEY_CTX_set_group_name(ctx.get(), "P-256") <= 0) {
        return nullptr;
    }
    EVP_PKEY* key = nullptr;
    if (EVP_PKEY_generate(ctx.get(), &key) <= 0) return nullptr;
    return PkeyPtr(key);
}

// A random positive 127-bit serial: NSS refuses two certificates with the same
// issuer and serial, which a fixed serial would produce after every renewal.
bool set_random_serial(X509* cert) {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) return false;
    bytes[0] &= 0x7f;
    bytes[0] |= 0x01;  // never zero, never a leading zero byte
    std::unique_ptr<BIGNUM, BnFree> bn(BN_bin2bn(bytes, sizeof bytes, nullptr));
    return bn && BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert)) != nullptr;
}

bool add_ext(X509* cert, X509* issuer, int nid, const char* value) {
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    if (ext == nullptr) return false;
    const int ok = X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
    return ok == 1;
}

bool set_name(X509_NAME* name, const char* organization, const char* common_name) {
    auto add = [&](const char* field, const char* value) {
        return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                          reinterpret_cast<const unsigned char*>(value), -1, -1, 0) == 1;
    };
    return add("O", organization) && add("CN", common_name);
}

// From an hour before `now` to `days` after it, and never past the issuer's
// own end: a leaf that outlived its CA would only fail later, less clearly.
bool set_validity(X509* cert, X509* issuer, std::time_t now, int days) {
    std::time_t start = now;
    // An hour of slack for clocks that disagree a little (VMs, containers).
    if (X509_time_adj_ex(X509_getm_notBefore(cert), 0, -3600, &start) == nullptr ||
        X509_time_adj_ex(X509_getm_notAfter(cert), days, 0, &start) == nullptr) {
        return false;
    }
    if (issuer == nullptr || ASN1_TIME_compare(X509_get0_notAfter(issuer), X509_get0_notAfter(cert)) >= 0) return true;
    return X509_set1_notAfter(cert, X509_get0_notAfter(issuer)) == 1;
}

// A certificate for `key`, with the given subject, signed by issuer_key
// (issuer == nullptr: self-signed).
X509Ptr make_certificate(EVP_PKEY* key, const std::string& common_name, X509* issuer, EVP_PKEY* issuer_key,
                         std::time_t now, int days, bool is_ca) {
    X509Ptr cert(X509_new());
    if (!cert || X509_set_version(cert.get(), 2) != 1 || !set_random_serial(cert.get()) ||
        !set_validity(cert.get(), issuer, now, days) || X509_set_pubkey(cert.get(), key) != 1 ||
        !set_name(X509_get_subject_name(cert.get()), "roomkey development", common_name.c_str())) {
        return nullptr;
    }
    X509* signer = issuer != nullptr ? issuer : cert.get();
    if (X509_set_issuer_name(cert.get(), X509_get_subject_name(signer)) != 1) return nullptr;
    bool ok = true;
    if (is_ca) {
        ok = add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
             add_ext(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign") &&
             add_ext(cert.get(), signer, NID_name_constraints, kCaNameConstraints) &&
             add_ext(cert.get(), signer, NID_subject_key_identifier, "hash") &&
             add_ext(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
    } else {
        ok = add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE") &&
             add_ext(cert.get(), signer, NID_key_usage, "critical,digitalSignature") &&
             add_ext(cert.get(), signer, NID_ext_key_usage, "serverAuth") &&
             add_ext(cert.get(), signer, NID_subject_alt_name, "IP:127.0.0.1,IP:::1,DNS:localhost") &&
             add_ext(cert.get(), signer, NID_subject_key_identifier, "hash") &&
             add_ext(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
    }
    if (!ok) return nullptr;
    if (X509_sign(cert.get(), issuer_key != nullptr ? issuer_key : key, EVP_sha256()) <= 0) return nullptr;
    return cert;
}

std::string key_pem(EVP_PKEY* key) {
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) return {};
    return bio_contents(bio.get());
}

std::string cert_pem(X509* cert) {
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1) return {};
    return bio_contents(bio.get());
}

// [SECTION] checking what is on disk ----------------------------------------

X509Ptr load_cert(const std::string& path) {
    auto text = read_whole_file(path);
    if (!text) return nullptr;
    BioPtr bio(BIO_new_mem_buf(text->data(), static_cast<int>(text->size())));
    if (!bio) return nullptr;
    X509Ptr cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    ERR_clear_error();
    return cert;
}

PkeyPtr load_key(const std::string& path) {
    auto text = read_whole_file(path);
    if (!text) return nullptr;
    BioPtr bio(BIO_new_mem_buf(text->data(), static_cast<int>(text->size())));
    if (!bio) return nullptr;
    PkeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    ERR_clear_error();
    return key;
}

// Valid at `now` and still valid `margin_days` later.
bool fresh(X509* cert, std::time_t now, int margin_days) {
    std::time_t t_now = now;
    std::time_t t_limit = now + static_cast<std::time_t>(margin_days) * 24 * 3600;
    return X509_cmp_time(X509_get0_notBefore(cert), &t_now) < 0 &&
           X509_cmp_time(X509_get0_notAfter(cert), &t_limit) > 0;
}

// A CA made before it was name constrained (ten years, any name) is
// replaced: nothing may keep a key that signs for the world.
bool name_constrained(X509* cert) {
    const int at = X509_get_ext_by_NID(cert, NID_name_constraints, -1);
    return at >= 0 && X509_EXTENSION_get_critical(X509_get_ext(cert, at)) == 1;
}

bool usable_ca(X509* cert, EVP_PKEY* key, std::time_t now, int margin_days) {
    const bool ok = cert != nullptr && key != nullptr && X509_check_private_key(cert, key) == 1 &&
                    X509_check_ca(cert) >= 1 && name_constrained(cert) && fresh(cert, now, margin_days);
    ERR_clear_error();
    return ok;
}

bool usable_server(X509* cert, EVP_PKEY* key, EVP_PKEY* ca_key, std::time_t now, int margin_days) {
    const bool ok = cert != nullptr && key != nullptr && X509_check_private_key(cert, key) == 1 &&
                    X509_verify(cert, ca_key) == 1 && fresh(cert, now, margin_days) &&
                    X509_check_ip_asc(cert, "127.0.0.1", 0) == 1 && X509_check_ip_asc(cert, "::1", 0) == 1 &&
                    X509_check_host(cert, "localhost", 0, 0, nullptr) == 1;
    ERR_clear_error();
    return ok;
}

// "YYYY-MM-DD" of a certificate time (UTC), for the user.
std::string day_of(const ASN1_TIME* time) {
    struct tm tm {};
    if (ASN1_TIME_to_tm(time, &tm) != 1) return {};
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

// Holds an exclusive flock on state_dir/.lock while alive, so the helper and
// the sandbox started together do not both create a CA.
class DirLock {
public:
    explicit DirLock(const std::string& dir) {
        fd_ = ::open(join(dir, ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    ~DirLock() {
        if (fd_ >= 0) ::close(fd_);  // closing releases the lock
    }
    DirLock(const DirLock&) = delete;
    DirLock& operator=(const DirLock&) = delete;
    bool locked() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

}  // namespace

// [SECTION] ensure_tls_material ----------------------------------------------

Result<TlsMaterial, TlsFailure> ensure_tls_material(const std::string& state_dir, const TlsOptions& options) {
    if (auto dir = ensure_private_dir(state_dir); !dir) return Err{fail(TlsError::state_dir_unusable, dir.error())};
    DirLock lock(state_dir);
    if (!lock.locked()) {
        return Err{fail(TlsError::state_dir_unusable, "cannot lock " + join(state_dir, ".lock") + ": " +
                                                          std::strerror(errno))};
    }
    const std::time_t now = options.now ? *options.now : std::time(nullptr);

    TlsMaterial out;
    out.ca_cert_path = join(state_dir, kCaCertFile);
    out.ca_key_path = join(state_dir, kCaKeyFile);
    out.server_cert_path = join(state_dir, kServerCertFile);
    out.server_key_path = join(state_dir, kServerKeyFile);

    X509Ptr ca_cert = load_cert(out.ca_cert_path);
    PkeyPtr ca_key = load_key(out.ca_key_path);
    if (!usable_ca(ca_cert.get(), ca_key.get(), now, options.renew_within_days)) {
        ca_key = generate_p256_key();
        if (!ca_key) return Err{fail(TlsError::key_generation_failed, "CA key: " + openssl_error())};
        ca_cert = make_certificate(ca_key.get(), std::string(kCaCommonName), nullptr, nullptr, now,
                                   options.ca_days, true);
        if (!ca_cert) return Err{fail(TlsError::certificate_failed, "CA certificate: " + openssl_error())};
        const std::string key_text = key_pem(ca_key.get());
        const std::string cert_text = cert_pem(ca_cert.get());
        if (key_text.empty() || cert_text.empty()) {
            return Err{fail(TlsError::certificate_failed, "PEM encoding: " + openssl_error())};
        }
        if (auto w = write_file_atomically(out.ca_key_path, key_text, 0600); !w) {
            return Err{fail(TlsError::write_failed, w.error())};
        }
        if (auto w = write_file_atomically(out.ca_cert_path, cert_text, 0644); !w) {
            return Err{fail(TlsError::write_failed, w.error())};
        }
        out.created_ca = true;
    }

    X509Ptr server_cert = load_cert(out.server_cert_path);
    PkeyPtr server_key = load_key(out.server_key_path);
    if (out.created_ca ||
        !usable_server(server_cert.get(), server_key.get(), ca_key.get(), now, options.renew_within_days)) {
        server_key = generate_p256_key();
        if (!server_key) return Err{fail(TlsError::key_generation_failed, "server key: " + openssl_error())};
        server_cert = make_certificate(server_key.get(), "roomkey loopback server", ca_cert.get(), ca_key.get(),
                                       now, options.server_days, false);
        if (!server_cert) return Err{fail(TlsError::certificate_failed, "server certificate: " + openssl_error())};
        const std::string key_text = key_pem(server_key.get());
        // The chain file carries the CA too, so clients that only know the CA
        // by name (NSS after `trust`) still build the path.
        const std::string chain_text = cert_pem(server_cert.get()) + cert_pem(ca_cert.get());
        if (key_text.empty() || chain_text.empty()) {
            return Err{fail(TlsError::certificate_failed, "PEM encoding: " + openssl_error())};
        }
        if (auto w = write_file_atomically(out.server_key_path, key_text, 0600); !w) {
            return Err{fail(TlsError::write_failed, w.error())};
        }
        if (auto w = write_file_atomically(out.server_cert_path, chain_text, 0644); !w) {
            return Err{fail(TlsError::write_failed, w.error())};
        }
        out.created_server = true;
    }
    out.ca_not_after = day_of(X509_get0_notAfter(ca_cert.get()));
    return out;
}

std::string certificate_fingerprint(const std::string& pem_path) {
    X509Ptr cert = load_cert(pem_path);
    if (!cert) return {};
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (X509_digest(cert.get(), EVP_sha256(), md, &len) != 1) return {};
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned int i = 0; i < len; ++i) {
        if (i != 0) out += ':';
        out += hex[md[i] >> 4];
        out += hex[md[i] & 0x0f];
    }
    return out;
}

std::string openssl_error() {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0) return "unknown OpenSSL error";
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    return buf;
}

}  // namespace roomkey::native
