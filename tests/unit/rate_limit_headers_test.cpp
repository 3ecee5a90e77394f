// rate_limit_headers_test.cpp: the x-ratelimit-* headers (spec 8.1).
#include "roomkey/rate_limit_headers.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace rate_limit_headers_test {
namespace {

Headers three(std::string limit, std::string remaining, std::string reset) {
    return Headers{{"x-ratelimit-limit", std::move(limit)},
                   {"x-ratelimit-remaining", std::move(remaining)},
                   {"x-ratelimit-reset", std::move(reset)}};
}

// spec 8.1: limit, remaining, reset (Unix seconds).
TEST(RateLimitHeaders, Spec81ReadsAllThree) {
    auto read = read_rate_limit(three("300", "299", "1700000000"));
    ASSERT_TRUE(read) << to_string(read.error());
    ASSERT_TRUE(read->has_value()) << "all three headers given, no rate limit read";
    EXPECT_EQ((*read)->limit, 300);
    EXPECT_EQ((*read)->remaining, 299);
    EXPECT_EQ(unix_seconds((*read)->reset), 1700000000);
}

TEST(RateLimitHeaders, NamesAreCaseInsensitiveAndSpacesTrimmed) {
    Headers headers{{"X-RateLimit-Limit", " 300"}, {"X-RATELIMIT-REMAINING", "0\t"}, {"x-ratelimit-reset", "5"}};
    auto read = read_rate_limit(headers);
    ASSERT_TRUE(read) << to_string(read.error());
    ASSERT_TRUE(read->has_value()) << "all three headers given, no rate limit read";
    EXPECT_EQ((*read)->remaining, 0) << "spec 7.3: a 429 carries remaining = 0";
}

TEST(RateLimitHeaders, AbsentHeadersAreNotAnError) {
    auto read = read_rate_limit(Headers{{"content-type", "application/json"}});
    ASSERT_TRUE(read) << to_string(read.error());
    EXPECT_FALSE(read->has_value());
}

TEST(RateLimitHeaders, EdgeValuesAccepted) {
    auto equal = read_rate_limit(three("300", "300", "0"));
    ASSERT_TRUE(equal) << "remaining == limit is a fresh window: " << to_string(equal.error());
    auto zero = read_rate_limit(three("0", "0", "1700000000"));
    ASSERT_TRUE(zero) << to_string(zero.error());
    auto padded = read_rate_limit(three("0300", "007", "1700000000"));
    ASSERT_TRUE(padded) << to_string(padded.error());
    EXPECT_EQ((*padded)->limit, 300);
}

TEST(RateLimitHeaders, MalformedValuesGiveErrors) {
    struct Case {
        Headers headers;
        RateLimitHeaderError expected;
        const char* why;
    };
    Headers incomplete{{"x-ratelimit-limit", "300"}, {"x-ratelimit-reset", "1"}};
    Headers repeated = three("300", "1", "1");
    repeated.add("X-RateLimit-Remaining", "2");
    const Case cases[] = {
        {incomplete, RateLimitHeaderError::incomplete, "remaining missing"},
        {repeated, RateLimitHeaderError::repeated, "two remaining fields"},
        {three("", "1", "1"), RateLimitHeaderError::not_a_number, "empty"},
        {three("abc", "1", "1"), RateLimitHeaderError::not_a_number, "letters"},
        {three("300", "1.5", "1"), RateLimitHeaderError::not_a_number, "decimal"},
        {three("+300", "1", "1"), RateLimitHeaderError::not_a_number, "plus sign"},
        {three("300", "1", "0x10"), RateLimitHeaderError::not_a_number, "hex"},
        {three("3 00", "1", "1"), RateLimitHeaderError::not_a_number, "inner space"},
        {three("300", "-1", "1"), RateLimitHeaderError::negative, "negative remaining"},
        {three("-", "1", "1"), RateLimitHeaderError::not_a_number, "lone minus"},
        {three("99999999999999999999999", "1", "1"), RateLimitHeaderError::out_of_range, "huge"},
        {three("300", "1", "253402300800"), RateLimitHeaderError::out_of_range, "reset after year 9999"},
        {three("300", "301", "1"), RateLimitHeaderError::remaining_exceeds_limit, "remaining > limit"},
    };
    for (const auto& c : cases) {
        auto read = read_rate_limit(c.headers);
        ASSERT_FALSE(read) << "accepted: " << c.why;
        EXPECT_EQ(read.error(), c.expected) << c.why << " gave " << to_string(read.error());
    }
}

TEST(RateLimitHeaders, WriteThenReadRoundTrips) {
    Headers headers{{"X-RateLimit-Limit", "1"}, {"content-type", "application/json"}};
    RateLimit written{300, 12, instant_from_unix_ms(1700000000999)};
    write_rate_limit(headers, written);
    EXPECT_EQ(headers.get("x-ratelimit-limit"), "300") << "the old field is replaced";
    EXPECT_EQ(headers.get("x-ratelimit-reset"), "1700000001")
        << "rounded up: waiting until the stated second must never be early (spec 8.1)";
    auto read = read_rate_limit(headers);
    ASSERT_TRUE(read) << to_string(read.error());
    ASSERT_TRUE(read->has_value()) << "the written headers read back as no rate limit";
    EXPECT_EQ(**read, (RateLimit{300, 12, instant_from_unix_seconds(1700000001)}));
    write_rate_limit(headers, RateLimit{300, 12, instant_from_unix_seconds(1700000000)});
    EXPECT_EQ(headers.get("x-ratelimit-reset"), "1700000000") << "a whole second stays as it is";
    write_rate_limit(headers, RateLimit{300, 12, instant_from_unix_ms(-1500)});
    EXPECT_EQ(headers.get("x-ratelimit-reset"), "-1") << "ceiling before the epoch too";
}

}  // namespace
}  // namespace rate_limit_headers_test
}  // namespace roomkey
