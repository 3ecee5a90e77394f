// certificate_renewal.hpp: keeps the generated server certificate fresh while
// roomkey-helper or roomkey-sandbox runs for days: re-checks the state
// directory now and then (ensure_tls_material renews what expires within 30
// days) and serves the new certificate from the next handshake on, without a
// restart. Both programs share a state directory, so a check also takes up a
// certificate the other one renewed there (a renewed CA comes with a new
// server certificate). Pairs with tls.hpp; cpp-httplib 0.18.7 reads the
// certificate files once, in SSLServer's constructor (its update_certs()
// swaps the leaf and key of one server, not the rest of the chain), so the
// served chain is chosen per handshake (SSL_CTX_set_cert_cb), for every
// listener at once.
#pragma once

#include <openssl/ssl.h>

#include <chrono>
#include <condition_variable>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/tls.hpp"
#include "roomkey/result.hpp"

namespace roomkey::native {

class CertificateRenewal {
public:
    // "Now" for the renewal rule; the system clock when empty.
    using Clock = std::function<std::time_t()>;
    using Log = std::function<void(const std::string&)>;

    // Loads the certificate chain and key that `material` names.
    static Result<std::unique_ptr<CertificateRenewal>, std::string> create(std::string state_dir,
                                                                           const TlsMaterial& material, Clock clock);
    ~CertificateRenewal();  // stop_checks()
    CertificateRenewal(const CertificateRenewal&) = delete;
    CertificateRenewal& operator=(const CertificateRenewal&) = delete;

    // Every new handshake on `ctx` gets the current certificate. `this` must
    // outlive the handshakes.
    void attach(SSL_CTX* ctx);

    // Renews what is due in the state directory at clock(), or takes up what
    // another process renewed there, and serves the result. Returns a line
    // for the log when something changed or failed.
    std::optional<std::string> check();

    // check() every `interval` on a thread of its own, each line to `log`,
    // until stop_checks().
    void start_checks(std::chrono::milliseconds interval, Log log);
    void stop_checks();

private:
    struct Loaded;
    CertificateRenewal(std::string state_dir, Clock clock, std::shared_ptr<const Loaded> loaded);
    static Result<std::shared_ptr<const Loaded>, std::string> load(const TlsMaterial& material);
    static int select_certificate(SSL* ssl, void* self);
    std::shared_ptr<const Loaded> current() const;

    std::string state_dir_;
    Clock clock_;
    mutable std::mutex mutex_;
    std::shared_ptr<const Loaded> loaded_;

    std::mutex checks_mutex_;
    std::condition_variable checks_stop_;
    bool checks_stopping_ = false;
    std::thread checks_;
};

}  // namespace roomkey::native
