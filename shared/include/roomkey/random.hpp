// random.hpp: how shared/ receives randomness. There is no global RNG in
// shared/: callers pass a RandomSource (crypto.getRandomValues in the browser,
// OpenSSL RAND_bytes natively, a fixed sequence in tests).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace roomkey {

// Fills `size` bytes at `out` with cryptographically secure random bytes.
using RandomSource = std::function<void(unsigned char* out, std::size_t size)>;

// `count` bytes from `random`, as a byte string.
inline std::string random_bytes(const RandomSource& random, std::size_t count) {
    std::string bytes(count, '\0');
    random(reinterpret_cast<unsigned char*>(bytes.data()), count);
    return bytes;
}

}  // namespace roomkey
