// tls_client.cpp: see tls_client.hpp.
#include "common/tls_client.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

namespace roomkey::native {

bool verify_in_handshake(httplib::SSLClient& client, const std::string& host, X509_STORE* store) {
    client.enable_server_certificate_verification(false);
    SSL_CTX* context = client.ssl_context();
    if (context == nullptr) {
        X509_STORE_free(store);
        return false;
    }
    client.set_ca_cert_store(store);
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    return check_name_in_handshake(SSL_CTX_get0_param(context), host);
}

bool check_name_in_handshake(X509_VERIFY_PARAM* param, const std::string& host) {
    // An empty name would clear the check and pass; a name with a NUL in it
    // is refused by OpenSSL.
    if (param == nullptr || host.empty() || host.find('\0') != std::string::npos) return false;
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    if (X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) == 1) return true;  // an IP literal
    ERR_clear_error();
    const bool named = X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size()) == 1;
    ERR_clear_error();
    return named;
}

}  // namespace roomkey::native
