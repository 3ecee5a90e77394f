// api_test.cpp: REST request builders and response readers (spec 4.1, 4.4-4.8,
// 5.1, 5.2, 2.5-2.7, 9).
#include "roomkey/api.hpp"

#include <gtest/gtest.h>

#include "json_answer.hpp"

#include <string>

#include "roomkey/url.hpp"

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace api_test {
namespace {

using testing::json_answer;

const ApiConfig kDirect{"https://api.example.com/v2"};
const Credentials kBearer = BearerToken{"access-abc.123"};
const Credentials kApiToken = ApiToken{"apitoken456"};

HttpRequest built(Result<HttpRequest, ApiRequestError> result) {
    EXPECT_TRUE(result) << (result ? "" : to_string(result.error()));
    return result ? *result : HttpRequest{};
}

FormFields body_of(const HttpRequest& request) {
    auto fields = form_decode(request.body);
    EXPECT_TRUE(fields) << request.body;
    return fields ? *fields : FormFields{};
}

// ---------------------------------------------------------------- builders

TEST(ApiBuilders, Spec44GetMeIsGetOnBaseUrlPlusPath) {
    const HttpRequest r = built(get_me(kDirect, kBearer));
    EXPECT_EQ(r.method, Method::Get);
    EXPECT_EQ(r.url, "https://api.example.com/v2/me") << "spec 4.1.5: {base_url} + path";
    EXPECT_TRUE(r.body.empty()) << "spec 4.4: no request body";
    EXPECT_EQ(r.headers.get("accept"), "application/json");
}

TEST(ApiBuilders, Spec45GetMyStatusAndGetRooms) {
    EXPECT_EQ(built(get_my_status(kDirect, kBearer)).url, "https://api.example.com/v2/my/status");
    EXPECT_EQ(built(get_rooms(kDirect, kBearer)).url, "https://api.example.com/v2/rooms");
}

TEST(ApiBuilders, Spec52BearerTokenGoesInTheAuthorizationHeaderOnly) {
    const HttpRequest r = built(get_me(kDirect, kBearer));
    EXPECT_EQ(r.headers.get("Authorization"), "Bearer access-abc.123");
    EXPECT_FALSE(r.headers.has("x-servicetoken")) << "spec 5.2.1: the Bearer header replaces the API-token header";
    EXPECT_EQ(r.url.find("access-abc"), std::string::npos) << "token must never be in the URL";
}

TEST(ApiBuilders, Spec51ApiTokenGoesInItsHeaderNeverInTheQuery) {
    const HttpRequest r = built(get_me(kDirect, kApiToken));
    EXPECT_EQ(r.headers.get("x-servicetoken"), "apitoken456");
    EXPECT_FALSE(r.headers.has("authorization"));
    EXPECT_EQ(r.url.find("apitoken456"), std::string::npos) << "spec 5.1.2: never in the URL query";

    ApiConfig renamed = kDirect;
    renamed.token_header = "X-Brand-Token";
    const HttpRequest r2 = built(get_me(renamed, kApiToken));
    EXPECT_EQ(r2.headers.get("x-brand-token"), "apitoken456") << "the header name is a setting";
    EXPECT_FALSE(r2.headers.has("x-servicetoken"));
}

TEST(ApiBuilders, RefusesTokensThatWouldBreakTheHeader) {
    for (const char* token : {"", "abc\r\nx-evil: 1", "a b", "tab\there", "caf\xc3\xa9"}) {
        auto a = get_me(kDirect, BearerToken{token});
        ASSERT_FALSE(a) << "bearer \"" << token << "\" should be refused";
        EXPECT_EQ(a.error(), ApiRequestError::invalid_token);
        auto b = get_me(kDirect, ApiToken{token});
        ASSERT_FALSE(b) << "api token \"" << token << "\" should be refused";
        EXPECT_EQ(b.error(), ApiRequestError::invalid_token);
    }
}

TEST(ApiBuilders, RefusesAnUnusableTokenHeaderName) {
    for (const char* header : {"", "x token", "x-token:", "authorization", "Authorization"}) {
        ApiConfig config = kDirect;
        config.token_header = header;
        auto r = get_me(config, kApiToken);
        ASSERT_FALSE(r) << "header name \"" << header << "\" should be refused";
        EXPECT_EQ(r.error(), ApiRequestError::invalid_token_header);
    }
}

TEST(ApiBuilders, WorksThroughTheHelpersProxyPath) {
    const ApiConfig proxy{"/api"};
    EXPECT_EQ(built(get_me(proxy, kBearer)).url, "/api/me");
    EXPECT_EQ(built(get_me(ApiConfig{"/api/"}, kBearer)).url, "/api/me") << "trailing '/' is not doubled";
    EXPECT_EQ(built(get_me(ApiConfig{"https://h/v2/"}, kBearer)).url, "https://h/v2/me");
}

TEST(ApiBuilders, Spec411RefusesBaseUrlsThatAreNotHttps) {
    for (const char* base : {"", "/", "http://api.example.com/v2", "//evil.example/v2", "api.example.com/v2",
                             "https://user@api.example.com/v2", "https://api.example.com/v2?x=1",
                             "https://api.example.com/v2#f", "/api?x", "https:///v2"}) {
        auto r = get_me(ApiConfig{base}, kBearer);
        ASSERT_FALSE(r) << "base_url \"" << base << "\" should be refused";
        EXPECT_EQ(r.error(), ApiRequestError::invalid_base_url) << base;
    }
}

TEST(ApiBuilders, Spec46PostMessageIsFormEncoded) {
    const HttpRequest r = built(post_message(kDirect, kBearer, "123", "Hello world & more!"));
    EXPECT_EQ(r.method, Method::Post);
    EXPECT_EQ(r.url, "https://api.example.com/v2/rooms/123/messages");
    EXPECT_EQ(r.headers.get("content-type"), "application/x-www-form-urlencoded") << "spec 4.1.3";
    EXPECT_EQ(r.body, "body=Hello+world+%26+more%21&self_unread=0");
    EXPECT_EQ(form_get(body_of(built(post_message(kDirect, kBearer, "1", "x", true))), "self_unread"), "1");
}

TEST(ApiBuilders, Spec46PostMessageValidatesRoomAndBody) {
    for (const char* room : {"", "abc", "12a", "-1", "0123", "../me", "%31", "1/messages"}) {
        auto r = post_message(kDirect, kBearer, room, "hi");
        ASSERT_FALSE(r) << "room \"" << room << "\" should be refused";
        EXPECT_EQ(r.error(), ApiRequestError::invalid_room_id);
    }
    auto empty = post_message(kDirect, kBearer, "123", "");
    ASSERT_FALSE(empty) << "a request was built for an empty body: " << empty->url;
    EXPECT_EQ(empty.error(), ApiRequestError::empty_body);
}

TEST(ApiBuilders, Spec47PostTaskJoinsAssigneesAndSendsTheLimit) {
    const HttpRequest r =
        built(post_task(kDirect, kApiToken, "42", "Review", {"1001", "1002"}, 1700000000, TaskLimitType::date));
    EXPECT_EQ(r.method, Method::Post);
    EXPECT_EQ(r.url, "https://api.example.com/v2/rooms/42/tasks");
    EXPECT_EQ(r.headers.get("content-type"), "application/x-www-form-urlencoded");
    const FormFields body = body_of(r);
    EXPECT_EQ(form_get(body, "body"), "Review");
    EXPECT_EQ(form_get(body, "to_ids"), "1001,1002") << "assignees are comma-joined";
    EXPECT_EQ(form_get(body, "limit"), "1700000000");
    EXPECT_EQ(form_get(body, "limit_type"), "date");

    const FormFields no_limit = body_of(built(post_task(kDirect, kApiToken, "42", "x", {"7"})));
    EXPECT_FALSE(form_get(no_limit, "limit").has_value());
    EXPECT_EQ(form_get(no_limit, "limit_type"), "none");
}

TEST(ApiBuilders, Spec47PostTaskValidatesItsInputs) {
    auto expect_error = [](Result<HttpRequest, ApiRequestError> r, ApiRequestError expected, const char* why) {
        ASSERT_FALSE(r) << why;
        EXPECT_EQ(r.error(), expected) << why << ": got " << to_string(r.error());
    };
    expect_error(post_task(kDirect, kBearer, "4x", "t", {"1"}), ApiRequestError::invalid_room_id, "room id");
    expect_error(post_task(kDirect, kBearer, "4", "", {"1"}), ApiRequestError::empty_body, "empty body");
    expect_error(post_task(kDirect, kBearer, "4", "t", {}), ApiRequestError::no_assignee, "no assignee");
    expect_error(post_task(kDirect, kBearer, "4", "t", {"1", "1,2"}), ApiRequestError::invalid_account_id,
                 "a comma inside an id would add an assignee");
    expect_error(post_task(kDirect, kBearer, "4", "t", {""}), ApiRequestError::invalid_account_id, "empty id");
    expect_error(post_task(kDirect, kBearer, "4", "t", {"1"}, 100), ApiRequestError::invalid_limit,
                 "limit with type none");
    expect_error(post_task(kDirect, kBearer, "4", "t", {"1"}, std::nullopt, TaskLimitType::time),
                 ApiRequestError::invalid_limit, "type time without limit");
    expect_error(post_task(kDirect, kBearer, "4", "t", {"1"}, -5, TaskLimitType::time), ApiRequestError::invalid_limit,
                 "negative limit");
}

TEST(ApiRequest, OnlyBuildsAllowlistedEndpoints) {
    auto r = api_request(kDirect, kBearer, Method::Get, "/rooms/1/messages", {{"force", "1"}});
    ASSERT_TRUE(r) << to_string(r.error());
    EXPECT_EQ(r->url, "https://api.example.com/v2/rooms/1/messages?force=1") << "GET parameters go in the query";
    EXPECT_TRUE(r->body.empty());

    auto put = api_request(kDirect, kBearer, Method::Put, "/rooms/1/messages/read", {{"message_id", "5"}});
    ASSERT_TRUE(put) << to_string(put.error());
    EXPECT_EQ(put->body, "message_id=5");
    EXPECT_EQ(put->headers.get("content-type"), "application/x-www-form-urlencoded");

    for (const char* path : {"/admin", "/rooms/1/../../admin", "/me?x=1", "me"}) {
        auto bad = api_request(kDirect, kBearer, Method::Get, path);
        ASSERT_FALSE(bad) << path;
        EXPECT_EQ(bad.error(), ApiRequestError::unknown_endpoint) << path;
    }
    auto wrong_method = api_request(kDirect, kBearer, Method::Delete, "/me");
    ASSERT_FALSE(wrong_method) << "a request was built for DELETE /me: " << wrong_method->url;
    EXPECT_EQ(wrong_method.error(), ApiRequestError::unknown_endpoint);
}

TEST(ApiVersion, Spec91IsTheLastSegmentOfBaseUrl) {
    EXPECT_EQ(api_version(ApiConfig{"https://api.example.com/v2"}), "v2");
    EXPECT_EQ(api_version(ApiConfig{"https://api.example.com/v3/"}), "v3") << "spec 9.2: the segment changes";
    EXPECT_EQ(api_version(ApiConfig{"https://api.example.com/x/v2"}), "v2");
    EXPECT_EQ(api_version(ApiConfig{"https://api.example.com"}), "") << "no path, no version";
    EXPECT_EQ(api_version(ApiConfig{"/api"}), "api");
}

// ---------------------------------------------------------------- readers

TEST(ReadAccount, Spec26NeedsOnlyAccountIdAndToleratesUnknownFields) {
    auto a = read_account(json_answer(R"({"account_id":123,"surprise":{"x":[1,2]}})"));
    ASSERT_TRUE(a) << to_string(a.error());
    EXPECT_EQ(a->account_id, "123");
    EXPECT_FALSE(a->name.has_value());
}

TEST(ReadAccount, ReadsTheUsualFields) {
    auto a = read_account(json_answer(R"({"account_id":"1001","room_id":55,"name":"Alice","chatwork_id":"alice",
        "organization_id":9,"organization_name":"Org","department":"Dev","title":null,
        "avatar_image_url":"https://h/a.png","login_mail":"a@example.com"})"));
    ASSERT_TRUE(a) << to_string(a.error());
    EXPECT_EQ(a->account_id, "1001");
    EXPECT_EQ(a->room_id, "55");
    EXPECT_EQ(a->name, "Alice");
    EXPECT_EQ(a->chatwork_id, "alice");
    EXPECT_EQ(a->organization_id, "9");
    EXPECT_EQ(a->organization_name, "Org");
    EXPECT_EQ(a->department, "Dev");
    EXPECT_FALSE(a->title.has_value()) << "null is absent";
    EXPECT_EQ(a->avatar_image_url, "https://h/a.png");
    EXPECT_EQ(a->login_mail, "a@example.com");
}

// 2^53 + 1 and a 20-digit id: a double would round both.
TEST(ReadAccount, KeepsBigIdsExactly) {
    auto big = read_account(json_answer(R"({"account_id":9007199254740993})"));
    ASSERT_TRUE(big) << to_string(big.error());
    EXPECT_EQ(big->account_id, "9007199254740993");
    auto max = read_account(json_answer(R"({"account_id":18446744073709551615})"));
    ASSERT_TRUE(max) << to_string(max.error());
    EXPECT_EQ(max->account_id, "18446744073709551615");
    auto text = read_account(json_answer(R"({"account_id":"12345678901234567890"})"));
    ASSERT_TRUE(text) << to_string(text.error());
    EXPECT_EQ(text->account_id, "12345678901234567890");
}

TEST(ReadAccount, RefusesIdsThatAreNotExactIntegers) {
    struct Case {
        const char* body;
        ApiReadErrorKind kind;
    };
    for (const Case& c : {Case{R"({"account_id":1.0})", ApiReadErrorKind::wrong_type},
                          Case{R"({"account_id":1e3})", ApiReadErrorKind::wrong_type},
                          Case{R"({"account_id":99999999999999999999})", ApiReadErrorKind::wrong_type},
                          Case{R"({"account_id":-4})", ApiReadErrorKind::invalid_value},
                          Case{R"({"account_id":"12a"})", ApiReadErrorKind::invalid_value},
                          Case{R"({"account_id":""})", ApiReadErrorKind::invalid_value},
                          Case{R"({"account_id":true})", ApiReadErrorKind::wrong_type},
                          Case{R"({"account_id":null})", ApiReadErrorKind::missing_field},
                          Case{R"({"name":"x"})", ApiReadErrorKind::missing_field}}) {
        auto a = read_account(json_answer(c.body));
        ASSERT_FALSE(a) << c.body << " should be refused";
        EXPECT_EQ(a.error().kind, c.kind) << c.body << ": " << to_string(a.error());
        EXPECT_EQ(a.error().field, "account_id") << c.body;
    }
}

// Spec 2.6: only account_id is promised; a field beyond it with a type we
// did not expect is read as absent, never a reason to refuse GET /me.
TEST(ReadAccount, Spec26ToleratesUnshownFieldsOfAnotherType) {
    auto a = read_account(json_answer(R"({"account_id":1,"name":5,"organization_id":"org-x","mail":"a@b.example"})"));
    ASSERT_TRUE(a) << to_string(a.error());
    EXPECT_EQ(a->account_id, "1");
    EXPECT_FALSE(a->name);
    EXPECT_FALSE(a->organization_id);
    EXPECT_EQ(a->mail, "a@b.example");
}

TEST(ApiReaders, Spec414RefuseNon2xxAndNonJson) {
    auto status = read_account(HttpResponse{401, {}, R"({"errors":["Invalid API token"]})"});
    ASSERT_FALSE(status) << "an account was read from a 401";
    EXPECT_EQ(status.error().kind, ApiReadErrorKind::http_status) << "success is decided by the status code";
    auto text = read_account(json_answer("<html>"));
    ASSERT_FALSE(text) << "an account was read from a body that is not JSON";
    EXPECT_EQ(text.error().kind, ApiReadErrorKind::not_json);
    auto array = read_account(json_answer("[1]"));
    ASSERT_FALSE(array) << "an account was read from an array";
    EXPECT_EQ(array.error().kind, ApiReadErrorKind::not_object);
    auto empty = read_status(json_answer(""));
    ASSERT_FALSE(empty) << "a status was read from an empty body";
    EXPECT_EQ(empty.error().kind, ApiReadErrorKind::not_json);
}

constexpr const char* kStatusBody =
    R"({"unread_room_num":2,"mention_room_num":1,"mytask_room_num":3,"unread_num":12,"mention_num":1,"mytask_num":8})";

TEST(ReadStatus, Spec25ReadsTheSixCounts) {
    auto s = read_status(json_answer(kStatusBody));
    ASSERT_TRUE(s) << to_string(s.error());
    EXPECT_EQ(s->unread_room_num, 2);
    EXPECT_EQ(s->mention_room_num, 1);
    EXPECT_EQ(s->mytask_room_num, 3);
    EXPECT_EQ(s->unread_num, 12);
    EXPECT_EQ(s->mention_num, 1);
    EXPECT_EQ(s->mytask_num, 8);
}

TEST(ReadStatus, Spec25EveryCountIsARequiredNonNegativeInteger) {
    for (const char* field : {"unread_room_num", "mention_room_num", "mytask_room_num", "unread_num", "mention_num",
                              "mytask_num"}) {
        std::string body = kStatusBody;
        const std::string key = std::string("\"") + field + "\":";
        const std::size_t at = body.find(key);
        ASSERT_NE(at, std::string::npos);
        const std::size_t value_end = body.find_first_of(",}", at);
        const std::string before = body.substr(0, at + key.size());
        const std::string after = body.substr(value_end);
        struct Case {
            std::string value;
            ApiReadErrorKind kind;
        };
        for (const Case& c : {Case{"-1", ApiReadErrorKind::invalid_value}, Case{"1.5", ApiReadErrorKind::wrong_type},
                              Case{"\"3\"", ApiReadErrorKind::wrong_type}, Case{"null", ApiReadErrorKind::missing_field},
                              Case{"9223372036854775808", ApiReadErrorKind::invalid_value}}) {
            auto s = read_status(json_answer(before + c.value + after));
            ASSERT_FALSE(s) << field << " = " << c.value << " should be refused";
            EXPECT_EQ(s.error().kind, c.kind) << field << " = " << c.value << ": " << to_string(s.error());
            EXPECT_EQ(s.error().field, field);
        }
        std::string missing = kStatusBody;
        missing.replace(at, key.size(), std::string("\"x") + field + "\":");
        auto m = read_status(json_answer(missing));
        ASSERT_FALSE(m) << field << " missing should be refused";
        EXPECT_EQ(m.error().kind, ApiReadErrorKind::missing_field);
        EXPECT_EQ(m.error().field, field);
    }
}

TEST(ReadRooms, NeedsOnlyRoomIdAndName) {
    auto rooms = read_rooms(json_answer(R"([{"room_id":123,"name":"Group chat","type":"group","role":"admin","sticky":false,
        "unread_num":10,"mention_num":1,"mytask_num":0,"message_num":122,"file_num":10,"task_num":17,
        "icon_path":"https://h/i.png","last_update_time":1298905200},{"room_id":"124","name":"Bare"}])"));
    ASSERT_TRUE(rooms) << to_string(rooms.error());
    ASSERT_EQ(rooms->size(), 2u);
    const Room& r = (*rooms)[0];
    EXPECT_EQ(r.room_id, "123");
    EXPECT_EQ(r.name, "Group chat");
    EXPECT_EQ(r.type, "group");
    EXPECT_EQ(r.role, "admin");
    EXPECT_EQ(r.sticky, false);
    EXPECT_EQ(r.unread_num, 10);
    EXPECT_EQ(r.mention_num, 1);
    EXPECT_EQ(r.mytask_num, 0);
    EXPECT_EQ(r.message_num, 122);
    EXPECT_EQ(r.file_num, 10);
    EXPECT_EQ(r.task_num, 17);
    EXPECT_EQ(r.icon_path, "https://h/i.png");
    EXPECT_EQ(r.last_update_time, 1298905200);
    const Room& bare = (*rooms)[1];
    EXPECT_EQ(bare.room_id, "124");
    EXPECT_FALSE(bare.unread_num.has_value());
    EXPECT_FALSE(bare.sticky.has_value());

    auto none = read_rooms(json_answer("[]"));
    ASSERT_TRUE(none) << to_string(none.error());
    EXPECT_TRUE(none->empty());
}

TEST(ReadRooms, NamesTheElementAndFieldThatIsWrong) {
    struct Case {
        const char* body;
        ApiReadErrorKind kind;
        const char* field;
    };
    for (const Case& c : {Case{R"({"room_id":1})", ApiReadErrorKind::not_array, ""},
                          Case{R"([{"room_id":1,"name":"a"},{"name":"b"}])", ApiReadErrorKind::missing_field,
                               "[1].room_id"},
                          Case{R"([{"room_id":1}])", ApiReadErrorKind::missing_field, "[0].name"},
                          Case{R"([{"room_id":1,"name":2}])", ApiReadErrorKind::wrong_type, "[0].name"},
                          Case{R"([{"room_id":1.5,"name":"a"}])", ApiReadErrorKind::wrong_type, "[0].room_id"},
                          Case{R"([7])", ApiReadErrorKind::not_object, "[0]"}}) {
        auto rooms = read_rooms(json_answer(c.body));
        ASSERT_FALSE(rooms) << c.body << " should be refused";
        EXPECT_EQ(rooms.error().kind, c.kind) << c.body << ": " << to_string(rooms.error());
        EXPECT_EQ(rooms.error().field, c.field) << c.body;
    }
}

// Spec 2.6: room fields are "not shown"; beyond the id and name to list a
// room by, an odd value is read as absent instead of hiding every room.
TEST(ReadRooms, Spec48ToleratesOddUnshownFields) {
    auto rooms = read_rooms(json_answer(R"([{"room_id":1,"name":"a","unread_num":-1,"sticky":"yes","role":"member"}])"));
    ASSERT_TRUE(rooms) << to_string(rooms.error());
    ASSERT_EQ(rooms->size(), 1u);
    EXPECT_FALSE((*rooms)[0].unread_num);
    EXPECT_FALSE((*rooms)[0].sticky);
    EXPECT_EQ((*rooms)[0].role, "member");
}

TEST(ReadPostedMessage, Spec46KeepsTheMessageIdAsAString) {
    auto id = read_posted_message(json_answer(R"({"message_id":"1234567890123456789"})"));
    ASSERT_TRUE(id) << to_string(id.error());
    EXPECT_EQ(*id, "1234567890123456789");
    auto number = read_posted_message(json_answer(R"({"message_id":1234567890123456789})"));
    ASSERT_TRUE(number) << to_string(number.error());
    EXPECT_EQ(*number, "1234567890123456789") << "no rounding through a double";
    auto flt = read_posted_message(json_answer(R"({"message_id":1.2e18})"));
    ASSERT_FALSE(flt) << "read message_id " << *flt << " from a float";
    EXPECT_EQ(flt.error().kind, ApiReadErrorKind::wrong_type);
    auto missing = read_posted_message(json_answer("{}"));
    ASSERT_FALSE(missing) << "read message_id " << *missing << " from {}";
    EXPECT_EQ(to_string(missing.error()), "api.missing_field: message_id");
}

TEST(ReadPostedTasks, Spec47ReadsTaskIds) {
    auto ids = read_posted_tasks(json_answer(R"({"task_ids":[123,"124"]})"));
    ASSERT_TRUE(ids) << to_string(ids.error());
    EXPECT_EQ(*ids, (std::vector<std::string>{"123", "124"}));
    auto bad = read_posted_tasks(json_answer(R"({"task_ids":[1,2.5]})"));
    ASSERT_FALSE(bad) << "read " << bad->size() << " task ids from a list with a float";
    EXPECT_EQ(to_string(bad.error()), "api.wrong_type: task_ids[1]");
    auto not_array = read_posted_tasks(json_answer(R"({"task_ids":5})"));
    ASSERT_FALSE(not_array) << "read " << not_array->size() << " task ids from a number";
    EXPECT_EQ(not_array.error().kind, ApiReadErrorKind::not_array);
    auto missing = read_posted_tasks(json_answer("{}"));
    ASSERT_FALSE(missing) << "read " << missing->size() << " task ids from {}";
    EXPECT_EQ(missing.error().kind, ApiReadErrorKind::missing_field);
}

TEST(ReadApiError, Spec27ReadsTheErrorsArray) {
    auto e = read_api_error(HttpResponse{401, {}, R"({"errors":["Invalid API token"]})"});
    ASSERT_TRUE(e) << to_string(e.error());
    EXPECT_EQ(e->errors, (std::vector<std::string>{"Invalid API token"}));
    auto limit = read_api_error(HttpResponse{429, {}, R"({"errors":["Rate limit for message posting per room exceeded."]})"});
    ASSERT_TRUE(limit) << to_string(limit.error());
    EXPECT_EQ(limit->errors.size(), 1u);

    auto missing = read_api_error(HttpResponse{400, {}, R"({"error":"x"})"});
    ASSERT_FALSE(missing) << "an error body was read without \"errors\"";
    EXPECT_EQ(to_string(missing.error()), "api.missing_field: errors");
    auto items = read_api_error(HttpResponse{400, {}, R"({"errors":[1]})"});
    ASSERT_FALSE(items) << "an error body was read with a number for a message";
    EXPECT_EQ(items.error().kind, ApiReadErrorKind::wrong_type);
    auto text = read_api_error(HttpResponse{502, {}, "Bad Gateway"});
    ASSERT_FALSE(text) << "an error body was read from text that is not JSON";
    EXPECT_EQ(text.error().kind, ApiReadErrorKind::not_json);
}

TEST(ApiErrors, HaveStableIdentifiers) {
    EXPECT_EQ(to_string(ApiRequestError::invalid_room_id), "api_request.invalid_room_id");
    EXPECT_EQ(to_string(ApiRequestError::invalid_token), "api_request.invalid_token");
    EXPECT_EQ(to_string(ApiReadErrorKind::missing_field), "api.missing_field");
    EXPECT_EQ(to_string(TaskLimitType::time), "time");
}

}  // namespace
}  // namespace api_test
}  // namespace roomkey
