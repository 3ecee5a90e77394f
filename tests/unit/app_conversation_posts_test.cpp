// app_conversation_posts_test.cpp: what the user wrote stays in the
// conversation until the service has it: pending posts in room.messages,
// posts kept across the session's end and a reload for the account that
// wrote them, never sent as another; reading marks read and the room opens
// at its first unread (tests/support/app_harness.hpp drives the App).
#include <nlohmann/json.hpp>

#include "app/page_state.hpp"
#include "app_harness.hpp"

namespace roomkey::app {
namespace app_test {
namespace {

using json = nlohmann::json;

json state(const AppHarness& h) { return json::parse(page_state_json(*h.app, h.now)); }

std::size_t posts_of(const AppHarness& h, std::string_view body) {
    std::size_t n = 0;
    for (const HttpRequest& r : h.sent_to("/api/rooms/7/messages"))
        n += r.method == Method::Post && form_value(r.body, "body") == std::string(body) ? 1 : 0;
    return n;
}

// The last record the App asked the tab to keep (effect::StorePosts); the
// harness ignores that effect, so it is read here as the platform does.
std::string kept_record(AppHarness& h) {
    std::string record;
    for (Effect& e : h.app->take_effects()) {
        if (auto* store = std::get_if<effect::StorePosts>(&e)) record = store->record;
    }
    return record;
}

AppHarness& signed_in(AppHarness& h) {
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::OpenRoom{"7"});
    return h;
}

json mine_pending(const json& s) {
    json out = json::array();
    for (const json& m : s["room"]["messages"])
        if (m.contains("pending")) out.push_back(m);
    return out;
}

// The page API's select_text reaches the conversation's text layer for the
// open room only; copy_selection always does (the platform copies what is selected).
TEST(Conversation, SelectTextGoesToTheOpenRoomsTextLayer) {
    AppHarness h;
    signed_in(h);
    auto selections = [&h] {
        std::vector<effect::SelectText> out;
        for (Effect& e : h.app->take_effects()) {
            if (auto* s = std::get_if<effect::SelectText>(&e)) out.push_back(*s);
        }
        return out;
    };
    selections();
    h.app->apply(intent::SelectText{"8", "5", 1, 3}, h.now);
    EXPECT_TRUE(selections().empty()) << "another room's message is not in the conversation";
    h.app->apply(intent::SelectText{"7", "5", 1, 3}, h.now);
    const std::vector<effect::SelectText> got = selections();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].message_id, "5");
    EXPECT_EQ(got[0].start, 1u);
    EXPECT_EQ(got[0].end, 3u);
    h.app->apply(intent::CopySelection{}, h.now);
    bool copied = false;
    for (Effect& e : h.app->take_effects()) copied = copied || std::holds_alternative<effect::CopySelection>(e);
    EXPECT_TRUE(copied);
}

TEST(Conversation, APostIsInTheConversationAtOnceAndBecomesTheServicesMessage) {
    AppHarness h;
    signed_in(h);
    h.app->apply(intent::QueueMessage{"7", "hello there", 1}, h.now);
    json pending = mine_pending(state(h));
    ASSERT_EQ(pending.size(), 1u) << "at the bottom before any answer";
    EXPECT_EQ(pending[0]["pending"], "sending");
    EXPECT_EQ(pending[0]["body"], "hello there");
    const std::string local = pending[0]["local_id"];
    EXPECT_FALSE(local.empty());
    h.settle();
    const json s = state(h);
    EXPECT_TRUE(mine_pending(s).empty());
    const json& last = s["room"]["messages"].back();
    EXPECT_EQ(last["body"], "hello there") << "the service's message is shown without waiting for a poll";
    EXPECT_EQ(last["local_id"], local);
    EXPECT_NE(last["message_id"], "");
}

TEST(Conversation, APostThatCannotGoSaysSoWhereItStandsAndIsSentOnce) {
    AppHarness h;
    signed_in(h);
    h.faults.push_back(AppHarness::helper_gateway_fault("/messages", UpstreamOutcome::not_sent));
    h.apply(intent::QueueMessage{"7", "during the outage", 1});
    json pending = mine_pending(state(h));
    ASSERT_EQ(pending.size(), 1u);
    EXPECT_EQ(pending[0]["pending"], "waiting");
    const std::string note = pending[0]["note"];
    EXPECT_NE(note.find("Not sent: the service can't be reached. Retrying at "), std::string::npos) << note;
    h.run_for(Millis(1100));
    EXPECT_TRUE(mine_pending(state(h)).empty());
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"during the outage"}) << "exactly once";
}

TEST(Conversation, RetryEditAndDiscardTakeTheLocalId) {
    auto retry = parse_action(R"({"type":"retry_post","local_id":"17-3"})");
    ASSERT_TRUE(retry) << retry.error();
    EXPECT_EQ(std::get<intent::RetryPost>(*retry).local_id, "17-3");
    auto edit = parse_action(R"({"type":"edit_post","local_id":"17-3","body":"new"})");
    ASSERT_TRUE(edit) << edit.error();
    EXPECT_EQ(std::get<intent::EditPost>(*edit).body, "new");
    EXPECT_TRUE(parse_action(R"({"type":"send_waiting_posts"})"));
    EXPECT_FALSE(parse_action(R"({"type":"discard_post"})")) << "neither id nor local_id";

    AppHarness h;
    signed_in(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 503, "{}"));
    h.apply(intent::QueueMessage{"7", "typo", 1});
    const std::string local = mine_pending(state(h))[0]["local_id"];
    h.apply(intent::EditPost{0, "fixed", local});
    h.settle();
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"fixed"}) << "the edited text went, once";
    h.faults.push_back(AppHarness::status_fault("/messages", 503, "{}"));
    h.apply(intent::QueueMessage{"7", "never mind", 1});
    h.apply(intent::DiscardPost{0, mine_pending(state(h))[0]["local_id"]});
    h.run_for(Seconds(3));
    EXPECT_EQ(posts_of(h, "never mind"), 1u) << "discarded after its first failure: not sent again";
    EXPECT_TRUE(mine_pending(state(h)).empty());
}

// The session ends while a post waits: signing in again as the same
// account offers it; Send sends it once.
TEST(Conversation, APostWaitingWhenTheSessionEndsIsOfferedToTheSameAccountAndSentOnce) {
    AppHarness h;
    signed_in(h);
    for (int i = 0; i < 3; ++i) h.faults.push_back(AppHarness::status_fault("/messages", 503, "{}"));
    h.apply(intent::QueueMessage{"7", "keep me", 1});
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});  // a new session: the old one ends
    const json s = state(h);
    ASSERT_EQ(s["waiting_posts"].size(), 1u) << s["waiting_posts"].dump();
    EXPECT_EQ(s["waiting_posts"][0]["body"], "keep me");
    EXPECT_EQ(s["waiting_posts"][0]["account_id"], "4242");
    EXPECT_EQ(s["waiting_posts"][0]["room_id"], "7");
    h.faults.clear();
    h.apply(*parse_action(R"({"type":"send_waiting_posts"})"));
    h.run_for(Seconds(1));
    EXPECT_EQ(h.room_bodies["7"], std::vector<std::string>{"keep me"});
    EXPECT_TRUE(state(h)["waiting_posts"].empty());
    h.run_for(Seconds(40));
    EXPECT_EQ(posts_of(h, "keep me"), 2u) << "one 503, then delivered: never a third";
}

// A reload: the tab's storage keeps the text and the account, no token;
// another account is never offered it and never sends it.
TEST(Conversation, WaitingPostsSurviveAReloadAndAreNeverSentAsAnotherAccount) {
    AppHarness h;
    signed_in(h);
    h.faults.push_back(AppHarness::status_fault("/messages", 503, "{}"));
    h.app->apply(intent::QueueMessage{"7", "after reload", 1}, h.now);
    const std::string record = kept_record(h);
    EXPECT_NE(record.find("after reload"), std::string::npos) << record;
    EXPECT_NE(record.find("4242"), std::string::npos);
    EXPECT_EQ(record.find(AppHarness::kApiToken), std::string::npos) << "never a token";

    // Another account's post in the same tab.
    std::vector<WaitingPost> posts = read_waiting_posts(record);
    ASSERT_EQ(posts.size(), 1u);
    posts.push_back(WaitingPost{"9-9", "7", "not yours", "999"});

    h.reload();
    h.sent.clear();
    h.app->restore_posts(waiting_posts_record(posts));
    signed_in(h);
    const json s = state(h);
    ASSERT_EQ(s["waiting_posts"].size(), 1u) << "only the account that wrote it";
    EXPECT_EQ(s["waiting_posts"][0]["body"], "after reload");
    h.apply(intent::WaitingPosts{intent::WaitingPosts::send});
    h.apply(intent::RetryPost{0, "9-9"});
    h.run_for(Seconds(2));
    EXPECT_EQ(posts_of(h, "after reload"), 1u);
    EXPECT_EQ(posts_of(h, "not yours"), 0u) << "never sent as another account";
    EXPECT_NE(h.app->posting().storage_record().find("not yours"), std::string::npos) << "and never dropped";
}

TEST(Conversation, ReviewShowsWaitingPostsAsNotSentWithRetry) {
    AppHarness h;
    h.app->restore_posts(waiting_posts_record({WaitingPost{"5-1", "7", "reviewed", "4242"}}));
    signed_in(h);
    h.apply(intent::WaitingPosts{intent::WaitingPosts::review});
    json pending = mine_pending(state(h));
    ASSERT_EQ(pending.size(), 1u);
    EXPECT_EQ(pending[0]["pending"], "failed");
    EXPECT_EQ(posts_of(h, "reviewed"), 0u) << "review sends nothing";
    h.apply(intent::RetryPost{0, "5-1"});
    EXPECT_EQ(posts_of(h, "reviewed"), 1u);
}

TEST(Conversation, WaitingPostsRecordRejectsWhatIsNotAPost) {
    EXPECT_TRUE(read_waiting_posts("not json").empty());
    EXPECT_TRUE(read_waiting_posts(R"({"a":1})").empty());
    const auto posts = read_waiting_posts(
        R"([{"local_id":"1","room_id":"../me","body":"x","account_id":"1"},{"local_id":"2","room_id":"7","body":"ok","account_id":"1"}])");
    ASSERT_EQ(posts.size(), 1u) << "a room id that is not one is left out";
    EXPECT_EQ(posts[0].body, "ok");
}

// ---------------------------------------------------------------------------
// Reading marks read; the room opens at its first unread
// ---------------------------------------------------------------------------

void with_unread_room(AppHarness& h) {
    h.faults.push_back(AppHarness::status_fault("/api/rooms", 200, R"([{"room_id":7,"name":"Team","unread_num":2}])"));
    h.start();
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    std::string list = "[";
    for (int i = 1; i <= 4; ++i) {
        if (i > 1) list += ",";
        list += R"({"message_id":"10)" + std::to_string(i) + R"(","account":{"account_id":1,"name":"Bob"},"body":"m)" +
                std::to_string(i) + R"(","send_time":)" + std::to_string(1700000000 + i) + "}";
    }
    h.faults.push_back(AppHarness::status_fault("/rooms/7/messages", 200, list + "]"));
    h.apply(intent::OpenRoom{"7"});
}

TEST(Conversation, ARoomWithUnreadOpensAtTheFirstUnreadAndIsMarkedReadWhenSeen) {
    AppHarness h;
    with_unread_room(h);
    EXPECT_EQ(state(h)["room"]["first_unread_id"], "103") << "two unread of four";
    EXPECT_TRUE(h.sent_to("/api/rooms/7/messages/read").empty()) << "not before it is seen";
    h.faults.push_back(AppHarness::status_fault("/messages/read", 200, R"({"unread_num":0,"mention_num":0})"));
    h.apply(intent::SeenLatest{"7"});
    ASSERT_EQ(h.sent_to("/api/rooms/7/messages/read").size(), 1u);
    EXPECT_EQ(state(h)["room_unread"]["7"], 0);
    EXPECT_EQ(state(h)["room"]["first_unread_id"], "103") << "the line stays while the room is open";
    h.apply(intent::SeenLatest{"7"});
    EXPECT_EQ(h.sent_to("/api/rooms/7/messages/read").size(), 1u) << "read already: nothing more";
}

TEST(Conversation, ARefusedMarkReadIsNotAskedAgainForTheSameCount) {
    AppHarness h;
    with_unread_room(h);
    h.faults.push_back(AppHarness::status_fault("/messages/read", 403, R"({"errors":["no"]})"));
    h.apply(intent::SeenLatest{"7"});
    h.apply(intent::SeenLatest{"7"});
    EXPECT_EQ(h.sent_to("/api/rooms/7/messages/read").size(), 1u);
    EXPECT_FALSE(h.app->open_room().wants_mark_read("7"));
}

// Seen during an outage: the failure is an error on screen (state().errors.room), the room
// still counts as unread, and the room's next answered poll marks it read.
TEST(Conversation, AMarkReadOnViewFailedInAnOutageIsAnErrorAndIsAskedAgainWhenTheServiceAnswers) {
    AppHarness h;
    with_unread_room(h);
    h.faults.push_back(AppHarness::helper_gateway_fault("/messages/read", UpstreamOutcome::not_sent));
    h.apply(intent::SeenLatest{"7"});
    ASSERT_EQ(h.sent_to("/api/rooms/7/messages/read").size(), 1u);
    json s = state(h);
    EXPECT_NE(s["errors"]["room"], "") << "the failure is shown";
    EXPECT_EQ(s["room_unread"]["7"], 2) << "never said to be read";
    EXPECT_EQ(s["notice"].get<std::string>().find("read"), std::string::npos) << s["notice"];
    h.apply(intent::SeenLatest{"7"});
    EXPECT_EQ(h.sent_to("/api/rooms/7/messages/read").size(), 1u) << "not again at once";
    h.faults.push_back(AppHarness::status_fault("/messages/read", 200, R"({"unread_num":0,"mention_num":0})"));
    h.run_for(Seconds(20));  // the room's poll answers: the service is back
    EXPECT_EQ(h.sent_to("/api/rooms/7/messages/read").size(), 2u) << "asked again";
    s = state(h);
    EXPECT_EQ(s["room_unread"]["7"], 0);
    EXPECT_EQ(s["errors"]["room"], "");
}

TEST(Conversation, WithMarkReadOnViewOffSeeingTheRoomMarksNothing) {
    AppHarness h;
    with_unread_room(h);
    auto off = parse_action(R"({"type":"set_setting","name":"mark_read_on_view","value":false})");
    ASSERT_TRUE(off) << off.error();
    h.apply(*off);
    h.apply(intent::SeenLatest{"7"});
    EXPECT_TRUE(h.sent_to("/api/rooms/7/messages/read").empty());
    EXPECT_FALSE(parse_action(R"({"type":"set_setting","name":"nope","value":false})")) << "an unknown setting";
}

// The task list follows tasks added anywhere: a task message in a poll reads the tasks again.
TEST(Conversation, ATaskMessageInAPollReadsTheTasksAgain) {
    AppHarness h;
    signed_in(h);
    const auto task_reads = [&] {
        std::size_t n = 0;
        for (const HttpRequest& r : h.sent_to("/api/rooms/7/tasks")) n += r.method == Method::Get ? 1 : 0;
        return n;
    };
    ASSERT_EQ(task_reads(), 1u) << "read when the room opened";
    const auto message = [](const char* id, const char* body) {
        return std::string(R"([{"message_id":")") + id + R"(","account":{"account_id":1,"name":"Bob"},"body":")" +
               body + R"(","send_time":1700000000}])";
    };
    h.faults.push_back(AppHarness::status_fault("/rooms/7/messages", 200, message("900", "just words")));
    h.run_for(Seconds(20));
    EXPECT_EQ(task_reads(), 1u) << "a plain message changes no task";
    h.faults.push_back(AppHarness::status_fault(
        "/rooms/7/messages", 200,
        message("901", "[info][title][dtext:task_added][/title][task aid=1 st=open lt=0 ltype=none]x[/task][/info]")));
    h.run_for(Seconds(20));
    EXPECT_EQ(task_reads(), 2u) << "the task message's poll read the tasks";
}

// "Try again" after a denied consent starts a new sign-in; Dismiss only clears.
TEST(Conversation, TryAgainAfterADeniedConsentStartsANewSignIn) {
    AppHarness h;
    h.start();
    h.apply(intent::SignIn{kScopes});
    auto pending = parse_pending(h.stored.at(0));
    ASSERT_TRUE(pending) << "the stored pending record does not read back";
    h.reload();
    h.start(std::string(kRedirectUri) + "?error=access_denied&state=" + pending->state, h.stored.at(0));
    ASSERT_TRUE(h.app->last_error());
    h.apply(intent::TryAgain{});  // Dismiss
    EXPECT_EQ(h.navigations.size(), 1u) << "Dismiss starts nothing";
    h.reload();
    h.start(std::string(kRedirectUri) + "?error=access_denied&state=" + pending->state, h.stored.at(0));
    ASSERT_TRUE(h.app->last_error());
    h.apply(*parse_action(R"({"type":"try_again","sign_in":true})"));
    ASSERT_EQ(h.navigations.size(), 2u) << "a new sign-in went to the consent screen";
    EXPECT_EQ(h.stored.size(), 2u) << "with a new pending authorization";
}

// Where you are: the address's place in state().location.
TEST(Conversation, LocationSaysWhereYouAre) {
    AppHarness h;
    h.start();
    EXPECT_EQ(state(h)["location"], "#/");
    h.apply(intent::UseApiToken{std::string(AppHarness::kApiToken)});
    h.apply(intent::OpenRoom{"7"});
    EXPECT_EQ(state(h)["location"], "#/rooms/7");
    h.apply(intent::ShowView{true});
    EXPECT_EQ(state(h)["location"], "#/developer");
}

// A reload in the page's own session mode says why the user signs in again.
TEST(Conversation, AReloadAtAPlaceSaysWhyTheSessionDidNotSurvive) {
    AppHarness h;
    h.start("https://127.0.0.1:8443/#/rooms/2100");
    EXPECT_NE(h.app->notice().find("reloaded"), std::string::npos) << h.app->notice();
    AppHarness plain;
    plain.start();
    EXPECT_EQ(plain.app->notice().find("reloaded"), std::string::npos) << "a first visit is no reload";
}

}  // namespace
}  // namespace app_test
}  // namespace roomkey::app
