#include "roomkey/http.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace http_test {
namespace {

TEST(Headers, NamesCompareCaseInsensitively) {
    Headers h;
    h.add("WWW-Authenticate", "Bearer");
    EXPECT_EQ(h.get("www-authenticate"), "Bearer");
    EXPECT_TRUE(h.has("Www-Authenticate"));
    EXPECT_FALSE(h.get("authenticate").has_value());
}

TEST(Headers, SetReplacesEveryFieldOfThatName) {
    Headers h{{"X-A", "1"}, {"x-a", "2"}, {"B", "3"}};
    h.set("X-a", "9");
    ASSERT_EQ(h.fields().size(), 2u);
    EXPECT_EQ(h.get("x-a"), "9");
    EXPECT_EQ(h.fields()[0].first, "B");
}

TEST(Headers, AddKeepsOrderAndGetReturnsFirst) {
    Headers h;
    h.add("Set-Cookie", "a");
    h.add("set-cookie", "b");
    EXPECT_EQ(h.get("SET-COOKIE"), "a");
    h.remove("set-Cookie");
    EXPECT_TRUE(h.empty());
}

TEST(Method, HasItsWireName) {
    EXPECT_EQ(to_string(Method::Get), "GET");
    EXPECT_EQ(to_string(Method::Post), "POST");
    EXPECT_EQ(to_string(Method::Put), "PUT");
    EXPECT_EQ(to_string(Method::Delete), "DELETE");
}

// The one form rule the token endpoint, the sandbox's API, the helper's proxy
// and the page's HTTP log share (they had three copies with two behaviours).
TEST(FormContentType, TheMediaTypeDecidesInAnyCaseWithParameters) {
    EXPECT_TRUE(is_form_content_type(std::string("application/x-www-form-urlencoded")));
    EXPECT_TRUE(is_form_content_type(std::string("application/x-www-form-urlencoded; charset=UTF-8")));
    EXPECT_TRUE(is_form_content_type(std::string("Application/X-WWW-Form-Urlencoded")));
    EXPECT_TRUE(is_form_content_type(std::string(" application/x-www-form-urlencoded \t;charset=utf-8")));
    EXPECT_FALSE(is_form_content_type(std::nullopt));
    EXPECT_FALSE(is_form_content_type(std::string("")));
    EXPECT_FALSE(is_form_content_type(std::string("application/json")));
    EXPECT_FALSE(is_form_content_type(std::string("application/x-www-form-urlencodedx")));
    EXPECT_FALSE(is_form_content_type(std::string("application/x-www-form-urlencoded garbage")));
    EXPECT_FALSE(is_form_content_type(std::string("multipart/form-data; boundary=x")));
    EXPECT_TRUE(has_form_content_type(Headers{{"content-type", "application/x-www-form-urlencoded"}}));
    EXPECT_FALSE(has_form_content_type(Headers{}));
}

}  // namespace
}  // namespace http_test
}  // namespace roomkey
