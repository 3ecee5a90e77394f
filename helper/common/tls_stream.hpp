// tls_stream.hpp: an httplib::Stream over an OpenSSL connection that never
// sleeps. cpp-httplib's own SSLSocketStream (0.18.7) clears
// SSL_MODE_AUTO_RETRY and, when a record carried no application data (each
// of the two TLS 1.3 session tickets a server sends after the handshake),
// sleeps 10 us before reading again (0.11.4 slept 1 ms: ~2.2 ms on every new
// upstream connection). Here OpenSSL keeps AUTO_RETRY: on the blocking
// socket it reads past such records itself, and the socket's own receive and
// send timeouts (SO_RCVTIMEO/SO_SNDTIMEO, which httplib sets from the
// client's and the server's read and write timeouts) bound each wait.
//
// Buffered both ways, because of how httplib uses a stream (profiled under
// bench/servers.sh): it reads the status line and header fields one byte
// per read() (an SSL_read call per byte: about 1,000 per proxied request),
// and writes an answer's header block and body with two write() calls (two
// TLS records, two TCP segments, two wake-ups of the reader). Here read()
// takes up to a whole record at once and hands it out from memory, and, with
// hold_writes(), writes wait in memory until flush(), until a read has to
// wait for the peer (an answer can come only after the request has left:
// "100 Continue" included), or until 16 KiB are held.
//
// Used by OpenableClient (openable_client.hpp) and TlsServer (tls_server.hpp).
#pragma once

#include <httplib.h>
#include <openssl/ssl.h>

#include <array>
#include <cstddef>
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

    // Bytes the peer sent that no read() has taken yet (here or in OpenSSL).
    bool has_unread() const;
    // Writes wait in memory until flush() (see above). Off by default.
    void hold_writes() { hold_writes_ = true; }
    // Sends what writes left waiting; false when the connection failed.
    bool flush();

private:
    ssize_t ssl_read(char* ptr, size_t size);
    ssize_t ssl_write(const char* ptr, size_t size);

    static constexpr std::size_t kReadBuffer = 4096;    // httplib's own SocketStream reads 4 KiB at a time
    static constexpr std::size_t kWriteBuffer = 16384;  // one TLS record's worth

    int fd_;
    SSL* ssl_;
    int read_timeout_ms_;
    int write_timeout_ms_;
    std::array<char, kReadBuffer> in_;
    std::size_t in_begin_ = 0;
    std::size_t in_end_ = 0;
    bool hold_writes_ = false;
    std::string out_;
    bool write_failed_ = false;
};

}  // namespace roomkey::native
