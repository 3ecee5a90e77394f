// errors_test.cpp: the error catalogs (spec 7.1-7.3) and error bodies (spec 2.4, 2.7).
#include "roomkey/errors.hpp"
#include "roomkey/www_authenticate.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace errors_test {
namespace {

// spec 7.1: exactly these 16 numbers, in this order.
TEST(AuthorizationErrors, Spec71TableHasAllSixteenCodesInOrder) {
    const std::vector<int> expected = {1001, 3001, 4001, 4002, 5001, 5002, 5003, 11000,
                                       12000, 13000, 14000, 15000, 16000, 18000, 19000, 20000};
    const auto& all = all_authorization_errors();
    ASSERT_EQ(all.size(), expected.size());
    std::set<std::string_view> identifiers;
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(to_number(all[i].code), expected[i]) << "row " << i << " out of spec order";
        EXPECT_TRUE(identifiers.insert(all[i].identifier).second) << "duplicate identifier " << all[i].identifier;
        EXPECT_FALSE(all[i].description.empty()) << all[i].identifier;
        EXPECT_FALSE(all[i].condition.empty()) << all[i].identifier;
        EXPECT_FALSE(all[i].remedy.empty()) << all[i].identifier << " has no remedy for the user";
        EXPECT_FALSE(all[i].oauth_error.empty()) << all[i].identifier;
        EXPECT_EQ(&info(all[i].code), &all[i]) << "info() must find the row of " << all[i].identifier;
        EXPECT_EQ(to_string(all[i].code), all[i].identifier);
    }
}

// spec 7.1: the descriptions are the service's own text.
// All sixteen rows of spec 7.1, copied from the spec's table by hand.
TEST(AuthorizationErrors, Spec71DescriptionsAreVerbatim) {
    const std::pair<int, const char*> table[] = {
        {1001, "`response_type` parameter is missing."},
        {3001, "The resource owner denied the request."},
        {4001, "`token` response type is not supported."},
        {4002, "<response type> response type is unknown."},
        {5001, "Scope is missing."},
        {5002, "The scope is unknown."},
        {5003, "The scope is unregistered."},
        {11000, "`client_id` is missing."},
        {12000, "The client ID <client_id> is unknown."},
        {13000, "`redirect_uri` is missing."},
        {14000, "The redirect URI is malformed."},
        {15000, "The redirect URI is unregistered."},
        {16000, "reserved authorization request is not found or already timed out."},
        {18000, "`code_challenge_method` is unsupported."},
        {19000, "`code_challenge` is malformed."},
        {20000, "`code_verifier` is malformed."},
    };
    for (const auto& [number, text] : table) {
        const auto code = authorization_error_from_number(number);
        ASSERT_TRUE(code) << number << " is in spec 7.1";
        EXPECT_EQ(info(*code).description, text) << number;
    }
}

TEST(AuthorizationErrors, FromNumberFindsListedCodesOnly) {
    EXPECT_EQ(authorization_error_from_number(5002), AuthorizationErrorCode::scope_unknown);
    EXPECT_EQ(authorization_error_from_number(20000), AuthorizationErrorCode::code_verifier_malformed);
    EXPECT_FALSE(authorization_error_from_number(17000)) << "17000 is not in spec 7.1";
    EXPECT_FALSE(authorization_error_from_number(0));
    EXPECT_FALSE(authorization_error_from_number(-1001));
}

// spec 7.1: 4002 and 12000 carry the offending value in their text.
TEST(AuthorizationErrors, DescribeFillsPlaceholders) {
    EXPECT_EQ(describe(AuthorizationErrorCode::response_type_unknown, "foo"), "foo response type is unknown.");
    EXPECT_EQ(describe(AuthorizationErrorCode::client_id_unknown, "abc123"), "The client ID abc123 is unknown.");
    EXPECT_EQ(describe(AuthorizationErrorCode::scope_missing, "ignored"), "Scope is missing.");
}

// spec 4.2 / 7.1: denial is reported as error=access_denied on the redirect.
TEST(AuthorizationErrors, AccessDeniedMapsToOAuthAccessDenied) {
    EXPECT_EQ(info(AuthorizationErrorCode::access_denied).oauth_error, "access_denied");
    EXPECT_EQ(info(AuthorizationErrorCode::scope_unknown).oauth_error, "invalid_scope");
    EXPECT_EQ(info(AuthorizationErrorCode::token_response_type_unsupported).oauth_error,
              "unsupported_response_type");
}

// spec 2.4: error_uri is always null.
TEST(TokenErrors, Spec24ToJsonHasErrorDescriptionAndNullUri) {
    const std::string text = to_json(TokenError{"invalid_grant", "The code expired."});
    auto body = nlohmann::json::parse(text, nullptr, false);
    ASSERT_TRUE(body.is_object()) << text;
    ASSERT_TRUE(body.contains("error") && body.contains("error_description") && body.contains("error_uri")) << text;
    EXPECT_EQ(body["error"], "invalid_grant");
    EXPECT_EQ(body["error_description"], "The code expired.");
    EXPECT_TRUE(body["error_uri"].is_null()) << "spec 2.4: error_uri is always null";
}

TEST(TokenErrors, ToJsonSurvivesInvalidUtf8) {
    // The default nlohmann behaviour would throw, which aborts under JSON_NOEXCEPTION.
    const std::string text = to_json(TokenError{"invalid_request", std::string("bad \xff byte")});
    EXPECT_TRUE(read_token_error(text).ok()) << text;
}

TEST(TokenErrors, RoundTripThroughJson) {
    TokenError original{"invalid_client", "Client authentication failed \"quoted\"."};
    auto read = read_token_error(to_json(original));
    ASSERT_TRUE(read) << to_string(read.error());
    EXPECT_EQ(read->error, original.error);
    EXPECT_EQ(read->description, original.description);
}

// spec 7.2 leaves the status open; RFC 6749 5.2 gives 400, 401 for invalid_client.
TEST(TokenErrors, HttpStatusFollowsRfc6749) {
    EXPECT_EQ(http_status(TokenError{"invalid_client", ""}), 401);
    EXPECT_EQ(http_status(TokenError{"invalid_grant", ""}), 400);
    EXPECT_EQ(http_status(TokenError{"invalid_scope", ""}), 400);
    EXPECT_EQ(http_status(TokenError{"server_error", ""}), 500);
    EXPECT_EQ(http_status(TokenError{"made_up", ""}), 400);
}

TEST(TokenErrors, EveryWellKnownIdentifierHasARemedy) {
    for (const auto& entry : all_token_errors()) {
        EXPECT_EQ(token_error_info(entry.identifier), &entry) << entry.identifier;
        EXPECT_FALSE(entry.cause.empty()) << entry.identifier;
        EXPECT_EQ(remedy(TokenError{std::string(entry.identifier), ""}), entry.remedy);
    }
    EXPECT_EQ(token_error_info("invalid_token"), nullptr) << "invalid_token is an RFC 6750 resource error";
    EXPECT_FALSE(remedy(TokenError{"made_up", ""}).empty()) << "unknown identifiers still get advice";
}

TEST(TokenErrors, ReadAcceptsMissingDescriptionAndStringUri) {
    auto bare = read_token_error(R"({"error":"invalid_grant"})");
    ASSERT_TRUE(bare) << to_string(bare.error());
    EXPECT_EQ(bare->description, "");
    auto with_uri = read_token_error(R"({"error":"invalid_grant","error_uri":"https://x/doc"})");
    EXPECT_TRUE(with_uri) << "RFC 6749 allows a URI string even if the service sends null";
}

TEST(TokenErrors, ReadRefusesBrokenBodies) {
    struct Case {
        const char* body;
        ErrorBodyError expected;
    };
    const Case cases[] = {
        {"", ErrorBodyError::not_json},
        {"<html>502</html>", ErrorBodyError::not_json},
        {"[\"invalid_grant\"]", ErrorBodyError::not_object},
        {"{}", ErrorBodyError::error_missing},
        {R"({"error":5})", ErrorBodyError::error_not_string},
        {R"({"error":""})", ErrorBodyError::error_not_string},
        {R"({"error":"x","error_description":false})", ErrorBodyError::description_not_string},
        {R"({"error":"x","error_uri":3})", ErrorBodyError::error_uri_invalid},
    };
    for (const auto& c : cases) {
        auto read = read_token_error(c.body);
        ASSERT_FALSE(read) << "accepted " << c.body;
        EXPECT_EQ(read.error(), c.expected) << c.body << " gave " << to_string(read.error());
    }
}

// spec 2.7 / 7.3
TEST(ApiErrors, Spec27BodyRoundTrips) {
    ApiErrorBody body{{std::string(kPerRoomRateLimitMessage), "second"}};
    const std::string text = to_json(body);
    EXPECT_EQ(text, R"({"errors":["Rate limit for message posting per room exceeded.","second"]})");
    auto read = read_api_error_body(text);
    ASSERT_TRUE(read) << to_string(read.error());
    EXPECT_EQ(read->errors, body.errors);
}

TEST(ApiErrors, ReadRefusesBrokenBodies) {
    EXPECT_EQ(read_api_error_body("nope").error(), ErrorBodyError::not_json);
    EXPECT_EQ(read_api_error_body("7").error(), ErrorBodyError::not_object);
    EXPECT_EQ(read_api_error_body(R"({"error":"x"})").error(), ErrorBodyError::errors_missing);
    EXPECT_EQ(read_api_error_body(R"({"errors":"x"})").error(), ErrorBodyError::errors_not_array);
    EXPECT_EQ(read_api_error_body(R"({"errors":["a",1]})").error(), ErrorBodyError::errors_item_not_string);
    EXPECT_TRUE(read_api_error_body(R"({"errors":[]})").ok());
}

// spec 7.3 / 8.2: the per-room posting error is a 429 with this exact message.
TEST(ApiErrors, Spec73PerRoomRateLimitIsRecognised) {
    HttpResponse response{429, {}, to_json(ApiErrorBody{{std::string(kPerRoomRateLimitMessage)}})};
    EXPECT_TRUE(is_per_room_rate_limit(response));
    response.status = 400;
    EXPECT_FALSE(is_per_room_rate_limit(response)) << "only a 429 is a rate limit";
    HttpResponse overall{429, {}, ""};
    EXPECT_FALSE(is_per_room_rate_limit(overall)) << "the overall limit (spec 8.1) has no such body";
    HttpResponse other{429, {}, R"({"errors":["Something else"]})"};
    EXPECT_FALSE(is_per_room_rate_limit(other));
    EXPECT_EQ(kPerRoomRetryAfter, Seconds(10));
}

// spec 5.1.4 / 7.3: a wrong API token is a 401 with an errors array.
TEST(ApiErrors, Spec514InvalidApiTokenIsRecognised) {
    HttpResponse wrong_token{401, {}, to_json(ApiErrorBody{{std::string(kInvalidApiTokenMessage)}})};
    EXPECT_TRUE(is_invalid_api_token(wrong_token));
    HttpResponse bearer{401, {{"WWW-Authenticate", "Bearer error=\"invalid_token\""}}, ""};
    EXPECT_FALSE(is_invalid_api_token(bearer)) << "an OAuth 401 carries no errors body";
    // The service (and the sandbox) may send both: the challenge decides that
    // it is an access-token problem (refresh), not a wrong API token.
    HttpResponse bearer_with_body = bearer;
    bearer_with_body.body = to_json(ApiErrorBody{{"Invalid token"}});
    EXPECT_FALSE(is_invalid_api_token(bearer_with_body)) << "spec 5.2.2: a Bearer challenge means an OAuth 401";
    EXPECT_TRUE(is_invalid_token(bearer_with_body));
    wrong_token.status = 403;
    EXPECT_FALSE(is_invalid_api_token(wrong_token));
}

TEST(ErrorBodyErrors, IdentifiersAreDistinct) {
    std::set<std::string_view> seen;
    for (int i = 0; i <= static_cast<int>(ErrorBodyError::errors_item_not_string); ++i) {
        EXPECT_TRUE(seen.insert(to_string(static_cast<ErrorBodyError>(i))).second) << i;
    }
}

}  // namespace
}  // namespace errors_test
}  // namespace roomkey
