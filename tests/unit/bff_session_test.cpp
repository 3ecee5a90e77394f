// bff_session_test.cpp: the BFF session's sealed JSON text, its token
// request log, and the masked /bff/session body (bff_session.hpp).
#include "roomkey/bff_session.hpp"

#include <gtest/gtest.h>

#include <string>

#include "roomkey/json_text.hpp"

namespace roomkey {
namespace bff_session_test {
namespace {

const Instant kNow = instant_from_unix_seconds(1'700'000'000);

TokenSet token_set(const std::string& access, const std::string& refresh) {
    TokenSet t;
    t.access_token = access;
    t.refresh_token = refresh;
    t.token_type = "Bearer";
    t.expires_in = 1800;
    t.scope = {"rooms.all:read_write", "users.all:read"};
    t.access_expires_at = kNow + Seconds{1800};
    t.refresh_expires_at = kNow + kRefreshTokenLifetime;
    return t;
}

BffTokenRequest record(GrantType grant, int status = 200) {
    BffTokenRequest r;
    r.grant_type = grant;
    r.status = status;
    r.ms = 12;
    r.at = unix_seconds(kNow);
    r.scope = "users.all:read rooms.all:read_write";
    r.expires_in = 1800;
    return r;
}

BffSession signed_in() {
    BffSession s;
    s.id = "AAAAAAAAAAAAAAAAAAAAAA";
    adopt_token_set(s, token_set("ACCESS-SECRET-1", "REFRESH-SECRET-1"), record(GrantType::authorization_code));
    s.valid_until = kNow + Seconds{60};
    return s;
}

TEST(BffSession, SerializedSessionParsesBackUnchanged) {
    BffSession s = signed_in();
    s.refresh_expires_at.reset();  // offline_access
    auto back = parse_bff_session(serialize(s));
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(back->id, s.id);
    EXPECT_EQ(back->access_token, "ACCESS-SECRET-1");
    EXPECT_EQ(back->refresh_token, "REFRESH-SECRET-1");
    EXPECT_EQ(back->scope, s.scope);
    EXPECT_EQ(back->access_expires_at, s.access_expires_at);
    EXPECT_FALSE(back->refresh_expires_at);
    EXPECT_EQ(back->generation, 1u);
    EXPECT_EQ(back->valid_until, s.valid_until);
    ASSERT_EQ(back->token_requests.size(), 1u);
    EXPECT_EQ(back->token_requests[0].grant_type, GrantType::authorization_code);
}

TEST(BffSession, TextsThatAreNotASessionAreRefused) {
    EXPECT_FALSE(parse_bff_session("not json"));
    EXPECT_FALSE(parse_bff_session("[]"));
    EXPECT_FALSE(parse_bff_session(R"({"v":2})"));
    std::string text = serialize(signed_in());
    text.replace(text.find("\"gen\":1"), 7, "\"gen\":\"1\"");
    EXPECT_FALSE(parse_bff_session(text));
}

TEST(BffSession, EachRefreshRotatesTheTokensAndKeepsTheFirstRecord) {
    BffSession s = signed_in();
    for (int i = 2; i <= 10; ++i) {
        adopt_token_set(s, token_set("A" + std::to_string(i), "R" + std::to_string(i)),
                        record(GrantType::refresh_token));
    }
    EXPECT_EQ(s.refresh_token, "R10");
    EXPECT_EQ(s.generation, 10u);
    ASSERT_EQ(s.token_requests.size(), kBffKeptTokenRequests);
    EXPECT_EQ(s.token_requests.front().grant_type, GrantType::authorization_code);
    EXPECT_EQ(s.token_requests.back().grant_type, GrantType::refresh_token);
}

// Spec 5.4.2: each refresh's answer again says "14 days", but the grant
// ends 14 days after the sign-in: the session (and so the cookie's Max-Age
// and /bff/session's refresh_expires_in) keeps that first end.
TEST(BffSession, RefreshesKeepTheGrantsEnd) {
    BffSession s = signed_in();
    const Instant grant_end = kNow + kRefreshTokenLifetime;
    for (int day : {1, 5, 9, 13}) {
        const Instant at = kNow + Seconds{day * 24 * 60 * 60};
        TokenSet t = token_set("A" + std::to_string(day), "R" + std::to_string(day));
        t.access_expires_at = at + Seconds{1800};
        t.refresh_expires_at = at + kRefreshTokenLifetime;
        adopt_token_set(s, t, record(GrantType::refresh_token));
        ASSERT_TRUE(s.refresh_expires_at) << "day " << day;
        EXPECT_EQ(*s.refresh_expires_at, grant_end) << "day " << day;
        const auto j = parse_json_text(bff_session_body(s, at, "https://a/token", "https://b/callback"));
        EXPECT_EQ(j["refresh_expires_in"], (14 - day) * 24 * 60 * 60) << "day " << day;
    }
    EXPECT_EQ(s.refresh_token, "R13");
}

TEST(BffSession, SessionBodyTellsScopeAndLifetimesButNoToken) {
    const BffSession s = signed_in();
    const std::string body =
        bff_session_body(s, kNow + Seconds{100}, "https://auth.example/token", "https://127.0.0.1:8443/callback");
    EXPECT_EQ(body.find("ACCESS-SECRET"), std::string::npos) << body;
    EXPECT_EQ(body.find("REFRESH-SECRET"), std::string::npos) << body;
    const auto j = parse_json_text(body);
    ASSERT_TRUE(j.is_object()) << body;
    EXPECT_EQ(j["signed_in"], true);
    EXPECT_EQ(j["scope"], "users.all:read rooms.all:read_write");
    EXPECT_EQ(j["expires_in"], 1700);
    EXPECT_EQ(j["refresh_expires_in"], kRefreshTokenLifetime.count() - 100);
    ASSERT_EQ(j["token_requests"].size(), 1u);
    const auto& r = j["token_requests"][0];
    EXPECT_EQ(r["grant_type"], "authorization_code");
    EXPECT_EQ(r["status"], 200);
    EXPECT_EQ(r["request"],
              "POST https://auth.example/token grant_type=authorization_code&code=\u2022\u2022\u2022\u2022"
              "&redirect_uri=https%3A%2F%2F127.0.0.1%3A8443%2Fcallback&code_verifier=\u2022\u2022\u2022\u2022"
              " (Basic client authentication)");
    EXPECT_EQ(r["response"],
              "200 {access_token: \u2022\u2022\u2022\u2022, refresh_token: \u2022\u2022\u2022\u2022, token_type: "
              "Bearer, expires_in: 1800, scope: users.all:read rooms.all:read_write}");
}

TEST(BffSession, OfflineSessionHasNoRefreshExpiry) {
    BffSession s = signed_in();
    s.refresh_expires_at.reset();
    const auto j = parse_json_text(bff_session_body(s, kNow, "https://a/token", "https://b/callback"));
    EXPECT_TRUE(j["refresh_expires_in"].is_null());
}

TEST(BffSession, RefusedRefreshRecordNamesTheErrorAndTheNarrowedScope) {
    BffTokenRequest r = record(GrantType::refresh_token, 400);
    r.error = "invalid_grant";
    r.scope = "rooms.all:read";
    r.scope_sent = true;
    const auto j = parse_json_text(bff_token_request_json(r, "https://a/token", "https://b/callback"));
    EXPECT_EQ(j["request"], "POST https://a/token grant_type=refresh_token&refresh_token=\u2022\u2022\u2022\u2022"
                            "&scope=rooms.all%3Aread (Basic client authentication)");
    EXPECT_EQ(j["response"], "400 {error: invalid_grant}");
    EXPECT_EQ(j["error"], "invalid_grant");
}

TEST(BffSession, SignedOutBody) {
    EXPECT_EQ(parse_json_text(bff_signed_out_body())["signed_in"], false);
}

}  // namespace
}  // namespace bff_session_test
}  // namespace roomkey
