// sha256_test.cpp: SHA-256 against the FIPS 180-4 / NIST example vectors, and
// streaming in any chunking gives the one-shot digest.
#include "roomkey/sha256.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "roomkey/encoding.hpp"

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace sha256_test {
namespace {

// NIST "Secure Hashing" examples (SHA256.pdf, SHA2_Additional.pdf) for FIPS 180-4.
TEST(Sha256, EmptyMessage) {
    EXPECT_EQ(to_hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, OneBlockMessageAbc) {
    EXPECT_EQ(to_hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessage448Bits) {
    EXPECT_EQ(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, Message896Bits) {
    EXPECT_EQ(to_hex(sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                            "mnopqrstnopqrstu")),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionAStreamedInOddChunks) {
    Sha256 hash;
    const std::string chunk(997, 'a');
    std::size_t left = 1000000;
    std::size_t sizes[] = {1, 3, 63, 64, 65, 127, 997};
    for (std::size_t i = 0; left > 0; ++i) {
        const std::size_t n = std::min({sizes[i % 7], left, chunk.size()});
        hash.update(chunk.data(), n);
        left -= n;
    }
    EXPECT_EQ(to_hex(hash.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding boundaries (55/56 and 63/64 bytes mod 64) must
// give the same digest whether fed at once or byte by byte.
TEST(Sha256, ChunkingDoesNotChangeTheDigest) {
    std::string message;
    for (std::size_t len = 0; len <= 200; ++len) {
        Sha256 bytewise;
        for (char c : message) bytewise.update(&c, 1);
        Sha256 halves;
        halves.update(std::string_view(message).substr(0, len / 2));
        halves.update(nullptr, 0);
        halves.update(std::string_view(message).substr(len / 2));
        const Sha256Digest expected = sha256(message);
        EXPECT_EQ(bytewise.finish(), expected) << "length " << len;
        EXPECT_EQ(halves.finish(), expected) << "length " << len;
        message += static_cast<char>('A' + len % 50);
    }
}

TEST(Sha256, ToBytesIsTheRawDigest) {
    const Sha256Digest digest = sha256("abc");
    const std::string bytes = to_bytes(digest);
    ASSERT_EQ(bytes.size(), 32u);
    EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0xbau);
    EXPECT_EQ(static_cast<unsigned char>(bytes[31]), 0xadu);
}

// RFC 7636 appendix B: the S256 code challenge is BASE64URL(SHA256(verifier)).
TEST(Sha256, GivesTheRfc7636AppendixBChallenge) {
    EXPECT_EQ(base64url_encode(to_bytes(sha256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))),
              "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

}  // namespace
}  // namespace sha256_test
}  // namespace roomkey
