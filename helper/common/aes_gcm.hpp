// aes_gcm.hpp: authenticated encryption with AES-256-GCM (OpenSSL EVP), for
// the helper's sealed BFF cookies. A sealed value is nonce (12 bytes) ||
// ciphertext || tag (16 bytes); `aad` (authenticated, not encrypted) binds it
// to its purpose, so a value sealed for one use cannot be opened as another.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/random.hpp"

namespace roomkey::native {

inline constexpr std::size_t kAesGcmKeyBytes = 32;
inline constexpr std::size_t kAesGcmNonceBytes = 12;
inline constexpr std::size_t kAesGcmTagBytes = 16;

// `key` holds kAesGcmKeyBytes bytes; a fresh random nonce per call.
std::string aes_gcm_seal(std::string_view key, std::string_view aad, std::string_view plaintext,
                         const RandomSource& random);

// The plaintext, or nullopt when `sealed` is too short, was sealed with
// another key or aad, or was changed in any bit.
std::optional<std::string> aes_gcm_open(std::string_view key, std::string_view aad, std::string_view sealed);

}  // namespace roomkey::native
