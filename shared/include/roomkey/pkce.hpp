// pkce.hpp: PKCE with the S256 method (RFC 7636, spec 4.2, 4.3, 5.4): making a
// verifier/challenge pair, checking their format, and verifying a verifier
// against a stored challenge (the sandbox's token endpoint).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "roomkey/random.hpp"
#include "roomkey/result.hpp"

namespace roomkey {

// Spec 4.2 / 4.3 / 8.3: code_challenge and code_verifier are 43 to 128
// characters of [A-Za-z0-9-._~].
inline constexpr std::size_t kPkceMinLength = 43;
inline constexpr std::size_t kPkceMaxLength = 128;
// base64url of 32 bytes is 43 characters, of 96 bytes 128 characters.
inline constexpr std::size_t kPkceMinRandomBytes = 32;
inline constexpr std::size_t kPkceMaxRandomBytes = 96;
// The only code_challenge_method this project sends or accepts (spec 4.2).
inline constexpr std::string_view kPkceMethodS256 = "S256";

enum class PkceError {
    random_bytes_too_few,        // make_pkce asked for fewer than 32 random bytes
    random_bytes_too_many,       // make_pkce asked for more than 96 (verifier > 128 chars)
    verifier_too_short,          // code_verifier under 43 characters
    verifier_too_long,           // code_verifier over 128 characters
    verifier_invalid_character,  // code_verifier outside [A-Za-z0-9-._~]
    challenge_too_short,         // code_challenge under 43 characters
    challenge_too_long,          // code_challenge over 128 characters
    challenge_invalid_character, // code_challenge outside [A-Za-z0-9-._~]
};
std::string_view to_string(PkceError error);

struct PkcePair {
    std::string verifier;   // secret: kept by the client, sent only to the token endpoint
    std::string challenge;  // base64url(SHA-256(verifier)); the method is always S256
};

// A pair from 32 random bytes (a 43-character verifier, 256 bits of entropy).
PkcePair make_pkce(const RandomSource& random);
// A pair from `random_bytes` bytes; refused outside 32..96 so the verifier
// always has 43..128 characters and at least 256 bits.
Result<PkcePair, PkceError> make_pkce(const RandomSource& random, std::size_t random_bytes);

// base64url without padding of SHA-256 over the verifier's ASCII bytes.
std::string s256_challenge(std::string_view verifier);

Result<Unit, PkceError> validate_code_verifier(std::string_view verifier);
Result<Unit, PkceError> validate_code_challenge(std::string_view challenge);

// True when the verifier is well-formed and its S256 challenge equals
// `challenge`; the comparison takes the same time wherever they differ.
bool verify_pkce(std::string_view verifier, std::string_view challenge);

// Compares two secrets without an early exit on the first differing byte, so
// timing does not reveal how much of a guess was right (only the length leaks).
bool constant_time_equals(std::string_view a, std::string_view b);

}  // namespace roomkey
