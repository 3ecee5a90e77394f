// server.hpp: roomkey-sandbox as a running HTTPS server: SandboxApp behind
// cpp-httplib's SSLServer on 127.0.0.1, with the local CA's certificate.
// Tests start it in-process on port 0; main.cpp starts it on --port.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "roomkey/result.hpp"
#include "sandbox/clock.hpp"
#include "sandbox/faults.hpp"
#include "sandbox/options.hpp"

namespace httplib {
class SSLServer;
}
namespace roomkey::native {
class CertificateRenewal;
}

namespace roomkey::sandbox {

class SandboxApp;

class Sandbox {
public:
    explicit Sandbox(SandboxOptions options);
    ~Sandbox();  // stops the server
    Sandbox(const Sandbox&) = delete;
    Sandbox& operator=(const Sandbox&) = delete;

    // Makes or loads the TLS material, registers the start-up clients, binds
    // and starts serving on a background thread. The message says what failed
    // and what to do.
    Result<Unit, std::string> start();
    // Asks the server to stop and returns at once; safe from any thread
    // (a signal watcher), while another thread sits in wait().
    void request_stop();
    // request_stop() and wait(); not while another thread is in wait().
    void stop();
    // Blocks until the server stops (after request_stop() or a fatal listen
    // error). Only one thread may wait.
    void wait();

    int port() const { return port_; }
    std::string origin() const;       // https://127.0.0.1:PORT
    std::string base_url() const;     // {base_url}: origin + /v2
    std::string auth_url() const;     // {auth_url}: origin + /oauth (token endpoint: + /token)
    std::string consent_url() const;  // {consent_url}: origin + /consent
    // "roomkey-sandbox: ready base_url=... auth_url=... consent_url=..."
    std::string ready_line() const;
    // The CA that signed the server certificate (empty with --cert/--key).
    const std::string& ca_cert_path() const { return ca_cert_path_; }
    // One check of the local certificate, as the periodic one does: renews
    // what is due, or takes up what the helper renewed in the shared state
    // directory; the next handshake gets the result. A line for the log when
    // something changed or failed; nothing with --cert/--key.
    std::optional<std::string> check_certificate();

    SandboxClock& clock() { return clock_; }
    FaultInjector& faults() { return faults_; }

private:
    SandboxOptions options_;
    SandboxClock clock_;
    FaultInjector faults_;
    std::unique_ptr<SandboxApp> app_;
    std::unique_ptr<native::CertificateRenewal> renewal_;  // outlives server_ (declared before it)
    std::unique_ptr<httplib::SSLServer> server_;
    std::thread thread_;
    int port_ = 0;
    std::string ca_cert_path_;
};

}  // namespace roomkey::sandbox
