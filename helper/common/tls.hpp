// tls.hpp: the local certificate authority and the loopback server certificate
// that roomkey-helper and roomkey-sandbox serve HTTPS with (created with the
// OpenSSL 3 API in the state directory on first run, reused, renewed).
#pragma once

#include <ctime>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/result.hpp"

namespace roomkey::native {

// File names inside the state directory.
inline constexpr std::string_view kCaCertFile = "ca-cert.pem";        // the CA certificate (trust this one)
inline constexpr std::string_view kCaKeyFile = "ca-key.pem";          // the CA private key, mode 0600
inline constexpr std::string_view kServerCertFile = "server-cert.pem";  // server certificate + CA (chain)
inline constexpr std::string_view kServerKeyFile = "server-key.pem";  // the server private key, mode 0600

// The CA's subject common name; `roomkey-helper trust` uses it as NSS nickname.
inline constexpr std::string_view kCaCommonName = "roomkey local CA";

// What the CA may vouch for (RFC 5280 name constraints, critical, in
// OpenSSL's configuration syntax): the loopback addresses and localhost
// (with its subdomains), nothing else. A certificate for any other name
// signed with ca-key.pem is refused by OpenSSL, Chromium and Firefox alike.
inline constexpr const char* kCaNameConstraints =
    "critical,permitted;IP:127.0.0.0/255.0.0.0,"
    "permitted;IP:0:0:0:0:0:0:0:1/FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF,permitted;DNS:localhost";

enum class TlsError {
    state_dir_unusable,      // the directory cannot be created or locked
    key_generation_failed,   // OpenSSL could not make an EC P-256 key
    certificate_failed,      // OpenSSL could not build or sign a certificate
    write_failed,            // a PEM file could not be written
    read_failed,             // a PEM file exists but cannot be read or parsed
};
std::string_view to_string(TlsError error);

struct TlsFailure {
    TlsError code;
    std::string detail;  // a path and a reason, for the user; never key material
};

struct TlsMaterial {
    std::string ca_cert_path;
    std::string ca_key_path;
    std::string server_cert_path;  // PEM chain: the server certificate, then the CA
    std::string server_key_path;
    bool created_ca = false;       // this call made a new CA (it must be trusted again)
    bool created_server = false;   // this call made a new server certificate
    std::string ca_not_after;      // the CA's last day, "YYYY-MM-DD" (UTC)
};

struct TlsOptions {
    // "Now", for tests of the renewal rule; the system clock when empty.
    std::optional<std::time_t> now;
    // A short-lived CA: a copy of its key that leaks stops working within the
    // year (the name constraints already keep it to loopback).
    int ca_days = 397;
    int server_days = 365;       // never past the CA's end (browsers cap leaves near 398 days)
    int renew_within_days = 30;  // a certificate (the CA included) that expires sooner is replaced
};

// Makes sure `state_dir` holds a usable CA and a server certificate for
// IP:127.0.0.1, IP:::1 and DNS:localhost signed by it; creates what is missing,
// unreadable, mismatched, about to expire or (a CA) not name constrained;
// a new CA always comes with a new server certificate. Safe to call from two processes
// at once (an flock on state_dir/.lock serialises them).
Result<TlsMaterial, TlsFailure> ensure_tls_material(const std::string& state_dir,
                                                    const TlsOptions& options = {});

// SHA-256 fingerprint of the first certificate in a PEM file, as "AB:CD:..."
// (for the ready line and `trust`); empty when the file cannot be read.
std::string certificate_fingerprint(const std::string& pem_path);

// The last OpenSSL error of this thread as text; the thread's queue is cleared.
std::string openssl_error();

}  // namespace roomkey::native
