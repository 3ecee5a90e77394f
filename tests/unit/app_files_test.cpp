// app_files_test.cpp: files both ways through App, with a
// canned service: an upload is one multipart POST whose body shared/'s
// reader gives back exactly, shows its progress in room.upload, then
// reloads the room's files and messages; a file over 5 MB is refused before
// anything is sent; opening a file asks for create_download_url=1 at that
// moment and hands the URL to the platform; the page API actions
// upload_file and open_file read as those intents.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hand_driven_app.hpp"
#include "json_answer.hpp"
#include "app/app.hpp"
#include "app/intents.hpp"
#include "app/page_state.hpp"
#include "roomkey/encoding.hpp"
#include "roomkey/multipart.hpp"
#include "roomkey/upload_limits.hpp"

namespace roomkey::app {
// A namespace of its own: the unit tests build in unity batches.
namespace files_test {
namespace {

const Instant t_begin = instant_from_unix_seconds(1'700'000'000);

const auto& json_answer = roomkey::testing::rated_json_answer;  // tests/support/json_answer.hpp

using roomkey::testing::api_path;

class FilesHarness {
public:
    Instant now = t_begin;
    std::unique_ptr<App> app = roomkey::testing::hand_driven_app();
    std::vector<HttpRequest> sent;
    std::vector<effect::Send> held;  // uploads, when hold_uploads
    std::vector<std::string> opened;
    std::vector<effect::PickFile> picks;
    bool hold_uploads = false;
    std::map<std::string, std::function<HttpResponse(const HttpRequest&)>> routes;
    std::string messages = "[]";

    FilesHarness() {
        routes["GET /me"] = [](const HttpRequest&) { return json_answer(200, R"({"account_id":1001,"name":"Alice"})"); };
        routes["GET /my/status"] = [](const HttpRequest&) {
            return json_answer(200, R"({"unread_room_num":0,"mention_room_num":0,"mytask_room_num":0,)"
                                    R"("unread_num":0,"mention_num":0,"mytask_num":0})");
        };
        routes["GET /rooms"] = [](const HttpRequest&) {
            return json_answer(200, R"([{"room_id":2100,"name":"Roomkey project","type":"group","role":"admin",)"
                                    R"("unread_num":0,"mention_num":0}])");
        };
        routes["GET /rooms/2100/messages?force=1"] = [this](const HttpRequest&) { return json_answer(200, messages); };
        routes["GET /rooms/2100/tasks"] = [](const HttpRequest&) { return json_answer(204, ""); };
        routes["GET /rooms/2100/members"] = [](const HttpRequest&) { return json_answer(204, ""); };
        routes["GET /rooms/2100/files"] = [](const HttpRequest&) { return json_answer(204, ""); };
        routes["POST /rooms/2100/files"] = [](const HttpRequest&) { return json_answer(200, R"({"file_id":9100})"); };
        routes["GET /rooms/2100/files/9100?create_download_url=1"] = [](const HttpRequest&) {
            return json_answer(200, R"({"file_id":9100,"account":{"account_id":1001,"name":"Alice"},)"
                                    R"("message_id":"5","filename":"a.pdf","filesize":3,"upload_time":1700000000,)"
                                    R"("download_url":"https://127.0.0.1:8444/downloads/9100?expires=1&signature=ab"})");
        };
        app->start("https://127.0.0.1:8443/", std::nullopt, now);
        settle();
        apply(intent::UseApiToken{"api-token-0123456789abcdef"});
    }

    void answer(const effect::Send& send) {
        if (send.request.url.find("config.json") != std::string::npos) {
            app->on_response(send.id,
                             json_answer(200, roomkey::testing::kHandDrivenConfigJson),
                             now);
            return;
        }
        const std::string key = std::string(to_string(send.request.method)) + " " + api_path(send.request);
        auto route = routes.find(key);
        app->on_response(send.id,
                         route == routes.end() ? json_answer(404, R"({"errors":["no route )" + key + R"("]})")
                                               : route->second(send.request),
                         now);
    }

    void settle() {
        for (int rounds = 0; rounds < 100; ++rounds) {
            bool any = false;
            for (Effect& e : app->take_effects()) {
                if (auto* open = std::get_if<effect::OpenUrl>(&e)) opened.push_back(open->url);
                if (auto* pick = std::get_if<effect::PickFile>(&e)) picks.push_back(*pick);
                auto* send = std::get_if<effect::Send>(&e);
                if (!send) continue;
                any = true;
                sent.push_back(send->request);
                if (send->upload_progress && hold_uploads) {
                    held.push_back(*send);
                    continue;
                }
                answer(*send);
            }
            if (!any) return;
        }
    }

    void apply(const Intent& intent) {
        app->apply(intent, now);
        settle();
    }

    long count(std::string_view key) const {
        long n = 0;
        for (const HttpRequest& r : sent) {
            if (std::string(to_string(r.method)) + " " + api_path(r) == key) ++n;
        }
        return n;
    }

    nlohmann::json room() const { return nlohmann::json::parse(page_state_json(*app, now))["room"]; }
};

intent::UploadFile upload_of(std::string data, std::string message = "") {
    intent::UploadFile i;
    i.room_id = "2100";
    i.name = "報告 \"final\".pdf";
    i.mime = "application/pdf";
    i.data = std::move(data);
    i.message = std::move(message);
    return i;
}

TEST(AppFiles, AnUploadIsOneMultipartPostTheReaderGivesBackExactly) {
    FilesHarness h;
    std::string bytes;
    for (int i = 0; i < 300000; ++i) bytes += static_cast<char>(i * 31);
    h.apply(upload_of(bytes, "Minutes attached"));
    ASSERT_EQ(h.count("POST /rooms/2100/files"), 1);
    const HttpRequest* post = nullptr;
    for (const HttpRequest& r : h.sent) {
        if (api_path(r) == "/rooms/2100/files" && r.method == Method::Post) post = &r;
    }
    ASSERT_NE(post, nullptr);
    EXPECT_EQ(post->headers.get("x-servicetoken"), std::optional<std::string>("api-token-0123456789abcdef"));
    const auto type = post->headers.get("content-type").value_or("");
    EXPECT_EQ(type.rfind("multipart/form-data; boundary=", 0), 0u) << type;
    auto parts = read_multipart(type, post->body);
    ASSERT_TRUE(parts) << to_string(parts.error());
    ASSERT_EQ(parts->size(), 2u);
    EXPECT_EQ((*parts)[0].name, "file");
    EXPECT_EQ((*parts)[0].filename, std::string("報告 \"final\".pdf"));
    EXPECT_EQ((*parts)[0].content_type, "application/pdf");
    EXPECT_TRUE((*parts)[0].data == bytes);
    EXPECT_EQ((*parts)[1].name, "message");
    EXPECT_EQ((*parts)[1].data, "Minutes attached");
    // The log keeps a note of the body, not the megabytes.
    EXPECT_EQ(h.app->log().entries().back().request.body.find("%PDF"), std::string::npos);
}

TEST(AppFiles, ProgressShowsInRoomUploadThenTheRoomReloads) {
    FilesHarness h;
    h.apply(intent::OpenRoom{"2100"});
    const long files_reads = h.count("GET /rooms/2100/files");
    const long message_reads = h.count("GET /rooms/2100/messages?force=1");
    h.hold_uploads = true;
    h.apply(upload_of(std::string(1000, 'x')));
    ASSERT_EQ(h.held.size(), 1u) << "the upload asks the platform for progress events";
    auto room = h.room();
    EXPECT_EQ(room["upload"]["status"], "sending");
    EXPECT_EQ(room["upload"]["name"], "報告 \"final\".pdf");
    EXPECT_EQ(room["upload"]["sent"], 0);

    const auto total = static_cast<std::int64_t>(h.held[0].request.body.size());
    h.app->on_upload_progress(h.held[0].id, total / 2, total);
    room = h.room();
    EXPECT_EQ(room["upload"]["sent"], total / 2);
    EXPECT_EQ(room["upload"]["total"], total);

    h.answer(h.held[0]);
    h.settle();
    room = h.room();
    EXPECT_EQ(room["upload"]["status"], "done");
    EXPECT_EQ(room["upload"]["file_id"], "9100");
    EXPECT_EQ(room["upload"]["sent"], total);
    EXPECT_EQ(room["upload"]["error"], "");
    EXPECT_EQ(h.count("GET /rooms/2100/files"), files_reads + 1) << "the new file is listed";
    EXPECT_EQ(h.count("GET /rooms/2100/messages?force=1"), message_reads + 1) << "the service's message is shown";
}

TEST(AppFiles, AFileOver5MBIsRefusedBeforeAnythingIsSent) {
    FilesHarness h;
    intent::UploadFile big = upload_of("");
    big.size = static_cast<std::int64_t>(kMaxUploadFileBytes) + 1;
    h.apply(big);
    EXPECT_EQ(h.count("POST /rooms/2100/files"), 0);
    const auto room = h.room();
    EXPECT_EQ(room["upload"]["status"], "failed");
    const std::string error = room["upload"]["error"];
    EXPECT_NE(error.find("5 MB"), std::string::npos) << error;
    EXPECT_NE(error.find("Nothing was sent"), std::string::npos) << error;
    // Exactly the limit goes.
    h.apply(upload_of(std::string(kMaxUploadFileBytes, 'z')));
    EXPECT_EQ(h.count("POST /rooms/2100/files"), 1);
    EXPECT_EQ(h.room()["upload"]["status"], "done");
}

TEST(AppFiles, TheServicesRefusalIsTheUploadsError) {
    FilesHarness h;
    h.routes["POST /rooms/2100/files"] = [](const HttpRequest&) {
        return json_answer(400, R"({"errors":["Parameter `file` is required."]})");
    };
    h.apply(upload_of("abc"));
    const auto room = h.room();
    EXPECT_EQ(room["upload"]["status"], "failed");
    const std::string error = room["upload"]["error"];
    EXPECT_NE(error.find("Parameter `file` is required."), std::string::npos) << error;
}

TEST(AppFiles, OpeningAFileAsksForALinkThenAndOpensIt) {
    FilesHarness h;
    h.apply(intent::OpenRoom{"2100"});
    EXPECT_EQ(h.count("GET /rooms/2100/files/9100?create_download_url=1"), 0) << "never asked for ahead";
    h.apply(intent::OpenFile{"2100", "9100"});
    EXPECT_EQ(h.count("GET /rooms/2100/files/9100?create_download_url=1"), 1);
    ASSERT_EQ(h.opened.size(), 1u);
    EXPECT_EQ(h.opened[0], "https://127.0.0.1:8444/downloads/9100?expires=1&signature=ab");
    const auto room = h.room();
    EXPECT_EQ(room["download"]["file_id"], "9100");
    EXPECT_EQ(room["download"]["url"], h.opened[0]);
    EXPECT_EQ(room["download"]["expires_at"], unix_ms(h.now) + 30000);
}

TEST(AppFiles, ALinkThatIsNotHttpsIsNeverOpened) {
    FilesHarness h;
    h.routes["GET /rooms/2100/files/9100?create_download_url=1"] = [](const HttpRequest&) {
        return json_answer(200, R"j({"file_id":9100,"download_url":"javascript:alert(1)"})j");
    };
    h.apply(intent::OpenFile{"2100", "9100"});
    EXPECT_TRUE(h.opened.empty());
    EXPECT_NE(h.room()["download"]["error"].get<std::string>(), "");
}

TEST(AppFiles, PickFileAsksThePlatformForThePicker) {
    FilesHarness h;
    h.apply(intent::PickFile{"2100", "see attached"});
    ASSERT_EQ(h.picks.size(), 1u);
    EXPECT_EQ(h.picks[0].room_id, "2100");
    EXPECT_EQ(h.picks[0].message, "see attached");
}

TEST(AppFiles, PageActionsReadAsTheFileIntents) {
    auto upload = parse_action(R"({"type":"upload_file","room_id":2100,"name":"a.txt","mime":"text/plain",)"
                               R"("data_base64":")" + base64_encode("hello") + R"(","message":"hi"})");
    ASSERT_TRUE(upload) << upload.error();
    const auto* u = std::get_if<intent::UploadFile>(&*upload);
    ASSERT_NE(u, nullptr);
    EXPECT_EQ(u->room_id, "2100");
    EXPECT_EQ(u->name, "a.txt");
    EXPECT_EQ(u->mime, "text/plain");
    EXPECT_EQ(u->data, "hello");
    EXPECT_EQ(u->message, "hi");
    auto open = parse_action(R"({"type":"open_file","room_id":"2100","file_id":9001})");
    ASSERT_TRUE(open) << open.error();
    const auto* o = std::get_if<intent::OpenFile>(&*open);
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->file_id, "9001");
    EXPECT_FALSE(parse_action(R"({"type":"upload_file","room_id":"2100","name":"a","data_base64":"***"})"));
    EXPECT_FALSE(parse_action(R"({"type":"upload_file","room_id":"../me","name":"a","data_base64":""})"));
    EXPECT_FALSE(parse_action(R"({"type":"open_file","room_id":"2100","file_id":"-1"})"));
}

}  // namespace
}  // namespace files_test
}  // namespace roomkey::app
