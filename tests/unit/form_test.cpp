// form_test.cpp: application/x-www-form-urlencoded (WHATWG URL section 5),
// the format of query strings and of every POST/PUT body (spec 4.1.3, 4.3).
#include <gtest/gtest.h>

#include <string>

#include "roomkey/url.hpp"

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace form_test {
namespace {

FormFields decoded(std::string_view text) {
    auto fields = form_decode(text);
    EXPECT_TRUE(fields) << text << ": " << (fields ? "" : to_string(fields.error()));
    return fields ? *fields : FormFields{};
}

// WHATWG URL 5.2: *-._ and alphanumerics stay, space becomes '+', the rest %XX.
TEST(FormEncode, FollowsTheWhatwgSerializer) {
    EXPECT_EQ(form_encode({{"a", "b"}, {"c d", "e+f"}}), "a=b&c+d=e%2Bf");
    EXPECT_EQ(form_encode({{"x", "*-._~!'()"}}), "x=*-._%7E%21%27%28%29") << "'~' is escaped in forms";
    EXPECT_EQ(form_encode({{"k", "a=b&c"}}), "k=a%3Db%26c");
    EXPECT_EQ(form_encode({{"k", "\xe3\x81\x82"}}), "k=%E3%81%82");
    EXPECT_EQ(form_encode({{"k", "line1\r\nline2"}}), "k=line1%0D%0Aline2");
    EXPECT_EQ(form_encode({{"empty", ""}}), "empty=");
    EXPECT_EQ(form_encode({}), "");
}

TEST(FormEncode, KeepsOrderAndRepeats) {
    EXPECT_EQ(form_encode({{"b", "1"}, {"a", "2"}, {"b", "3"}}), "b=1&a=2&b=3");
}

TEST(FormDecode, SplitsDecodesAndTurnsPlusIntoSpace) {
    const FormFields fields = decoded("code=abc&state=x%2By+z&redirect_uri=https%3A%2F%2Fh%2Fcb");
    ASSERT_EQ(fields.size(), 3u);
    EXPECT_EQ(fields[0], (std::pair<std::string, std::string>{"code", "abc"}));
    EXPECT_EQ(fields[1].second, "x+y z");
    EXPECT_EQ(fields[2].second, "https://h/cb");
}

TEST(FormDecode, FieldWithoutEqualsHasEmptyValueAndEmptyPiecesAreSkipped) {
    const FormFields fields = decoded("&a&&b=&=c&");
    ASSERT_EQ(fields.size(), 3u);
    EXPECT_EQ(fields[0], (std::pair<std::string, std::string>{"a", ""}));
    EXPECT_EQ(fields[1], (std::pair<std::string, std::string>{"b", ""}));
    EXPECT_EQ(fields[2], (std::pair<std::string, std::string>{"", "c"}));
    EXPECT_TRUE(decoded("").empty());
}

TEST(FormDecode, SplitsOnlyAtTheFirstEquals) {
    const FormFields fields = decoded("a=b=c");
    ASSERT_EQ(fields.size(), 1u);
    EXPECT_EQ(fields[0].second, "b=c");
}

// Stricter than WHATWG (which keeps a bad '%' literally): a malformed escape
// in a token request or callback is a broken peer, not data.
TEST(FormDecode, RefusesMalformedPercentEscapes) {
    for (const char* text : {"a=%", "a=%4", "a=%zz", "%=b", "a=1&b=%G0"}) {
        auto fields = form_decode(text);
        ASSERT_FALSE(fields) << text << " should be refused";
        EXPECT_EQ(fields.error(), UrlError::invalid_percent_encoding) << text;
    }
}

TEST(FormDecode, InvertsFormEncode) {
    std::string all;
    for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
    const FormFields fields = {{all, "v"}, {"", ""}, {"k", all}, {"k", " + "}};
    EXPECT_EQ(decoded(form_encode(fields)), fields);
}

TEST(FormGet, ReturnsTheFirstValueAndFormCountCountsRepeats) {
    const FormFields fields = decoded("scope=a&code=1&scope=b");
    EXPECT_EQ(form_get(fields, "scope"), "a");
    EXPECT_EQ(form_get(fields, "code"), "1");
    EXPECT_FALSE(form_get(fields, "state").has_value());
    EXPECT_FALSE(form_get(fields, "Scope").has_value()) << "names are case-sensitive";
    EXPECT_EQ(form_count(fields, "scope"), 2u) << "the token endpoint refuses repeated parameters";
    EXPECT_EQ(form_count(fields, "code"), 1u);
    EXPECT_EQ(form_count(fields, "state"), 0u);
}

TEST(AppendQuery, AddsFieldsBeforeTheFragment) {
    EXPECT_EQ(append_query("https://h/authorize", {{"a", "1"}, {"b", "x y"}}), "https://h/authorize?a=1&b=x+y");
    EXPECT_EQ(append_query("https://h/p?x=1", {{"a", "1"}}), "https://h/p?x=1&a=1");
    EXPECT_EQ(append_query("https://h/p?", {{"a", "1"}}), "https://h/p?a=1");
    EXPECT_EQ(append_query("https://h/p#frag", {{"a", "1"}}), "https://h/p?a=1#frag");
    EXPECT_EQ(append_query("https://h/p", {}), "https://h/p");
}

}  // namespace
}  // namespace form_test
}  // namespace roomkey
