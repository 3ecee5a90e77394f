// helper_tls_suites_test.cpp: the TLS versions and suites roomkey-helper and
// roomkey-sandbox accept (use_server_suites(), common/tls_server.hpp): TLS
// 1.3, and TLS 1.2 with ECDHE and AEAD only; a CBC suite (LUCKY13), CCM8,
// CAMELLIA or ARIA handshake is refused; the server's order wins. (nginx's
// front: nginx_config_test.cpp.)
#include <gtest/gtest.h>

#include "support/helper_fixture.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/tls_suite_probe.hpp"

namespace roomkey::helper {
namespace {

using integration::negotiated_suite;

// What a scanner found offered before: each must be refused.
const char* const kRefused[] = {"ECDHE-ECDSA-AES128-SHA",   "ECDHE-ECDSA-AES256-SHA",
                                "ECDHE-ECDSA-AES128-SHA256", "ECDHE-ECDSA-AES256-SHA384",
                                "ECDHE-ECDSA-AES128-CCM8",  "ECDHE-ECDSA-CAMELLIA128-SHA256",
                                "ECDHE-ECDSA-ARIA128-GCM-SHA256", "AES128-GCM-SHA256"};

void expect_aead_only_in_server_order(int port, const std::string& who) {
    for (const char* cipher : kRefused) {
        EXPECT_EQ(negotiated_suite(port, TLS1_2_VERSION, cipher), "") << who << " accepted " << cipher;
    }
    for (const char* cipher :
         {"ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305"}) {
        EXPECT_EQ(negotiated_suite(port, TLS1_2_VERSION, cipher), cipher) << who;
    }
    for (const char* suite : {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"}) {
        EXPECT_EQ(negotiated_suite(port, TLS1_3_VERSION, "", suite), suite) << who;
    }
    EXPECT_EQ(negotiated_suite(port, TLS1_3_VERSION, "", "TLS_AES_128_CCM_8_SHA256"), "") << who;
    EXPECT_EQ(negotiated_suite(port, TLS1_1_VERSION, "ALL"), "") << who << " accepted TLS 1.1";
    // The client lists AES-128 first; the server picks its own first.
    EXPECT_EQ(negotiated_suite(port, TLS1_2_VERSION,
                               "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES256-GCM-SHA384:"
                               "ECDHE-ECDSA-AES128-SHA"),
              "ECDHE-ECDSA-AES256-GCM-SHA384")
        << who;
}

TEST(HelperTlsSuites, TheHelperOffersTls13AndTls12EcdheAeadOnlyInItsOrder) {
    testing::TempDir dir;
    testing::RunningHelper helper(testing::test_config(dir));
    ASSERT_TRUE(helper.ok()) << helper.error();
    expect_aead_only_in_server_order(helper.port(), "roomkey-helper");
}

class HelperTlsSuitesSandbox : public sandbox::testing::SandboxTest {};

TEST_F(HelperTlsSuitesSandbox, TheSandboxOffersTheSame) {
    expect_aead_only_in_server_order(sandbox().port(), "roomkey-sandbox");
}

}  // namespace
}  // namespace roomkey::helper
