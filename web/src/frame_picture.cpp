// frame_picture.cpp: see frame_picture.hpp.
#include "frame_picture.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>
#include <cstdint>
#include <cstring>

namespace roomkey::web {

namespace {

// FNV-1a over 8-byte words: a few hundred KB of vertices per frame, and only
// on frames that are drawn anyway. Not cryptographic: it tells "the same
// picture as last frame" from "a different one".
class Digest {
public:
    void add(const void* data, std::size_t size) {
        const auto* bytes = static_cast<const unsigned char*>(data);
        std::size_t i = 0;
        for (; i + 8 <= size; i += 8) {
            std::uint64_t word = 0;
            std::memcpy(&word, bytes + i, 8);
            mix(word);
        }
        std::uint64_t tail = 0;
        if (i < size) std::memcpy(&tail, bytes + i, size - i);
        mix(tail ^ (static_cast<std::uint64_t>(size) << 56));
    }
    template <typename T>
    void add_value(const T& value) {
        add(&value, sizeof value);
    }
    std::uint64_t value() const { return hash_; }

private:
    void mix(std::uint64_t word) {
        hash_ ^= word;
        hash_ *= 0x100000001b3ULL;
    }
    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// ImGui changes some pictures over the next frame without any input: a new
// window or popup is hidden for one frame while it measures itself, auto-fit
// runs over two frames, a scroll request and a keyboard-navigation move are
// applied at the next NewFrame(), and its input queue gives events it
// trickles (a quick tap's release, text behind a key press) to later frames.
bool imgui_settling() {
    const ImGuiContext& g = *GImGui;
    if (g.NavAnyRequest || g.NavMoveSubmitted || g.NavNextActivateId != 0 || !g.InputEventsQueue.empty()) return true;
    for (const ImGuiWindow* window : g.Windows) {
        if (!window->Active) continue;
        if (window->HiddenFramesCannotSkipItems > 0 || window->AutoFitFramesX > 0 || window->AutoFitFramesY > 0 ||
            window->ScrollTarget.x != FLT_MAX || window->ScrollTarget.y != FLT_MAX) {
            return true;
        }
    }
    return false;
}

}  // namespace

app::FramePicture frame_picture(const ImDrawData& draw_data, const std::string& widgets) {
    Digest digest;
    digest.add_value(draw_data.DisplaySize);
    for (int n = 0; n < draw_data.CmdListsCount; ++n) {
        const ImDrawList& list = *draw_data.CmdLists[n];
        digest.add(list.VtxBuffer.Data, static_cast<std::size_t>(list.VtxBuffer.size_in_bytes()));
        digest.add(list.IdxBuffer.Data, static_cast<std::size_t>(list.IdxBuffer.size_in_bytes()));
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            digest.add_value(cmd.ClipRect);
            digest.add_value(cmd.TextureId);
            digest.add_value(cmd.ElemCount);
        }
    }
    digest.add(widgets.data(), widgets.size());

    app::FramePicture picture;
    picture.digest = digest.value();
    picture.settling = imgui_settling();
    const ImGuiIO& io = ImGui::GetIO();
    for (bool down : io.MouseDown) picture.held = picture.held || down;
    return picture;
}

}  // namespace roomkey::web
