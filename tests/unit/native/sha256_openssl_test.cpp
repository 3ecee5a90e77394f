// sha256_openssl_test.cpp: our SHA-256 agrees with OpenSSL's on random inputs.
#include <openssl/evp.h>

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "roomkey/sha256.hpp"

namespace roomkey {
namespace {

Sha256Digest openssl_sha256(const std::string& bytes) {
    Sha256Digest digest{};
    unsigned int size = 0;
    const int ok = EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr);
    EXPECT_EQ(ok, 1) << "EVP_Digest failed";
    EXPECT_EQ(size, 32u);
    return digest;
}

TEST(Sha256OpenSsl, AgreesOnThousandRandomInputs) {
    std::mt19937 rng(20240531);  // fixed seed: a failure reproduces
    std::uniform_int_distribution<std::size_t> length(0, 4096);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<std::size_t> split_at(0, 4096);
    for (int i = 0; i < 1000; ++i) {
        std::string input(length(rng), '\0');
        for (char& c : input) c = static_cast<char>(byte(rng));
        const Sha256Digest expected = openssl_sha256(input);
        ASSERT_EQ(sha256(input), expected) << "input " << i << " of length " << input.size();

        // Streamed in two pieces at a random point.
        const std::size_t cut = std::min(split_at(rng), input.size());
        Sha256 streamed;
        streamed.update(std::string_view(input).substr(0, cut));
        streamed.update(std::string_view(input).substr(cut));
        ASSERT_EQ(streamed.finish(), expected) << "input " << i << " split at " << cut;
    }
}

}  // namespace
}  // namespace roomkey
