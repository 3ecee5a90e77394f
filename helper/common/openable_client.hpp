// openable_client.hpp: the helper's upstream HTTPS client: cpp-httplib's
// HTTP/1.1 client (ClientImpl) over a TLS connection roomkey makes itself,
// which can be opened before its first request, the way a browser's
// preconnect does.
//
// Why not httplib's SSLClient (0.18.7): it is `final` (no preconnect can be
// added), it makes an SSL_CTX and loads the CAs per client, never resumes a
// TLS session, and its stream sleeps when a record carries no data (see
// tls_stream.hpp). Here the connection comes from one shared
// TlsClientContext (CAs loaded once, sessions resumed per origin), is read
// through TlsStream (no sleep), and is ended without waiting for the
// server's close_notify (httplib's graceful shutdown polls for it with
// 100 ms sleeps). httplib sees a plain client (is_ssl() is false): it never
// touches the SSL, and the Host header is set here, as an https:// client
// sends it. Answers are asked for uncompressed (openable_client.cpp).
#pragma once

#include <httplib.h>

#include <memory>
#include <string>

#include "common/tls_client_context.hpp"

namespace roomkey::native {

class OpenableClient : public httplib::ClientImpl {
public:
    // `host`: a name or an IP literal (IPv6 without brackets).
    OpenableClient(const std::string& host, int port, std::shared_ptr<TlsClientContext> tls);
    ~OpenableClient() override;

    // Opens the TCP connection and completes the TLS handshake, with the
    // certificate checks the context holds, both within the client's
    // connection timeout. Error::Success when a connection is open
    // (at once when one already was); otherwise what failed
    // (Connection / ConnectionTimeout: TCP; SSLConnection: TLS), with
    // nothing left open. A request sent without it opens its own.
    httplib::Error open();
    bool is_open() const;

    // Whether the open connection can take a request: the server has neither
    // closed it nor sent anything unasked. Reads, without waiting, what TLS
    // sent after the handshake (TLS 1.3 session tickets), which would
    // otherwise pass for a sign of life even with the server's close behind
    // it. False when no connection is open.
    bool still_open();

    // Whether the open connection resumed a TLS session (tests, bench).
    bool resumed();

private:
    bool create_and_connect_socket(Socket& socket, httplib::Error& error) override;
    void shutdown_ssl(Socket& socket, bool shutdown_gracefully) override;
    bool process_socket(const Socket& socket, std::function<bool(httplib::Stream& strm)> callback) override;
    void close_now();  // socket_mutex_ held

    std::shared_ptr<TlsClientContext> tls_;
};

}  // namespace roomkey::native
