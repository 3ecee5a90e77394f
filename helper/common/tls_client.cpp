// tls_client.cpp: see tls_client.hpp.
#include "common/tls_client.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

namespace roomkey::native {

void verify_in_handshake(httplib::SSLClient& client, const std::string& host, X509_STORE* store) {
    client.enable_server_certificate_verification(false);
    client.set_ca_cert_store(store);
    SSL_CTX* context = client.ssl_context();
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    X509_VERIFY_PARAM* param = SSL_CTX_get0_param(context);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    if (X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1) {  // not an IP literal
        ERR_clear_error();
        X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size());
    }
}

}  // namespace roomkey::native
