// url_test.cpp: URL parsing/serialising (RFC 3986) and percent-encoding.
#include "roomkey/url.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace url_test {
namespace {

Url parsed(std::string_view text) {
    auto url = parse_url(text);
    EXPECT_TRUE(url) << text << ": " << (url ? "" : to_string(url.error()));
    return url ? *url : Url{};
}

UrlError refused(std::string_view text) {
    auto url = parse_url(text);
    EXPECT_FALSE(url) << text << " should be refused, parsed as " << (url ? to_string(*url) : "");
    return url ? UrlError::empty : url.error();
}

TEST(ParseUrl, SplitsAnHttpsUrlIntoItsParts) {
    const Url url = parsed("HTTPS://API.Example.com:8443/v2/rooms/1?a=b&c=%2F#frag");
    EXPECT_EQ(url.scheme, "https") << "scheme is lowercased";
    EXPECT_EQ(url.host, "api.example.com") << "host is lowercased";
    EXPECT_EQ(url.port, 8443);
    EXPECT_EQ(url.path, "/v2/rooms/1");
    EXPECT_EQ(url.query, "a=b&c=%2F") << "query stays raw";
    EXPECT_EQ(url.fragment, "frag");
    EXPECT_TRUE(url.has_authority);
}

TEST(ParseUrl, DistinguishesAbsentFromEmptyQueryAndFragment) {
    const Url bare = parsed("https://h/p");
    EXPECT_FALSE(bare.query.has_value());
    EXPECT_FALSE(bare.fragment.has_value());
    EXPECT_FALSE(bare.port.has_value());
    const Url empty = parsed("https://h/p?#");
    EXPECT_EQ(empty.query, "");
    EXPECT_EQ(empty.fragment, "");
    EXPECT_EQ(to_string(empty), "https://h/p?#");
}

TEST(ParseUrl, AcceptsHostWithoutPath) {
    const Url url = parsed("http://127.0.0.1:8080");
    EXPECT_EQ(url.host, "127.0.0.1");
    EXPECT_EQ(url.port, 8080);
    EXPECT_EQ(url.path, "");
    const Url with_query = parsed("https://h?x=1");
    EXPECT_EQ(with_query.path, "");
    EXPECT_EQ(with_query.query, "x=1");
}

TEST(ParseUrl, KeepsQuestionMarksInsideTheFragment) {
    const Url url = parsed("https://h/p#a?b");
    EXPECT_FALSE(url.query.has_value()) << "'?' after '#' belongs to the fragment";
    EXPECT_EQ(url.fragment, "a?b");
}

TEST(ParseUrl, ReadsBracketedIpv6Hosts) {
    const Url url = parsed("https://[::1]:8443/callback");
    EXPECT_EQ(url.host, "::1") << "brackets are not part of the host";
    EXPECT_EQ(url.port, 8443);
    EXPECT_EQ(to_string(url), "https://[::1]:8443/callback");
    EXPECT_EQ(parsed("http://[2001:DB8::A]/").host, "2001:db8::a");
    EXPECT_EQ(parsed("http://[1:2:3:4:5:6:7:8]").host, "1:2:3:4:5:6:7:8");
    EXPECT_EQ(parsed("http://[::ffff:192.0.2.1]").host, "::ffff:192.0.2.1");
    EXPECT_EQ(parsed("http://[::]").host, "::");
}

TEST(ParseUrl, RefusesMalformedIpv6Hosts) {
    EXPECT_EQ(refused("http://[::1/"), UrlError::invalid_host) << "unclosed bracket";
    EXPECT_EQ(refused("http://[1:2:3:4:5:6:7:8:9]/"), UrlError::invalid_host) << "nine groups";
    EXPECT_EQ(refused("http://[1:2:3:4:5:6:7]/"), UrlError::invalid_host) << "seven groups without ::";
    EXPECT_EQ(refused("http://[1::2::3]/"), UrlError::invalid_host) << "two ::";
    EXPECT_EQ(refused("http://[12345::]/"), UrlError::invalid_host) << "group of five digits";
    EXPECT_EQ(refused("http://[::g]/"), UrlError::invalid_host);
    EXPECT_EQ(refused("http://[::1]x/"), UrlError::invalid_host) << "junk after ']'";
    EXPECT_EQ(refused("http://[::256.0.0.1]/"), UrlError::invalid_host);
    EXPECT_EQ(refused("http://[127.0.0.1]/"), UrlError::invalid_host) << "IPv4 is not an IPv6 literal";
    EXPECT_EQ(refused("http://a[b]/"), UrlError::invalid_host);
    EXPECT_EQ(refused("http://h/[x]"), UrlError::invalid_character) << "brackets only around a host";
}

TEST(ParseUrl, ReadsCustomSchemesWithAndWithoutAuthority) {
    const Url app = parsed("com.example.app:/oauth2redirect?code=x");
    EXPECT_EQ(app.scheme, "com.example.app");
    EXPECT_FALSE(app.has_authority);
    EXPECT_EQ(app.host, "");
    EXPECT_EQ(app.path, "/oauth2redirect");
    EXPECT_EQ(app.query, "code=x");

    const Url with_host = parsed("myapp://callback/done");
    EXPECT_TRUE(with_host.has_authority);
    EXPECT_EQ(with_host.host, "callback");
    EXPECT_EQ(with_host.path, "/done");

    const Url rootless = parsed("urn:ietf:rfc:3986");
    EXPECT_EQ(rootless.path, "ietf:rfc:3986");
    EXPECT_EQ(to_string(rootless), "urn:ietf:rfc:3986");

    const Url empty_host = parsed("file:///etc/hosts");
    EXPECT_TRUE(empty_host.has_authority);
    EXPECT_EQ(empty_host.host, "") << "custom schemes may have an empty host";
    EXPECT_EQ(empty_host.path, "/etc/hosts");
}

TEST(ParseUrl, RequiresAHostForHttpAndHttps) {
    EXPECT_EQ(refused("https:///path"), UrlError::missing_host);
    EXPECT_EQ(refused("http:foo"), UrlError::missing_host);
    EXPECT_EQ(refused("https://:443/"), UrlError::missing_host);
}

TEST(ParseUrl, RefusesMissingOrInvalidSchemes) {
    EXPECT_EQ(refused(""), UrlError::empty);
    EXPECT_EQ(refused("/relative/path"), UrlError::missing_scheme);
    EXPECT_EQ(refused("example.com"), UrlError::missing_scheme);
    EXPECT_EQ(refused("://h"), UrlError::missing_scheme);
    EXPECT_EQ(refused("a/b:c"), UrlError::missing_scheme) << "':' after '/' is not a scheme separator";
    EXPECT_EQ(refused("1http://h"), UrlError::invalid_scheme) << "a scheme starts with a letter";
    EXPECT_EQ(refused("ht_tp://h"), UrlError::invalid_scheme);
}

TEST(ParseUrl, ChecksPorts) {
    EXPECT_EQ(parsed("http://h:0/").port, 0);
    EXPECT_EQ(parsed("http://h:65535/").port, 65535);
    EXPECT_EQ(refused("http://h:65536/"), UrlError::invalid_port);
    EXPECT_EQ(refused("http://h:99999999999999999999/"), UrlError::invalid_port);
    EXPECT_EQ(refused("http://h:/"), UrlError::invalid_port) << "an empty port is refused, not ignored";
    EXPECT_EQ(refused("http://h:8a/"), UrlError::invalid_port);
    EXPECT_EQ(refused("http://h:-1/"), UrlError::invalid_port);
    EXPECT_EQ(refused("http://h:80:80/"), UrlError::invalid_port);
}

// The userinfo trick "https://good.example@evil.example/" shows one host and
// connects to another; nothing in the spec needs userinfo.
TEST(ParseUrl, RefusesUserinfo) {
    EXPECT_EQ(refused("https://good.example@evil.example/"), UrlError::userinfo_not_allowed);
    EXPECT_EQ(refused("https://user:pw@h/"), UrlError::userinfo_not_allowed);
    EXPECT_EQ(parsed("https://h/a@b").path, "/a@b") << "'@' in the path is fine";
}

TEST(ParseUrl, RefusesCharactersOutsideRfc3986) {
    EXPECT_EQ(refused("https://h/a b"), UrlError::invalid_character);
    EXPECT_EQ(refused("https://h/a\tb"), UrlError::invalid_character);
    EXPECT_EQ(refused(std::string("https://h/a\0b", 13)), UrlError::invalid_character);
    EXPECT_EQ(refused("https://h/\x7f"), UrlError::invalid_character);
    EXPECT_EQ(refused("https://h/caf\xc3\xa9"), UrlError::invalid_character) << "non-ASCII must arrive encoded";
    EXPECT_EQ(refused("https://h\\@evil/"), UrlError::invalid_character) << "'\\' reads as '/' in browsers";
    EXPECT_EQ(refused("https://h/<script>"), UrlError::invalid_character);
    EXPECT_EQ(refused("https://h/#a#b"), UrlError::invalid_character) << "'#' inside a fragment";
}

TEST(ParseUrl, RefusesMalformedPercentEscapes) {
    EXPECT_EQ(refused("https://h/%"), UrlError::invalid_percent_encoding);
    EXPECT_EQ(refused("https://h/%4"), UrlError::invalid_percent_encoding);
    EXPECT_EQ(refused("https://h/%zz"), UrlError::invalid_percent_encoding);
    EXPECT_EQ(refused("https://h/?q=%G1"), UrlError::invalid_percent_encoding);
    EXPECT_EQ(refused("https://h/#%"), UrlError::invalid_percent_encoding);
    EXPECT_EQ(parsed("https://h/%2e%2E").path, "/%2e%2E") << "valid escapes stay as they are";
}

TEST(UrlToString, IsTheInverseOfParse) {
    for (const char* text : {"https://api.example.com/v2", "http://127.0.0.1:8443/callback?code=a&state=b",
                             "https://[::1]/", "com.example.app:/cb", "myapp://cb#x", "urn:x", "file:///",
                             "https://h?", "x://:5"}) {
        const Url url = parsed(text);
        EXPECT_EQ(to_string(url), text);
        EXPECT_EQ(parsed(to_string(url)), url) << text;
    }
}

TEST(OriginOf, DropsPathQueryAndDefaultPort) {
    EXPECT_EQ(origin_of(parsed("https://H.example:443/a?b#c")), "https://h.example");
    EXPECT_EQ(origin_of(parsed("http://h:80/")), "http://h");
    EXPECT_EQ(origin_of(parsed("https://127.0.0.1:8443/callback")), "https://127.0.0.1:8443");
    EXPECT_EQ(origin_of(parsed("http://h:443/")), "http://h:443") << "443 is only https's default";
    EXPECT_EQ(origin_of(parsed("https://[::1]:8443/")), "https://[::1]:8443");
}

TEST(PercentEncode, KeepsOnlyUnreservedCharacters) {
    EXPECT_EQ(percent_encode("AZaz09-._~"), "AZaz09-._~");
    EXPECT_EQ(percent_encode("a b+c/d?e=f&g%"), "a%20b%2Bc%2Fd%3Fe%3Df%26g%25");
    EXPECT_EQ(percent_encode("\xe3\x81\x82"), "%E3%81%82") << "bytes, uppercase hex";
    EXPECT_EQ(percent_encode(std::string("\0", 1)), "%00");
}

TEST(PercentDecode, DecodesEscapesOfEitherCase) {
    EXPECT_EQ(percent_decode("a%20b%2fc%2F").value(), "a b/c/");
    EXPECT_EQ(percent_decode("%E3%81%82").value(), "\xe3\x81\x82");
    EXPECT_EQ(percent_decode("%00").value(), std::string("\0", 1));
    EXPECT_EQ(percent_decode("a+b").value(), "a+b") << "'+' is literal outside forms";
    EXPECT_EQ(percent_decode("a+b", true).value(), "a b");
    EXPECT_EQ(percent_decode("%2B", true).value(), "+");
}

TEST(PercentDecode, RefusesMalformedEscapes) {
    for (const char* text : {"%", "%4", "a%g0", "%0g", "%%41", "100%"}) {
        auto decoded = percent_decode(text);
        ASSERT_FALSE(decoded) << text << " decoded to " << decoded.value();
        EXPECT_EQ(decoded.error(), UrlError::invalid_percent_encoding) << text;
    }
}

TEST(PercentDecode, InvertsPercentEncode) {
    std::string all;
    for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
    EXPECT_EQ(percent_decode(percent_encode(all)).value(), all);
}

TEST(UrlError, HasStableIdentifiers) {
    EXPECT_EQ(to_string(UrlError::invalid_percent_encoding), "url.invalid_percent_encoding");
    EXPECT_EQ(to_string(UrlError::userinfo_not_allowed), "url.userinfo_not_allowed");
    EXPECT_EQ(to_string(UrlError::missing_host), "url.missing_host");
}

}  // namespace
}  // namespace url_test
}  // namespace roomkey
