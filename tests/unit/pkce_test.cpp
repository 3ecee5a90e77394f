// pkce_test.cpp: PKCE S256 generation and format rules (spec 4.2, 4.3, 5.4, 8.3; RFC 7636).
#include "roomkey/pkce.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace pkce_test {
namespace {

// RFC 7636 appendix B: the 32 random octets behind the example verifier.
const std::vector<unsigned char> kAppendixBOctets = {116, 24,  223, 180, 151, 153, 224, 37,  79,  250, 96,
                                                     125, 216, 173, 187, 186, 22,  212, 37,  77,  105, 214,
                                                     191, 240, 91,  88,  5,   88,  83,  132, 141, 121};
constexpr const char* kAppendixBVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
constexpr const char* kAppendixBChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

// Replays `bytes` (repeating them if more are asked for) and records each request size.
struct ScriptedRandom {
    std::vector<unsigned char> bytes;
    std::vector<std::size_t>* requests;
    void operator()(unsigned char* out, std::size_t size) const {
        requests->push_back(size);
        for (std::size_t i = 0; i < size; ++i) out[i] = bytes.empty() ? 0 : bytes[i % bytes.size()];
    }
};

TEST(Pkce, S256MatchesRfc7636AppendixB) {  // spec 4.2 code_challenge = BASE64URL(SHA256(verifier))
    EXPECT_EQ(s256_challenge(kAppendixBVerifier), kAppendixBChallenge);
}

TEST(Pkce, MakePkceFromAppendixBOctetsGivesAppendixBPair) {  // spec 4.2, RFC 7636 appendix B
    std::vector<std::size_t> requests;
    const PkcePair pair = make_pkce(ScriptedRandom{kAppendixBOctets, &requests});
    EXPECT_EQ(pair.verifier, kAppendixBVerifier);
    EXPECT_EQ(pair.challenge, kAppendixBChallenge);
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0], 32u) << "the default verifier must come from 32 random bytes";
}

TEST(Pkce, VerifierLengthFollowsRandomByteCount) {  // spec 8.3: 43 to 128 characters
    std::vector<std::size_t> requests;
    ScriptedRandom random{{1, 2, 3}, &requests};
    auto smallest = make_pkce(random, 32);
    ASSERT_TRUE(smallest) << to_string(smallest.error());
    EXPECT_EQ(smallest->verifier.size(), 43u);
    auto largest = make_pkce(random, 96);
    ASSERT_TRUE(largest) << to_string(largest.error());
    EXPECT_EQ(largest->verifier.size(), 128u);
    EXPECT_TRUE(validate_code_verifier(largest->verifier));
    EXPECT_EQ(largest->challenge, s256_challenge(largest->verifier));
}

TEST(Pkce, RefusesTooFewOrTooManyRandomBytes) {  // spec 8.3 bounds, >= 256 bits of entropy
    std::vector<std::size_t> requests;
    ScriptedRandom random{{7}, &requests};
    auto few = make_pkce(random, 31);
    ASSERT_FALSE(few) << "a PKCE pair was made from 31 random bytes";
    EXPECT_EQ(few.error(), PkceError::random_bytes_too_few);
    auto many = make_pkce(random, 97);
    ASSERT_FALSE(many) << "a PKCE pair was made from 97 random bytes";
    EXPECT_EQ(many.error(), PkceError::random_bytes_too_many);
    EXPECT_TRUE(requests.empty()) << "a refused request must not consume randomness";
}

TEST(Pkce, DifferentRandomnessGivesDifferentVerifiers) {
    std::vector<std::size_t> requests;
    const PkcePair a = make_pkce(ScriptedRandom{{1}, &requests});
    const PkcePair b = make_pkce(ScriptedRandom{{2}, &requests});
    EXPECT_NE(a.verifier, b.verifier);
    EXPECT_NE(a.challenge, b.challenge);
}

TEST(Pkce, VerifierFormatHasDistinctErrors) {  // spec 4.3 code_verifier: 43..128 of [A-Za-z0-9-._~]
    EXPECT_EQ(validate_code_verifier(std::string(42, 'a')).error(), PkceError::verifier_too_short);
    EXPECT_TRUE(validate_code_verifier(std::string(43, 'a')));
    EXPECT_TRUE(validate_code_verifier(std::string(128, 'a')));
    EXPECT_EQ(validate_code_verifier(std::string(129, 'a')).error(), PkceError::verifier_too_long);
    EXPECT_EQ(validate_code_verifier("").error(), PkceError::verifier_too_short);
    const std::string base(42, 'a');
    for (char bad : {'+', '/', '=', ' ', '%', '!', '\0', '\x80'}) {
        auto result = validate_code_verifier(base + bad);
        ASSERT_FALSE(result) << "character code " << static_cast<int>(bad) << " must be refused";
        EXPECT_EQ(result.error(), PkceError::verifier_invalid_character);
    }
    EXPECT_TRUE(validate_code_verifier("ABCXYZabcxyz0189-._~" + std::string(23, 'Q')));
}

TEST(Pkce, ChallengeFormatHasDistinctErrors) {  // spec 4.2 code_challenge: 43..128 of [A-Za-z0-9-._~]
    EXPECT_EQ(validate_code_challenge(std::string(42, 'a')).error(), PkceError::challenge_too_short);
    EXPECT_TRUE(validate_code_challenge(std::string(43, 'a')));
    EXPECT_TRUE(validate_code_challenge(std::string(128, '~')));
    EXPECT_EQ(validate_code_challenge(std::string(129, 'a')).error(), PkceError::challenge_too_long);
    EXPECT_EQ(validate_code_challenge(std::string(42, 'a') + "=").error(), PkceError::challenge_invalid_character);
    EXPECT_TRUE(validate_code_challenge(kAppendixBChallenge));
}

TEST(Pkce, VerifyAcceptsOnlyTheMatchingWellFormedVerifier) {  // spec 4.3 / 5.4.1 (sandbox side)
    EXPECT_TRUE(verify_pkce(kAppendixBVerifier, kAppendixBChallenge));
    std::string other = kAppendixBChallenge;
    other.back() = other.back() == 'M' ? 'N' : 'M';
    EXPECT_FALSE(verify_pkce(kAppendixBVerifier, other));
    EXPECT_FALSE(verify_pkce(kAppendixBVerifier, ""));
    // A malformed verifier fails even against its own S256 value.
    const std::string short_verifier(42, 'a');
    EXPECT_FALSE(verify_pkce(short_verifier, s256_challenge(short_verifier)));
    // "plain" (challenge == verifier) is not S256.
    EXPECT_FALSE(verify_pkce(kAppendixBVerifier, kAppendixBVerifier));
}

TEST(Pkce, ConstantTimeEqualsComparesWholeStrings) {
    EXPECT_TRUE(constant_time_equals("", ""));
    EXPECT_TRUE(constant_time_equals("abc", "abc"));
    EXPECT_FALSE(constant_time_equals("abc", "abd"));
    EXPECT_FALSE(constant_time_equals("abc", "xbc"));
    EXPECT_FALSE(constant_time_equals("abc", "abcd"));
    EXPECT_FALSE(constant_time_equals(std::string_view("a\0b", 3), std::string_view("a\0c", 3)));
}

TEST(Pkce, ErrorIdentifiersAreStableAndDistinct) {
    const PkceError all[] = {PkceError::random_bytes_too_few,        PkceError::random_bytes_too_many,
                             PkceError::verifier_too_short,          PkceError::verifier_too_long,
                             PkceError::verifier_invalid_character,  PkceError::challenge_too_short,
                             PkceError::challenge_too_long,          PkceError::challenge_invalid_character};
    std::vector<std::string_view> seen;
    for (PkceError e : all) {
        const std::string_view id = to_string(e);
        EXPECT_EQ(id.substr(0, 5), "pkce.") << id;
        for (auto s : seen) EXPECT_NE(s, id);
        seen.push_back(id);
    }
    EXPECT_EQ(to_string(PkceError::verifier_too_short), "pkce.verifier_too_short");
}

}  // namespace
}  // namespace pkce_test
}  // namespace roomkey
