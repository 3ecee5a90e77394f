// tls_client.hpp: how roomkey's HTTPS clients (the helper's upstream client,
// the tests' clients) check a server: OpenSSL verifies the certificate chain
// and the server's name during the handshake, so a server that fails either
// gets no byte of the request.
#pragma once

#include <httplib.h>
#include <openssl/x509.h>

#include <string>

namespace roomkey::native {

// Trusts `store` (the client's SSL context takes ownership) and checks that
// the certificate names `host`: an IP literal ("127.0.0.1", "::1", without
// brackets) against its IP entries, a host name against its DNS entries.
// A failure ends the handshake: httplib reports Error::SSLConnection.
// False when the check could not be set up (no SSL context, an empty host or
// one OpenSSL refuses): the client must not be used, it would not check the name.
//
// httplib's own check is switched off: its verify_host_with_subject_alt_name
// (0.11.4, and still 0.18.7) memcmp()s an IP entry over the length of the
// address asked for, so for an IPv6 host it reads past a 4-byte IPv4 entry
// (ASan: heap-buffer-overflow), and for an IPv4 host it compares
// uninitialised bytes (valgrind).
[[nodiscard]] bool verify_in_handshake(httplib::SSLClient& client, const std::string& host, X509_STORE* store);

// The name check of verify_in_handshake(), on one verification parameter
// set (an SSL_CTX's or one connection's SSL_get0_param): an IP literal
// against the certificate's IP entries, a name against its DNS entries
// (no partial wildcards). False for an empty host or one OpenSSL refuses.
[[nodiscard]] bool check_name_in_handshake(X509_VERIFY_PARAM* param, const std::string& host);

}  // namespace roomkey::native
