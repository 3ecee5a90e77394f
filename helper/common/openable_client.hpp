// openable_client.hpp: an httplib::SSLClient whose TLS connection can be
// opened before its first request, the way a browser's preconnect does.
// cpp-httplib 0.11.4 opens a connection only inside send(), so a request
// that finds no idle connection pays the TCP and TLS handshakes itself. The
// connection opened here is the one httplib's next request uses: it is put
// where httplib keeps its own (ClientImpl::socket_, protected for
// subclasses) and set up as httplib's initialize_ssl() sets up one (a
// blocking socket under a BIO that does not close it, SNI = the host), so
// httplib's keep-alive check, reuse and shutdown treat it as its own.
#pragma once

#include <httplib.h>

#include <string>

namespace roomkey::native {

class OpenableClient : public httplib::SSLClient {
public:
    using httplib::SSLClient::SSLClient;

    // Opens the TCP connection and completes the TLS handshake, with the
    // certificate checks the SSL context holds (tls_client.hpp), both within
    // the client's connection timeout. False, with nothing left open, when
    // either fails. True at once when a connection is already open.
    // (is_socket_open() tells whether one is.)
    bool open();

    // Whether the open connection can take a request: the server has neither
    // closed it nor sent anything unasked. Reads, without waiting, what TLS
    // sent after the handshake (TLS 1.3 session tickets), which httplib's own
    // check would take for a sign of life even with the server's close
    // behind it. False when no connection is open.
    bool still_open();
};

}  // namespace roomkey::native
