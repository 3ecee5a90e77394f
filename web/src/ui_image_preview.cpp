// ui_image_preview.cpp: see ui_image_preview.hpp.
#include "ui_image_preview.hpp"

#include <algorithm>
#include <cstdint>

#include "app/file_preview.hpp"
#include "roomkey/file_upload.hpp"
#include "app/i18n.hpp"
#include "file_images.hpp"

namespace roomkey::web::parts {

namespace {

struct PreviewsSeen {
    std::vector<std::string> near, on_screen;  // this frame's
    std::string room;
    std::vector<std::string> reported;  // the last on_screen told to the app
};
PreviewsSeen& previews_seen() {
    static PreviewsSeen s;
    return s;
}

}  // namespace

void image_preview(const Drawing& d, const notation::Part& part, const std::vector<notation::Part>& parts) {
    const std::string id(d.parts.of(part.file_id));
    const auto file = std::find_if(parts.begin(), parts.end(), [&](const notation::Part& p) {
        return p.kind == notation::PartKind::download && d.parts.of(p.file_id) == id;
    });
    if (file == parts.end() || !app::is_previewable(d.parts.of(file->name), read_file_size(d.parts.of(file->size))))
        return;
    previews_seen().near.push_back(id);
    const float font = ImGui::GetFontSize();
    const float max_w = std::max(font, std::min(ImGui::GetContentRegionAvail().x - font, font * 20.0f));
    const float max_h = font * 12.0f;
    const auto& all = d.previews->previews();
    const auto found = all.find(id);
    const std::string state = found == all.end() ? std::string() : found->second.state;
    const ImageTexture* t = image_texture(id);
    if (state == "shown" && t && t->width > 0 && t->height > 0) {
        const float w = static_cast<float>(t->width), h = static_cast<float>(t->height);
        const float scale = std::min({max_w / w, max_h / h, 1.0f});
        ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(t->texture)),
                     ImVec2(std::max(1.0f, w * scale), std::max(1.0f, h * scale)));
    } else if (state == "failed" || state == "unavailable") {
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + max_w);
        ImGui::TextUnformatted(tr(state == "failed" ? "preview.failed" : "preview.unavailable"));
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    } else {
        // A box of the preview's usual size, so the row hardly moves when the image comes.
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const ImVec2 size(max_w, font * 6.0f);
        ImGui::Dummy(size);
        ImDrawList* draw = ImGui::GetWindowDrawList();
        draw->AddRect(at, ImVec2(at.x + size.x, at.y + size.y), ImGui::GetColorU32(kDim));
        draw->AddText(ImVec2(at.x + font * 0.5f, at.y + font * 0.5f), ImGui::GetColorU32(kDim), tr("preview.loading"));
    }
    if (ImGui::IsItemVisible()) previews_seen().on_screen.push_back(id);
}

void previews_drawn(const std::string& room_id, bool measured, Intents& out) {
    PreviewsSeen& s = previews_seen();
    keep_images(s.near);
    if (measured && (s.room != room_id || s.reported != s.on_screen)) {
        s.room = room_id;
        s.reported = s.on_screen;
        out.push_back(app::intent::PreviewsOnScreen{room_id, s.on_screen});
    }
    s.near.clear();
    s.on_screen.clear();
}

}  // namespace roomkey::web::parts
