// sandbox_live_service_test.cpp: the sandbox answers as the live service
// does where the service's published sources say how, on real sockets. Each
// test names its source:
//   RAML       chatwork/api, RAML/api-ja.raml (the service's API description)
//   PR7        chatwork/api pull request #7 (invitation link transcripts)
//   ruby42     asonas/chatwork-ruby issue #42, fixed by PR #43 (401 without a body)
//   hubot6     akiomik/hubot-chatwork issue #6 (400 "Invalid Endpoint or HTTP method")
//   mcp        chatwork/chatwork-mcp-server commit bc8075c (\uXXXX and \/ in JSON text)
//   dtext      wlg-shinya/chatwork-converter; a GET /messages answer quoted in a
//              public Python client's README (the service's own messages)
// Where nothing is published, the sandbox's choice is a named constant
// (helper/sandbox/app.hpp [choices], chat_model.hpp) and docs/sandbox.md says so.
#include "roomkey/api_records.hpp"
#include "roomkey/errors.hpp"
#include "roomkey/message_tags.hpp"
#include "roomkey/www_authenticate.hpp"
#include "sandbox/app.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxLiveService : public SandboxTest {
protected:
    static nlohmann::json body(const httplib::Result& res) {
        return res ? nlohmann::json::parse(res->body, nullptr, false) : nlohmann::json();
    }
    static std::string first_error(const httplib::Result& res) {
        auto parsed = read_api_error_body(res ? res->body : std::string());
        return parsed && !parsed->errors.empty() ? parsed->errors[0] : std::string("<not an API error body>");
    }
    httplib::Result send(const std::string& method, const std::string& path, const FormFields& fields = {},
                         const std::string& token = kAliceToken) {
        const httplib::Headers h{{"x-servicetoken", token}};
        const std::string p = "/v2" + path;
        const std::string form = form_encode(fields);
        auto c = client();
        if (method == "GET") return c->Get(fields.empty() ? p.c_str() : (p + "?" + form).c_str(), h);
        if (method == "POST") return c->Post(p.c_str(), h, form, "application/x-www-form-urlencoded");
        if (method == "PUT") return c->Put(p.c_str(), h, form, "application/x-www-form-urlencoded");
        return c->Delete(p.c_str(), h, form, "application/x-www-form-urlencoded");
    }
    std::string post_message(const std::string& room, const std::string& text, const std::string& token = kAliceToken) {
        auto res = send("POST", "/rooms/" + room + "/messages", {{"body", text}}, token);
        EXPECT_TRUE(res && res->status == 200) << (res ? res->body : "no answer");
        return json_string(body(res), "message_id");
    }
    // The room's messages as the app's reader gives them back.
    std::vector<ChatMessage> messages(const std::string& room, const std::string& force = "1",
                                      const std::string& token = kAliceToken) {
        auto res = send("GET", "/rooms/" + room + "/messages", {{"force", force}}, token);
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        HttpResponse r;
        r.status = res->status;
        r.body = res->body;
        auto read = read_messages(r);
        EXPECT_TRUE(read) << res->body;
        return read ? *read : std::vector<ChatMessage>{};
    }
    std::int64_t room_field(const std::string& room, const char* name, const std::string& token = kAliceToken) {
        const auto j = body(send("GET", "/rooms/" + room, {}, token));
        return j.is_object() && j.contains(name) && j[name].is_number_integer() ? j[name].get<std::int64_t>() : -1;
    }
};

// RAML securedBy: PUT /messages/read and /unread need rooms.messages:write.
TEST_F(SandboxLiveService, MarkReadNeedsTheWriteScope_RAML) {
    const auto read_only = sign_in_web("rooms.messages:read rooms.info:read");
    const std::string token = json_string(read_only, "access_token");
    ASSERT_FALSE(token.empty()) << "the sign-in gave no access_token: " << read_only.dump();
    auto c = client();
    auto res = c->Put("/v2/rooms/2100/messages/read", {{"Authorization", "Bearer " + token}}, "",
                      "application/x-www-form-urlencoded");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 403) << res->body;
    const auto challenge = find_bearer_challenge(Headers{{"WWW-Authenticate", res->get_header_value("WWW-Authenticate")}});
    ASSERT_TRUE(challenge) << "no Bearer challenge: " << res->get_header_value("WWW-Authenticate");
    EXPECT_EQ(challenge->error, "insufficient_scope");
    EXPECT_EQ(challenge->scope.value_or(""), "rooms.messages:write");

    const auto writer = sign_in_web("rooms.messages:write rooms.info:read");
    auto ok = c->Put("/v2/rooms/2100/messages/read",
                     {{"Authorization", "Bearer " + json_string(writer, "access_token")}}, "",
                     "application/x-www-form-urlencoded");
    ASSERT_TRUE(ok) << why_no_answer(ok);
    EXPECT_NE(ok->status, 403) << ok->body;
}

// RAML: read up to message_id; already read that far (or nothing unread) is a
// 400; unread requires message_id; both answer {unread_num, mention_num}.
TEST_F(SandboxLiveService, MarkReadTakesAMessageIdAndRefusesWhatIsAlreadyRead_RAML) {
    const std::string first = post_message("2100", "one", kBobToken);
    post_message("2100", "[To:1001] two", kBobToken);
    post_message("2100", "three", kBobToken);
    const std::int64_t unread = room_field("2100", "unread_num");
    ASSERT_GE(unread, 3);

    auto upto = send("PUT", "/rooms/2100/messages/read", {{"message_id", first}});
    ASSERT_TRUE(upto) << why_no_answer(upto);
    ASSERT_EQ(upto->status, 200) << upto->body;
    EXPECT_EQ(body(upto)["unread_num"], 2) << upto->body;  // "two" and "three"
    EXPECT_EQ(body(upto)["mention_num"], 1) << upto->body;  // "[To:1001] two"

    auto again = send("PUT", "/rooms/2100/messages/read", {{"message_id", first}});
    ASSERT_TRUE(again) << why_no_answer(again);
    EXPECT_EQ(again->status, 400) << again->body;

    auto all = send("PUT", "/rooms/2100/messages/read");
    ASSERT_TRUE(all) << why_no_answer(all);
    ASSERT_EQ(all->status, 200) << all->body;
    EXPECT_EQ(body(all)["unread_num"], 0);
    EXPECT_EQ(body(all)["mention_num"], 0);

    auto nothing = send("PUT", "/rooms/2100/messages/read");
    ASSERT_TRUE(nothing) << why_no_answer(nothing);
    EXPECT_EQ(nothing->status, 400) << nothing->body;
    EXPECT_EQ(first_error(nothing), kAlreadyReadMessage);

    auto no_id = send("PUT", "/rooms/2100/messages/unread");
    ASSERT_TRUE(no_id) << why_no_answer(no_id);
    EXPECT_EQ(no_id->status, 400) << no_id->body;
    auto unread_again = send("PUT", "/rooms/2100/messages/unread", {{"message_id", first}});
    ASSERT_TRUE(unread_again) << why_no_answer(unread_again);
    ASSERT_EQ(unread_again->status, 200) << unread_again->body;
    EXPECT_EQ(body(unread_again)["unread_num"], 3);
    EXPECT_EQ(body(unread_again)["mention_num"], 1);
}

// RAML again, with one's own message after the unread ones: reading up to an
// unread message before it still reads (one's own messages are never unread,
// so they do not move where the unread ones start).
TEST_F(SandboxLiveService, MarkReadUpToAMessageBeforeOnesOwnPost_RAML) {
    send("PUT", "/rooms/2100/messages/read");  // start from nothing unread
    const std::string bobs_first = post_message("2100", "[To:1001] first", kBobToken);
    post_message("2100", "second", kBobToken);
    post_message("2100", "Alice answers");  // her own: not unread for her
    ASSERT_EQ(room_field("2100", "unread_num"), 2);
    auto upto = send("PUT", "/rooms/2100/messages/read", {{"message_id", bobs_first}});
    ASSERT_TRUE(upto) << why_no_answer(upto);
    ASSERT_EQ(upto->status, 200) << upto->body;
    EXPECT_EQ(body(upto)["unread_num"], 1);
    EXPECT_EQ(body(upto)["mention_num"], 0);
}

// RAML (chatwork/api RAML/api-ja.raml, GET /rooms/{room_id}/messages):
// "パラメータ未指定だと前回取得分からの差分のみを返します。(最大100件まで取得)"
// (without force, only what the previous read did not return) and force:
// "1を指定すると未取得にかかわらず最新の100件を取得します（デフォルトは0）".
// The 204 when nothing is new is the sandbox's choice (docs/sandbox.md): the
// RAML lists no 204 for this GET.
TEST_F(SandboxLiveService, MessagesWithoutForceReturnOnlyWhatIsNew_RAML) {
    const auto first = messages("2100", "0");
    ASSERT_FALSE(first.empty()) << "no messages in room 2100";
    auto second = send("GET", "/rooms/2100/messages", {{"force", "0"}});
    ASSERT_TRUE(second) << why_no_answer(second);
    EXPECT_EQ(second->status, 204) << second->body;
    auto unforced = send("GET", "/rooms/2100/messages");
    ASSERT_TRUE(unforced) << why_no_answer(unforced);
    EXPECT_EQ(unforced->status, 204) << "no force is force=0";

    const std::string id = post_message("2100", "only this one is new", kBobToken);
    const auto third = messages("2100", "0");
    ASSERT_EQ(third.size(), 1u);
    EXPECT_EQ(third[0].message_id, id);
    EXPECT_EQ(third[0].body, "only this one is new");

    // force=1 still gives the whole room (the latest 100 at most).
    EXPECT_EQ(messages("2100", "1").size(), first.size() + 1);
    // The cursor is per account (kMessageCursorPerAccount): Bob's is his own.
    EXPECT_EQ(messages("2100", "0", kBobToken).size(), first.size() + 1);
}

TEST_F(SandboxLiveService, MessagesAreAtMostTheLatest100_RAML) {
    for (int i = 0; i < 105; ++i) {
        post_message("2200", "bulk " + std::to_string(i));
        if (HasFailure()) return;
        if (i % 9 == 8) advance_clock(11);  // past the per-room posting limit (spec 8.2)
    }
    const auto latest = messages("2200", "1");
    ASSERT_EQ(latest.size(), kMessagesPerRead);
    EXPECT_EQ(latest.back().body, "bulk 104");
}

// ruby42: an expired or invalid access token is a 401 whose body is empty;
// the error is only in WWW-Authenticate (spec 5.2.2).
TEST_F(SandboxLiveService, InvalidAccessTokenIs401WithAnEmptyBody_ruby42) {
    auto invalid = bearer_get("/me", "no-such-token");
    ASSERT_TRUE(invalid) << why_no_answer(invalid);
    EXPECT_EQ(invalid->status, 401);
    EXPECT_EQ(invalid->body, "");
    const auto challenge = find_bearer_challenge(Headers{{"WWW-Authenticate", invalid->get_header_value("WWW-Authenticate")}});
    ASSERT_TRUE(challenge) << "no Bearer challenge: " << invalid->get_header_value("WWW-Authenticate");
    EXPECT_EQ(challenge->error, "invalid_token");

    const std::string token = json_string(sign_in_web(), "access_token");
    advance_clock(31 * 60);  // past the 30-minute lifetime (spec 2.3)
    auto expired = bearer_get("/me", token);
    ASSERT_TRUE(expired) << why_no_answer(expired);
    EXPECT_EQ(expired->status, 401);
    EXPECT_EQ(expired->body, "");
    EXPECT_NE(expired->get_header_value("WWW-Authenticate").find("expired"), std::string::npos);

    // The injected fault the e2e tests use answers the same way.
    inject_fault(R"({"target":"api","kind":"invalid_token"})");
    auto injected = api_get("/me");
    ASSERT_TRUE(injected) << why_no_answer(injected);
    EXPECT_EQ(injected->status, 401);
    EXPECT_EQ(injected->body, "");
}

// hubot6: a path or method the API does not have is 400 with these words.
TEST_F(SandboxLiveService, UnknownEndpointOrMethodIs400_hubot6) {
    for (const auto& [method, path] : std::vector<std::pair<std::string, std::string>>{
             {"GET", "/rooms/rid12345/messages"}, {"GET", "/nowhere"}, {"POST", "/me"}, {"DELETE", "/rooms"}}) {
        auto res = send(method, path);
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_EQ(res->status, 400) << method << " " << path;
        EXPECT_EQ(first_error(res), kInvalidEndpointMessage) << method << " " << path;
    }
    auto patch = client()->Patch("/v2/me", {{"x-servicetoken", kAliceToken}}, "", "text/plain");
    ASSERT_TRUE(patch) << why_no_answer(patch);
    EXPECT_EQ(patch->status, 400);
    EXPECT_EQ(first_error(patch), kInvalidEndpointMessage);
}

// mcp: JSON text escapes non-ASCII as \uXXXX (emoji as a surrogate pair) and
// '/' as \/; the app's reader gives the text back.
TEST_F(SandboxLiveService, JsonTextIsAsciiWithUnicodeEscapes_mcp) {
    const std::string text = "会議は 14:00/15:00 \xF0\x9F\x98\x80 です";  // an emoji: U+1F600
    post_message("2100", text);
    auto res = send("GET", "/rooms/2100/messages", {{"force", "1"}});
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 200);
    for (unsigned char c : res->body) ASSERT_LT(c, 0x80) << "a byte outside ASCII on the wire";
    EXPECT_NE(res->body.find("\\u4f1a\\u8b70"), std::string::npos) << "会議 as \\u escapes";
    EXPECT_NE(res->body.find("\\ud83d\\ude00"), std::string::npos) << "the emoji as a surrogate pair";
    EXPECT_NE(res->body.find("14:00\\/15:00"), std::string::npos) << "'/' as \\/";
    const auto read = messages("2100");
    ASSERT_FALSE(read.empty()) << "no messages in room 2100 after the post";
    EXPECT_EQ(read.back().body, text);
}

// dtext: a task added is the service's own message with a [task] per assignee.
TEST_F(SandboxLiveService, TaskAddedIsTheServicesOwnMessage_dtext) {
    auto res = send("POST", "/rooms/2100/tasks",
                    {{"body", "Review"}, {"to_ids", "1001,1002"}, {"limit", "1385996399"}, {"limit_type", "date"}});
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const auto read = messages("2100");
    ASSERT_FALSE(read.empty()) << "no messages in room 2100 after the task";
    EXPECT_EQ(read.back().body,
              "[info][title][dtext:task_added][/title]"
              "[task aid=1001 st=open lt=1385996399 ltype=date]Review[/task]"
              "[task aid=1002 st=open lt=1385996399 ltype=date]Review[/task][/info]");
    EXPECT_EQ(service_event_key(read.back().body).value_or(""), "task_added");
}

// dtext: creating a room and changing its members write the service's messages.
TEST_F(SandboxLiveService, RoomCreatedAndMembersChangedAreTheServicesOwnMessages_dtext) {
    auto created = send("POST", "/rooms", {{"name", "Launch"}, {"members_admin_ids", "1001"}, {"members_member_ids", "1002"}});
    ASSERT_TRUE(created) << why_no_answer(created);
    ASSERT_EQ(created->status, 200) << created->body;
    const std::string room = std::to_string(body(created)["room_id"].get<std::int64_t>());
    auto read = messages(room);
    ASSERT_EQ(read.size(), 1u);
    EXPECT_EQ(read[0].body,
              "[info][title][dtext:chatroom_groupchat_created][/title][dtext:chatroom_chatname_is]Launch"
              "[dtext:chatroom_set]\n\n[dtext:chatroom_member_is][piconname:1002][dtext:chatroom_added][/info]");

    auto changed = send("PUT", "/rooms/" + room + "/members", {{"members_admin_ids", "1001"}, {"members_member_ids", "1003"}});
    ASSERT_TRUE(changed) << why_no_answer(changed);
    ASSERT_EQ(changed->status, 200) << changed->body;
    read = messages(room);
    ASSERT_EQ(read.size(), 2u);
    EXPECT_EQ(read[1].body,
              "[info][title][dtext:chatroom_chat_edited][/title][dtext:chatroom_member_is][piconname:1003]"
              "[dtext:chatroom_added]\n[dtext:chatroom_member_is][piconname:1002][dtext:chatroom_deleted][/info]");
    EXPECT_EQ(service_event_key(read[1].body).value_or(""), "chatroom_chat_edited");
}

// The notation guide: a reply ([rp aid=...] or [返信 aid=...]) mentions its
// addressee, as [To:] does.
TEST_F(SandboxLiveService, RepliesCountAsMentions_notation) {
    const std::int64_t before = room_field("2100", "mention_num");
    post_message("2100", "[rp aid=1001 to=2100-1600000000000000001]Bob Example\nagreed", kBobToken);
    EXPECT_EQ(room_field("2100", "mention_num"), before + 1);
    post_message("2100", "[\xE8\xBF\x94\xE4\xBF\xA1 aid=1001 to=2100-1600000000000000001]\xE4\xBA\x86\xE8\xA7\xA3", kBobToken);
    EXPECT_EQ(room_field("2100", "mention_num"), before + 2);
    post_message("2100", "[rp aid=1003 to=2100-1600000000000000001]Carol", kBobToken);
    EXPECT_EQ(room_field("2100", "mention_num"), before + 2) << "a reply to someone else is not Alice's mention";
}

// RAML: icon_preset is one of 17 values; a room name is 1-255 characters and
// a message body 1-65,535; link_code 1-50 of [A-Za-z0-9_-].
TEST_F(SandboxLiveService, RoomAndMessageFieldsFollowTheRamlRules_RAML) {
    auto cafe = send("POST", "/rooms", {{"name", "Cafe"}, {"members_admin_ids", "1001"}, {"icon_preset", "cafe"}});
    ASSERT_TRUE(cafe) << why_no_answer(cafe);
    EXPECT_EQ(cafe->status, 400) << cafe->body;
    EXPECT_NE(first_error(cafe).find("icon_preset"), std::string::npos) << first_error(cafe);
    auto magcup = send("POST", "/rooms", {{"name", "Cafe"}, {"members_admin_ids", "1001"}, {"icon_preset", "magcup"}});
    ASSERT_TRUE(magcup) << why_no_answer(magcup);
    EXPECT_EQ(magcup->status, 200) << magcup->body;

    // 255 characters of three bytes each fit; 256 do not.
    std::string name;
    for (int i = 0; i < 255; ++i) name += "\xE4\xBC\x9A";  // 会
    auto long_ok = send("POST", "/rooms", {{"name", name}, {"members_admin_ids", "1001"}});
    ASSERT_TRUE(long_ok) << why_no_answer(long_ok);
    EXPECT_EQ(long_ok->status, 200) << long_ok->body;
    auto too_long = send("POST", "/rooms", {{"name", name + "x"}, {"members_admin_ids", "1001"}});
    ASSERT_TRUE(too_long) << why_no_answer(too_long);
    EXPECT_EQ(too_long->status, 400);

    auto body_ok = send("POST", "/rooms/2200/messages", {{"body", std::string(65535, 'a')}});
    ASSERT_TRUE(body_ok) << why_no_answer(body_ok);
    EXPECT_EQ(body_ok->status, 200);
    auto body_long = send("POST", "/rooms/2200/messages", {{"body", std::string(65536, 'a')}});
    ASSERT_TRUE(body_long) << why_no_answer(body_long);
    EXPECT_EQ(body_long->status, 400);

    auto bad_code = send("POST", "/rooms", {{"name", "L"}, {"members_admin_ids", "1001"}, {"link", "1"}, {"link_code", "no spaces"}});
    ASSERT_TRUE(bad_code) << why_no_answer(bad_code);
    EXPECT_EQ(bad_code->status, 400);
}

// RAML: members_member_ids and members_readonly_ids are optional lists; given
// empty, they name nobody (a script that sends every field sends them so).
TEST_F(SandboxLiveService, OptionalMemberListsMayBeEmpty_RAML) {
    auto res = send("PUT", "/rooms/2100/members",
                    {{"members_admin_ids", "1001"}, {"members_member_ids", ""}, {"members_readonly_ids", ""}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 200) << res->body;
    auto missing = send("PUT", "/rooms/2100/members", {{"members_admin_ids", ""}});
    ASSERT_TRUE(missing) << why_no_answer(missing);
    EXPECT_EQ(missing->status, 400) << "the admin list is required: empty is not allowed";
}

// PR7: invitation links answer {"public":false} when disabled and
// {"public":true,"url","need_acceptance","description"} when enabled.
TEST_F(SandboxLiveService, InvitationLinks_PR7) {
    auto none = send("GET", "/rooms/2100/link");
    ASSERT_TRUE(none) << why_no_answer(none);
    ASSERT_EQ(none->status, 200) << none->body;
    EXPECT_EQ(body(none), nlohmann::json::parse(R"({"public":false})"));

    auto made = send("POST", "/rooms/2100/link", {{"code", "roomkey-team"}, {"description", "Join us"}});
    ASSERT_TRUE(made) << why_no_answer(made);
    ASSERT_EQ(made->status, 200) << made->body;
    auto j = body(made);
    EXPECT_EQ(j["public"], true);
    EXPECT_EQ(j["need_acceptance"], true) << "RAML default";
    EXPECT_EQ(j["description"], "Join us");
    const std::string url = j["url"].get<std::string>();
    EXPECT_EQ(url.substr(url.size() - std::string("/g/roomkey-team").size()), "/g/roomkey-team");
    auto page = get(url.substr(url.find("/g/")));
    ASSERT_TRUE(page) << why_no_answer(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->body.find("Roomkey project"), std::string::npos);

    auto twice = send("POST", "/rooms/2100/link");
    ASSERT_TRUE(twice) << why_no_answer(twice);
    EXPECT_EQ(twice->status, 400) << "already enabled";
    auto changed = send("PUT", "/rooms/2100/link", {{"need_acceptance", "0"}});
    ASSERT_TRUE(changed) << why_no_answer(changed);
    ASSERT_EQ(changed->status, 200) << changed->body;
    EXPECT_EQ(body(changed)["need_acceptance"], false);
    EXPECT_EQ(body(send("GET", "/rooms/2100/link"))["need_acceptance"], false);

    auto taken = send("POST", "/rooms", {{"name", "Other"}, {"members_admin_ids", "1001"}, {"link", "1"},
                                         {"link_code", "roomkey-team"}});
    ASSERT_TRUE(taken) << why_no_answer(taken);
    EXPECT_EQ(taken->status, 400) << "a code is one room's";

    auto member = send("DELETE", "/rooms/2101/link", {}, kAliceToken);  // Alice is a member there, not an admin
    ASSERT_TRUE(member) << why_no_answer(member);
    EXPECT_EQ(member->status, 403);

    auto removed = send("DELETE", "/rooms/2100/link");
    ASSERT_TRUE(removed) << why_no_answer(removed);
    ASSERT_EQ(removed->status, 200);
    EXPECT_EQ(body(removed), nlohmann::json::parse(R"({"public":false})"));
    auto put_none = send("PUT", "/rooms/2100/link", {{"description", "x"}});
    ASSERT_TRUE(put_none) << why_no_answer(put_none);
    EXPECT_EQ(put_none->status, 400) << "nothing to change";

    // link=1 on POST /rooms makes one with a random code (PR7).
    auto with_link = send("POST", "/rooms", {{"name", "Open"}, {"members_admin_ids", "1001"}, {"link", "1"}});
    ASSERT_TRUE(with_link) << why_no_answer(with_link);
    ASSERT_EQ(with_link->status, 200) << with_link->body;
    const std::string room = std::to_string(body(with_link)["room_id"].get<std::int64_t>());
    const auto link = body(send("GET", "/rooms/" + room + "/link"));
    EXPECT_EQ(link["public"], true);
    EXPECT_EQ(link["url"].get<std::string>().size() - link["url"].get<std::string>().find("/g/") - 3, kLinkCodeLength);
}

// RAML: message PUT and DELETE answer {"message_id"}; update_time is 0 until
// a message is edited. Someone else's message: kOthersMessageStatus (a choice).
TEST_F(SandboxLiveService, EditsAnswerTheMessageIdAndMarkUpdateTime_RAML) {
    const std::string id = post_message("2100", "first draft");
    const auto before = body(send("GET", "/rooms/2100/messages/" + id));
    EXPECT_EQ(before["update_time"], 0);
    advance_clock(5);
    auto edited = send("PUT", "/rooms/2100/messages/" + id, {{"body", "final"}});
    ASSERT_TRUE(edited) << why_no_answer(edited);
    ASSERT_EQ(edited->status, 200);
    EXPECT_EQ(body(edited), (nlohmann::json{{"message_id", id}}));
    const auto after = body(send("GET", "/rooms/2100/messages/" + id));
    EXPECT_EQ(after["body"], "final");
    EXPECT_GT(after["update_time"].get<std::int64_t>(), after["send_time"].get<std::int64_t>());

    auto others = send("PUT", "/rooms/2100/messages/" + id, {{"body", "hijack"}}, kBobToken);
    ASSERT_TRUE(others) << why_no_answer(others);
    EXPECT_EQ(others->status, kOthersMessageStatus);
    auto deleted = send("DELETE", "/rooms/2100/messages/" + id);
    ASSERT_TRUE(deleted) << why_no_answer(deleted);
    ASSERT_EQ(deleted->status, 200);
    EXPECT_EQ(body(deleted), (nlohmann::json{{"message_id", id}}));
}

}  // namespace
}  // namespace roomkey::sandbox::testing
