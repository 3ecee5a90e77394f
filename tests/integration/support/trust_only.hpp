// trust_only.hpp: the tests' HTTPS clients trust one CA file and have
// OpenSSL check the server's name in the handshake (common/tls_client.hpp),
// as the helper's upstream client does, instead of httplib's own check
// (0.18.7 as 0.11.4: it reads past an IP entry, common/tls_client.hpp).
#pragma once

#include <httplib.h>
#include <openssl/x509.h>

#include <string>

#include "common/tls_client.hpp"

namespace roomkey::integration {

// False when the CA file cannot be read or the name check cannot be set up.
inline bool trust_only(httplib::SSLClient& client, const std::string& host, const std::string& ca_file) {
    X509_STORE* store = X509_STORE_new();
    const bool loaded = store != nullptr && X509_STORE_load_file(store, ca_file.c_str()) == 1;
    return native::verify_in_handshake(client, host, store) && loaded;
}

}  // namespace roomkey::integration
