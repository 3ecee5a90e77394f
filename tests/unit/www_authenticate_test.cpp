// www_authenticate_test.cpp: WWW-Authenticate parsing (RFC 9110 11.6.1) and the
// Bearer challenge of spec 5.2 / 7.3.
#include "roomkey/www_authenticate.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace www_authenticate_test {
namespace {

std::vector<Challenge> parse_ok(std::string_view value) {
    auto parsed = parse_www_authenticate(value);
    EXPECT_TRUE(parsed) << "refused [" << value << "]: " << (parsed ? "" : to_string(parsed.error()));
    return parsed ? parsed.value() : std::vector<Challenge>{};
}

// spec 5.2.2: the exact form the service sends.
TEST(WwwAuthenticate, Spec522BearerInvalidToken) {
    auto challenges = parse_ok(R"(Bearer error="invalid_token", error_description="The access token expired")");
    ASSERT_EQ(challenges.size(), 1u);
    EXPECT_EQ(challenges[0].scheme, "Bearer");
    EXPECT_EQ(challenges[0].param("error"), "invalid_token");
    EXPECT_EQ(challenges[0].param("ERROR_DESCRIPTION"), "The access token expired") << "names are case-insensitive";
    EXPECT_FALSE(challenges[0].token68);
}

TEST(WwwAuthenticate, SeveralChallengesInOneField) {
    auto challenges = parse_ok(R"(Basic realm="api", charset="UTF-8", Bearer realm="api", error=invalid_token)");
    ASSERT_EQ(challenges.size(), 2u);
    EXPECT_EQ(challenges[0].scheme, "Basic");
    EXPECT_EQ(challenges[0].params.size(), 2u);
    EXPECT_EQ(challenges[1].scheme, "Bearer");
    EXPECT_EQ(challenges[1].param("error"), "invalid_token") << "token values need no quotes";
}

TEST(WwwAuthenticate, Token68AndBareSchemes) {
    auto challenges = parse_ok("Negotiate, Basic dXNlcjpwYXNz==, NTLM abc/+.-_~, Bearer realm=\"r\"");
    ASSERT_EQ(challenges.size(), 4u);
    EXPECT_FALSE(challenges[0].token68);
    EXPECT_TRUE(challenges[0].params.empty());
    EXPECT_EQ(challenges[1].token68, "dXNlcjpwYXNz==");
    EXPECT_EQ(challenges[2].token68, "abc/+.-_~");
    EXPECT_EQ(challenges[3].param("realm"), "r");
}

TEST(WwwAuthenticate, QuotedStringEscapesAreUndone) {
    auto challenges = parse_ok(R"(Bearer error_description="say \"hi\" \\ back\, now", realm="a,b=c")");
    ASSERT_EQ(challenges.size(), 1u);
    EXPECT_EQ(challenges[0].param("error_description"), R"(say "hi" \ back, now)");
    EXPECT_EQ(challenges[0].param("realm"), "a,b=c") << "commas and '=' inside quotes are data";
}

// RFC 9110 5.6.1.2: empty list elements are accepted; BWS around '='.
TEST(WwwAuthenticate, EmptyElementsAndWhitespace) {
    auto challenges = parse_ok(" , Bearer  realm = \"r\" ,, error=\"invalid_token\"  ,");
    ASSERT_EQ(challenges.size(), 1u);
    EXPECT_EQ(challenges[0].param("realm"), "r");
    EXPECT_EQ(challenges[0].param("error"), "invalid_token");
}

// "abc=" is token68 (padding), not a parameter without a value.
TEST(WwwAuthenticate, TrailingEqualsIsToken68) {
    auto challenges = parse_ok("Bearer error=");
    ASSERT_EQ(challenges.size(), 1u);
    EXPECT_EQ(challenges[0].token68, "error=");
    EXPECT_TRUE(challenges[0].params.empty());
}

TEST(WwwAuthenticate, UnicodeInQuotedStringIsKept) {
    auto challenges = parse_ok("Bearer error_description=\"トークン\"");
    ASSERT_EQ(challenges.size(), 1u);
    EXPECT_EQ(challenges[0].param("error_description"), "トークン");
}

TEST(WwwAuthenticate, MalformedValuesGiveErrors) {
    struct Case {
        std::string value;
        WwwAuthenticateError expected;
    };
    const Case cases[] = {
        {"", WwwAuthenticateError::empty},
        {" , ,", WwwAuthenticateError::empty},
        {"=x", WwwAuthenticateError::expected_scheme},
        {"\"Bearer\"", WwwAuthenticateError::expected_scheme},
        {"Bearer error=\"invalid_token", WwwAuthenticateError::unterminated_quoted_string},
        {"Bearer error=\"abc\\", WwwAuthenticateError::unterminated_quoted_string},
        {"Bearer realm=x, error=", WwwAuthenticateError::expected_value},
        {"Bearer realm=x, error= , scope=y", WwwAuthenticateError::expected_value},
        {"Bearer error=, realm=x", WwwAuthenticateError::expected_param},  // token68 "error=", then junk
        {"Bearer error=\"a\", ERROR=\"b\"", WwwAuthenticateError::duplicate_param},
        {std::string("Bearer realm=\"a\x01\""), WwwAuthenticateError::invalid_character},
        {std::string("Bearer realm=\"a\nb\""), WwwAuthenticateError::invalid_character},
        {"Bearer realm=\"x\" junk", WwwAuthenticateError::expected_param},
        {"Bearer realm=x y=z", WwwAuthenticateError::expected_param},
        {"Bearer(x)", WwwAuthenticateError::expected_param},
        {"Bearer abc def", WwwAuthenticateError::expected_param},
    };
    for (const auto& c : cases) {
        auto parsed = parse_www_authenticate(c.value);
        ASSERT_FALSE(parsed) << "accepted [" << c.value << "]";
        EXPECT_EQ(parsed.error(), c.expected) << "[" << c.value << "] gave " << to_string(parsed.error());
    }
}

TEST(BearerChallenge, FoundAmongSeveralFieldsSkippingBrokenOnes) {
    Headers headers;
    headers.add("Content-Type", "application/json");
    headers.add("WWW-Authenticate", "Bearer error=\"broken");
    headers.add("www-authenticate", "Basic realm=\"x\"");
    headers.add("WWW-AUTHENTICATE", "bearer realm=\"api\", error=\"invalid_token\", scope=\"users.all:read\"");
    auto bearer = find_bearer_challenge(headers);
    ASSERT_TRUE(bearer) << "scheme names are case-insensitive (RFC 9110 11.1)";
    EXPECT_EQ(bearer->realm, "api");
    EXPECT_EQ(bearer->error, "invalid_token");
    EXPECT_EQ(bearer->scope, "users.all:read");
    EXPECT_FALSE(bearer->error_description);
    EXPECT_FALSE(find_bearer_challenge(Headers{{"WWW-Authenticate", "Basic realm=\"x\""}}));
    EXPECT_FALSE(find_bearer_challenge(Headers{}));
}

// spec 5.2.2 / 7.3: 401 + Bearer error="invalid_token" means refresh.
TEST(BearerChallenge, Spec73IsInvalidToken) {
    HttpResponse expired{401, {{"WWW-Authenticate", format_bearer_challenge("invalid_token", "The access token expired")}}, ""};
    EXPECT_TRUE(is_invalid_token(expired));
    HttpResponse forbidden = expired;
    forbidden.status = 403;
    EXPECT_FALSE(is_invalid_token(forbidden)) << "only a 401";
    HttpResponse scope{401, {{"WWW-Authenticate", "Bearer error=\"insufficient_scope\""}}, ""};
    EXPECT_FALSE(is_invalid_token(scope));
    HttpResponse api_token{401, {}, R"({"errors":["Invalid API token"]})"};
    EXPECT_FALSE(is_invalid_token(api_token)) << "a wrong API token (spec 5.1.4) has no challenge";
    HttpResponse junk{401, {{"WWW-Authenticate", "Bearer error=\"invalid_token"}}, ""};
    EXPECT_FALSE(is_invalid_token(junk));
    // A broken challenge of another scheme after the Bearer one must not hide it.
    HttpResponse then_junk{401, {{"WWW-Authenticate", "Bearer error=\"invalid_token\", Foo x=\"unterminated"}}, ""};
    EXPECT_TRUE(is_invalid_token(then_junk));
}

TEST(BearerChallenge, Spec522FormatExactText) {
    EXPECT_EQ(format_bearer_challenge("invalid_token", "The access token expired"),
              R"(Bearer error="invalid_token", error_description="The access token expired")");
    EXPECT_EQ(format_bearer_challenge("insufficient_scope", "", "rooms.messages:write"),
              R"(Bearer error="insufficient_scope", scope="rooms.messages:write")");
}

TEST(BearerChallenge, FormatEscapesAndRoundTrips) {
    BearerChallenge original{std::string("r\"e\\alm"), std::string("invalid_token"),
                             std::string("quote \" backslash \\ tab\tend"), std::nullopt};
    Headers headers{{"WWW-Authenticate", format_bearer_challenge(original)}};
    auto read = find_bearer_challenge(headers);
    ASSERT_TRUE(read) << headers.get("WWW-Authenticate").value_or("");
    EXPECT_EQ(*read, original) << headers.get("WWW-Authenticate").value_or("");
}

TEST(BearerChallenge, FormatReplacesControlCharacters) {
    const std::string value = format_bearer_challenge("invalid_token", std::string("line1\r\nline2\x7f"));
    EXPECT_EQ(value, R"(Bearer error="invalid_token", error_description="line1  line2 ")")
        << "a header value must never carry CR/LF (header injection)";
    EXPECT_TRUE(parse_www_authenticate(value).ok());
}

}  // namespace
}  // namespace www_authenticate_test
}  // namespace roomkey
