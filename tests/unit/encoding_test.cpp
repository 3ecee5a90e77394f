// encoding_test.cpp: base64 / base64url (RFC 4648 sections 4, 5, 10), strict decoding.
#include "roomkey/encoding.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace encoding_test {
namespace {

struct Vector {
    const char* bytes;
    const char* base64;
};

// RFC 4648 section 10 test vectors.
constexpr Vector kRfc4648Vectors[] = {
    {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
};

std::string strip_padding(std::string s) {
    while (!s.empty() && s.back() == '=') s.pop_back();
    return s;
}

TEST(Base64, EncodesRfc4648Section10Vectors) {
    for (const auto& v : kRfc4648Vectors) {
        EXPECT_EQ(base64_encode(v.bytes), v.base64) << "input \"" << v.bytes << "\"";
    }
}

TEST(Base64, DecodesRfc4648Section10Vectors) {
    for (const auto& v : kRfc4648Vectors) {
        auto decoded = base64_decode(v.base64);
        ASSERT_TRUE(decoded) << v.base64 << ": " << to_string(decoded.error());
        EXPECT_EQ(*decoded, v.bytes);
    }
}

// RFC 4648 section 5: base64url is the same with '-' '_' and (for PKCE, RFC 7636 appendix A) no padding.
TEST(Base64Url, EncodesRfc4648VectorsWithoutPadding) {
    for (const auto& v : kRfc4648Vectors) {
        EXPECT_EQ(base64url_encode(v.bytes), strip_padding(v.base64)) << "input \"" << v.bytes << "\"";
        auto decoded = base64url_decode(strip_padding(v.base64));
        ASSERT_TRUE(decoded) << v.base64 << ": " << to_string(decoded.error());
        EXPECT_EQ(*decoded, v.bytes);
    }
}

TEST(Base64Url, UsesUrlAlphabetForIndices62And63) {
    const std::string bytes = "\xfb\xff\xbf";
    EXPECT_EQ(base64_encode(bytes), "+/+/");
    EXPECT_EQ(base64url_encode(bytes), "-_-_");
    auto decoded = base64url_decode("-_-_");
    ASSERT_TRUE(decoded) << to_string(decoded.error());
    EXPECT_EQ(*decoded, bytes);
}

TEST(Base64, RoundTripsEveryByteValue) {
    std::string all;
    for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
    for (std::size_t len = 0; len <= all.size(); len += 17) {
        const std::string bytes = all.substr(0, len);
        auto a = base64_decode(base64_encode(bytes));
        auto b = base64url_decode(base64url_encode(bytes));
        ASSERT_TRUE(a && b) << "length " << len;
        EXPECT_EQ(*a, bytes);
        EXPECT_EQ(*b, bytes);
    }
}

TEST(Base64, RefusesCharactersOutsideItsAlphabet) {
    EXPECT_EQ(base64_decode("Zm9-").error(), Base64Error::invalid_character) << "'-' is base64url only";
    EXPECT_EQ(base64_decode("Zm9_").error(), Base64Error::invalid_character);
    EXPECT_EQ(base64_decode("Zm 9").error(), Base64Error::invalid_character) << "no whitespace skipping";
    EXPECT_EQ(base64url_decode("Zm9+").error(), Base64Error::invalid_character) << "'+' is base64 only";
    EXPECT_EQ(base64url_decode("Zm9/").error(), Base64Error::invalid_character);
    EXPECT_EQ(base64url_decode(std::string("Zm\0v", 4)).error(), Base64Error::invalid_character);
}

TEST(Base64, RequiresPaddingAndRefusesImpossibleLengths) {
    EXPECT_EQ(base64_decode("Zg").error(), Base64Error::invalid_length) << "padding is required";
    EXPECT_EQ(base64_decode("Zm9vY").error(), Base64Error::invalid_length);
    EXPECT_EQ(base64url_decode("Zm9vY").error(), Base64Error::invalid_length) << "4n+1 characters";
    EXPECT_EQ(base64url_decode("A").error(), Base64Error::invalid_length);
}

TEST(Base64, RefusesMisplacedPadding) {
    EXPECT_EQ(base64_decode("Z===").error(), Base64Error::invalid_padding);
    EXPECT_EQ(base64_decode("====").error(), Base64Error::invalid_padding);
    EXPECT_EQ(base64_decode("Zg==Zg==").error(), Base64Error::invalid_padding) << "padding only at the end";
    EXPECT_EQ(base64_decode("Z=g=").error(), Base64Error::invalid_padding);
    EXPECT_EQ(base64url_decode("Zg==").error(), Base64Error::invalid_padding) << "base64url refuses padding";
    EXPECT_EQ(base64url_decode("Zm8=").error(), Base64Error::invalid_padding);
}

// RFC 4648 3.5: non-zero pad bits make a non-canonical encoding; accepting it
// would let two strings decode to the same bytes.
TEST(Base64, RefusesNonZeroTrailingBits) {
    EXPECT_EQ(base64_decode("Zh==").error(), Base64Error::invalid_padding) << "'h' leaves bits set after 'f'";
    EXPECT_EQ(base64_decode("Zm9=").error(), Base64Error::invalid_padding);
    EXPECT_EQ(base64url_decode("Zh").error(), Base64Error::invalid_padding);
    EXPECT_EQ(base64url_decode("Zm9").error(), Base64Error::invalid_padding);
}

TEST(Base64Error, HasStableIdentifiers) {
    EXPECT_EQ(to_string(Base64Error::invalid_character), "base64.invalid_character");
    EXPECT_EQ(to_string(Base64Error::invalid_length), "base64.invalid_length");
    EXPECT_EQ(to_string(Base64Error::invalid_padding), "base64.invalid_padding");
}

}  // namespace
}  // namespace encoding_test
}  // namespace roomkey
