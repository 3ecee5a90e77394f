// sha256.hpp: SHA-256 (FIPS 180-4), for the PKCE S256 challenge. Portable C++
// so that it runs the same natively and in wasm.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace roomkey {

using Sha256Digest = std::array<std::uint8_t, 32>;

class Sha256 {
public:
    Sha256();
    void update(std::string_view bytes);
    void update(const void* data, std::size_t size);
    Sha256Digest finish();  // the object must not be used after finish()

private:
    void compress(const std::uint8_t* block);
    std::array<std::uint32_t, 8> state_;
    std::array<std::uint8_t, 64> buffer_;
    std::size_t buffered_ = 0;
    std::uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(std::string_view bytes);
std::string to_bytes(const Sha256Digest& digest);  // the 32 bytes as a byte string
std::string to_hex(const Sha256Digest& digest);    // lowercase hex

}  // namespace roomkey
