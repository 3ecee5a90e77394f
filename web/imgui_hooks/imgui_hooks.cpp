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

void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, ImGuiID id, const ImRect& bb, const ImGuiLastItemData*) {
    if (hooks().item_add) hooks().item_add(*ctx, bb, id);
}

void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
    if (hooks().item_info) hooks().item_info(*ctx, id, label, flags);
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}

const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) {
    return nullptr;
}
