// hmac_test.cpp: HMAC-SHA256 against the RFC 4231 test vectors (short key,
// short data; key longer than a block, hashed first).
#include "roomkey/hmac.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace hmac_test {
namespace {

TEST(Hmac, Rfc4231Case1) {
    EXPECT_EQ(to_hex(hmac_sha256(std::string(20, '\x0b'), "Hi There")),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

TEST(Hmac, Rfc4231Case2KeyShorterThanOutput) {
    EXPECT_EQ(to_hex(hmac_sha256("Jefe", "what do ya want for nothing?")),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(Hmac, Rfc4231Case3) {
    EXPECT_EQ(to_hex(hmac_sha256(std::string(20, '\xaa'), std::string(50, '\xdd'))),
              "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
}

TEST(Hmac, Rfc4231Case6KeyLongerThanABlockIsHashedFirst) {
    EXPECT_EQ(to_hex(hmac_sha256(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First")),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(Hmac, AnyChangedByteChangesTheSignature) {
    const auto base = hmac_sha256("key", "file=5&expires=100");
    EXPECT_NE(base, hmac_sha256("key", "file=5&expires=101"));
    EXPECT_NE(base, hmac_sha256("kez", "file=5&expires=100"));
}

}  // namespace
}  // namespace hmac_test
}  // namespace roomkey
