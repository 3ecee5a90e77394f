// proxy_outcome_test.cpp: the app's reading of the helper's 502/504 answers
// (was the request sent?): only "not_sent" makes a resend safe.
#include "roomkey/proxy_outcome.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace proxy_outcome_test {
namespace {

HttpResponse answer(int status, std::optional<std::string> outcome) {
    HttpResponse r;
    r.status = status;
    if (outcome) r.headers.set("x-roomkey-upstream", *outcome);  // fetch gives lower-case names
    return r;
}

TEST(ProxyOutcome, TokensRoundTripAndUnknownOnesAreRefused) {
    for (auto o : {UpstreamOutcome::not_sent, UpstreamOutcome::no_answer}) {
        EXPECT_EQ(parse_upstream_outcome(to_string(o)), o);
    }
    EXPECT_EQ(parse_upstream_outcome("not-sent"), std::nullopt);
    EXPECT_EQ(parse_upstream_outcome(""), std::nullopt);
}

TEST(ProxyOutcome, OnlyNotSentIsSafeToResend) {
    EXPECT_TRUE(safe_to_resend(read_upstream_outcome(answer(502, "not_sent"))));
    EXPECT_FALSE(safe_to_resend(read_upstream_outcome(answer(502, "no_answer"))));
    EXPECT_FALSE(safe_to_resend(read_upstream_outcome(answer(504, "no_answer"))));
    EXPECT_FALSE(safe_to_resend(read_upstream_outcome(answer(502, std::nullopt))))
        << "a 502 from something other than the helper: outcome unknown";
}

TEST(ProxyOutcome, HeaderCountsOnlyOnGatewayStatuses) {
    EXPECT_EQ(read_upstream_outcome(answer(504, "no_answer")), UpstreamOutcome::no_answer);
    EXPECT_EQ(read_upstream_outcome(answer(200, "not_sent")), std::nullopt);
    EXPECT_EQ(read_upstream_outcome(answer(503, "not_sent")), std::nullopt);
    EXPECT_EQ(read_upstream_outcome(answer(504, "not_sent")), std::nullopt) << "a timeout means the request went out";
    EXPECT_EQ(read_upstream_outcome(answer(502, "maybe")), std::nullopt);
}

TEST(ProxyOutcome, TimeoutIs504EverythingElse502) {
    EXPECT_EQ(upstream_failure_status(UpstreamOutcome::no_answer, true), 504);
    EXPECT_EQ(upstream_failure_status(UpstreamOutcome::no_answer, false), 502);
    EXPECT_EQ(upstream_failure_status(UpstreamOutcome::not_sent, false), 502);
}

// The helper's failure bodies are errors.hpp's bodies plus the outcome: the
// app's error readers read them as any other error body.
TEST(UpstreamFailureBody, IsTheErrorBodyWithTheOutcomeAdded) {
    const std::string api =
        upstream_failure_body(ApiErrorBody{{"the API could not be reached"}}, UpstreamOutcome::not_sent);
    EXPECT_EQ(api, R"({"errors":["the API could not be reached"],"roomkey_upstream":"not_sent"})");
    const auto errors = read_api_error_body(api);
    ASSERT_TRUE(errors) << to_string(errors.error());
    EXPECT_EQ(errors->errors, std::vector<std::string>{"the API could not be reached"});

    const std::string token =
        upstream_failure_body(TokenError{"upstream_unavailable", "no answer"}, UpstreamOutcome::no_answer);
    EXPECT_EQ(token, R"({"error":"upstream_unavailable","error_description":"no answer","error_uri":null,)"
                     R"("roomkey_upstream":"no_answer"})");
    const auto error = read_token_error(token);
    ASSERT_TRUE(error) << to_string(error.error());
    EXPECT_EQ(error->error, "upstream_unavailable");
    EXPECT_EQ(error->description, "no answer");
}

}  // namespace
}  // namespace proxy_outcome_test
}  // namespace roomkey
