// ui.cpp: the ImGui windows.
#include "ui.hpp"

#include <imgui.h>

namespace roomkey::web {

UiIntents draw_ui(const UiView& view) {
    UiIntents intents;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("roomkey", nullptr,
                 ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings);
    ImGui::TextUnformatted("roomkey: sign in to the team-chat API from the browser");
    ImGui::Separator();
    ImGui::Text("Session: %s", view.status_line.c_str());
    ImGui::Spacing();
    ImGui::TextUnformatted("PKCE S256 challenge (made in wasm by shared/):");
    ImGui::TextWrapped("%s", view.pkce_challenge.c_str());
    if (ImGui::Button("New PKCE pair")) intents.make_new_pkce = true;
    ImGui::End();
    return intents;
}

}  // namespace roomkey::web
