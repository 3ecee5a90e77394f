// ui_header.cpp: the header: session badge, notice, error banner.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/format.hpp"
#include "app/scope_help.hpp"
#include "browser_font.hpp"
#include "roomkey/registration.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

void header(const App& app, UiState& ui, Instant now, Intents& out) {
    ImGui::TextColored(kAccent, "roomkey");
    ImGui::SameLine();
    text_dim("| team-chat API client");
    ImGui::SameLine();
    const std::string label = app.session_label();
    ImGui::TextColored(session_colour(label), "[%s]", label.c_str());
    if (const auto& account = app.account().value) {
        ImGui::SameLine();
        ImGui::Text("%s (account %s)", account->name.value_or("").c_str(), account->account_id.c_str());
    }
    // Text size, right-aligned.
    const float width = ImGui::CalcTextSize("Text  A-  A+ ").x + ImGui::GetStyle().FramePadding.x * 4;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - width));
    text_dim("Text");
    ImGui::SameLine();
    ImGui::BeginDisabled(ui.text_size <= 0);
    if (ImGui::SmallButton("A-")) --ui.text_size;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(ui.text_size >= kTextSizeCount - 1);
    if (ImGui::SmallButton("A+")) ++ui.text_size;
    ImGui::EndDisabled();

    if (!app.notice().empty()) text_dim(app.notice());
    // Issue 28: the browser's fonts could not be used (browser_font.hpp);
    // sign-out's clipboard clear waits for a click or key press.
    for (const std::string& warning : {font_notice(), app.clipboard_notice()}) {
        if (warning.empty()) continue;
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped("%s", warning.c_str());
        ImGui::PopStyleColor();
    }
    if (const auto& error = app.last_error()) {
        ImGui::PushStyleColor(ImGuiCol_ChildBg, kErrorBg);
        const float lines = 3.2f + (error->remedy.empty() ? 0.0f : 1.0f);
        ImGui::BeginChild("error", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * lines), true);
        ImGui::TextColored(kBad, "%s%s%s%s", error->title.c_str(), error->code.empty() ? "" : " (", error->code.c_str(),
                           error->code.empty() ? "" : ")");
        ImGui::TextWrapped("%s", error->message.c_str());
        if (!error->remedy.empty()) ImGui::TextWrapped("%s", error->remedy.c_str());
        if (error->offers_try_again) {
            if (primary_button("Try again")) out.push_back(app::intent::TryAgain{});
            ImGui::SameLine();
        }
        if (ImGui::SmallButton("Dismiss")) out.push_back(app::intent::TryAgain{});
        ImGui::EndChild();
        ImGui::PopStyleColor();
    }
    (void)now;
    ImGui::Separator();
}

}  // namespace roomkey::web::parts
