// sandbox_api_test.cpp: roomkey-sandbox's REST API on real sockets: API
// tokens (spec 5.1), Bearer tokens with scopes (5.2, 5.5), the error shapes
// (7.3), posted data showing up in reads and counts (4.4-4.7, 2.5), and the
// rate limits (8.1, 8.2).
#include "roomkey/api_records.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/upload_limits.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/www_authenticate.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxApi : public SandboxTest {
protected:
    static nlohmann::json body(const httplib::Result& res) {
        return res ? nlohmann::json::parse(res->body, nullptr, false) : nlohmann::json();
    }
    static std::vector<std::string> errors(const httplib::Result& res) {
        auto parsed = read_api_error_body(res ? res->body : std::string());
        return parsed ? parsed->errors : std::vector<std::string>{"<not an API error body>"};
    }
    httplib::Result post_message(const std::string& room, const std::string& text, const std::string& token = kAliceToken) {
        return post_form("/v2/rooms/" + room + "/messages", {{"body", text}}, {{"x-servicetoken", token}});
    }
    httplib::Result post_task(const std::string& room, const std::string& text, const std::string& to,
                              const std::string& token = kAliceToken) {
        return post_form("/v2/rooms/" + room + "/tasks", {{"body", text}, {"to_ids", to}}, {{"x-servicetoken", token}});
    }
    std::int64_t status_field(const std::string& name, const std::string& token = kAliceToken) {
        const auto j = body(api_get("/my/status", token));
        return j.is_object() && j.contains(name) && j[name].is_number_integer() ? j[name].get<std::int64_t>() : -1;
    }
};

// spec 5.1.1 / 5.1.3: the API token header gives full access.
TEST_F(SandboxApi, ApiTokenHeaderGivesFullAccess_spec5_1) {
    auto me = api_get("/me");
    ASSERT_TRUE(me) << why_no_answer(me);
    ASSERT_EQ(me->status, 200);
    const auto j = body(me);
    ASSERT_TRUE(j.contains("account_id") && j["account_id"].is_number_integer()) << me->body;
    EXPECT_EQ(j["account_id"].get<int>(), 1001);
    for (const char* path : {"/my/status", "/rooms", "/contacts", "/rooms/2100/members", "/my/tasks"}) {
        auto res = api_get(path);
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_EQ(res->status, 200) << path << ": " << res->body;
    }
}

// The sandbox writes its records with shared/'s to_json, so the client's
// readers must accept every one of them as the sandbox sends it.
TEST_F(SandboxApi, TheClientsReadersReadEveryRecordTheSandboxWrites) {
    const auto answer = [this](const std::string& path) {
        auto res = api_get(path);
        HttpResponse r;
        if (!res) return r;
        r.status = res->status;
        r.body = res->body;
        return r;
    };
    const auto me = read_account(answer("/me"));
    ASSERT_TRUE(me) << to_string(me.error());
    EXPECT_EQ(me->account_id, "1001");
    const auto status = read_status(answer("/my/status"));
    EXPECT_TRUE(status) << to_string(status.error());
    const auto rooms = read_rooms(answer("/rooms"));
    ASSERT_TRUE(rooms) << to_string(rooms.error());
    EXPECT_FALSE(rooms->empty());
    ASSERT_EQ(post_message("2100", "read me back")->status, 200);
    const auto messages = read_messages(answer("/rooms/2100/messages?force=1"));
    ASSERT_TRUE(messages) << to_string(messages.error());
    ASSERT_FALSE(messages->empty()) << "no messages in room 2100 after the post";
    EXPECT_EQ(messages->back().body, "read me back");
    const auto members = read_members(answer("/rooms/2100/members"));
    ASSERT_TRUE(members) << to_string(members.error());
    EXPECT_FALSE(members->empty());
    ASSERT_EQ(post_task("2100", "a task", "1001")->status, 200);
    const auto tasks = read_tasks(answer("/rooms/2100/tasks"));
    ASSERT_TRUE(tasks) << to_string(tasks.error());
    EXPECT_FALSE(tasks->empty());
    const auto my_tasks = read_tasks(answer("/my/tasks"));
    EXPECT_TRUE(my_tasks) << to_string(my_tasks.error());
    const auto files = read_files(answer("/rooms/2100/files"));
    EXPECT_TRUE(files) << to_string(files.error());
    const auto contacts = read_contacts(answer("/contacts"));
    EXPECT_TRUE(contacts) << to_string(contacts.error());
    const auto requests = read_incoming_requests(answer("/incoming_requests"));
    EXPECT_TRUE(requests) << to_string(requests.error());
}

// spec 5.1.4 / 7.3: a wrong API token -> 401 with an errors array, JSON.
TEST_F(SandboxApi, WrongApiTokenIs401WithErrors_spec5_1_4) {
    auto res = api_get("/me", "not-a-token");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 401);
    EXPECT_NE(res->get_header_value("Content-Type").find("application/json"), std::string::npos);
    const auto e = errors(res);
    ASSERT_EQ(e.size(), 1u);
    EXPECT_NE(e[0].find("Invalid API token"), std::string::npos) << e[0];
}

// spec 5.1.2: a token in the query string is never accepted.
TEST_F(SandboxApi, TokenInQueryStringIsNeverAccepted_spec5_1_2) {
    for (const std::string& q : {"x-servicetoken=" + kAliceToken, "access_token=" + kAliceToken}) {
        auto res = get("/v2/me?" + q);
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_NE(res->status, 200) << q;
        EXPECT_GE(res->status, 400);
    }
    // Not even next to a valid header.
    auto both = get("/v2/me?access_token=x", {{"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(both) << why_no_answer(both);
    EXPECT_EQ(both->status, 400);
}

TEST_F(SandboxApi, NoCredentialsIs401WithBearerChallenge_spec5_2) {
    auto res = get("/v2/me");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 401);
    EXPECT_EQ(res->get_header_value("WWW-Authenticate").rfind("Bearer", 0), 0u);
}

// spec 5.2.1 / 4.4: a Bearer access token reaches the API.
TEST_F(SandboxApi, BearerTokenReachesMe_spec5_2_1) {
    const auto tokens = sign_in_web();
    auto res = bearer_get("/me", json_string(tokens, "access_token"));
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 200) << res->body;
    EXPECT_EQ(body(res)["account_id"].get<int>(), 1001);
}

// spec 5.2.2 / 5.2.3: after 30 minutes -> 401, WWW-Authenticate invalid_token saying it expired.
TEST_F(SandboxApi, ExpiredAccessTokenIs401InvalidTokenExpired_spec5_2_2) {
    const auto tokens = sign_in_web();
    advance_clock(29 * 60);
    auto still = bearer_get("/me", json_string(tokens, "access_token"));
    ASSERT_TRUE(still) << why_no_answer(still);
    EXPECT_EQ(still->status, 200);
    advance_clock(61);
    auto res = bearer_get("/me", json_string(tokens, "access_token"));
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 401);
    HttpResponse r;
    r.status = res->status;
    r.headers.add("WWW-Authenticate", res->get_header_value("WWW-Authenticate"));
    const auto challenge = find_bearer_challenge(r.headers);
    ASSERT_TRUE(challenge) << res->get_header_value("WWW-Authenticate");
    EXPECT_EQ(challenge->error, "invalid_token");
    ASSERT_TRUE(challenge->error_description)
        << "the invalid_token challenge has no error_description: " << res->get_header_value("WWW-Authenticate");
    EXPECT_NE(challenge->error_description->find("expired"), std::string::npos) << *challenge->error_description;
    EXPECT_TRUE(is_invalid_token(r));
}

// spec 5.2.2: an unknown Bearer token -> 401 invalid_token.
TEST_F(SandboxApi, UnknownAccessTokenIs401InvalidToken_spec5_2_2) {
    auto res = bearer_get("/me", "definitely-not-issued");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 401);
    const std::string header = res->get_header_value("WWW-Authenticate");
    EXPECT_NE(header.find("error=\"invalid_token\""), std::string::npos) << header;
    EXPECT_EQ(header.find("expired"), std::string::npos) << "only an expired token says so";
}

// spec 5.5: a grant reaches only what its scopes allow -> 403 insufficient_scope.
TEST_F(SandboxApi, InsufficientScopeIs403_spec5_5) {
    const auto tokens = sign_in_web("users.profile.me:read");
    const std::string access = json_string(tokens, "access_token");
    auto me = bearer_get("/me", access);
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200);
    auto rooms = bearer_get("/rooms", access);
    ASSERT_TRUE(rooms) << why_no_answer(rooms);
    EXPECT_EQ(rooms->status, 403);
    const std::string header = rooms->get_header_value("WWW-Authenticate");
    EXPECT_NE(header.find("error=\"insufficient_scope\""), std::string::npos) << header;
    EXPECT_NE(header.find("scope=\"rooms.info:read\""), std::string::npos) << header;
    auto post = bearer_post("/rooms/2100/messages", access, {{"body", "hi"}});
    ASSERT_TRUE(post) << why_no_answer(post);
    EXPECT_EQ(post->status, 403);
}

// spec 4.6 / 4.7 / 2.5: posted messages and tasks show up in reads and in /my/status.
TEST_F(SandboxApi, PostedMessagesAndTasksShowUpInReadsAndCounts_spec4_6_4_7) {
    const std::int64_t bob_unread = status_field("unread_num", kBobToken);
    const std::int64_t bob_mentions = status_field("mention_num", kBobToken);
    const std::int64_t alice_tasks = status_field("mytask_num");

    auto posted = post_message("2100", "[To:1002] Bob, see the new screen");
    ASSERT_TRUE(posted) << why_no_answer(posted);
    ASSERT_EQ(posted->status, 200) << posted->body;
    const auto id = body(posted);
    ASSERT_TRUE(id.contains("message_id") && id["message_id"].is_string()) << "message_id is kept as a string";
    const std::string message_id = id["message_id"].get<std::string>();

    auto one = api_get("/rooms/2100/messages/" + message_id);
    ASSERT_TRUE(one) << why_no_answer(one);
    ASSERT_EQ(one->status, 200);
    EXPECT_EQ(json_string(body(one), "body"), "[To:1002] Bob, see the new screen");
    auto list = api_get("/rooms/2100/messages?force=1");
    ASSERT_TRUE(list) << why_no_answer(list);
    EXPECT_NE(list->body.find("\"" + message_id + "\""), std::string::npos);

    EXPECT_EQ(status_field("unread_num", kBobToken), bob_unread + 1);
    EXPECT_EQ(status_field("mention_num", kBobToken), bob_mentions + 1);

    auto task = post_task("2100", "Write the docs", "1001");
    ASSERT_TRUE(task) << why_no_answer(task);
    ASSERT_EQ(task->status, 200) << task->body;
    const auto task_ids = body(task)["task_ids"];
    ASSERT_TRUE(task_ids.is_array() && task_ids.size() == 1u) << task->body;
    EXPECT_EQ(status_field("mytask_num"), alice_tasks + 1);
    auto tasks = api_get("/rooms/2100/tasks?account_id=1001");
    ASSERT_TRUE(tasks) << why_no_answer(tasks);
    EXPECT_NE(tasks->body.find("Write the docs"), std::string::npos);
}

// spec 4.1.3: POST bodies are application/x-www-form-urlencoded.
TEST_F(SandboxApi, PostBodyMustBeFormEncoded_spec4_1_3) {
    auto res = client()->Post("/v2/rooms/2100/messages", httplib::Headers{{"x-servicetoken", kAliceToken}},
                              "{\"body\":\"hi\"}", "application/json");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 400);
    EXPECT_EQ(errors(res).size(), 1u);
}

// Room roles: a readonly member cannot post; a non-member does not see the room.
TEST_F(SandboxApi, RolesAndMembershipAreEnforced) {
    auto carol = post_message("2100", "hello", "sandbox-api-token-carol-1003");
    ASSERT_TRUE(carol) << why_no_answer(carol);
    EXPECT_EQ(carol->status, 403);
    auto dave = api_get("/rooms/2100", "sandbox-api-token-dave-1004");
    ASSERT_TRUE(dave) << why_no_answer(dave);
    EXPECT_EQ(dave->status, 404);
}

// spec 8.1: every API response carries the three rate-limit headers:
// successes, client errors, authentication failures (counted or not), both
// limits, HTTP-level refusals and injected faults.
TEST_F(SandboxApi, EveryResponseCarriesRateLimitHeaders_spec8_1) {
    const std::string scoped = json_string(sign_in_web("users.profile.me:read"), "access_token");
    struct Case {
        std::string what;
        int status;
        httplib::Result res;
    };
    std::vector<Case> cases;
    cases.push_back({"200", 200, api_get("/me")});
    cases.push_back({"unknown endpoint", 400, api_get("/no/such/endpoint")});  // hubot-chatwork #6
    cases.push_back({"bad parameter", 400, post_message("2100", "")});
    cases.push_back({"wrong API token", 401, api_get("/me", "not-a-token")});
    cases.push_back({"no credential", 401, get("/v2/me")});
    cases.push_back({"unknown Bearer", 401, bearer_get("/me", "never-issued")});
    cases.push_back({"malformed Bearer", 401, get("/v2/me", {{"Authorization", "Bearer a\"b"}})});
    cases.push_back({"credential in query", 400, get("/v2/me?access_token=x", {{"x-servicetoken", kAliceToken}})});
    cases.push_back({"both credentials", 400,
                     get("/v2/me", {{"x-servicetoken", kAliceToken}, {"Authorization", "Bearer " + scoped}})});
    cases.push_back({"insufficient scope", 403, bearer_get("/rooms", scoped)});
    cases.push_back({"room not joined", 404, api_get("/rooms/2100", "sandbox-api-token-dave-1004")});
    cases.push_back({"no /v2 endpoint", 400, get("/v2", {{"x-servicetoken", kAliceToken}})});
    cases.push_back({"bad query encoding", 400, get("/v2/me?x=%zz", {{"x-servicetoken", kAliceToken}})});
    cases.push_back({"unsupported method", 400,
                     client()->Patch("/v2/me", httplib::Headers{{"x-servicetoken", kAliceToken}}, "x", "text/plain")});
    for (int i = 0; i < 10; ++i) ASSERT_EQ(post_message("2101", "budget " + std::to_string(i))->status, 200);
    cases.push_back({"per-room limit", 429, post_message("2101", "one too many")});
    inject_fault(R"({"kind":"status5xx","status":502})");
    cases.push_back({"injected 5xx", 502, api_get("/me")});
    inject_fault(R"({"kind":"invalid_token"})");
    cases.push_back({"injected invalid_token", 401, api_get("/me")});
    cases.push_back({"HTTP-level 413", 413,
                     client()->Post("/v2/rooms/2100/messages", httplib::Headers{{"x-servicetoken", kAliceToken}},
                                    "body=" + std::string(kMaxRequestBodyBytes, 'a'),
                                    "application/x-www-form-urlencoded")});
    for (const auto& c : cases) {
        ASSERT_TRUE(c.res) << c.what;
        EXPECT_EQ(c.res->status, c.status) << c.what << ": " << c.res->body;
        EXPECT_TRUE(has_rate_limit_headers(c.res)) << c.what;
        EXPECT_EQ(c.res->get_header_value("x-ratelimit-limit"), "300") << c.what;
        EXPECT_GE(std::strtoll(c.res->get_header_value("x-ratelimit-reset").c_str(), nullptr, 10),
                  unix_seconds(sandbox().clock().now()) - 1)
            << c.what;
    }
}

// spec 8.1: answers that are not counted (refused before the credential is
// known to be valid) report the credential's window without using it up.
TEST_F(SandboxApi, UncountedAnswersReportTheWindowWithoutCounting_spec8_1) {
    auto first = api_get("/me");
    ASSERT_TRUE(first) << why_no_answer(first);
    const std::string remaining = first->get_header_value("x-ratelimit-remaining");
    const std::string reset = first->get_header_value("x-ratelimit-reset");
    for (const auto& res :
         {get("/v2/me?access_token=x", {{"x-servicetoken", kAliceToken}}),
          get("/v2/me", {{"x-servicetoken", kAliceToken}, {"Authorization", "Bearer x"}}),
          get("/v2", {{"x-servicetoken", kAliceToken}}), get("/v2/me?x=%zz", {{"x-servicetoken", kAliceToken}})}) {
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_GE(res->status, 400);
        EXPECT_EQ(res->get_header_value("x-ratelimit-remaining"), remaining) << "status " << res->status;
        EXPECT_EQ(res->get_header_value("x-ratelimit-reset"), reset) << "status " << res->status;
    }
    auto next = api_get("/me");
    ASSERT_TRUE(next) << why_no_answer(next);
    EXPECT_EQ(next->get_header_value("x-ratelimit-remaining"),
              std::to_string(std::strtol(remaining.c_str(), nullptr, 10) - 1));
    // A credential that is not valid has a full window of its own, never counted.
    auto wrong = api_get("/me", "not-a-token");
    ASSERT_TRUE(wrong) << why_no_answer(wrong);
    EXPECT_EQ(wrong->get_header_value("x-ratelimit-remaining"), "300");
}

// spec 5.2.2: a malformed Bearer header is an invalid access token: 401 with
// error="invalid_token" and a description, not a bare challenge.
TEST_F(SandboxApi, MalformedBearerIs401InvalidToken_spec5_2_2) {
    for (const std::string& value :
         {std::string("Bearer a\"b"), std::string("Bearer two words"), std::string("bearer a,b")}) {
        auto res = get("/v2/me", {{"Authorization", value}});
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_EQ(res->status, 401) << value;
        HttpResponse r;
        r.headers.add("WWW-Authenticate", res->get_header_value("WWW-Authenticate"));
        const auto challenge = find_bearer_challenge(r.headers);
        ASSERT_TRUE(challenge) << value << ": " << res->get_header_value("WWW-Authenticate");
        EXPECT_EQ(challenge->error, "invalid_token") << value;
        ASSERT_TRUE(challenge->error_description) << value;
        EXPECT_FALSE(challenge->error_description->empty());
        EXPECT_TRUE(is_invalid_token(HttpResponse{res->status, r.headers, res->body}));
    }
}

// spec 5.2.1: the Bearer header replaces the API token header; both -> 400.
TEST_F(SandboxApi, BothCredentialsIs400_spec5_2_1) {
    const std::string access = json_string(sign_in_web(), "access_token");
    auto res = get("/v2/me", {{"x-servicetoken", kAliceToken}, {"Authorization", "Bearer " + access}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 400);
    EXPECT_EQ(errors(res).size(), 1u);
}

// spec 2.6 / 4.4 / 4.5 / 4.8: the seeded records carry the fields the
// service's API returns, with the documented demo values.
TEST_F(SandboxApi, SeededRecordsHaveTheServiceFields_spec2_6_4_5_4_8) {
    const auto me = body(api_get("/me"));
    ASSERT_TRUE(me.is_object()) << "GET /me did not answer a JSON object";
    ASSERT_TRUE(me["account_id"].is_number_integer()) << "spec 2.6: account_id is an integer";
    EXPECT_EQ(me["account_id"].get<int>(), 1001);
    EXPECT_EQ(json_string(me, "name"), "Alice Example");
    ASSERT_TRUE(me["room_id"].is_number_integer()) << me.dump();
    EXPECT_EQ(me["room_id"].get<int>(), 2001);

    const auto rooms = body(api_get("/rooms"));
    ASSERT_TRUE(rooms.is_array()) << "GET /rooms did not answer a JSON array: " << rooms.dump();
    struct Expected {
        int room_id;
        const char* name;
        const char* type;
        const char* role;
        int unread_num;
    };
    const Expected expected[] = {{2001, "My Chat", "my", "admin", 0},
                                 {2100, "Roomkey project", "group", "admin", 3},
                                 {2101, "Random", "group", "member", 1},
                                 {2200, "Bob Example", "direct", "member", 0}};
    ASSERT_EQ(rooms.size(), std::size(expected));
    for (const Expected& e : expected) {
        const nlohmann::json* room = nullptr;
        for (const auto& r : rooms) {
            if (r.is_object() && r["room_id"].is_number_integer() && r["room_id"].get<int>() == e.room_id) room = &r;
        }
        ASSERT_NE(room, nullptr) << "room " << e.room_id;
        EXPECT_EQ(json_string(*room, "name"), e.name) << e.room_id;
        EXPECT_EQ(json_string(*room, "type"), e.type) << e.room_id;
        EXPECT_EQ(json_string(*room, "role"), e.role) << e.room_id;
        ASSERT_TRUE((*room)["unread_num"].is_number_integer()) << e.room_id;
        EXPECT_EQ((*room)["unread_num"].get<int>(), e.unread_num) << e.room_id;
        for (const char* key :
             {"mention_num", "mytask_num", "message_num", "file_num", "task_num", "last_update_time"}) {
            EXPECT_TRUE((*room)[key].is_number_integer()) << e.room_id << "." << key;
        }
        EXPECT_TRUE((*room)["sticky"].is_boolean()) << e.room_id;
        EXPECT_TRUE((*room)["icon_path"].is_string()) << e.room_id;
    }

    // spec 2.5 / 4.5: the status record agrees with the rooms.
    const auto status = body(api_get("/my/status"));
    for (const char* key :
         {"unread_room_num", "mention_room_num", "mytask_room_num", "unread_num", "mention_num", "mytask_num"}) {
        ASSERT_TRUE(status[key].is_number_integer()) << key;
    }
    EXPECT_EQ(status["unread_room_num"].get<int>(), 2);
    EXPECT_EQ(status["unread_num"].get<int>(), 4);
    EXPECT_EQ(status["mention_room_num"].get<int>(), 1);
}

class SandboxApiSmallLimit : public SandboxApi {
protected:
    void SetUp() override {
        SandboxOptions o = test_options();
        o.rate_limit = 5;
        o.rate_window = Seconds(60);
        start(o);
    }
};

// spec 8.1 / 7.3: over the limit -> 429 with remaining 0; the window resets.
TEST_F(SandboxApiSmallLimit, OverallLimitGives429WithRemainingZero_spec8_1) {
    for (int i = 0; i < 5; ++i) {
        auto res = api_get("/me");
        ASSERT_TRUE(res) << why_no_answer(res);
        ASSERT_EQ(res->status, 200);
        EXPECT_EQ(res->get_header_value("x-ratelimit-remaining"), std::to_string(4 - i));
        EXPECT_EQ(res->get_header_value("x-ratelimit-limit"), "5");
    }
    auto over = api_get("/me");
    ASSERT_TRUE(over) << why_no_answer(over);
    EXPECT_EQ(over->status, 429);
    EXPECT_EQ(over->get_header_value("x-ratelimit-remaining"), "0");
    EXPECT_EQ(over->get_header_value("x-ratelimit-limit"), "5");
    // Per credential: Bob is not affected.
    auto bob = api_get("/me", kBobToken);
    ASSERT_TRUE(bob) << why_no_answer(bob);
    EXPECT_EQ(bob->status, 200);
    // The window resets at x-ratelimit-reset.
    advance_clock(61);
    auto after = api_get("/me");
    ASSERT_TRUE(after) << why_no_answer(after);
    EXPECT_EQ(after->status, 200);
}

// spec 8.2: only posts the room accepts count. A non-member (404) or a
// readonly member (403) cannot use up the room's budget for its members.
TEST_F(SandboxApi, RefusedPostsDoNotUseTheRoomBudget_spec8_2) {
    for (int i = 0; i < 12; ++i) {
        auto dave = post_message("2100", "not a member", "sandbox-api-token-dave-1004");
        ASSERT_TRUE(dave) << why_no_answer(dave);
        ASSERT_EQ(dave->status, 404) << dave->body;
        auto carol = post_task("2100", "readonly", "1001", "sandbox-api-token-carol-1003");
        ASSERT_TRUE(carol) << why_no_answer(carol);
        ASSERT_EQ(carol->status, 403) << carol->body;
    }
    auto alice = post_message("2100", "the room is still open");
    ASSERT_TRUE(alice) << why_no_answer(alice);
    EXPECT_EQ(alice->status, 200) << alice->body;
}

// spec 8.2 / 7.3: 10 POSTs per 10 s per room, messages and tasks together, with the exact message.
TEST_F(SandboxApi, PerRoomPostingLimit_spec8_2_7_3) {
    for (int i = 0; i < 5; ++i) {
        auto res = post_message("2100", "message " + std::to_string(i));
        ASSERT_TRUE(res) << why_no_answer(res);
        ASSERT_EQ(res->status, 200) << res->body;
    }
    for (int i = 0; i < 5; ++i) {
        auto res = post_task("2100", "task " + std::to_string(i), "1002", kBobToken);
        ASSERT_TRUE(res) << why_no_answer(res);
        ASSERT_EQ(res->status, 200) << res->body;
    }
    auto over = post_message("2100", "one too many");
    ASSERT_TRUE(over) << why_no_answer(over);
    EXPECT_EQ(over->status, 429);
    EXPECT_EQ(over->body, "{\"errors\":[\"Rate limit for message posting per room exceeded.\"]}");
    EXPECT_TRUE(is_per_room_rate_limit(HttpResponse{over->status, {}, over->body}));
    auto task_over = post_task("2100", "also too many", "1001");
    ASSERT_TRUE(task_over) << why_no_answer(task_over);
    EXPECT_EQ(task_over->status, 429) << "tasks share the room's count";
    // Another room is not affected; after about 10 s the room accepts posts again.
    auto other = post_message("2101", "elsewhere");
    ASSERT_TRUE(other) << why_no_answer(other);
    EXPECT_EQ(other->status, 200);
    advance_clock(10);
    auto later = post_message("2100", "after the wait");
    ASSERT_TRUE(later) << why_no_answer(later);
    EXPECT_EQ(later->status, 200) << later->body;
}

}  // namespace
}  // namespace roomkey::sandbox::testing
