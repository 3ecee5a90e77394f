// bff_session_report_test.cpp: what the helper tells the page about its BFF
// session (bff_session.hpp) as one contract: the helper's writers
// (bff_session_body, bff_token_request_json, to_json) and the page's readers
// (read_bff_session, read_helper_token_request) share BffSessionInfo and
// BffTokenRequestReport, which is the helper's own record (BffTokenRequest)
// plus its rendered lines, so the page reads exactly what the helper wrote.
#include "roomkey/bff_session.hpp"
#include "roomkey/launch_url.hpp"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

namespace roomkey {
namespace bff_session_report_test {
namespace {

const Instant kNow = instant_from_unix_seconds(1'700'000'000);
constexpr std::string_view kTokenUrl = "https://auth.example/token";
constexpr std::string_view kRedirectUri = "https://127.0.0.1:8443/callback";

BffTokenRequest refresh_record() {
    BffTokenRequest r;
    r.grant_type = GrantType::refresh_token;
    r.status = 200;
    r.ms = 12;
    r.at = unix_seconds(kNow);
    r.scope = "users.all:read";
    r.scope_sent = true;
    r.expires_in = 1800;
    return r;
}

BffSession session() {
    BffSession s;
    s.id = "AAAAAAAAAAAAAAAAAAAAAA";
    s.access_token = "ACCESS-SECRET";
    s.refresh_token = "REFRESH-SECRET";
    s.scope = {"users.all:read", "rooms.all:read_write"};
    s.access_expires_at = kNow + Seconds{1800};
    s.refresh_expires_at = kNow + Seconds{3600};
    BffTokenRequest code = refresh_record();
    code.grant_type = GrantType::authorization_code;
    code.scope_sent = false;
    s.token_requests = {code, refresh_record()};
    return s;
}

TEST(BffSessionReport, TheTokenRequestHeaderReadsBackAsWritten) {
    const BffTokenRequestReport written = report_of(refresh_record(), kTokenUrl, kRedirectUri);
    EXPECT_EQ(to_json(written), bff_token_request_json(refresh_record(), kTokenUrl, kRedirectUri));
    const auto read = read_helper_token_request(bff_token_request_json(refresh_record(), kTokenUrl, kRedirectUri));
    ASSERT_TRUE(read) << read.error();
    EXPECT_EQ(read->grant_type, GrantType::refresh_token);
    EXPECT_EQ(read->status, 200);
    EXPECT_EQ(read->ms, 12);
    EXPECT_EQ(read->at, unix_seconds(kNow));
    EXPECT_EQ(read->scope, "users.all:read");
    EXPECT_EQ(read->request, written.request);
    EXPECT_EQ(read->response, written.response);
    EXPECT_EQ(read->error, "");
    EXPECT_TRUE(same_request(*read, written));
    EXPECT_EQ(read->request.find("REFRESH-SECRET"), std::string::npos) << read->request;
}

TEST(BffSessionReport, TheSessionAnswerReadsBackAsWritten) {
    const std::string body = bff_session_body(session(), kNow + Seconds{100}, kTokenUrl, kRedirectUri);
    EXPECT_EQ(body, to_json(session_info(session(), kNow + Seconds{100}, kTokenUrl, kRedirectUri)));
    const auto info = read_bff_session(body);
    ASSERT_TRUE(info) << info.error();
    EXPECT_TRUE(info->signed_in);
    EXPECT_EQ(info->scope, session().scope);
    EXPECT_EQ(info->expires_in, 1700);
    EXPECT_EQ(info->refresh_expires_in, std::optional<std::int64_t>(3500));
    ASSERT_EQ(info->token_requests.size(), 2u);
    EXPECT_EQ(info->token_requests[0].grant_type, GrantType::authorization_code);
    EXPECT_EQ(info->token_requests[1].grant_type, GrantType::refresh_token);
    EXPECT_EQ(to_json(*info), body) << "read and written again: the same bytes";
}

// The report is the record: the fields the wire carries read back into the
// record's own types, and a grant the helper never makes is refused by name.
TEST(BffSessionReport, TheReportIsTheRecordItWasRenderedFrom) {
    const BffTokenRequest record = refresh_record();
    const BffTokenRequestReport written = report_of(record, kTokenUrl, kRedirectUri);
    EXPECT_TRUE(same_request(written, record)) << "the report carries the record itself";
    const auto read = read_helper_token_request(to_json(written));
    ASSERT_TRUE(read) << read.error();
    EXPECT_TRUE(same_request(*read, record)) << to_json(written);
    EXPECT_FALSE(read->scope_sent) << "told only in the request line, not a field of the wire";
    EXPECT_EQ(read->expires_in, 0) << "told only in the response line, not a field of the wire";
    auto odd = nlohmann::json::parse(to_json(written));
    odd["grant_type"] = "password";
    const auto refused = read_helper_token_request(odd.dump());
    ASSERT_FALSE(refused) << "a grant the helper never makes";
    EXPECT_NE(refused.error().find("password"), std::string::npos) << refused.error();
}

// The wire itself, pinned once: the page's tests and fakes write their
// reports with these writers, so a member renamed here is renamed for both
// sides at once; this literal text is what says the wire changed.
TEST(BffSessionReport, TheWireTextIsPinned) {
    EXPECT_EQ(
        bff_token_request_json(refresh_record(), kTokenUrl, kRedirectUri),
        R"j({"grant_type":"refresh_token","status":200,"ms":12,"at":1700000000,"scope":"users.all:read",)j"
        R"j("request":"POST https://auth.example/token grant_type=refresh_token&refresh_token=••••&scope=users.all%3Aread (Basic client authentication)",)j"
        R"j("response":"200 {access_token: ••••, refresh_token: ••••, token_type: Bearer, expires_in: 1800, scope: users.all:read}","error":""})j");
    BffSession s = session();
    s.token_requests.clear();
    EXPECT_EQ(bff_session_body(s, kNow + Seconds{100}, kTokenUrl, kRedirectUri),
              R"({"signed_in":true,"scope":"users.all:read rooms.all:read_write","expires_in":1700,)"
              R"("refresh_expires_in":3500,"token_requests":[]})");
}

TEST(BffSessionReport, SignedOutIsOneMember) {
    EXPECT_EQ(bff_signed_out_body(), R"({"signed_in":false})");
    const auto info = read_bff_session(bff_signed_out_body());
    ASSERT_TRUE(info) << info.error();
    EXPECT_FALSE(info->signed_in);
}

TEST(BffSessionReport, TheCallbackErrorFragmentNamesBothMembers) {
    EXPECT_EQ(bff_error_address("access_denied", "refused at the consent screen"),
              "/#bff_error=access_denied&bff_error_description=refused%20at%20the%20consent%20screen");
}

}  // namespace
}  // namespace bff_session_report_test
}  // namespace roomkey
