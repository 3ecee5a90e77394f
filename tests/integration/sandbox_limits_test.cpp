// sandbox_limits_test.cpp: roomkey-sandbox's memory bounds and its clock on
// real sockets (issue items 9 and 10): every kind of authorization record is
// capped (oldest dropped first), rotated-out refresh tokens are forgotten
// after a grace period, and a step of the wall clock does not move sandbox time.
#include <atomic>

#include "sandbox/oauth_state.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxLimits : public SandboxTest {
protected:
    static nlohmann::json body(const httplib::Result& res) {
        return res ? nlohmann::json::parse(res->body, nullptr, false) : nlohmann::json();
    }
    void start_with(MemoryCaps caps) {
        SandboxOptions o = test_options();
        o.caps = caps;
        start(o);
    }
    // GET /consent without a session: the request is reserved, the browser
    // sent to the login screen; returns the reservation id.
    std::string reserve() {
        auto res = get("/consent?" + form_encode(web_request(make_pkce(kRandom))));
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        EXPECT_EQ(res->status, 303);
        return field(location_query_of(res->get_header_value("Location")), "request");
    }
    int login_screen_status(const std::string& reservation) {
        auto res = get("/login?" + form_encode({{"request", reservation}}));
        return res ? res->status : -1;
    }
    nlohmann::json refresh_confidential(const std::string& refresh_token, int expected_status = 200) {
        auto res = token_confidential({{"grant_type", "refresh_token"}, {"refresh_token", refresh_token}});
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        EXPECT_EQ(res->status, expected_status) << res->body;
        return body(res);
    }
    nlohmann::json offline_grant() {
        const std::string code = authorize({{"response_type", "code"},
                                            {"client_id", kConfidentialId},
                                            {"redirect_uri", kConfidentialRedirect},
                                            {"scope", "offline_access users.all:read"},
                                            {"state", "x"}});
        auto res = token_confidential(
            {{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", kConfidentialRedirect}});
        EXPECT_TRUE(res) << why_no_answer(res);
        return body(res);
    }
};

// Every GET /consent reserves a request: at the cap the oldest goes (16000).
TEST_F(SandboxLimits, ReservationsAreCappedOldestFirst) {
    MemoryCaps caps;
    caps.reservations = 4;
    start_with(caps);
    std::vector<std::string> ids;
    for (int i = 0; i < 5; ++i) ids.push_back(reserve());
    EXPECT_EQ(login_screen_status(ids.front()), 400) << "the oldest reservation must be dropped (16000)";
    EXPECT_EQ(login_screen_status(ids.back()), 200) << "the newest one stays";
}

TEST_F(SandboxLimits, SessionsAreCappedOldestFirst) {
    MemoryCaps caps;
    caps.sessions = 2;
    start_with(caps);
    const std::string first = login_as("alice@example.com", "alice-demo");
    login_as("bob@example.com", "bob-demo");
    const std::string third = login_as("carol@example.com", "carol-demo");
    auto old = get("/clients", {{"Cookie", first}});
    ASSERT_TRUE(old) << why_no_answer(old);
    EXPECT_EQ(old->status, 303) << "the oldest session must be gone (login again)";
    auto fresh = get("/clients", {{"Cookie", third}});
    ASSERT_TRUE(fresh) << why_no_answer(fresh);
    EXPECT_EQ(fresh->status, 200);
}

TEST_F(SandboxLimits, CodesAndTokensAreCappedOldestFirst) {
    MemoryCaps caps;
    caps.codes = 2;
    caps.access_tokens = 2;
    start_with(caps);
    const PkcePair pkce = make_pkce(kRandom);
    std::vector<std::string> codes;
    for (int i = 0; i < 3; ++i) codes.push_back(authorize(web_request(pkce)));
    auto dropped = exchange_public(codes.front(), pkce.verifier);
    ASSERT_TRUE(dropped) << why_no_answer(dropped);
    EXPECT_EQ(dropped->status, 400) << "the oldest code must be dropped";
    auto kept = exchange_public(codes.back(), pkce.verifier);
    ASSERT_TRUE(kept) << why_no_answer(kept);
    ASSERT_EQ(kept->status, 200) << kept->body;

    // Two more sign-ins: three access tokens for a cap of two.
    const std::string first_access = json_string(body(kept), "access_token");
    sign_in_web();
    const std::string third_access = json_string(sign_in_web(), "access_token");
    EXPECT_EQ(bearer_get("/me", first_access)->status, 401) << "the oldest access token must be dropped";
    EXPECT_EQ(bearer_get("/me", third_access)->status, 200);
}

TEST_F(SandboxLimits, GrantsAreCappedOldestFirst) {
    MemoryCaps caps;
    caps.grants = 2;
    start_with(caps);
    const auto first = sign_in_web();
    sign_in_web();
    const auto third = sign_in_web();
    auto old = refresh_public(json_string(first, "refresh_token"));
    ASSERT_TRUE(old) << why_no_answer(old);
    EXPECT_EQ(old->status, 400) << "the oldest grant must be dropped";
    auto fresh = refresh_public(json_string(third, "refresh_token"));
    ASSERT_TRUE(fresh) << why_no_answer(fresh);
    EXPECT_EQ(fresh->status, 200) << fresh->body;
}

// A rotated-out refresh token of an offline grant (which never expires) is
// remembered for kRotatedRefreshGrace, then forgotten: presenting it is
// then just an unknown token and no longer revokes the grant.
TEST_F(SandboxLimits, RotatedRefreshTokensAreForgottenAfterTheGracePeriod_spec5_4_3) {
    const auto tokens = offline_grant();
    const std::string old_refresh = json_string(tokens, "refresh_token");
    const auto rotated = refresh_confidential(old_refresh);
    const std::string current = json_string(rotated, "refresh_token");
    ASSERT_FALSE(current.empty()) << "the refresh gave no refresh_token: " << rotated.dump();

    advance_clock(kRotatedRefreshGrace.count() + 120);
    // Any token request sweeps; this one keeps the grant alive and current.
    const auto next = refresh_confidential(current);
    const std::string latest = json_string(next, "refresh_token");
    ASSERT_FALSE(latest.empty()) << "the refresh gave no refresh_token: " << next.dump();

    const auto reused = refresh_confidential(old_refresh, 400);
    EXPECT_NE(json_string(reused, "error_description").find("invalid"), std::string::npos) << reused.dump();
    refresh_confidential(latest, 200);  // not revoked: the old record was gone
}

// Within the grace period a rotated-out token still revokes the grant.
TEST_F(SandboxLimits, RotatedRefreshTokenReuseWithinGraceRevokes_spec4_3) {
    const auto tokens = offline_grant();
    const std::string old_refresh = json_string(tokens, "refresh_token");
    const std::string current = json_string(refresh_confidential(old_refresh), "refresh_token");
    advance_clock(kRotatedRefreshGrace.count() - 3600);
    refresh_confidential(old_refresh, 400);
    refresh_confidential(current, 400);
}

// Elapsed sandbox time comes from the steady clock; the wall clock
// is read once at start. A wall-clock step (NTP, an admin) must not move
// sandbox time backwards (tokens valid again) or forwards.
TEST_F(SandboxLimits, WallClockStepsDoNotMoveSandboxTime) {
    static std::atomic<std::int64_t> wall_offset_ms{0};
    SandboxOptions o = test_options();
    o.clock_sources.wall = [] {
        return std::chrono::system_clock::now() + std::chrono::milliseconds(wall_offset_ms.load());
    };
    start(o);
    auto sandbox_now = [this] {
        auto res = client()->Get("/_sandbox/clock", httplib::Headers{{"X-Roomkey-Sandbox-Control", "1"}});
        EXPECT_TRUE(res) << why_no_answer(res);
        const auto j = body(res);
        return j.is_object() && j["now_ms"].is_number_integer() ? j["now_ms"].get<std::int64_t>() : 0;
    };
    const std::int64_t before = sandbox_now();
    wall_offset_ms = -3600 * 1000;  // the wall clock steps back an hour
    const std::int64_t after_back = sandbox_now();
    EXPECT_GE(after_back, before) << "sandbox time went backwards with the wall clock";
    wall_offset_ms = 3600 * 1000;
    const std::int64_t after_forward = sandbox_now();
    EXPECT_LT(after_forward - before, 60 * 1000) << "sandbox time jumped with the wall clock";
    wall_offset_ms = 0;
}

}  // namespace
}  // namespace roomkey::sandbox::testing
