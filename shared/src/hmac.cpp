// hmac.cpp: HMAC-SHA256 (see hmac.hpp).
#include "roomkey/hmac.hpp"

#include <array>
#include <cstdint>

namespace roomkey {

Sha256Digest hmac_sha256(std::string_view key, std::string_view message) {
    constexpr std::size_t kBlock = 64;  // SHA-256's block size
    std::array<std::uint8_t, kBlock> block{};
    if (key.size() > kBlock) {
        // RFC 2104 2: a key longer than the block is hashed first.
        const Sha256Digest hashed = sha256(key);
        for (std::size_t i = 0; i < hashed.size(); ++i) block[i] = hashed[i];
    } else {
        for (std::size_t i = 0; i < key.size(); ++i) block[i] = static_cast<std::uint8_t>(key[i]);
    }
    std::array<std::uint8_t, kBlock> inner_pad{};
    std::array<std::uint8_t, kBlock> outer_pad{};
    for (std::size_t i = 0; i < kBlock; ++i) {
        inner_pad[i] = static_cast<std::uint8_t>(block[i] ^ 0x36);
        outer_pad[i] = static_cast<std::uint8_t>(block[i] ^ 0x5c);
    }
    Sha256 inner;
    inner.update(inner_pad.data(), inner_pad.size());
    inner.update(message);
    const Sha256Digest inner_digest = inner.finish();
    Sha256 outer;
    outer.update(outer_pad.data(), outer_pad.size());
    outer.update(inner_digest.data(), inner_digest.size());
    return outer.finish();
}

}  // namespace roomkey
