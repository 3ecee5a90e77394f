// hmac.hpp: HMAC-SHA256 (RFC 2104, FIPS 198-1) over shared/'s SHA-256, for
// signatures a server checks itself (the sandbox's expiring download URLs).
// Portable C++, no I/O: the key is passed in.
#pragma once

#include <string_view>

#include "roomkey/sha256.hpp"

namespace roomkey {

Sha256Digest hmac_sha256(std::string_view key, std::string_view message);

}  // namespace roomkey
