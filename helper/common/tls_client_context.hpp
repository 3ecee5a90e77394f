// tls_client_context.hpp: the one OpenSSL client context behind all of a
// program's upstream connections (OpenableClient), and the TLS sessions it
// resumes. httplib's SSLClient makes an SSL_CTX, and loads its trusted CAs,
// per client object, and never resumes a session: every new upstream
// connection paid a full handshake (certificate chain sent and verified, an
// ECDHE exchange and a signature). Here the CAs are loaded once, and the
// last session each origin gave out (a TLS 1.3 ticket, or a TLS 1.2
// session) is offered on the next connection to it, as nginx's
// proxy_ssl_session_reuse does. A resumed session carries the verification
// of the handshake that made it; sessions are kept per origin
// ("host:port"), so one is never offered to another server.
#pragma once

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace roomkey::native {

class TlsClientContext {
public:
    // Trusts `store` (taken over, also on failure). Null when OpenSSL could
    // not make the context.
    static std::shared_ptr<TlsClientContext> make(X509_STORE* store);
    ~TlsClientContext();
    TlsClientContext(const TlsClientContext&) = delete;
    TlsClientContext& operator=(const TlsClientContext&) = delete;

    // A new connection's SSL (not yet connected) to `host` (no brackets
    // around an IPv6 literal) on `port`: SNI, the certificate's name checked
    // against `host` in the handshake, and the origin's last session, if
    // any, offered. Null when the name check could not be set up.
    SSL* new_connection(const std::string& host, int port);

    // Whether a session for host:port is kept (tests).
    bool has_session(const std::string& host, int port);

private:
    explicit TlsClientContext(SSL_CTX* context) : context_(context) {}
    // OpenSSL's new-session callback: keeps the latest session per origin.
    static int on_new_session(SSL* ssl, SSL_SESSION* session);
    void keep(const std::string& origin, SSL_SESSION* session);

    SSL_CTX* context_;
    std::mutex mutex_;
    std::map<std::string, SSL_SESSION*> sessions_;  // one reference each
};

}  // namespace roomkey::native
