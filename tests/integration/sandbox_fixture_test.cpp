// sandbox_fixture_test.cpp: roomkey-sandbox --fixture: a fixture's accounts,
// rooms, members, messages, tasks, files, links and sticky flags read back
// exactly through the REST API; each kind of schema error refused with the
// file and the field named; `roomkey-sandbox generate` writing the same
// bytes for a seed, and its fixture loading with the sizes it was asked for.
#include <algorithm>
#include <fstream>
#include <functional>

#include "roomkey/endpoint_catalog.hpp"  // utf8_length
#include "sandbox/fixture.hpp"
#include "sandbox/fixture_generator.hpp"
#include "support/child_process.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/sandbox_program.hpp"
#include "support/temp_dir.hpp"

namespace roomkey::sandbox::testing {
namespace {

using nlohmann::json;

// Seven accounts (more than the demo's four) in one room, Japanese and emoji.
json good_fixture() {
    json accounts = json::array();
    accounts.push_back({{"account_id", 1001}, {"name", "Alice Example"}, {"login", "alice@example.com"},
                        {"password", "alice-pass"}, {"api_token", "fixture-token-alice"}, {"contacts", {7001}}});
    for (int i = 0; i < 6; ++i) {
        accounts.push_back({{"account_id", 7001 + i}, {"name", "山田 " + std::to_string(i) + " 🌸"},
                            {"login", "member" + std::to_string(i) + "@example.com"}, {"password", "p"},
                            {"api_token", "fixture-token-" + std::to_string(i)}, {"title", "エンジニア"}});
    }
    json members = json::array({{{"account_id", 1001}, {"role", "admin"}, {"unread", 2}}});
    for (int i = 0; i < 6; ++i) members.push_back({{"account_id", 7001 + i}, {"role", i == 5 ? "readonly" : "member"}});
    json room = {{"room_id", 4242},
                 {"name", "設計レビュー 🚀"},
                 {"description", "説明"},
                 {"sticky", true},
                 {"members", members},
                 {"messages", json::array({{{"account_id", 1001}, {"body", "first 👋"}, {"ago", 7200}},
                                           {{"account_id", 7001}, {"body", "[info][title]議題[/title]本文[/info]"},
                                            {"ago", 3600}, {"edited_ago", 1800}},
                                           {{"account_id", 7002}, {"body", "[To:1001]Alice Exampleさん\nレビューお願いします"},
                                            {"ago", 60}}})},
                 {"tasks", json::array({{{"assignee", 1001}, {"assigned_by", 7001}, {"body", "確認する"},
                                         {"limit_time", 1900000000}},
                                        {{"assignee", 7003}, {"assigned_by", 1001}, {"body", "done one"},
                                         {"done", true}, {"message", 0}}})},
                 {"files", json::array({{{"account_id", 7002}, {"filename", "仕様書.pdf"}, {"filesize", 4321},
                                         {"message", 1}}})},
                 {"link", {{"code", "design-review"}, {"need_acceptance", false}}}};
    return {{"roomkey_sandbox_fixture", 1},
            {"accounts", accounts},
            {"rooms", json::array({room})},
            {"contact_requests", json::array({{{"from", 7006}, {"to", 1001}, {"message", "よろしく"}}})}};
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

class SandboxFixture : public SandboxTest {
protected:
    void SetUp() override {}
    void start_with(const json& fixture) {
        write_file(dir_ / "fixture.json", fixture.dump());
        SandboxOptions o = test_options();
        o.fixture_path = dir_ / "fixture.json";
        start(o);
    }
    json read(const std::string& path, const std::string& token) {
        auto res = api_get(path, token);
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return json();
        EXPECT_EQ(res->status, 200) << path << ": " << res->body;
        return json::parse(res->body, nullptr, false);
    }
    integration::TempDir dir_;
};

TEST_F(SandboxFixture, AGoodFixtureReadsBackThroughTheApiExactly) {
    start_with(good_fixture());
    const std::string alice = "fixture-token-alice";
    const json me = read("/me", alice);
    EXPECT_EQ(me["account_id"], 1001);
    EXPECT_EQ(me["name"], "Alice Example");
    // The demo data is gone: its tokens name no one.
    auto demo = api_get("/me", kAliceToken);
    ASSERT_TRUE(demo) << why_no_answer(demo);
    EXPECT_EQ(demo->status, 401);

    const json room = read("/rooms/4242", alice);
    EXPECT_EQ(room["name"], "設計レビュー 🚀");
    EXPECT_EQ(room["description"], "説明");
    EXPECT_EQ(room["sticky"], true);
    EXPECT_EQ(room["role"], "admin");
    EXPECT_EQ(room["unread_num"], 2);
    EXPECT_EQ(room["mention_num"], 1) << "the newest unread message is [To:1001]";
    EXPECT_EQ(room["message_num"], 3);

    const json members = read("/rooms/4242/members", alice);
    ASSERT_EQ(members.size(), 7u) << "members are not limited to the demo accounts";
    const auto readonly = std::find_if(members.begin(), members.end(), [](const json& m) { return m["account_id"] == 7006; });
    ASSERT_NE(readonly, members.end());
    EXPECT_EQ((*readonly)["role"], "readonly");
    EXPECT_EQ((*readonly)["name"], "山田 5 🌸");

    const json messages = read("/rooms/4242/messages?force=1", alice);
    ASSERT_EQ(messages.size(), 3u);
    EXPECT_EQ(messages[0]["body"], "first 👋");
    EXPECT_EQ(messages[1]["body"], "[info][title]議題[/title]本文[/info]");
    EXPECT_EQ(messages[2]["body"], "[To:1001]Alice Exampleさん\nレビューお願いします");
    EXPECT_EQ(messages[2]["account"]["account_id"], 7002);
    const std::int64_t t0 = messages[0]["send_time"].get<std::int64_t>();
    EXPECT_EQ(messages[1]["send_time"].get<std::int64_t>() - t0, 3600);
    EXPECT_EQ(messages[2]["send_time"].get<std::int64_t>() - t0, 7140);
    EXPECT_EQ(messages[1]["update_time"].get<std::int64_t>() - t0, 5400);
    EXPECT_EQ(messages[0]["update_time"], 0);

    const json my_tasks = read("/my/tasks", alice);
    ASSERT_EQ(my_tasks.size(), 1u);
    EXPECT_EQ(my_tasks[0]["body"], "確認する");
    EXPECT_EQ(my_tasks[0]["limit_time"], 1900000000);
    EXPECT_EQ(my_tasks[0]["limit_type"], "date");
    EXPECT_EQ(my_tasks[0]["message_id"], messages[2]["message_id"]) << "a task without \"message\" points at the newest";
    const json done = read("/rooms/4242/tasks?status=done", alice);
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0]["message_id"], messages[0]["message_id"]);

    const json files = read("/rooms/4242/files", alice);
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0]["filename"], "仕様書.pdf");
    EXPECT_EQ(files[0]["filesize"], 4321);
    EXPECT_EQ(files[0]["message_id"], messages[1]["message_id"]);

    const json link = read("/rooms/4242/link", alice);
    EXPECT_EQ(link["public"], true);
    EXPECT_NE(link["url"].get<std::string>().find("/g/design-review"), std::string::npos) << link.dump();

    const json status = read("/my/status", alice);
    EXPECT_EQ(status["unread_num"], 2);
    EXPECT_EQ(status["mention_room_num"], 1);
    EXPECT_EQ(status["mytask_num"], 1);
    const json contacts = read("/contacts", alice);
    ASSERT_EQ(contacts.size(), 1u);
    EXPECT_EQ(contacts[0]["account_id"], 7001);
    const json requests = read("/incoming_requests", alice);
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0]["message"], "よろしく");
    // Every account has its own "my chat", made when the fixture has none.
    const json rooms = read("/rooms", alice);
    ASSERT_EQ(rooms.size(), 2u);
    EXPECT_TRUE(std::any_of(rooms.begin(), rooms.end(), [](const json& r) { return r["type"] == "my"; }));
    // A fixture account signs in on the login screen with its password.
    EXPECT_FALSE(login_as("member2@example.com", "p").empty());
}

// Each kind of mistake: the file, the field and the problem are named.
TEST_F(SandboxFixture, EachSchemaErrorNamesTheFileAndTheField) {
    struct Case {
        std::function<void(json&)> spoil;
        std::string field;    // the JSON path the message names
        std::string problem;  // and a word of what is wrong
    };
    const std::vector<Case> cases = {
        {[](json& f) { f.erase("roomkey_sandbox_fixture"); }, "roomkey_sandbox_fixture", "missing"},
        {[](json& f) { f["roomkey_sandbox_fixture"] = 2; }, "roomkey_sandbox_fixture", "newer"},
        {[](json& f) { f["acounts"] = json::array(); }, "acounts", "spelling"},
        {[](json& f) { f["accounts"] = json::array(); }, "accounts", "empty"},
        {[](json& f) { f["accounts"][1]["account_id"] = "7001"; }, "accounts[1].account_id", "integer"},
        {[](json& f) { f["accounts"][2]["account_id"] = 7001; }, "accounts[2].account_id", "twice"},
        {[](json& f) { f["accounts"][3].erase("password"); }, "accounts[3].password", "missing"},
        {[](json& f) { f["accounts"][3]["login"] = "member0@example.com"; }, "accounts[3].login", "another account"},
        {[](json& f) { f["accounts"][0]["contacts"] = {9999}; }, "accounts[0].contacts[0]", "another account"},
        {[](json& f) { f["rooms"][0]["members"][3]["account_id"] = 1999; }, "rooms[0].members[3].account_id",
         "not an account"},
        {[](json& f) { f["rooms"][0]["members"][1]["role"] = "owner"; }, "rooms[0].members[1].role", "admin, member"},
        {[](json& f) { f["rooms"][0]["type"] = "direct"; }, "rooms[0].members", "exactly 2"},
        {[](json& f) { f["rooms"][0]["type"] = "channel"; }, "rooms[0].type", "group, direct or my"},
        {[](json& f) { f["rooms"][0]["sticky"] = "yes"; }, "rooms[0].sticky", "true or false"},
        {[](json& f) { f["rooms"][0]["messages"][2]["ago"] = 99999; }, "rooms[0].messages[2].ago", "oldest first"},
        {[](json& f) { f["rooms"][0]["messages"][1]["body"] = ""; }, "rooms[0].messages[1].body", "characters"},
        {[](json& f) { f["rooms"][0]["messages"][0]["message_id"] = "01"; }, "rooms[0].messages[0].message_id",
         "decimal"},
        {[](json& f) { f["rooms"][0]["messages"][0]["boddy"] = "x"; }, "rooms[0].messages[0].boddy", "spelling"},
        {[](json& f) { f["rooms"][0]["tasks"][0]["assignee"] = 1002; }, "rooms[0].tasks[0].assignee", "not an account"},
        {[](json& f) { f["rooms"][0]["tasks"][0]["limit_type"] = "soon"; }, "rooms[0].tasks[0].limit_type", "none"},
        {[](json& f) { f["rooms"][0]["tasks"][1]["message"] = 3; }, "rooms[0].tasks[1].message", "from 0 to 2"},
        {[](json& f) { f["rooms"][0]["files"][0]["filename"] = "a/b"; }, "rooms[0].files[0].filename", "'/'"},
        {[](json& f) { f["rooms"][0]["link"]["code"] = "Bad Code"; }, "rooms[0].link.code", "a-z"},
        {[](json& f) { f["contact_requests"][0]["to"] = 5; }, "contact_requests[0].to", "not an account"},
    };
    for (const Case& c : cases) {
        json f = good_fixture();
        c.spoil(f);
        const auto loaded = load_fixture(f.dump(), "my.json", 1800000000);
        ASSERT_FALSE(loaded) << c.field;
        const std::string& message = loaded.error();
        EXPECT_EQ(message.rfind("fixture my.json: " + c.field + ": ", 0), 0u) << message;
        EXPECT_NE(message.find(c.problem), std::string::npos) << message;
        EXPECT_NE(message.find("docs/sandbox.md"), std::string::npos) << "says where the schema is: " << message;
    }
    // Not JSON at all: where nlohmann stopped.
    const auto broken = load_fixture("{\"roomkey_sandbox_fixture\": 1,\n \"accounts\": [}", "broken.json", 0);
    ASSERT_FALSE(broken);
    EXPECT_NE(broken.error().find("fixture broken.json: not valid JSON"), std::string::npos) << broken.error();
    EXPECT_NE(broken.error().find("line 2"), std::string::npos) << broken.error();
    // And no start: Sandbox::start says the same.
    json spoilt = good_fixture();
    spoilt["rooms"][0]["members"][0]["account_id"] = 1999;
    write_file(dir_ / "bad.json", spoilt.dump());
    SandboxOptions o = test_options();
    o.fixture_path = dir_ / "bad.json";
    Sandbox sandbox(o);
    const auto started = sandbox.start();
    ASSERT_FALSE(started);
    EXPECT_NE(started.error().find("rooms[0].members[0].account_id"), std::string::npos) << started.error();
    EXPECT_NE(started.error().find(dir_ / "bad.json"), std::string::npos) << started.error();
    Sandbox missing([&] {
        SandboxOptions m = test_options();
        m.fixture_path = dir_ / "nowhere.json";
        return m;
    }());
    const auto not_there = missing.start();
    ASSERT_FALSE(not_there);
    EXPECT_NE(not_there.error().find("nowhere.json: cannot be read"), std::string::npos) << not_there.error();
}

TEST_F(SandboxFixture, TheGeneratorWritesTheSameBytesForASeed) {
    GenerateOptions o;
    o.rooms = 20;
    o.messages = 30;
    o.unread_rooms = 10;
    o.mention_rooms = 4;
    o.tasks = 9;
    o.accounts = 8;
    const std::string a = generate_fixture(o);
    EXPECT_EQ(a, generate_fixture(o));
    o.seed = 2;
    EXPECT_NE(a, generate_fixture(o));
}

// The account: its figures are the generator's defaults.
TEST_F(SandboxFixture, TheGeneratedLargeAccountLoadsWithTheAskedSizes) {
    start_with(json::parse(generate_fixture(GenerateOptions{})));
    const json status = read("/my/status", kAliceToken);
    EXPECT_EQ(status["unread_room_num"], 216);
    EXPECT_EQ(status["mention_room_num"], 52);
    EXPECT_EQ(status["mytask_num"], 101);
    EXPECT_EQ(read("/rooms", kAliceToken).size(), 300u);
    const json messages = read("/rooms/2002/messages?force=1", kAliceToken);
    ASSERT_EQ(messages.size(), 100u);
    std::vector<std::size_t> lengths;
    std::size_t total = 0;
    bool notation[5] = {};
    const char* tags[5] = {"[To:", "[rp aid=", "[qt]", "[info]", "[code]"};
    bool japanese = false, emoji = false;
    for (const json& m : messages) {
        const std::string body = m["body"].get<std::string>();
        lengths.push_back(utf8_length(body));
        total += lengths.back();
        for (int t = 0; t < 5; ++t) notation[t] = notation[t] || body.find(tags[t]) != std::string::npos;
        japanese = japanese || body.find("です") != std::string::npos;
        emoji = emoji || body.find("\xF0\x9F") != std::string::npos;  // U+1F000 and up
    }
    std::sort(lengths.begin(), lengths.end());
    EXPECT_EQ(lengths.back(), 3000u);
    EXPECT_NEAR(static_cast<double>(lengths[49] + lengths[50]) / 2, 340, 20);
    EXPECT_NEAR(static_cast<double>(total), 57000, 3000);
    for (int t = 0; t < 5; ++t) EXPECT_TRUE(notation[t]) << tags[t];
    EXPECT_TRUE(japanese);
    EXPECT_TRUE(emoji);
}

// As a developer runs it: generate to a file, start with it; a bad fixture
// stops the start with the file and field named.
TEST_F(SandboxFixture, TheProgramGeneratesAndLoadsAndRefusesABadFixture) {
    const std::string program = integration::program_path("roomkey-sandbox");
    const std::string file = dir_ / "gen.json";
    integration::Child gen({program, "generate", "--rooms", "25", "--messages", "40", "--unread-rooms", "5",
                            "--mention-rooms", "2", "--tasks", "7", "--out", file});
    ASSERT_EQ(gen.wait_exit(30000), 0) << gen.stderr_text();
    integration::Child bad_arg({program, "generate", "--romos", "3"});
    EXPECT_EQ(bad_arg.wait_exit(5000), 2);
    EXPECT_NE(bad_arg.stderr_text().find("--romos"), std::string::npos);

    integration::SandboxProgram sandbox;
    ASSERT_NO_FATAL_FAILURE(integration::start_sandbox_program(sandbox, shared_state_dir(),
                                                               {"--quiet", "--ephemeral", "--fixture", file}));
    auto res = sandbox.client()->Get("/v2/my/status", {{"x-servicetoken", kAliceToken}});
    ASSERT_TRUE(res) << why_no_answer(res);
    const json status = json::parse(res->body, nullptr, false);
    EXPECT_EQ(status["unread_room_num"], 5) << res->body;
    EXPECT_EQ(status["mytask_num"], 7) << res->body;

    json spoilt = good_fixture();
    spoilt["rooms"][0]["members"][1]["role"] = "owner";
    write_file(dir_ / "bad.json", spoilt.dump());
    integration::Child refused(
        {program, "--port", "0", "--state-dir", shared_state_dir(), "--ephemeral", "--fixture", dir_ / "bad.json"});
    EXPECT_EQ(refused.wait_exit(10000), 1);
    const std::string err = refused.stderr_text();
    EXPECT_EQ(err.rfind("roomkey-sandbox: fixture " + (dir_ / "bad.json") + ": rooms[0].members[1].role: ", 0), 0u) << err;
    EXPECT_EQ(refused.rest_of_stdout(), "") << "no ready line";
}

}  // namespace
}  // namespace roomkey::sandbox::testing
