// imgui_hooks.cpp: see imgui_hooks.hpp.
#include "imgui_hooks.hpp"

// imgui.cpp is compiled with ImTextCharFromUtf8 renamed to this name; the
// other ImGui sources call the wrapper below.
int roomkey_imgui_ImTextCharFromUtf8(unsigned int* out_char, const char* in_text, const char* in_text_end);

namespace roomkey::imgui_hooks {

Hooks& hooks() {
    static Hooks instance;
    return instance;
}

}  // namespace roomkey::imgui_hooks

using roomkey::imgui_hooks::hooks;

int ImTextCharFromUtf8(unsigned int* out_char, const char* in_text, const char* in_text_end) {
    const int length = roomkey_imgui_ImTextCharFromUtf8(out_char, in_text, in_text_end);
    if (hooks().codepoint) hooks().codepoint(*out_char);
    return length;
}

namespace {

// ImGui 1.89+ also registers each window, child windows included, as an
// item (no item data, then its name as the label): not a widget, and kept
// out of the hooks, or every pane would be a button in the accessibility
// tree, and a child window drawn inside a list one of its items.
ImGuiID g_window_item = 0;

}  // namespace

void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, ImGuiID id, const ImRect& bb, const ImGuiLastItemData* item_data) {
    g_window_item = item_data ? 0 : id;
    if (!item_data) return;
    if (hooks().item_add) hooks().item_add(*ctx, bb, id);
}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
    if (id == g_window_item) {
        g_window_item = 0;
        return;
    }
    if (hooks().item_info) hooks().item_info(*ctx, id, label, flags);
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}

const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) {
    return nullptr;
}
