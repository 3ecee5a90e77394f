// tls_stream.hpp: an httplib::Stream over an OpenSSL connection that never
// sleeps. cpp-httplib's own SSLSocketStream (0.18.7) clears
// SSL_MODE_AUTO_RETRY and, when a record carried no application data (each
// of the two TLS 1.3 session tickets a server sends after the handshake),
// sleeps 10 us before reading again (0.11.4 slept 1 ms: ~2.2 ms on every new
// upstream connection). Here OpenSSL keeps AUTO_RETRY: on the blocking
// socket it reads past such records itself, and the socket's own receive and
// send timeouts (SO_RCVTIMEO/SO_SNDTIMEO, which httplib sets from the
// client's read and write timeouts) bound each wait. Used by OpenableClient
// (openable_client.hpp).
#pragma once

#include <httplib.h>
#include <openssl/ssl.h>

#include <string>

namespace roomkey::native {

class TlsStream final : public httplib::Stream {
public:
    // `ssl` is connected over the blocking socket `fd`; neither is owned.
    TlsStream(int fd, SSL* ssl, int read_timeout_ms, int write_timeout_ms);

    bool is_readable() const override;
    bool is_writable() const override;
    ssize_t read(char* ptr, size_t size) override;
    ssize_t write(const char* ptr, size_t size) override;
    void get_remote_ip_and_port(std::string& ip, int& port) const override;
    void get_local_ip_and_port(std::string& ip, int& port) const override;
    socket_t socket() const override;

private:
    int fd_;
    SSL* ssl_;
    int read_timeout_ms_;
    int write_timeout_ms_;
};

}  // namespace roomkey::native
