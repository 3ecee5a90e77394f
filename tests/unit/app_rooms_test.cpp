// app_rooms_test.cpp: the room views driven through App like the browser
// drives it (API-token mode, a canned service answering by path): opening a
// room reads its messages (force=1), tasks, members and files; the open room
// is polled (force=0: only what is new) at shared/polling.hpp's interval
// and not while the tab is hidden; new messages are announced with their
// exact message_id; mark_read, a task done, contact requests; a 403 insufficient_scope names the scope;
// the console's calls go through the same queue with their params in the
// query (GET) or the form body (POST/PUT).
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_answer.hpp"
#include "app/app.hpp"
#include "app/i18n.hpp"
#include "app/page_state.hpp"
#include "roomkey/polling.hpp"

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_rooms_test {
namespace {

const Instant t_start = instant_from_unix_seconds(1'700'000'000);
constexpr std::string_view kBigId = "9007199254740993";  // 2^53 + 1: a double would lose it

std::string rooms_config_json() {
    return R"({"configured":true,"client_id":"roomkey-web","client_type":"public",)"
           R"("consent_url":"https://auth.example.test/consent","redirect_uri":"https://127.0.0.1:8443/callback",)"
           R"("token_endpoint":"/oauth/token","api_base":"/api","token_header":"x-servicetoken",)"
           R"("request_header":"X-Roomkey-Request","scope":"","upstream_base_url":"https://api.example.test/v2",)"
           R"("upstream_auth_url":"https://auth.example.test"})";
}

const auto& answer = roomkey::testing::rated_json_answer;  // tests/support/json_answer.hpp

std::string message_json(std::string_view id, std::string_view who, std::string_view body, long when) {
    return R"({"message_id":")" + std::string(id) + R"(","account":{"account_id":1002,"name":")" + std::string(who) +
           R"(","avatar_image_url":"https://a.test/1.png"},"body":")" + std::string(body) + R"(","send_time":)" +
           std::to_string(when) + R"(,"update_time":0})";
}

std::string path_of(const HttpRequest& request) {
    const auto start = request.url.find("/api");
    std::string path = request.url.substr(start == std::string::npos ? 0 : start + 4);
    return path;
}

class RoomsHarness {
public:
    Instant now = t_start;
    std::unique_ptr<App> app = std::make_unique<App>(
        [](unsigned char* out, std::size_t n) {
            for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>(i);
        },
        "https://127.0.0.1:8443");
    std::vector<HttpRequest> sent;
    // The canned service: what each "METHOD /path" answers (path with query).
    std::map<std::string, std::function<HttpResponse(const HttpRequest&)>> routes;
    std::vector<std::string> messages{message_json(kBigId, "Bob Example", "first", 1'699'999'000)};
    std::size_t returned = 0;  // of `messages`, by the reads so far
    long unread = 4;
    long mentions = 0;

    // PUT /messages/read as the service answers it: the room's counts go to zero.
    void answer_mark_read() {
        routes["PUT /rooms/2100/messages/read"] = [this](const HttpRequest&) {
            unread = 0;
            return answer(200, R"({"unread_num":0,"mention_num":0})");
        };
    }

    RoomsHarness() {
        routes["GET /me"] = [](const HttpRequest&) { return answer(200, R"({"account_id":1001,"name":"Alice"})"); };
        routes["GET /my/status"] = [this](const HttpRequest&) {
            return answer(200, R"({"unread_room_num":1,"mention_room_num":0,"mytask_room_num":1,"unread_num":)" +
                                   std::to_string(unread) + R"(,"mention_num":0,"mytask_num":1})");
        };
        routes["GET /rooms"] = [this](const HttpRequest&) {
            return answer(200, R"([{"room_id":2100,"name":"Roomkey project","type":"group","role":"admin",)"
                               R"("unread_num":)" +
                                   std::to_string(unread) + R"(,"mention_num":)" + std::to_string(mentions) + "}]");
        };
        // force=1: all of them; force=0: those no read returned yet, as the RAML
        // says (chatwork/api RAML/api-ja.raml, GET /rooms/{room_id}/messages:
        // "パラメータ未指定だと前回取得分からの差分のみを返します"); 204 when none
        // and the cursor moved by both are the sandbox's choices (docs/sandbox.md).
        routes["GET /rooms/2100/messages?force=1"] = [this](const HttpRequest&) {
            std::string body = "[";
            for (std::size_t i = 0; i < messages.size(); ++i) body += (i ? "," : "") + messages[i];
            returned = messages.size();
            return answer(200, body + "]");
        };
        routes["GET /rooms/2100/messages?force=0"] = [this](const HttpRequest&) {
            if (returned >= messages.size()) return answer(204, "");
            std::string body = "[";
            for (std::size_t i = returned; i < messages.size(); ++i) body += (i > returned ? "," : "") + messages[i];
            returned = messages.size();
            return answer(200, body + "]");
        };
        routes["GET /rooms/2100/tasks"] = [](const HttpRequest&) {
            return answer(200, R"([{"task_id":77,"account":{"account_id":1001,"name":"Alice"},)"
                               R"("assigned_by_account":{"account_id":1002,"name":"Bob"},"message_id":"5",)"
                               R"("body":"write tests","limit_time":0,"status":"open","limit_type":"none"}])");
        };
        routes["GET /rooms/2100/members"] = [](const HttpRequest&) {
            return answer(200, R"([{"account_id":1001,"role":"admin","name":"Alice"},)"
                               R"({"account_id":1003,"role":"readonly","name":"Carol"}])");
        };
        routes["GET /rooms/2100/files"] = [](const HttpRequest&) {
            return answer(200, R"([{"file_id":3,"account":{"account_id":1001,"name":"Alice"},"message_id":"5",)"
                               R"("filename":"plan.pdf","filesize":1234,"upload_time":1699990000}])");
        };
        app->start("https://127.0.0.1:8443/", std::nullopt, now);
        settle();
        apply(intent::UseApiToken{"api-token-0123456789abcdef"});
    }

    void settle() {
        for (int rounds = 0; rounds < 100; ++rounds) {
            bool any = false;
            for (Effect& e : app->take_effects()) {
                auto* send = std::get_if<effect::Send>(&e);
                if (!send) continue;
                any = true;
                sent.push_back(send->request);
                if (send->request.url.find("config.json") != std::string::npos) {
                    app->on_response(send->id, answer(200, rooms_config_json()), now);
                    continue;
                }
                const std::string key = std::string(to_string(send->request.method)) + " " + path_of(send->request);
                auto route = routes.find(key);
                app->on_response(send->id,
                                 route == routes.end() ? answer(404, R"({"errors":["no route )" + key + R"("]})")
                                                       : route->second(send->request),
                                 now);
            }
            if (!any) return;
        }
    }

    void apply(const Intent& intent) {
        app->apply(intent, now);
        settle();
    }

    void run_for(Millis duration, Millis step = Millis(100)) {
        const Instant end = now + duration;
        while (now < end) {
            now += step;
            app->tick(now);
            settle();
        }
    }

    // The open room's polls (force=0: only what is new).
    long polls() const { return count("GET /rooms/2100/messages?force=0"); }

    long count(std::string_view key) const {
        long n = 0;
        for (const HttpRequest& r : sent) {
            if (std::string(to_string(r.method)) + " " + path_of(r) == key) ++n;
        }
        return n;
    }

    nlohmann::json state() const { return nlohmann::json::parse(page_state_json(*app, now)); }
};

TEST(AppRooms, OpeningARoomReadsItsMessagesTasksMembersAndFilesWithExactIds) {
    RoomsHarness h;
    h.apply(intent::OpenRoom{"2100"});
    EXPECT_EQ(h.count("GET /rooms/2100/messages?force=1"), 1);
    EXPECT_EQ(h.count("GET /rooms/2100/tasks"), 1);
    EXPECT_EQ(h.count("GET /rooms/2100/members"), 1);
    EXPECT_EQ(h.count("GET /rooms/2100/files"), 1);
    const auto room = h.state()["room"];
    EXPECT_EQ(room["room_id"], "2100");
    EXPECT_EQ(room["name"], "Roomkey project");
    ASSERT_EQ(room["messages"].size(), 1u);
    EXPECT_EQ(room["messages"][0]["message_id"], std::string(kBigId)) << "an exact string, not a double";
    EXPECT_EQ(room["messages"][0]["name"], "Bob Example");
    EXPECT_EQ(room["tasks"][0]["task_id"], "77");
    EXPECT_EQ(room["tasks"][0]["account_id"], "1001");
    EXPECT_EQ(room["members"][1]["role"], "readonly");
    EXPECT_EQ(room["files"][0]["filename"], "plan.pdf");
    EXPECT_EQ(room["loading"], false);
    EXPECT_EQ(room["error"], "");
    EXPECT_EQ(h.state()["announce"]["room"], "") << "what the room already holds is not news";
}

TEST(AppRooms, TheOpenRoomIsPolledAtTheBudgetsIntervalAndNotWhileHidden) {
    RoomsHarness h;
    h.apply(intent::OpenRoom{"2100"});
    const auto at = h.app->open_room().poll_at();
    ASSERT_TRUE(at) << "no poll scheduled for the open room";
    const Millis interval = std::chrono::duration_cast<Millis>(*at - h.now);
    EXPECT_EQ(interval, poll_interval(h.app->scheduler().overall(h.now), h.now, kRoomMessagesPart))
        << "the room's part of the poll share (the room list's read takes the rest)";
    EXPECT_GE(interval, Seconds(10));
    EXPECT_EQ(h.app->next_wake_at(h.now), at) << "a background timer wakes the app for it";

    // Bob posts; the next poll finds it and the mirror announces it.
    h.messages.push_back(message_json("9007199254740995", "Bob Example", "new one", 1'699'999'100));
    h.run_for(interval - Millis(200));
    EXPECT_EQ(h.count("GET /rooms/2100/messages?force=1"), 1) << "the first read";
    EXPECT_EQ(h.polls(), 0) << "not before the interval";
    h.run_for(Millis(400));
    EXPECT_EQ(h.polls(), 1) << "one poll when it is due";
    EXPECT_EQ(h.count("GET /rooms/2100/messages?force=1"), 1) << "the poll asks only for what is new";
    auto state = h.state();
    ASSERT_EQ(state["room"]["messages"].size(), 2u);
    EXPECT_EQ(state["room"]["messages"][1]["message_id"], "9007199254740995") << "newest at the bottom";
    EXPECT_EQ(state["announce"]["room"], "1 new message in Roomkey project: Bob Example: new one");

    // Hidden: no polls at all, however long; shown again: polling resumes.
    h.apply(intent::SetPageVisible{false});
    EXPECT_FALSE(h.app->open_room().poll_at());
    h.run_for(Seconds(120), Millis(500));
    EXPECT_EQ(h.polls(), 1) << "no poll while the tab is hidden";
    h.apply(intent::SetPageVisible{true});
    h.run_for(Millis(500));
    EXPECT_EQ(h.polls(), 2) << "the overdue poll goes when shown again";
    state = h.state();
    EXPECT_EQ(state["room"]["messages"].size(), 2u) << "a poll with nothing new (204) keeps what is shown";
    EXPECT_EQ(state["room"]["error"], "");
}

TEST(AppRooms, MarkReadZeroesTheRoomAndReadsStatusAgain) {
    RoomsHarness h;
    h.answer_mark_read();
    h.apply(intent::OpenRoom{"2100"});
    EXPECT_EQ(h.state()["room_unread"]["2100"], 4);
    const long status_reads = h.count("GET /my/status");
    h.apply(intent::MarkRead{"2100"});
    EXPECT_EQ(h.count("PUT /rooms/2100/messages/read"), 1);
    EXPECT_EQ(h.count("GET /my/status"), status_reads + 1) << "/my/status read again";
    const auto state = h.state();
    EXPECT_EQ(state["room_unread"]["2100"], 0);
    EXPECT_EQ(state["status"]["unread_num"], 0);
}

// The room list drawn each frame is kept while this version is the same
// (room_order.hpp's KeptRoomOrder): every change of a room moves it.
TEST(AppRooms, TheRoomsVersionMovesWithEveryChangeOfARoomOnly) {
    RoomsHarness h;
    h.answer_mark_read();
    h.apply(intent::OpenRoom{"2100"});
    const std::uint64_t opened = h.app->dashboard().rooms_version();
    h.apply(intent::SetRoomFilter{"ops"});
    EXPECT_EQ(h.app->dashboard().rooms_version(), opened) << "a filter changes no room";
    h.apply(intent::MarkRead{"2100"});
    EXPECT_NE(h.app->dashboard().rooms_version(), opened) << "its counts changed";
    const std::uint64_t read = h.app->dashboard().rooms_version();
    h.apply(intent::ReloadRooms{});
    EXPECT_NE(h.app->dashboard().rooms_version(), read) << "the list was read again";
}

// RAML: PUT /messages/read answers 400 when nothing is unread. The room is
// read all the same: no error for the user, the counts are zero.
TEST(AppRooms, MarkReadOnAReadRoomIsNoError_RAML) {
    RoomsHarness h;
    h.routes["PUT /rooms/2100/messages/read"] = [&h](const HttpRequest&) {
        h.unread = 0;
        return answer(400, R"({"errors":["The messages of this room are already read."]})");
    };
    h.apply(intent::OpenRoom{"2100"});
    h.apply(intent::MarkRead{"2100"});
    EXPECT_EQ(h.count("PUT /rooms/2100/messages/read"), 1);
    EXPECT_FALSE(h.app->last_error()) << h.app->last_error()->message;
    const auto state = h.state();
    EXPECT_EQ(state["room_unread"]["2100"], 0);
    EXPECT_TRUE(state["room"]["error"].is_null() || state["room"]["error"] == "") << state["room"].dump();
}

TEST(AppRooms, CompleteTaskSendsDoneAndShowsIt) {
    RoomsHarness h;
    std::string body;
    h.routes["PUT /rooms/2100/tasks/77/status"] = [&body](const HttpRequest& r) {
        body = r.body;
        return answer(200, R"({"task_id":77})");
    };
    h.apply(intent::OpenRoom{"2100"});
    h.apply(intent::CompleteTask{"2100", "77"});
    EXPECT_EQ(body, "body=done");
    EXPECT_EQ(h.state()["room"]["tasks"][0]["status"], "done");
}

TEST(AppRooms, AcceptingARequestMovesItToTheContacts) {
    RoomsHarness h;
    bool accepted = false;
    h.routes["GET /contacts"] = [&accepted](const HttpRequest&) {
        return answer(200, std::string(R"([{"account_id":1002,"room_id":2200,"name":"Bob"})") +
                               (accepted ? R"(,{"account_id":1004,"room_id":2031,"name":"Dave"}])" : "]"));
    };
    h.routes["GET /incoming_requests"] = [](const HttpRequest&) {
        return answer(200, R"([{"request_id":9,"account_id":1004,"message":"hi","name":"Dave"}])");
    };
    h.routes["PUT /incoming_requests/9"] = [&accepted](const HttpRequest&) {
        accepted = true;
        return answer(200, R"({"account_id":1004,"room_id":2031,"name":"Dave"})");
    };
    h.apply(intent::LoadContacts{});
    auto state = h.state();
    ASSERT_EQ(state["incoming_requests"].size(), 1u);
    EXPECT_EQ(state["incoming_requests"][0]["request_id"], "9");
    EXPECT_EQ(state["contacts"].size(), 1u);
    h.apply(intent::AcceptRequest{"9"});
    state = h.state();
    EXPECT_EQ(state["incoming_requests"].size(), 0u);
    ASSERT_EQ(state["contacts"].size(), 2u);
    EXPECT_EQ(state["contacts"][1]["account_id"], "1004");
    // The status line names the person, not the request's id.
    EXPECT_EQ(state["notice"], "Contact request from Dave accepted.");
}

TEST(AppRooms, DecliningARequestNamesThePersonNotTheRequest) {
    RoomsHarness h;
    h.routes["GET /contacts"] = [](const HttpRequest&) { return answer(200, "[]"); };
    h.routes["GET /incoming_requests"] = [](const HttpRequest&) {
        return answer(200, R"([{"request_id":9,"account_id":1004,"message":"hi","name":"Dave"}])");
    };
    h.routes["DELETE /incoming_requests/9"] = [](const HttpRequest&) { return answer(204, ""); };
    h.apply(intent::LoadContacts{});
    h.apply(intent::DeclineRequest{"9"});
    const auto state = h.state();
    EXPECT_EQ(state["incoming_requests"].size(), 0u);
    EXPECT_EQ(state["notice"], "Contact request from Dave declined.");
}

// A request no longer in the incoming list (declined through the page API
// after the list changed) has no name: the line says so without one, never
// "Contact request from  declined.".
TEST(AppRooms, DecliningARequestNoLongerListedSaysASentenceWithoutAName) {
    RoomsHarness h;
    h.routes["GET /contacts"] = [](const HttpRequest&) { return answer(200, "[]"); };
    h.routes["GET /incoming_requests"] = [](const HttpRequest&) { return answer(200, "[]"); };
    h.routes["DELETE /incoming_requests/12"] = [](const HttpRequest&) { return answer(204, ""); };
    h.apply(intent::LoadContacts{});
    h.apply(intent::DeclineRequest{"12"});
    EXPECT_EQ(h.state()["notice"], "Contact request declined.");
    i18n::set_language(i18n::Lang::ja);
    h.apply(intent::DeclineRequest{"12"});
    const auto notice = h.state()["notice"];
    i18n::set_language(i18n::Lang::en);
    EXPECT_EQ(notice, "コンタクト承認依頼を拒否しました。");
}

TEST(AppRooms, A403InsufficientScopeNamesTheScopeAndOffersIt) {
    RoomsHarness h;
    h.routes["GET /contacts"] = [](const HttpRequest&) {
        HttpResponse r = answer(403, R"({"errors":["insufficient scope"]})");
        r.headers.set("WWW-Authenticate", R"(Bearer error="insufficient_scope", scope="contacts.all:read")");
        return r;
    };
    h.routes["GET /incoming_requests"] = h.routes["GET /contacts"];
    h.apply(intent::LoadContacts{});
    const auto state = h.state();
    EXPECT_NE(state["errors"]["contacts"].get<std::string>().find("contacts.all:read"), std::string::npos)
        << state["errors"]["contacts"];
    EXPECT_EQ(state["console"]["missing_scope"], "contacts.all:read");
    ASSERT_TRUE(state["last_error"].is_object()) << "in last_error, so the mirror says it";
}

TEST(AppRooms, ConsoleParamsGoToTheQueryForGetAndTheBodyForPost) {
    RoomsHarness h;
    h.routes["GET /rooms/2100/tasks?status=open"] = [](const HttpRequest&) { return answer(200, R"([])"); };
    h.routes["POST /rooms/2100/messages"] = [](const HttpRequest&) {
        return answer(200, R"({"message_id":"9007199254740997"})");
    };
    h.apply(intent::ConsoleCall{Method::Get, "/rooms/{room_id}/tasks", {{"room_id", "2100"}, {"status", "open"}}});
    EXPECT_EQ(h.count("GET /rooms/2100/tasks?status=open"), 1);
    auto last = h.state()["console"]["last"];
    EXPECT_EQ(last["status"], 200);
    EXPECT_EQ(last["scope_needed"], "rooms.tasks:read");
    EXPECT_EQ(last["rate"], "x-ratelimit-limit 300, remaining 290, reset 1700000300");

    h.apply(intent::ConsoleCall{Method::Post, "/rooms/2100/messages", {{"body", "hi there"}}});
    ASSERT_EQ(h.count("POST /rooms/2100/messages"), 1);
    EXPECT_EQ(h.sent.back().body, "body=hi+there");
    last = h.state()["console"]["last"];
    EXPECT_EQ(last["json"], "{\n  \"message_id\": \"9007199254740997\"\n}") << "formatted, the id kept exact";
    EXPECT_EQ(h.state()["announce"]["console"], "Console: POST /rooms/2100/messages answered 200.");

    // Bad parameters never leave the app.
    const std::size_t before = h.sent.size();
    h.apply(intent::ConsoleCall{Method::Get, "/rooms/{room_id}/messages", {{"room_id", "2100"}, {"force", "2"}}});
    EXPECT_EQ(h.sent.size(), before);
    const auto console = h.state()["console"];
    EXPECT_EQ(console["problems"][0]["param"], "force");
    EXPECT_TRUE(console["last"]["status"].is_null());
}

TEST(AppRooms, ADestructiveConsoleCallWaitsForConfirmation) {
    RoomsHarness h;
    h.routes["DELETE /rooms/2100"] = [](const HttpRequest&) { return answer(204, ""); };
    h.apply(intent::ConsoleCall{Method::Delete, "/rooms/2100", {{"action_type", "leave"}}});
    EXPECT_EQ(h.count("DELETE /rooms/2100"), 0) << "not before the user says yes";
    EXPECT_EQ(h.state()["console"]["confirm"]["path"], "/rooms/2100");
    h.apply(intent::CancelConsoleCall{});
    EXPECT_TRUE(h.state()["console"]["confirm"].is_null());
    h.apply(intent::ConfirmConsoleCall{});
    EXPECT_EQ(h.count("DELETE /rooms/2100"), 0) << "cancelled: nothing to confirm";
    h.apply(intent::ConsoleCall{Method::Delete, "/rooms/2100", {{"action_type", "leave"}}});
    h.apply(intent::ConfirmConsoleCall{});
    EXPECT_EQ(h.count("DELETE /rooms/2100"), 1);
    EXPECT_EQ(h.sent.back().body, "action_type=leave") << "the catalog puts action_type in the form body";
    EXPECT_EQ(h.state()["console"]["last"]["status"], 204);
}

TEST(AppRooms, SignOutForgetsTheRoomTheListsAndTheConsolesLastAnswer) {
    RoomsHarness h;
    h.apply(intent::OpenRoom{"2100"});
    h.apply(intent::ConsoleCall{Method::Get, "/rooms/2100/members", {}});
    ASSERT_FALSE(h.state()["console"]["last"].is_null()) << "the console call left no record to clear";
    h.apply(intent::SignOut{});
    const auto state = h.state();
    EXPECT_TRUE(state["room"].is_null());
    EXPECT_TRUE(state["console"]["last"].is_null()) << "the previous account's answer is gone";
    EXPECT_EQ(state["contacts"].size(), 0u);
    EXPECT_FALSE(h.app->open_room().poll_at()) << "no more polls";
}

// With notifications on, a mention count that rises at the
// room list's read makes the app read that room (force=1: no cursor moved
// for anyone) and the notification says the mention's text, tags drawn.
TEST(AppRooms, AMentionThatRoseIsReadForItsText) {
    RoomsHarness h;
    h.apply(intent::NotificationPermission{"granted"});
    h.apply(intent::SetNotifications{true});
    ASSERT_EQ(h.count("GET /rooms/2100/messages?force=1"), 0);
    h.messages.push_back(message_json("9007199254740996", "Bob Example", "[To:1001]Alice lunch is ready", 1'699'999'200));
    h.mentions = 1;
    const auto at = h.app->mentions().poll_at();
    ASSERT_TRUE(at) << "notifications on: the room list is read again";
    h.run_for(std::chrono::duration_cast<Millis>(*at - h.now) + Millis(200));
    EXPECT_EQ(h.count("GET /rooms"), 2);
    EXPECT_EQ(h.count("GET /rooms/2100/messages?force=1"), 1) << "the room read once for the text";
    auto alerts = h.app->take_alerts();
    ASSERT_EQ(alerts.size(), 1u);
    EXPECT_EQ(alerts[0].room_id, "2100");
    EXPECT_EQ(alerts[0].title, "Roomkey project");
    EXPECT_EQ(alerts[0].text, "Bob Example: To Alice lunch is ready");
    EXPECT_EQ(h.state()["title"], "(1) roomkey");

    // The mention is gone when the room is read (deleted): the count says it.
    h.messages.pop_back();
    h.mentions = 2;
    h.run_for(std::chrono::duration_cast<Millis>(*h.app->mentions().poll_at() - h.now) + Millis(200));
    alerts = h.app->take_alerts();
    ASSERT_EQ(alerts.size(), 1u);
    EXPECT_EQ(alerts[0].text, "1 new mention in Roomkey project");
}

// Spec 8.1: the open room's poll and the room list's read
// share the poll share (shared/polling.hpp): the answers say 290 calls
// remain until the reset 300 s away, so 10 % is 29 calls, both together.
TEST(AppRooms, TheRoomPollAndTheRoomListReadTogetherStayWithinThePollShare) {
    RoomsHarness h;
    h.apply(intent::OpenRoom{"2100"});
    const long lists = h.count("GET /rooms");
    const long polls = h.polls();
    h.run_for(Seconds(295), Millis(500));
    const long list_reads = h.count("GET /rooms") - lists;
    const long room_polls = h.polls() - polls;
    EXPECT_LE(list_reads + room_polls, 29) << list_reads << " room list reads, " << room_polls << " room polls";
    EXPECT_GE(list_reads, 5) << "the room list is read while the room is open";
    EXPECT_GE(room_polls, 15) << "the room is polled";
}

}  // namespace
}  // namespace app_rooms_test
}  // namespace roomkey::app
