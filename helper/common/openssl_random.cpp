// openssl_random.cpp: RAND_bytes, or abort (openssl_random.hpp says why).
#include "common/openssl_random.hpp"

#include <openssl/rand.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

namespace roomkey::native {

void openssl_random(unsigned char* out, std::size_t size) {
    while (size > 0) {
        const int chunk = size > INT_MAX ? INT_MAX : static_cast<int>(size);
        if (RAND_bytes(out, chunk) != 1) {
            std::fputs("roomkey: OpenSSL RAND_bytes failed\n", stderr);
            std::abort();
        }
        out += chunk;
        size -= static_cast<std::size_t>(chunk);
    }
}

}  // namespace roomkey::native
