// app_console_test.cpp: web/app's Console (console.hpp): a call whose scope
// the grant lacks is stopped before sending with the scope named (an
// aggregate grant covers it; an API token is left to the service); bad
// parameters are listed; destructive calls wait for confirmation; answers
// show formatted JSON and the scope a 403 insufficient_scope names.
#include <gtest/gtest.h>

#include "app/console.hpp"
#include "app/i18n.hpp"

#include <nlohmann/json.hpp>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_console_test {
namespace {

ScopeSet scopes(std::string_view text) {
    return *parse_scope_list(text);
}

TEST(Console, AMissingScopeStopsTheCallAndNamesIt) {
    Console console;
    const auto decision =
        console.prepare(Method::Get, "/contacts", {}, scopes("users.all:read rooms.all:read_write"), false);
    EXPECT_EQ(decision.verdict, Console::Verdict::missing_scope);
    EXPECT_EQ(console.missing_scope(), "contacts.all:read");
    ASSERT_TRUE(console.last()) << "the refused call left no record";
    EXPECT_FALSE(console.last()->sent);
    EXPECT_EQ(console.last()->scope_needed, "contacts.all:read");
    EXPECT_EQ(console.last()->scope_granted, "users.all:read rooms.all:read_write");
    EXPECT_NE(console.last()->error.find("Sign in again adding contacts.all:read"), std::string::npos);
}

// In Japanese the console's refusal and announcement are Japanese, the call
// and the scope (wire values) as they are; English is as it always was.
TEST(Console, InJapaneseTheRefusalIsJapaneseWithTheCallAndScopeAsTheyAre) {
    struct English {
        ~English() { i18n::set_language(i18n::Lang::en); }
    } english;
    i18n::set_language(i18n::Lang::ja);
    Console console;
    console.prepare(Method::Get, "/contacts", {}, scopes("users.all:read"), false);
    ASSERT_TRUE(console.last());
    EXPECT_EQ(console.last()->error, "送信していません: GET /contacts にはスコープ contacts.all:read が必要ですが、"
                                     "このログインでは許可されていません。contacts.all:read を追加してログインし直してください。");
    EXPECT_EQ(console.announcement(), "コンソール: GET /contacts: " + console.last()->error);
    i18n::set_language(i18n::Lang::en);
    console.prepare(Method::Get, "/contacts", {}, scopes("users.all:read"), false);
    EXPECT_EQ(console.last()->error, "Not sent: GET /contacts needs the scope contacts.all:read, which this sign-in did "
                                     "not grant. Sign in again adding contacts.all:read.");
    EXPECT_EQ(console.last()->check, console.last()->error.substr(std::string("Not sent: ").size()));
}

TEST(Console, AnAggregateGrantCoversTheLeafAndAnApiTokenIsLeftToTheService) {
    Console console;
    auto decision = console.prepare(Method::Get, "/rooms/{room_id}/messages", {{"room_id", "2100"}, {"force", "1"}},
                                    scopes("rooms.all:read_write"), false);
    ASSERT_EQ(decision.verdict, Console::Verdict::send);
    EXPECT_EQ(decision.call.path, "/rooms/2100/messages");
    EXPECT_EQ(decision.call.params, (FormFields{{"force", "1"}}));
    EXPECT_EQ(console.missing_scope(), "");
    decision = console.prepare(Method::Get, "/contacts", {}, std::nullopt, false);
    EXPECT_EQ(decision.verdict, Console::Verdict::send);
}

TEST(Console, RoomPostsCarryTheirRoomForThePerRoomLimit) {
    Console console;
    const auto decision = console.prepare(Method::Post, "/rooms/2100/messages", {{"body", "hi"}}, std::nullopt, false);
    ASSERT_EQ(decision.verdict, Console::Verdict::send);
    EXPECT_TRUE(decision.call.room_post);
    EXPECT_EQ(decision.call.room_id, "2100");
}

TEST(Console, BadParametersAreListedAndNothingIsSent) {
    Console console;
    const auto decision =
        console.prepare(Method::Get, "/rooms/{room_id}/messages", {{"force", "yes"}}, std::nullopt, false);
    EXPECT_EQ(decision.verdict, Console::Verdict::problems);
    ASSERT_GE(console.problems().size(), 2u) << "room_id missing and force invalid, both at once";
    EXPECT_NE(console.last()->error.find("Not sent"), std::string::npos);
}

// The check's problems are worded in the user's language (shared/ gives
// only their kinds); the page API's `problems` keep their English message.
// Japanese sentences follow one another without a space after 。; English ones with one.
TEST(Console, ProblemsJoinAsEachLanguageWritesSentences) {
    struct English {
        ~English() { i18n::set_language(i18n::Lang::en); }
    } english;
    Console console;
    i18n::set_language(i18n::Lang::ja);
    console.prepare(Method::Get, "/rooms/{room_id}/messages", {{"force", "yes"}}, std::nullopt, false);
    ASSERT_TRUE(console.last());
    const std::string ja = console.last()->check;
    EXPECT_NE(ja.find("\xE3\x80\x82"), std::string::npos) << ja;
    EXPECT_EQ(ja.find("\xE3\x80\x82 "), std::string::npos) << "a space after 。: " << ja;
    i18n::set_language(i18n::Lang::en);
    console.prepare(Method::Get, "/rooms/{room_id}/messages", {{"force", "yes"}}, std::nullopt, false);
    EXPECT_NE(console.last()->check.find(". "), std::string::npos) << console.last()->check;
}

TEST(Console, ProblemsAreWordedInTheUsersLanguage) {
    Console console;
    const FormFields params = {{"room_id", "7"}, {"colour", "red"}, {"to_ids", "1,2"}, {"limit_type", "week"}};
    i18n::set_language(i18n::Lang::ja);
    console.prepare(Method::Post, "/rooms/{room_id}/tasks", params, std::nullopt, false);
    i18n::set_language(i18n::Lang::en);
    ASSERT_TRUE(console.last());
    const std::string& ja = console.last()->error;
    EXPECT_NE(ja.find("送信していません"), std::string::npos) << ja;
    EXPECT_NE(ja.find("body は必須です。"), std::string::npos) << ja;
    EXPECT_NE(ja.find("limit_type は次のいずれかにしてください: none, date, time。"), std::string::npos) << ja;
    EXPECT_EQ(ja.find("is required"), std::string::npos) << "English left in the Japanese sentence: " << ja;
    EXPECT_EQ(ja.find("must be"), std::string::npos) << "English left in the Japanese sentence: " << ja;

    std::string english;
    for (const CallProblem& p : console.problems()) english += problem_words(p) + " ";
    EXPECT_NE(english.find("body is required."), std::string::npos) << english;
    EXPECT_NE(english.find("limit_type must be one of: none, date, time."), std::string::npos) << english;
    EXPECT_NE(english.find("colour is not a parameter of POST /rooms/{room_id}/tasks (it takes: room_id, body, to_ids"),
              std::string::npos)
        << english;

    i18n::set_language(i18n::Lang::ja);
    const auto state = nlohmann::json::parse(console_json(console));
    i18n::set_language(i18n::Lang::en);
    bool body_seen = false;
    for (const auto& p : state["problems"]) {
        if (p["param"] != "body") continue;
        body_seen = true;
        EXPECT_EQ(p["kind"], "required");
        EXPECT_EQ(p["message"], "body is required.") << "the page API's values stay English";
    }
    EXPECT_TRUE(body_seen) << state.dump();
}

TEST(Console, EveryProblemKindHasWordsInEveryLanguage) {
    for (auto kind = CallProblemKind::not_endpoint; kind <= CallProblemKind::bad_length;
         kind = static_cast<CallProblemKind>(static_cast<int>(kind) + 1)) {
        const std::string key = "console.problem." + std::string(to_string(kind));
        EXPECT_TRUE(i18n::has(key)) << key;
        CallProblem p;
        p.kind = kind;
        p.param = "x";
        EXPECT_EQ(problem_words(p).find("console.problem"), std::string::npos) << key;
    }
}

TEST(Console, DestructiveCallsWaitForConfirmation) {
    Console console;
    auto decision = console.prepare(Method::Delete, "/rooms/{room_id}/messages/{message_id}",
                                    {{"room_id", "2100"}, {"message_id", "9007199254740993"}}, std::nullopt, false);
    EXPECT_EQ(decision.verdict, Console::Verdict::confirm);
    ASSERT_TRUE(console.pending()) << "the DELETE is not waiting for confirmation";
    auto call = console.confirm();
    ASSERT_TRUE(call) << "confirming gave no call";
    EXPECT_EQ(call->path, "/rooms/2100/messages/9007199254740993");
    EXPECT_FALSE(console.pending());
    decision = console.prepare(Method::Delete, "/rooms/{room_id}/messages/{message_id}",
                               {{"room_id", "2100"}, {"message_id", "9007199254740993"}}, std::nullopt, true);
    EXPECT_EQ(decision.verdict, Console::Verdict::send) << "confirmed up front";
}

TEST(Console, A403InsufficientScopeNamesTheScopeFromWwwAuthenticate) {
    Console console;
    (void)console.prepare(Method::Get, "/contacts", {}, std::nullopt, false);
    console.on_sent();
    HttpResponse response;
    response.status = 403;
    response.headers.set("WWW-Authenticate", R"(Bearer error="insufficient_scope", scope="contacts.all:read")");
    response.body = R"({"errors":["insufficient scope"]})";
    console.on_answer(response);
    EXPECT_EQ(console.missing_scope(), "contacts.all:read");
    EXPECT_EQ(console.last()->status, 403);
    EXPECT_NE(console.last()->error.find("contacts.all:read"), std::string::npos);
    EXPECT_EQ(console.last()->json, "{\n  \"errors\": [\n    \"insufficient scope\"\n  ]\n}");
    EXPECT_EQ(console.announcement().rfind("Console: GET /contacts answered 403", 0), 0u);

    response.status = 200;
    response.headers = {};
    response.body = R"([{"account_id":1002}])";
    console.on_answer(response);
    EXPECT_EQ(console.missing_scope(), "") << "the same call succeeding clears the offer";
    EXPECT_EQ(console.last()->error, "");
}

}  // namespace
}  // namespace app_console_test
}  // namespace roomkey::app
