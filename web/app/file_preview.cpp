// file_preview.cpp: see file_preview.hpp.
#include "app/file_preview.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "app/view_answer.hpp"
#include "app/views_state.hpp"
#include "roomkey/endpoints.hpp"
#include "roomkey/file_upload.hpp"

namespace roomkey::app {

bool is_previewable(std::string_view name, std::int64_t size) {
    if (size > kMaxPreviewBytes) return false;
    const auto dot = name.rfind('.');
    if (dot == std::string_view::npos) return false;
    std::string ext(name.substr(dot + 1));
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* known : {"png", "jpg", "jpeg", "gif", "webp", "bmp"}) {
        if (ext == known) return true;
    }
    return false;
}

void FilePreviews::on_screen(const std::string& room_id, std::vector<std::string> file_ids, Instant now) {
    room_ = room_id;
    shown_.clear();
    for (std::string& id : file_ids) {
        // A resource id the platform carries as a number (15 digits are exact in a double).
        if (!is_resource_id(id) || id.size() > 15) continue;
        previews_[id].room_id = room_id;
        shown_.push_back(std::move(id));
    }
    next(now);
}

void FilePreviews::loaded(const std::string& file_id, bool ok, bool freed, int width, int height, Instant now) {
    auto it = previews_.find(file_id);
    if (it == previews_.end()) return;
    Preview& p = it->second;
    if (freed) {
        p.state.clear();  // loaded again when next on screen
    } else {
        p.state = ok ? "shown" : "failed";
        p.width = width;
        p.height = height;
    }
    next(now);
}

std::vector<effect::LoadImage> FilePreviews::take_loads() {
    std::vector<effect::LoadImage> out;
    out.swap(loads_);
    return out;
}

void FilePreviews::load(const std::string& file_id, Preview& p) {
    p.state = "loading";
    loads_.push_back(effect::LoadImage{file_id, p.url});
}

// One download_url request at a time, for the topmost preview on screen
// that needs one; one whose URL still lives goes to the browser at once.
void FilePreviews::next(Instant now) {
    budget_wait_.reset();
    if (asking_ != 0 || !page_visible_ || !host_.can_send()) return;
    for (const std::string& id : shown_) {
        Preview& p = previews_[id];
        if (p.state.empty() && !served_) p.state = "unavailable";  // no download link is asked for
        if (!p.state.empty()) continue;
        if (p.url_until && now < *p.url_until) {
            load(id, p);
            continue;
        }
        const OverallBudget budget = host_.scheduler().overall(now);
        if (budget.remaining <= budget.limit / kPreviewBudgetReserveDivisor) {
            // Back when the service's window ends (its x-ratelimit-reset), else looked at again.
            const Millis margin = host_.scheduler().config().reset_margin;
            budget_wait_ = budget.from_headers && budget.reset && *budget.reset + margin > now ? *budget.reset + margin
                                                                                             : now + kPreviewBudgetRecheck;
            return;
        }
        Outgoing out;
        out.label = tr("preview.call");
        out.options = view_options();
        out.request = built(api_request(host_.api_config(), HeldByHelper{}, Method::Get,
                                        "/rooms/" + p.room_id + "/files/" + id, {{"create_download_url", "1"}}));
        p.state = "asking";
        ++p.asked;
        asking_file_ = id;
        asking_ = host_.new_tag();
        host_.submit(*this, std::move(out), now, asking_);
        return;
    }
}

void FilePreviews::on_answer(RequestTag tag, const Answer& answer, Instant now) {
    if (tag != asking_) return;
    asking_ = 0;
    Preview& p = previews_[asking_file_];
    std::optional<std::string> url;
    if (answer.response && answer.response->status / 100 == 2) {
        if (auto read = read_download_url(*answer.response)) url = std::move(*read);
    }
    if (url) {
        p.url = std::move(*url);
        p.url_until = now + kPreviewUrlLifetime;
        // Scrolled away meanwhile: kept for when it comes back.
        p.state.clear();
        if (std::find(shown_.begin(), shown_.end(), asking_file_) != shown_.end()) load(asking_file_, p);
    } else {
        p.state = "failed";
    }
    next(now);
}

void FilePreviews::drop_all() {
    asking_ = 0;
    for (auto& [id, p] : previews_) {
        if (p.state == "asking") p.state.clear();
    }
}

void FilePreviews::clear() {
    drop_all();
    previews_.clear();
    shown_.clear();
    loads_.clear();
}

std::vector<std::string> images_to_free(const std::vector<KeptImage>& kept, const std::vector<std::string>& near,
                                        const std::vector<std::string>& on_screen, long cap) {
    const auto has = [](const std::vector<std::string>& ids, const std::string& id) {
        return std::find(ids.begin(), ids.end(), id) != ids.end();
    };
    std::vector<std::string> gone;
    long bytes = 0;
    for (const KeptImage& k : kept) {
        if (!has(near, k.file_id)) {
            gone.push_back(k.file_id);
        } else {
            bytes += k.bytes;
        }
    }
    // Over the cap: the near ones off screen go, the newest first.
    for (auto k = kept.rbegin(); k != kept.rend() && bytes > cap; ++k) {
        if (!has(near, k->file_id) || has(on_screen, k->file_id)) continue;
        gone.push_back(k->file_id);
        bytes -= k->bytes;
    }
    return gone;
}

void add_previews(const FilePreviews& previews, nlohmann::json& state) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [id, p] : previews.previews()) {
        out[id] = object_of({{"room_id", p.room_id},
                             {"state", p.state},
                             {"width", p.width},
                             {"height", p.height},
                             {"asked", p.asked}});
    }
    state["previews"] = std::move(out);
}

}  // namespace roomkey::app
