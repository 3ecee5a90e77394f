// sandbox_persistence_test.cpp: the sandbox remembers (STATE_DIR/sandbox.db):
// messages, rooms, tasks, registered clients, login sessions and tokens are
// there again after a stop and a start, and after a kill -9 right after an
// answer; --ephemeral keeps nothing; a state file that is not one, or from a
// newer version, stops the start with a message saying what to do; a fixture
// is loaded once and then remembered; the clock goes on from where it was.
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "sandbox/fixture_generator.hpp"
#include "support/child_process.hpp"
#include "support/sandbox_program.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/temp_dir.hpp"

namespace roomkey::sandbox::testing {
namespace {

using nlohmann::json;

class SandboxPersistence : public SandboxTest {
protected:
    void SetUp() override {}
    SandboxOptions persistent_options() {
        SandboxOptions o = test_options();
        o.state_dir = dir_.path();
        o.persistent = true;
        return o;
    }
    std::vector<std::string> bodies(const std::string& room, const std::string& token = kAliceToken) {
        std::vector<std::string> out;
        auto res = api_get("/rooms/" + room + "/messages?force=1", token);
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res || res->status != 200) return out;
        for (const json& m : json::parse(res->body, nullptr, false)) out.push_back(m["body"].get<std::string>());
        return out;
    }
    static bool has(const std::vector<std::string>& list, const std::string& item) {
        return std::find(list.begin(), list.end(), item) != list.end();
    }
    httplib::Result post_message(const std::string& room, const std::string& text) {
        return post_form("/v2/rooms/" + room + "/messages", {{"body", text}}, {{"x-servicetoken", kAliceToken}});
    }
    integration::TempDir dir_;
};

TEST_F(SandboxPersistence, AStopAndAStartKeepMessagesRoomsTasksClientsSessionsAndTokens) {
    start(persistent_options());
    const json tokens = sign_in_web();
    ASSERT_TRUE(tokens.contains("access_token")) << tokens.dump();
    auto posted = post_message("2100", "kept across a restart 🚀");
    ASSERT_TRUE(posted) << why_no_answer(posted);
    ASSERT_EQ(posted->status, 200) << posted->body;
    auto room = post_form("/v2/rooms", {{"name", "New room"}, {"members_admin_ids", "1001"}, {"members_member_ids", "1002"}},
                          {{"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(room) << why_no_answer(room);
    ASSERT_EQ(room->status, 200) << room->body;
    const std::string room_id = std::to_string(json::parse(room->body)["room_id"].get<std::int64_t>());
    auto task = post_form("/v2/rooms/" + room_id + "/tasks", {{"body", "a kept task"}, {"to_ids", "1002"}},
                          {{"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(task) << why_no_answer(task);
    ASSERT_EQ(task->status, 200) << task->body;
    const std::string cookie = login_as("alice@example.com", "alice-demo");
    const std::string client_id =
        register_client_on_screen(cookie, "public", "https://127.0.0.1:9555/cb", {"users.all:read"});
    ASSERT_FALSE(client_id.empty());
    sandbox().stop();

    start(persistent_options());
    EXPECT_TRUE(has(bodies("2100"), "kept across a restart 🚀"));
    auto tasks = api_get("/rooms/" + room_id + "/tasks", kBobToken);
    ASSERT_TRUE(tasks) << why_no_answer(tasks);
    EXPECT_NE(tasks->body.find("a kept task"), std::string::npos) << tasks->body;
    // The browser stays signed in: its access token works, its refresh token rotates.
    auto me = bearer_get("/me", tokens["access_token"].get<std::string>());
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 200) << me->body;
    auto refreshed = refresh_public(tokens["refresh_token"].get<std::string>());
    ASSERT_TRUE(refreshed) << why_no_answer(refreshed);
    EXPECT_EQ(refreshed->status, 200) << refreshed->body;
    // The developer's client and the login session are there.
    auto list = get("/clients", {{"Cookie", cookie}});
    ASSERT_TRUE(list) << why_no_answer(list);
    EXPECT_EQ(list->status, 200) << "the session cookie still works";
    EXPECT_NE(list->body.find(client_id), std::string::npos);
    // New ids do not reuse old ones.
    auto again = post_message("2100", "after");
    ASSERT_TRUE(again) << why_no_answer(again);
    EXPECT_NE(json::parse(again->body)["message_id"], json::parse(posted->body)["message_id"]);
}

// The rate windows are kept too: a restart is no way around the limit.
TEST_F(SandboxPersistence, TheRateWindowGoesOnAfterARestart_spec8_1) {
    SandboxOptions o = persistent_options();
    o.rate_limit = 3;
    start(o);
    for (int i = 0; i < 3; ++i) {
        auto res = api_get("/me");
        ASSERT_TRUE(res) << why_no_answer(res);
        ASSERT_EQ(res->status, 200) << i;
    }
    sandbox().stop();
    start(o);
    auto refused = api_get("/me");
    ASSERT_TRUE(refused) << why_no_answer(refused);
    EXPECT_EQ(refused->status, 429) << refused->body;
}

// The clock is kept: time moved forward stays moved (a token it expired
// stays expired), and so does its speed.
TEST_F(SandboxPersistence, TheClockGoesOnFromWhereItWasAfterARestart) {
    start(persistent_options());
    const json tokens = sign_in_web();
    ASSERT_TRUE(tokens.contains("access_token")) << tokens.dump();
    advance_clock(2 * 86400);  // well past the access token's life
    auto frozen = client()->Post("/_sandbox/clock/scale?factor=0", httplib::Headers{{"X-Roomkey-Sandbox-Control", "1"}},
                                 "", "text/plain");
    ASSERT_TRUE(frozen) << why_no_answer(frozen);
    ASSERT_EQ(frozen->status, 200) << frozen->body;
    const Instant moved = sandbox().clock().now();
    sandbox().stop();

    start(persistent_options());
    EXPECT_GE(sandbox().clock().now(), moved) << "the time moved forward is kept";
    EXPECT_EQ(sandbox().clock().scale(), 0.0) << "and the clock's speed";
    auto me = bearer_get("/me", tokens["access_token"].get<std::string>());
    ASSERT_TRUE(me) << why_no_answer(me);
    EXPECT_EQ(me->status, 401) << "a token the moved clock expired stays expired: " << me->body;
}

TEST_F(SandboxPersistence, EphemeralKeepsNothing) {
    SandboxOptions o = persistent_options();
    o.persistent = false;
    start(o);
    auto posted = post_message("2100", "forgotten");
    ASSERT_TRUE(posted) << why_no_answer(posted);
    ASSERT_EQ(posted->status, 200);
    sandbox().stop();
    start(o);
    EXPECT_FALSE(has(bodies("2100"), "forgotten"));
    EXPECT_NE(::access((dir_ / "sandbox.db").c_str(), F_OK), 0) << "no state file with --ephemeral";
}

TEST_F(SandboxPersistence, AFixtureIsLoadedOnceThenRemembered) {
    GenerateOptions g;
    g.rooms = 10;
    g.messages = 20;
    g.unread_rooms = 3;
    g.mention_rooms = 1;
    g.tasks = 4;
    g.accounts = 5;
    std::ofstream(dir_ / "a.json") << generate_fixture(g);
    g.seed = 7;
    std::ofstream(dir_ / "b.json") << generate_fixture(g);
    SandboxOptions o = persistent_options();
    o.fixture_path = dir_ / "a.json";
    start(o);
    ASSERT_EQ(post_message("2002", "remembered")->status, 200);
    sandbox().stop();
    start(o);
    EXPECT_TRUE(has(bodies("2002"), "remembered")) << "the same fixture: the state goes on";
    sandbox().stop();
    o.fixture_path = dir_ / "b.json";
    start(o);
    EXPECT_FALSE(has(bodies("2002"), "remembered")) << "another fixture: the state starts from it";
}

TEST_F(SandboxPersistence, AStateFileThatIsNotOneOrIsNewerStopsTheStart) {
    SandboxOptions o = persistent_options();
    std::ofstream(dir_ / "sandbox.db") << "this is not a database, just some text long enough to have a header";
    {
        Sandbox s(o);
        const auto started = s.start();
        ASSERT_FALSE(started);
        EXPECT_NE(started.error().find(dir_ / "sandbox.db"), std::string::npos) << started.error();
        EXPECT_NE(started.error().find("not a roomkey-sandbox state file"), std::string::npos) << started.error();
        EXPECT_NE(started.error().find("--ephemeral"), std::string::npos) << "says what to do: " << started.error();
    }
    ASSERT_EQ(::unlink((dir_ / "sandbox.db").c_str()), 0);
    {
        Sandbox s(o);  // a good one, then marked as a later version
        ASSERT_TRUE(s.start());
        s.stop();
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ / "sandbox.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    {
        Sandbox s(o);
        const auto started = s.start();
        ASSERT_FALSE(started);
        EXPECT_NE(started.error().find("newer roomkey-sandbox"), std::string::npos) << started.error();
        EXPECT_NE(started.error().find("Update roomkey"), std::string::npos) << started.error();
    }
    // A state directory where the file cannot be a file.
    ASSERT_EQ(::unlink((dir_ / "sandbox.db").c_str()), 0);
    ASSERT_EQ(::mkdir((dir_ / "sandbox.db").c_str(), 0700), 0);
    Sandbox s(o);
    const auto started = s.start();
    ASSERT_FALSE(started);
    EXPECT_NE(started.error().find("cannot be opened"), std::string::npos) << started.error();
}

// The program as run.sh starts it: an answered POST is on disk before the
// answer, so a kill -9 right after it loses nothing; a second sandbox on the
// same state directory is refused while the first runs.
TEST_F(SandboxPersistence, AKillNineRightAfterAPostKeepsTheMessage) {
    const std::string program = integration::program_path("roomkey-sandbox");
    integration::SandboxProgram sandbox;
    ASSERT_NO_FATAL_FAILURE(integration::start_sandbox_program(sandbox, dir_.path()));
    auto posted = sandbox.client()->Post("/v2/rooms/2101/messages", {{"x-servicetoken", kAliceToken}},
                                         "body=posted%20just%20before%20the%20kill", "application/x-www-form-urlencoded");
    ASSERT_TRUE(posted) << why_no_answer(posted);
    ASSERT_EQ(posted->status, 200) << posted->body;
    integration::Child second({program, "--port", "0", "--state-dir", dir_.path(), "--quiet"});
    EXPECT_EQ(second.wait_exit(10000), 1);
    EXPECT_NE(second.stderr_text().find("in use by another roomkey-sandbox"), std::string::npos) << second.stderr_text();
    sandbox.child->signal(SIGKILL);
    ASSERT_TRUE(sandbox.child->ended_within(10000));

    ASSERT_NO_FATAL_FAILURE(integration::start_sandbox_program(sandbox, dir_.path()));
    auto read = sandbox.client()->Get("/v2/rooms/2101/messages?force=1", {{"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(read) << why_no_answer(read);
    EXPECT_NE(read->body.find("posted just before the kill"), std::string::npos) << read->body;
}

}  // namespace
}  // namespace roomkey::sandbox::testing
