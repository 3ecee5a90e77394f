// certificate_renewal.cpp: the served certificate in memory, swapped under a
// mutex, handed to each handshake by OpenSSL's certificate callback.
#include "common/certificate_renewal.hpp"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "common/state_dir.hpp"

namespace roomkey::native {

// A certificate, the rest of its chain and its key, as OpenSSL objects.
struct CertificateRenewal::Loaded {
    X509* cert = nullptr;
    STACK_OF(X509) * chain = nullptr;
    EVP_PKEY* key = nullptr;

    Loaded() = default;
    Loaded(const Loaded&) = delete;
    Loaded& operator=(const Loaded&) = delete;
    ~Loaded() {
        X509_free(cert);
        sk_X509_pop_free(chain, X509_free);
        EVP_PKEY_free(key);
    }
};

CertificateRenewal::CertificateRenewal(std::string state_dir, Clock clock, std::shared_ptr<const Loaded> loaded)
    : state_dir_(std::move(state_dir)), clock_(std::move(clock)), loaded_(std::move(loaded)) {}

CertificateRenewal::~CertificateRenewal() { stop_checks(); }

Result<std::shared_ptr<const CertificateRenewal::Loaded>, std::string> CertificateRenewal::load(
    const TlsMaterial& material) {
    auto cert_text = read_whole_file(material.server_cert_path);
    if (!cert_text) return Err{cert_text.error()};
    auto key_text = read_whole_file(material.server_key_path);
    if (!key_text) return Err{key_text.error()};

    auto loaded = std::make_shared<Loaded>();
    BIO* bio = BIO_new_mem_buf(cert_text->data(), static_cast<int>(cert_text->size()));
    loaded->cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    loaded->chain = sk_X509_new_null();
    while (X509* more = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) sk_X509_push(loaded->chain, more);
    BIO_free(bio);
    ERR_clear_error();  // the end of the PEM stream is reported as an error
    bio = BIO_new_mem_buf(key_text->data(), static_cast<int>(key_text->size()));
    loaded->key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (loaded->cert == nullptr || loaded->key == nullptr || X509_check_private_key(loaded->cert, loaded->key) != 1) {
        return Err{"cannot load " + material.server_cert_path + " with " + material.server_key_path + ": " +
                   openssl_error()};
    }
    ERR_clear_error();
    return std::shared_ptr<const Loaded>(std::move(loaded));
}

Result<std::unique_ptr<CertificateRenewal>, std::string> CertificateRenewal::create(std::string state_dir,
                                                                                    const TlsMaterial& material,
                                                                                    Clock clock) {
    auto loaded = load(material);
    if (!loaded) return Err{loaded.error()};
    return std::unique_ptr<CertificateRenewal>(
        new CertificateRenewal(std::move(state_dir), std::move(clock), std::move(loaded).value()));
}

void CertificateRenewal::attach(SSL_CTX* ctx) {
    SSL_CTX_set_cert_cb(ctx, &CertificateRenewal::select_certificate, this);
}

int CertificateRenewal::select_certificate(SSL* ssl, void* self) {
    const auto loaded = static_cast<CertificateRenewal*>(self)->current();
    // Up-references all three; the SSL keeps them for its lifetime.
    return SSL_use_cert_and_key(ssl, loaded->cert, loaded->key, loaded->chain, 1) == 1 ? 1 : 0;
}

std::shared_ptr<const CertificateRenewal::Loaded> CertificateRenewal::current() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return loaded_;
}

std::optional<std::string> CertificateRenewal::check() {
    TlsOptions options;
    if (clock_) options.now = clock_();
    auto material = ensure_tls_material(state_dir_, options);
    if (!material) {
        return "certificate check failed: " + std::string(to_string(material.error().code)) + ": " +
               material.error().detail;
    }
    auto fresh = load(*material);
    if (!fresh) return "renewed certificate cannot be loaded: " + fresh.error();
    // Renewed by this call, or earlier by the other program sharing the
    // state directory (the helper beside the sandbox).
    if (!material->created_server && X509_cmp((*fresh)->cert, current()->cert) == 0) return std::nullopt;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        loaded_ = std::move(fresh).value();
    }
    if (!material->created_server) return "serving the server certificate renewed in " + material->server_cert_path;
    std::string line = "renewed the server certificate " + material->server_cert_path;
    if (material->created_ca) {
        line += " and the local CA " + material->ca_cert_path +
                ": browsers trust it only after `roomkey-helper trust` again";
    }
    return line;
}

void CertificateRenewal::start_checks(std::chrono::milliseconds interval, Log log) {
    stop_checks();
    checks_stopping_ = false;
    checks_ = std::thread([this, interval, log = std::move(log)] {
        std::unique_lock<std::mutex> lock(checks_mutex_);
        while (!checks_stop_.wait_for(lock, interval, [this] { return checks_stopping_; })) {
            lock.unlock();
            if (auto line = check()) log(*line);
            lock.lock();
        }
    });
}

void CertificateRenewal::stop_checks() {
    {
        std::lock_guard<std::mutex> lock(checks_mutex_);
        checks_stopping_ = true;
    }
    checks_stop_.notify_all();
    if (checks_.joinable()) checks_.join();
}

}  // namespace roomkey::native
