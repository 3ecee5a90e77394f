// aes_gcm.cpp: AES-256-GCM seal/open on OpenSSL's EVP interface (aes_gcm.hpp).
#include "common/aes_gcm.hpp"

#include <openssl/evp.h>

#include <climits>
#include <memory>

namespace roomkey::native {
namespace {

using Ctx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

const unsigned char* bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

}  // namespace

std::string aes_gcm_seal(std::string_view key, std::string_view aad, std::string_view plaintext,
                         const RandomSource& random) {
    if (key.size() != kAesGcmKeyBytes || plaintext.size() > INT_MAX / 2 || aad.size() > INT_MAX) return {};
    std::string out(kAesGcmNonceBytes + plaintext.size() + kAesGcmTagBytes, '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    random(o, kAesGcmNonceBytes);
    Ctx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    int len = 0;
    int total = 0;
    if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kAesGcmNonceBytes), nullptr) != 1 ||
        EVP_EncryptInit_ex(ctx.get(), nullptr, nullptr, bytes(key), o) != 1 ||
        EVP_EncryptUpdate(ctx.get(), nullptr, &len, bytes(aad), static_cast<int>(aad.size())) != 1 ||
        EVP_EncryptUpdate(ctx.get(), o + kAesGcmNonceBytes, &len, bytes(plaintext),
                          static_cast<int>(plaintext.size())) != 1) {
        return {};
    }
    total = len;
    if (EVP_EncryptFinal_ex(ctx.get(), o + kAesGcmNonceBytes + total, &len) != 1) return {};
    total += len;
    if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kAesGcmTagBytes),
                            o + kAesGcmNonceBytes + total) != 1) {
        return {};
    }
    return out;
}

std::optional<std::string> aes_gcm_open(std::string_view key, std::string_view aad, std::string_view sealed) {
    if (key.size() != kAesGcmKeyBytes || sealed.size() < kAesGcmNonceBytes + kAesGcmTagBytes ||
        sealed.size() > INT_MAX / 2 || aad.size() > INT_MAX) {
        return std::nullopt;
    }
    const std::size_t text_size = sealed.size() - kAesGcmNonceBytes - kAesGcmTagBytes;
    const unsigned char* nonce = bytes(sealed);
    const unsigned char* text = nonce + kAesGcmNonceBytes;
    std::string tag(sealed.substr(kAesGcmNonceBytes + text_size));
    std::string out(text_size, '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    Ctx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    int len = 0;
    if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kAesGcmNonceBytes), nullptr) != 1 ||
        EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, bytes(key), nonce) != 1 ||
        EVP_DecryptUpdate(ctx.get(), nullptr, &len, bytes(aad), static_cast<int>(aad.size())) != 1 ||
        EVP_DecryptUpdate(ctx.get(), o, &len, text, static_cast<int>(text_size)) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kAesGcmTagBytes), tag.data()) != 1) {
        return std::nullopt;
    }
    // The tag is checked here: any changed bit, another key or aad fails.
    if (EVP_DecryptFinal_ex(ctx.get(), o + len, &len) != 1) return std::nullopt;
    return out;
}

}  // namespace roomkey::native
