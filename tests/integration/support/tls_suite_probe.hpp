// tls_suite_probe.hpp: one TLS handshake with 127.0.0.1:PORT offering only
// the given version and suites, as `openssl s_client -tls1_2 -cipher X`
// does: the suite the server chose, or "" when it refused them all. The
// certificate is not verified (the suites are what is tested).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <string>

namespace roomkey::integration {

// `tls13_suites` is used when `version` is TLS1_3_VERSION, `tls12_ciphers`
// otherwise. "@SECLEVEL=0" lets the client offer what a scanner would.
inline std::string negotiated_suite(int port, int version, const std::string& tls12_ciphers,
                                    const std::string& tls13_suites = "") {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    std::string chosen;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
        SSL_CTX_set_min_proto_version(ctx, version);
        SSL_CTX_set_max_proto_version(ctx, version);
        const bool offered = version == TLS1_3_VERSION
                                 ? SSL_CTX_set_ciphersuites(ctx, tls13_suites.c_str()) == 1
                                 : SSL_CTX_set_cipher_list(ctx, (tls12_ciphers + ":@SECLEVEL=0").c_str()) == 1;
        SSL* ssl = SSL_new(ctx);
        SSL_set_fd(ssl, fd);
        if (offered && SSL_connect(ssl) == 1) chosen = SSL_get_cipher_name(ssl);
        SSL_free(ssl);
        SSL_CTX_free(ctx);
    }
    ::close(fd);
    return chosen;
}

}  // namespace roomkey::integration
