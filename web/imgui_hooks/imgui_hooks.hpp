// imgui_hooks.hpp: the two places where the app listens to Dear ImGui from
// inside, without patching its sources (compiled into roomkey_imgui, see
// cmake/RoomkeyThirdParty.cmake):
// - the item hooks ImGui calls for every widget when built with
//   IMGUI_ENABLE_TEST_ENGINE (bounding box, label, checkable/checked,
//   openable/opened): the accessibility tree is collected from them, so
//   every view's widgets appear in it without being listed by hand;
// - ImGui's UTF-8 decoder, which every non-ASCII character it measures or
//   draws goes through: the glyph atlas learns which codepoints text needs.
// Both stay off (null) unless the app sets them; the bare bench build never does.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>

namespace roomkey::imgui_hooks {

struct Hooks {
    void (*item_add)(ImGuiContext& g, const ImRect& bb, ImGuiID id) = nullptr;
    void (*item_info)(ImGuiContext& g, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) = nullptr;
    void (*codepoint)(unsigned int codepoint) = nullptr;
};

// The process's hooks (one ImGui context in the app).
Hooks& hooks();

}  // namespace roomkey::imgui_hooks
