// bff_cookie_test.cpp: the BFF cookies' attributes, lookup in a Cookie
// header, and the "<session id>.<sealed>" value format (bff_cookie.hpp).
#include "roomkey/bff_cookie.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey {
namespace bff_cookie_test {
namespace {

void counting_random(unsigned char* out, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<unsigned char>(i * 7 + 1);
}

TEST(BffCookie, SessionCookieHasTheHostPrefixAttributes) {
    const std::string header = set_cookie_header(kBffSessionCookie, "abc", Seconds{3600}, SameSite::strict);
    EXPECT_EQ(header, "__Host-roomkey_session=abc; Max-Age=3600; Path=/; Secure; HttpOnly; SameSite=Strict");
    // __Host- cookies must not name a Domain (RFC 6265bis 4.1.3.2).
    EXPECT_EQ(header.find("Domain"), std::string::npos);
}

TEST(BffCookie, LoginCookieIsLaxSoTheConsentScreensRedirectCarriesIt) {
    EXPECT_EQ(set_cookie_header(kBffLoginCookie, "x", Seconds{600}, SameSite::lax),
              "__Host-roomkey_login=x; Max-Age=600; Path=/; Secure; HttpOnly; SameSite=Lax");
}

TEST(BffCookie, ClearingSetsAnEmptyValueAndMaxAgeZero) {
    EXPECT_EQ(clear_cookie_header(kBffSessionCookie, SameSite::strict),
              "__Host-roomkey_session=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Strict");
}

TEST(BffCookie, FindsACookieAmongOthers) {
    EXPECT_EQ(find_cookie("a=1; __Host-roomkey_session=s.v; b=2", kBffSessionCookie), "s.v");
    EXPECT_EQ(find_cookie("__Host-roomkey_session=first;__Host-roomkey_session=second", kBffSessionCookie), "first");
    EXPECT_EQ(find_cookie("x=\"quoted\"", "x"), "quoted");
    EXPECT_EQ(find_cookie("roomkey_session=plain", kBffSessionCookie), std::nullopt);
    EXPECT_EQ(find_cookie("", kBffSessionCookie), std::nullopt);
    EXPECT_EQ(find_cookie(";;=;", kBffSessionCookie), std::nullopt);
}

TEST(BffCookie, ValueRoundTripsIdAndSealedBytes) {
    const std::string id = make_bff_session_id(counting_random);
    EXPECT_TRUE(is_bff_session_id(id)) << id;
    const std::string sealed("\x00\xff binary", 9);
    auto parsed = parse_bff_cookie_value(format_bff_cookie_value(id, sealed));
    ASSERT_TRUE(parsed) << to_string(parsed.error());
    EXPECT_EQ(parsed->session_id, id);
    EXPECT_EQ(parsed->sealed, sealed);
}

TEST(BffCookie, MalformedValuesAreRefusedWithTheirReason) {
    EXPECT_EQ(parse_bff_cookie_value("").error(), BffCookieError::empty);
    EXPECT_EQ(parse_bff_cookie_value("nodot").error(), BffCookieError::no_separator);
    EXPECT_EQ(parse_bff_cookie_value("short.AAAA").error(), BffCookieError::bad_session_id);
    EXPECT_EQ(parse_bff_cookie_value("AAAAAAAAAAAAAAAAAAAAAA.").error(), BffCookieError::bad_encoding);
    EXPECT_EQ(parse_bff_cookie_value("AAAAAAAAAAAAAAAAAAAAAA.!!").error(), BffCookieError::bad_encoding);
}

TEST(BffCookie, MaxAgeIsCappedAtTheRefreshTokensLifetime) {
    const Instant now = instant_from_unix_seconds(1'000'000);
    EXPECT_EQ(bff_session_max_age(now + Seconds{120}, now), Seconds{120});
    EXPECT_EQ(bff_session_max_age(now - Seconds{1}, now), Seconds{0});
    EXPECT_EQ(bff_session_max_age(std::nullopt, now), kBffOfflineSessionLifetime);
}

}  // namespace
}  // namespace bff_cookie_test
}  // namespace roomkey
