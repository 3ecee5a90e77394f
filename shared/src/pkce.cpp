// pkce.cpp: PKCE S256 (RFC 7636 section 4) pair generation and format checks.
#include "roomkey/pkce.hpp"

#include "roomkey/encoding.hpp"
#include "roomkey/sha256.hpp"

namespace roomkey {

std::string_view to_string(PkceError error) {
    switch (error) {
        case PkceError::random_bytes_too_few: return "pkce.random_bytes_too_few";
        case PkceError::random_bytes_too_many: return "pkce.random_bytes_too_many";
        case PkceError::verifier_too_short: return "pkce.verifier_too_short";
        case PkceError::verifier_too_long: return "pkce.verifier_too_long";
        case PkceError::verifier_invalid_character: return "pkce.verifier_invalid_character";
        case PkceError::challenge_too_short: return "pkce.challenge_too_short";
        case PkceError::challenge_too_long: return "pkce.challenge_too_long";
        case PkceError::challenge_invalid_character: return "pkce.challenge_invalid_character";
    }
    return "pkce.unknown";
}

namespace {

// RFC 7636 4.1 "unreserved" = ALPHA / DIGIT / "-" / "." / "_" / "~".
bool is_pkce_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

// Verifier and challenge share the format; only the error names differ.
Result<Unit, PkceError> check_format(std::string_view text, PkceError too_short, PkceError too_long,
                                     PkceError invalid_character) {
    if (text.size() < kPkceMinLength) return Err{too_short};
    if (text.size() > kPkceMaxLength) return Err{too_long};
    for (char c : text) {
        if (!is_pkce_char(c)) return Err{invalid_character};
    }
    return Unit{};
}

}  // namespace

PkcePair make_pkce(const RandomSource& random) {
    PkcePair pair;
    pair.verifier = base64url_encode(random_bytes(random, kPkceMinRandomBytes));
    pair.challenge = s256_challenge(pair.verifier);
    return pair;
}

Result<PkcePair, PkceError> make_pkce(const RandomSource& random, std::size_t random_bytes_count) {
    if (random_bytes_count < kPkceMinRandomBytes) return Err{PkceError::random_bytes_too_few};
    if (random_bytes_count > kPkceMaxRandomBytes) return Err{PkceError::random_bytes_too_many};
    PkcePair pair;
    pair.verifier = base64url_encode(random_bytes(random, random_bytes_count));
    pair.challenge = s256_challenge(pair.verifier);
    return pair;
}

std::string s256_challenge(std::string_view verifier) { return base64url_encode(to_bytes(sha256(verifier))); }

Result<Unit, PkceError> validate_code_verifier(std::string_view verifier) {
    return check_format(verifier, PkceError::verifier_too_short, PkceError::verifier_too_long,
                                PkceError::verifier_invalid_character);
}

Result<Unit, PkceError> validate_code_challenge(std::string_view challenge) {
    return check_format(challenge, PkceError::challenge_too_short, PkceError::challenge_too_long,
                                PkceError::challenge_invalid_character);
}

bool verify_pkce(std::string_view verifier, std::string_view challenge) {
    if (!validate_code_verifier(verifier)) return false;
    return constant_time_equals(s256_challenge(verifier), challenge);
}

bool constant_time_equals(std::string_view a, std::string_view b) {
    // Lengths of these values (state, challenge) are public; their bytes are not.
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        diff = static_cast<unsigned char>(diff | (static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i])));
    }
    return diff == 0;
}

}  // namespace roomkey
