// file_preview.hpp: image previews in the conversation. Which file is an
// image worth a preview (is_previewable), and when its download_url is asked
// for (GET /rooms/{room_id}/files/{file_id}?create_download_url=1): only for
// previews on screen, only while the tab is shown, one request at a time
// through the REST client's pacing, not while the rate budget runs low, and
// once per file: the URL is kept while it lives (kPreviewUrlLifetime) and
// asked again only when the browser must fetch the image again (its
// texture was freed). The platform fetches and decodes the image
// (effect::LoadImage, App::take_image_loads; web/src/file_images.cpp) and
// answers with App::preview_loaded. Pure C++, tested natively (tests/unit/app_file_preview_test.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "app/effects.hpp"
#include "app/feature.hpp"
#include "roomkey/public_config.hpp"

namespace roomkey::app {

// The service's download_url lives 30 s (RAML: create_download_url); one is
// trusted for 20 s after its answer, so the browser's fetch starts well inside.
inline constexpr Millis kPreviewUrlLifetime = Seconds(20);
// Previews leave this share of the overall rate budget (spec 8.1) to what the user does.
inline constexpr long kPreviewBudgetReserveDivisor = 4;
// Waiting for the budget with no window's end known (the count is our own,
// a sliding window): looked at again this often.
inline constexpr Millis kPreviewBudgetRecheck = Seconds(5);

// Whether a file named `name` of `size` bytes (-1: unknown) gets a preview:
// .png .jpg .jpeg .gif .webp .bmp (any case), at most kMaxPreviewBytes.
bool is_previewable(std::string_view name, std::int64_t size);

struct Preview {
    std::string room_id;
    // "" (not asked), "asking" (its download_url), "loading" (the browser
    // fetches and decodes), "shown", "failed", "unavailable" (the front
    // serves no previews: nginx alone, docs/file_previews.md).
    std::string state;
    std::string url;  // the last download_url (not in the page API)
    std::optional<Instant> url_until;
    int width = 0;
    int height = 0;
    long asked = 0;  // download_url requests made for it
};

class FilePreviews final : public Feature {
public:
    FilePreviews(FeatureHost& host, const bool& page_visible) : host_(host), page_visible_(page_visible) {}

    // The previews the conversation draws now in `room_id`, top first.
    void on_screen(const std::string& room_id, std::vector<std::string> file_ids, Instant now);
    // The platform's answer to a LoadImage (`ok` with the image's size), or
    // its texture freed (`freed`): loaded again when next on screen.
    void loaded(const std::string& file_id, bool ok, bool freed, int width, int height, Instant now);
    // The tab shown again, or the budget back: what waits goes on.
    void resume(Instant now) { next(now); }
    // Whether the front serves previews (PublicConfig::file_previews).
    void set_served(bool served) { served_ = served; }
    // While a preview on screen waits for the rate budget: when to look
    // again (App::tick resumes then); nothing while none waits.
    std::optional<Instant> wake_at() const { return budget_wait_; }
    std::vector<effect::LoadImage> take_loads();

    const std::map<std::string, Preview>& previews() const { return previews_; }
    void drop_all();
    void clear();

    void on_answer(RequestTag tag, const Answer& answer, Instant now) override;

private:
    void next(Instant now);
    void load(const std::string& file_id, Preview& p);

    FeatureHost& host_;
    const bool& page_visible_;
    std::map<std::string, Preview> previews_;
    std::string room_;
    std::vector<std::string> shown_;  // on screen, top first
    RequestTag asking_ = 0;
    std::string asking_file_;
    std::vector<effect::LoadImage> loads_;
    bool served_ = true;
    std::optional<Instant> budget_wait_;
};

// A texture the browser keeps for a preview: its file and its size in bytes.
struct KeptImage {
    std::string file_id;
    long bytes = 0;
};
// Which of the `kept` textures (in the order they came) go: every one not
// `near` the screen (its row not drawn), and while those left pass `cap`
// bytes, the near ones off screen, newest first; one `on_screen` never goes
// for one that is not.
std::vector<std::string> images_to_free(const std::vector<KeptImage>& kept, const std::vector<std::string>& near,
                                        const std::vector<std::string>& on_screen, long cap);

// The page API's `previews`: {file_id: {room_id, state, width, height, asked}}.
void add_previews(const FilePreviews& previews, nlohmann::json& state);

}  // namespace roomkey::app
