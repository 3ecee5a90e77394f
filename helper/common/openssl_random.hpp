// openssl_random.hpp: shared/'s RandomSource backed by OpenSSL's RAND_bytes,
// for both native programs (tokens, secrets, states, session ids, keys).
#pragma once

#include <cstddef>

namespace roomkey::native {

// Fills `size` bytes; aborts when OpenSSL has no randomness, because without
// it no secret the program makes would be safe.
void openssl_random(unsigned char* out, std::size_t size);

}  // namespace roomkey::native
