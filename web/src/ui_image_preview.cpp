// ui_image_preview.cpp: see ui_image_preview.hpp.
#include "ui_image_preview.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "a11y.hpp"
#include "app/file_preview.hpp"
#include "app/i18n.hpp"
#include "file_images.hpp"
#include "roomkey/file_upload.hpp"
#include "text_layer.hpp"

namespace roomkey::web::parts {

namespace {

struct PreviewsSeen {
    std::vector<std::string> near, on_screen;  // this frame's
    bool measured = true;                      // this frame's conversation was laid out with measured heights
    std::string room;
    std::vector<std::string> reported;  // the last on_screen told to the app
};
PreviewsSeen& previews_seen() {
    static PreviewsSeen s;
    return s;
}

// Words in place of the image, line by line: each line in the page's text
// and the whole an image described by them, for assistive technology.
void cannot_show(const std::string& file_id, float width, const char* key) {
    const char* words = tr(key);
    const char* end = words + std::strlen(words);
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::BeginGroup();
    for (const char* s = words; s < end;) {
        const char* e = std::max(ImGui::GetFont()->CalcWordWrapPositionA(1.0f, s, end, width), s + 1);
        while (e < end && (static_cast<unsigned char>(*e) & 0xC0) == 0x80) ++e;  // whole characters
        ImGui::TextUnformatted(s, e);
        text_layer::item(std::string_view(s, static_cast<std::size_t>(e - s)), text_layer::Run::label);
        for (s = e; s < end && *s == ' ';) ++s;
    }
    ImGui::EndGroup();
    ImGui::PopStyleColor();
    a11y::describe_last_item(("preview:" + file_id).c_str(), words);
}

void preview_box(const app::FilePreviews& previews, const std::string& id, float max_w, float max_h) {
    PreviewsSeen& seen = previews_seen();
    const float font = ImGui::GetFontSize();
    const auto& all = previews.previews();
    const auto found = all.find(id);
    const std::string state = found == all.end() ? std::string() : found->second.state;
    const ImageTexture* t = image_texture(id);
    if (state == "shown" && t && t->width > 0 && t->height > 0) {
        const float w = static_cast<float>(t->width), h = static_cast<float>(t->height);
        const float scale = std::min({max_w / w, max_h / h, 1.0f});
        ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(t->texture)),
                     ImVec2(std::max(1.0f, w * scale), std::max(1.0f, h * scale)));
    } else if (state == "failed" || state == "unavailable") {
        cannot_show(id, max_w, state == "failed" ? "preview.failed" : "preview.unavailable");
    } else {
        // A box of the preview's usual size, so the row hardly moves when the image comes.
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const ImVec2 size(max_w, std::min(max_h, font * 6.0f));
        ImGui::Dummy(size);
        ImDrawList* draw = ImGui::GetWindowDrawList();
        draw->AddRect(at, ImVec2(at.x + size.x, at.y + size.y), ImGui::GetColorU32(kDim));
        draw->AddText(ImVec2(at.x + font * 0.5f, at.y + font * 0.5f), ImGui::GetColorU32(kDim), tr("preview.loading"));
    }
    if (ImGui::IsItemVisible()) seen.on_screen.push_back(id);
}

}  // namespace

void image_preview(const Drawing& d, const notation::Part& part, const std::vector<notation::Part>& parts) {
    const std::string id(d.parts.of(part.file_id));
    const auto file = std::find_if(parts.begin(), parts.end(), [&](const notation::Part& p) {
        return p.kind == notation::PartKind::download && d.parts.of(p.file_id) == id;
    });
    if (file == parts.end() || !app::is_previewable(d.parts.of(file->name), read_file_size(d.parts.of(file->size))))
        return;
    previews_seen().near.push_back(id);  // its row is drawn
    const float font = ImGui::GetFontSize();
    preview_box(*d.previews, id, std::max(font, std::min(ImGui::GetContentRegionAvail().x - font, font * 20.0f)),
                font * 12.0f);
}

void file_preview(const app::FilePreviews& previews, const std::string& file_id, float lines) {
    const float font = ImGui::GetFontSize();
    const float max_h = font * lines;
    // Near: within a window's height of what it shows (the Files tab draws every row).
    const float y = ImGui::GetCursorScreenPos().y;
    const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin();
    const ImVec2 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
    const float reach = clip_max.y - clip_min.y;
    if (y + max_h < clip_min.y - reach || y > clip_max.y + reach) {
        ImGui::Dummy(ImVec2(1.0f, std::min(max_h, font * 6.0f)));  // the placeholder's height: the list holds still
        return;
    }
    previews_seen().near.push_back(file_id);
    preview_box(previews, file_id, std::max(font, std::min(ImGui::GetContentRegionAvail().x - font, font * 16.0f)),
                max_h);
}

void previews_measured(bool measured) {
    previews_seen().measured = measured;
}

void previews_drawn(const std::string& room_id, Intents& out) {
    PreviewsSeen& s = previews_seen();
    keep_images(s.near, s.on_screen);
    if (s.measured && (s.room != room_id || s.reported != s.on_screen)) {
        s.room = room_id;
        s.reported = s.on_screen;
        out.push_back(app::intent::PreviewsOnScreen{room_id, s.on_screen});
    }
    s.near.clear();
    s.on_screen.clear();
    s.measured = true;
}

}  // namespace roomkey::web::parts
