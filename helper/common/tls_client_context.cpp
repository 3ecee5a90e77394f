// tls_client_context.cpp: see tls_client_context.hpp.
#include "common/tls_client_context.hpp"

#include <openssl/err.h>

#include "common/tls_client.hpp"

namespace roomkey::native {
namespace {

// SSL ex_data slot: the "host:port" a connection was made for (owned by it).
int origin_index() {
    static const int index = SSL_get_ex_new_index(
        0, nullptr, nullptr, nullptr, [](void*, void* origin, CRYPTO_EX_DATA*, int, long, void*) {
            delete static_cast<std::string*>(origin);
        });
    return index;
}

std::string origin_key(const std::string& host, int port) { return host + ":" + std::to_string(port); }

}  // namespace

std::shared_ptr<TlsClientContext> TlsClientContext::make(X509_STORE* store) {
    SSL_CTX* context = SSL_CTX_new(TLS_client_method());
    if (context == nullptr) {
        X509_STORE_free(store);
        return nullptr;
    }
    SSL_CTX_set_cert_store(context, store);
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
    // Sessions are kept here, per origin, not in OpenSSL's cache (which a
    // client never looks up by itself).
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_sess_set_new_cb(context, &TlsClientContext::on_new_session);
    // Reads as many bytes as the socket has: a record's header and body in
    // one recv(), not two.
    SSL_CTX_set_read_ahead(context, 1);
    std::shared_ptr<TlsClientContext> made(new TlsClientContext(context));
    SSL_CTX_set_app_data(context, made.get());
    return made;
}

TlsClientContext::~TlsClientContext() {
    for (auto& [origin, session] : sessions_) SSL_SESSION_free(session);
    SSL_CTX_free(context_);
}

SSL* TlsClientContext::new_connection(const std::string& host, int port) {
    SSL* ssl = SSL_new(context_);
    if (ssl == nullptr) return nullptr;
    const std::string key = origin_key(host, port);
    if (!check_name_in_handshake(SSL_get0_param(ssl), host) ||
        SSL_set_ex_data(ssl, origin_index(), new std::string(key)) != 1) {
        SSL_free(ssl);
        ERR_clear_error();
        return nullptr;
    }
    // SNI only for a name: RFC 6066 3 forbids IP literals in it.
    if (host.find_first_not_of("0123456789.") != std::string::npos && host.find(':') == std::string::npos) {
        // SSL_set_tlsext_host_name without its C cast (as httplib calls it).
        SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, const_cast<char*>(host.c_str()));
    }
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = sessions_.find(key);
    if (found != sessions_.end()) {
        if (SSL_SESSION_is_resumable(found->second) == 1) {
            SSL_set_session(ssl, found->second);
        } else {
            SSL_SESSION_free(found->second);
            sessions_.erase(found);
        }
    }
    return ssl;
}

bool TlsClientContext::has_session(const std::string& host, int port) {
    std::lock_guard<std::mutex> lock(mutex_);
    return sessions_.count(origin_key(host, port)) != 0;
}

int TlsClientContext::on_new_session(SSL* ssl, SSL_SESSION* session) {
    auto* self = static_cast<TlsClientContext*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
    const auto* origin = static_cast<const std::string*>(SSL_get_ex_data(ssl, origin_index()));
    if (self == nullptr || origin == nullptr) return 0;  // not ours to keep: OpenSSL frees it
    self->keep(*origin, session);
    return 1;  // the reference is kept
}

void TlsClientContext::keep(const std::string& origin, SSL_SESSION* session) {
    std::lock_guard<std::mutex> lock(mutex_);
    SSL_SESSION*& slot = sessions_[origin];
    if (slot != nullptr) SSL_SESSION_free(slot);
    slot = session;
}

}  // namespace roomkey::native
