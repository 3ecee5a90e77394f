// app_file_preview_test.cpp: when an image preview's download_url is asked
// for, through App with a canned service: only for previews on screen, one
// request at a time (never a burst for a screenful), once per file while
// its texture is kept or its URL lives, never while the tab is hidden, not
// when the rate budget runs low; which files get a preview at all.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hand_driven_app.hpp"
#include "json_answer.hpp"
#include "app/app.hpp"
#include "app/file_preview.hpp"
#include "roomkey/file_upload.hpp"
#include "app/intents.hpp"
#include "app/page_state.hpp"

namespace roomkey::app {
namespace file_preview_test {
namespace {

const Instant t_begin = instant_from_unix_seconds(1'700'000'000);

using roomkey::testing::api_path;

class PreviewHarness {
public:
    Instant now = t_begin;
    std::unique_ptr<App> app = roomkey::testing::hand_driven_app();
    std::vector<std::string> asked;             // the files whose download_url was asked for
    std::deque<effect::Send> held;              // download_url requests not answered yet
    std::vector<effect::LoadImage> loads;       // what the platform was asked to fetch
    bool hold = false;                          // keep download_url requests unanswered
    std::string remaining = "290";              // x-ratelimit-remaining of every answer

    std::string config_json = roomkey::testing::kHandDrivenConfigJson;

    explicit PreviewHarness(std::string config = roomkey::testing::kHandDrivenConfigJson)
        : config_json(std::move(config)) {
        app->start("https://127.0.0.1:8443/", std::nullopt, now);
        settle();
        apply(intent::UseApiToken{"api-token-0123456789abcdef"});
    }

    HttpResponse answer_for(const HttpRequest& request) {
        const std::string path = api_path(request);
        HttpResponse r = roomkey::testing::rated_json_answer(404, R"({"errors":["no route"]})");
        if (path == "/me") r = roomkey::testing::rated_json_answer(200, R"({"account_id":1001,"name":"Alice"})");
        if (path == "/rooms") r = roomkey::testing::rated_json_answer(200, "[]");
        const auto files = path.find("/files/");
        if (files != std::string::npos) {
            const std::string id = path.substr(files + 7, path.find('?') - files - 7);
            r = roomkey::testing::rated_json_answer(
                200, R"({"file_id":)" + id + R"(,"account":{"account_id":1001,"name":"Alice"},"message_id":"5",)" +
                         R"("filename":"a.png","filesize":3,"upload_time":1700000000,)" +
                         R"("download_url":"https://127.0.0.1:8444/downloads/)" + id + R"(?expires=1&signature=ab"})");
        }
        r.headers.set("x-ratelimit-remaining", remaining);
        return r;
    }

    void answer(const effect::Send& send) {
        if (send.request.url.find("config.json") != std::string::npos) {
            app->on_response(send.id,
                             roomkey::testing::json_answer(200, config_json),
                             now);
            return;
        }
        app->on_response(send.id, answer_for(send.request), now);
    }

    void settle() {
        for (int rounds = 0; rounds < 100; ++rounds) {
            bool any = false;
            for (effect::LoadImage& load : app->take_image_loads()) loads.push_back(load);
            for (Effect& e : app->take_effects()) {
                auto* send = std::get_if<effect::Send>(&e);
                if (!send) continue;
                any = true;
                const std::string path = api_path(send->request);
                if (path.find("/files/") != std::string::npos) {
                    EXPECT_NE(path.find("create_download_url=1"), std::string::npos) << path;
                    asked.push_back(path.substr(path.find("/files/") + 7, path.find('?') - path.find("/files/") - 7));
                    if (hold) {
                        held.push_back(*send);
                        continue;
                    }
                }
                answer(*send);
            }
            if (!any) return;
        }
    }

    // Answers the oldest held request (the REST client may then send the next).
    void answer_one() {
        ASSERT_FALSE(held.empty());
        const effect::Send send = held.front();
        held.pop_front();
        answer(send);
        settle();
    }

    void apply(const Intent& intent) {
        app->apply(intent, now);
        settle();
    }
    void on_screen(std::vector<std::string> ids) { apply(intent::PreviewsOnScreen{"2100", std::move(ids)}); }
    void loaded(const std::string& id, bool ok, bool freed, int width, int height) {
        app->preview_loaded(id, ok, freed, width, height, now);
        settle();
    }
    void shown(const std::string& id) { loaded(id, true, false, 4, 2); }
    void freed(const std::string& id) { loaded(id, false, true, 0, 0); }

    nlohmann::json previews() const {
        return nlohmann::json::parse(page_state_json(*app, now))["previews"];
    }
};

TEST(AppFilePreview, OnlyPreviewsOnScreenAreAskedForAndTheBrowserGetsTheUrl) {
    PreviewHarness h;
    EXPECT_TRUE(h.asked.empty()) << "nothing before a preview is on screen";
    h.on_screen({"9100"});
    ASSERT_EQ(h.asked, std::vector<std::string>{"9100"});
    ASSERT_EQ(h.loads.size(), 1u);
    EXPECT_EQ(h.loads[0].file_id, "9100");
    EXPECT_EQ(h.loads[0].url, "https://127.0.0.1:8444/downloads/9100?expires=1&signature=ab");
    auto p = h.previews();
    EXPECT_EQ(p["9100"]["state"], "loading");
    EXPECT_EQ(p["9100"]["asked"], 1);
    EXPECT_EQ(p["9100"]["room_id"], "2100");
    EXPECT_FALSE(p.contains("9101")) << "a file never on screen is not asked for";
    h.on_screen({"9100", "x9", "0123", "1234567890123456"});
    EXPECT_EQ(h.previews().size(), 1u) << "only resource ids the platform can carry";
    h.shown("9100");
    p = h.previews();
    EXPECT_EQ(p["9100"]["state"], "shown");
    EXPECT_EQ(p["9100"]["width"], 4);
    EXPECT_EQ(p["9100"]["height"], 2);
}

TEST(AppFilePreview, AScreenfulGoesOneRequestAtATimeTopFirst) {
    PreviewHarness h;
    h.hold = true;
    std::vector<std::string> ids;
    for (int i = 0; i < 100; ++i) ids.push_back(std::to_string(9100 + i));
    h.on_screen(ids);
    h.on_screen(ids);  // drawn again (a scroll of a pixel): the same set
    ASSERT_EQ(h.asked.size(), 1u) << "never a burst of calls for a screenful of images";
    EXPECT_EQ(h.asked[0], "9100");
    h.answer_one();
    ASSERT_EQ(h.asked.size(), 2u);
    EXPECT_EQ(h.asked[1], "9101");
    EXPECT_EQ(h.loads.size(), 1u);
    // Scrolled on: the rest of the old screen is not asked for.
    h.on_screen({"9300"});
    h.answer_one();
    EXPECT_EQ(h.asked.back(), "9300");
    h.answer_one();
    EXPECT_EQ(h.asked.size(), 3u);
    EXPECT_TRUE(h.held.empty());
}

TEST(AppFilePreview, OncePerFileWhileItsTextureIsKept) {
    PreviewHarness h;
    h.on_screen({"9100"});
    h.shown("9100");
    h.on_screen({});
    h.now += Seconds(600);  // its URL long expired
    h.on_screen({"9100"});
    h.on_screen({"9100"});
    EXPECT_EQ(h.asked.size(), 1u);
    EXPECT_EQ(h.loads.size(), 1u);
    EXPECT_EQ(h.previews()["9100"]["asked"], 1);
}

TEST(AppFilePreview, AFreedTextureReusesALiveUrlAndAsksAgainOnlyWhenItExpired) {
    PreviewHarness h;
    h.on_screen({"9100"});
    h.shown("9100");
    h.on_screen({});
    h.freed("9100");
    h.now += Seconds(5);
    h.on_screen({"9100"});
    EXPECT_EQ(h.asked.size(), 1u) << "the URL still lives";
    EXPECT_EQ(h.loads.size(), 2u);
    h.shown("9100");
    h.on_screen({});
    h.freed("9100");
    h.now += kPreviewUrlLifetime;
    h.on_screen({"9100"});
    EXPECT_EQ(h.asked.size(), 2u) << "an expired URL is asked for again";
    EXPECT_EQ(h.loads.size(), 3u);
}

TEST(AppFilePreview, AHiddenTabAsksNothingUntilShown) {
    PreviewHarness h;
    h.apply(intent::SetPageVisible{false});
    h.on_screen({"9100", "9101"});
    EXPECT_TRUE(h.asked.empty());
    h.apply(intent::SetPageVisible{true});
    EXPECT_EQ(h.asked, (std::vector<std::string>{"9100", "9101"}));
}

TEST(AppFilePreview, ALowRateBudgetIsLeftToTheUser) {
    PreviewHarness h;
    h.remaining = "50";  // under a quarter of 300
    h.apply(intent::ReloadAccount{});
    h.on_screen({"9100"});
    EXPECT_TRUE(h.asked.empty());
    EXPECT_EQ(h.previews()["9100"]["state"], "");
}

TEST(AppFilePreview, PreviewsWaitingForTheBudgetResumeWhenItComesBackWithNothingElseHappening) {
    PreviewHarness h;
    EXPECT_FALSE(h.app->previews().wake_at()) << "no timer while no preview waits";
    h.remaining = "50";  // under a quarter of 300, until the window's end (x-ratelimit-reset 1700000300)
    h.apply(intent::ReloadAccount{});
    h.on_screen({"9100"});
    ASSERT_TRUE(h.asked.empty());
    const auto wake = h.app->next_wake_at(h.now);
    ASSERT_TRUE(wake) << "a preview waits: the app wakes when the budget is back";
    const Instant reset = instant_from_unix_seconds(1'700'000'300);
    EXPECT_GT(*wake, h.now);
    EXPECT_LE(*wake, reset + Seconds(1)) << "at the service's window end (plus the pacing's margin), not later";
    h.now = reset - Seconds(1);
    h.app->tick(h.now);
    h.settle();
    EXPECT_TRUE(h.asked.empty()) << "the old window still holds the budget";
    h.remaining = "290";
    ASSERT_TRUE(h.app->previews().wake_at());
    h.now = *h.app->previews().wake_at();
    h.app->tick(h.now);  // no intent, no change on screen: the timer alone
    h.settle();
    EXPECT_EQ(h.asked, std::vector<std::string>{"9100"});
    h.shown("9100");
    EXPECT_FALSE(h.app->previews().wake_at()) << "nothing waits any more: no timer";
}

TEST(AppFilePreview, NearTheTextureCapOneOnScreenIsNeverFreedForOneOffScreen) {
    const long mib = 1024L * 1024;
    // Came in this order: 1 and 2 near but off screen, 3 and 4 on screen, 5 far away.
    const std::vector<KeptImage> kept = {{"1", 8 * mib}, {"2", 8 * mib}, {"3", 8 * mib}, {"4", 8 * mib}, {"5", mib}};
    const std::vector<std::string> near = {"1", "2", "3", "4"}, on_screen = {"3", "4"};
    const std::vector<std::string> gone = images_to_free(kept, near, on_screen, 24 * mib);
    EXPECT_EQ(gone, (std::vector<std::string>{"5", "2"})) << "the far one, then near ones off screen until under the cap";
    // Under the cap, near ones stay; only the far one goes.
    EXPECT_EQ(images_to_free(kept, near, on_screen, 64 * mib), std::vector<std::string>{"5"});
    // On screen alone past the cap: none of them goes.
    EXPECT_EQ(images_to_free(kept, near, near, 16 * mib), std::vector<std::string>{"5"});
}

TEST(AppFilePreview, AFailedLinkIsNotAskedAgain) {
    PreviewHarness h;
    h.on_screen({"9100"});
    h.loaded("9100", false, false, 0, 0);
    EXPECT_EQ(h.previews()["9100"]["state"], "failed");
    h.on_screen({});
    h.on_screen({"9100"});
    EXPECT_EQ(h.asked.size(), 1u);
}

TEST(AppFilePreview, BehindAFrontWithoutPreviewsNoLinkIsAskedAndThePreviewSaysWhy) {
    std::string config = roomkey::testing::kHandDrivenConfigJson;
    config.insert(config.size() - 1, R"(,"file_previews":false)");  // nginx alone (docs/file_previews.md)
    PreviewHarness h(config);
    h.on_screen({"9100"});
    EXPECT_TRUE(h.asked.empty()) << "no download link is asked for: nothing could fetch it";
    EXPECT_TRUE(h.loads.empty());
    EXPECT_EQ(h.previews()["9100"]["state"], "unavailable") << h.previews().dump();
}

TEST(AppFilePreview, ImagesByExtensionUpToTheSizeLimit) {
    EXPECT_TRUE(is_previewable("photo.PNG", 1000));
    EXPECT_TRUE(is_previewable("a.b.jpeg", -1));
    EXPECT_TRUE(is_previewable("x.webp", kMaxPreviewBytes));
    EXPECT_FALSE(is_previewable("x.webp", kMaxPreviewBytes + 1));
    EXPECT_FALSE(is_previewable("report.pdf", 10));
    EXPECT_FALSE(is_previewable("png", 10));
    EXPECT_FALSE(is_previewable("a.svg", 10)) << "an SVG is a document, not pixels";
    EXPECT_EQ(read_file_size("12.5 KB"), 12800);
    EXPECT_EQ(read_file_size("3 B"), 3);
    EXPECT_EQ(read_file_size("1.5 MB"), 1572864);
    EXPECT_EQ(read_file_size("lots"), -1);
    EXPECT_EQ(read_file_size("3 parsecs"), -1);
}

}  // namespace
}  // namespace file_preview_test
}  // namespace roomkey::app
