// ui_http_log.cpp: the HTTP log: exchanges, reveal, copy as curl.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/format.hpp"
#include "app/scope_help.hpp"
#include "gesture_copy.hpp"
#include "roomkey/registration.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

void header_lines(const std::vector<std::pair<std::string, std::string>>& headers) {
    for (const auto& [name, value] : headers) {
        ImGui::TextColored(kDim, "%s:", name.c_str());
        ImGui::SameLine();
        ImGui::TextWrapped("%s", value.c_str());
    }
}

}  // namespace

void log_panel(const App& app, UiState& ui, Intents& out) {
    if (!ImGui::CollapsingHeader("HTTP log", ImGuiTreeNodeFlags_DefaultOpen)) return;
    bool reveal = app.reveal();
    if (ImGui::Checkbox("Reveal secrets on screen", &reveal)) out.push_back(app::intent::SetReveal{reveal});
    note_widget(ui, "reveal");
    help_marker(
        "Tokens, codes, verifiers and secrets are masked. Revealing shows them on this screen only; "
        "they are never stored, and sign-out erases them from the log.");
    ImGui::SameLine();
    if (ImGui::SmallButton("Clear")) {
        out.push_back(app::intent::ClearLog{});
        ui.selected_log = 0;
    }
    const auto& entries = app.log().entries();
    if (entries.empty()) {
        text_dim("Every request and answer appears here.");
        return;
    }
    ImGui::BeginChild("log_list", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 8.5f), ImGuiChildFlags_Border);
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        const std::string title = app::entry_title(*it) + "##" + std::to_string(it->id);
        ImVec4 colour = ImGui::GetStyleColorVec4(ImGuiCol_Text);
        if (it->response && it->response->status >= 400) colour = kBad;
        if (!it->transport_error.empty()) colour = kBad;
        ImGui::PushStyleColor(ImGuiCol_Text, colour);
        if (ImGui::Selectable(title.c_str(), ui.selected_log == it->id)) ui.selected_log = it->id;
        ImGui::PopStyleColor();
        if (it == entries.rbegin()) note_widget(ui, "log_latest");
    }
    ImGui::EndChild();
    const app::LogEntry* entry = app.log().find(ui.selected_log);
    if (!entry) {
        text_dim("Select an exchange to see its headers and body.");
        return;
    }
    const app::RenderedExchange shown = app::render(*entry, app.redaction(), app.reveal());
    if (ImGui::Button(app.reveal() ? "Copy as curl (REVEALED)" : "Copy as curl (masked)")) {
        // The user's own click: the one way a revealed copy can be made.
        out.push_back(app::intent::CopyCurl{entry->id, true});
    }
    // Written in the click's own handler, where every engine allows it (gesture_copy.hpp).
    if (const auto curl = app.curl_text(entry->id, true)) gesture_copy::arm_last_item(*curl);
    note_widget(ui, "copy_curl");
    ImGui::BeginChild("log_detail", ImVec2(0, 0), ImGuiChildFlags_Border);
    ImGui::TextColored(kAccent, "%s", shown.request_line.c_str());
    // A flow step's parameters, decoded.
    for (const std::string& parameter : shown.parameters) ImGui::TextWrapped("  %s", parameter.c_str());
    header_lines(shown.request_headers);
    if (!shown.request_body.empty()) ImGui::TextWrapped("%s", shown.request_body.c_str());
    ImGui::Separator();
    ImGui::TextColored(kAccent, "status %s", shown.status_line.c_str());
    header_lines(shown.response_headers);
    if (!shown.response_body.empty()) ImGui::TextWrapped("%s", shown.response_body.c_str());
    ImGui::EndChild();
}

}  // namespace roomkey::web::parts
