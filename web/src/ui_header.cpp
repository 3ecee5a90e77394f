// ui_header.cpp: the header: session badge, notice, error banner.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/format.hpp"
#include "app/i18n.hpp"
#include "app/scope_help.hpp"
#include "browser_font.hpp"
#include "roomkey/registration.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

// A slim bar: the name, the session, then on the right the view
// switch (`developer`), notifications and sign-out in the workspace, and the
// text size. What does not fit beside the name goes to a line of its own,
// so nothing overlaps at 360 px.
void header(const App& app, UiState& ui, Instant now, Intents& out) {
    const bool developer = app.workspace().view() == app::View::developer;
    const bool signed_in = app.holder() != CredentialHolder::none;
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(kAccent, "roomkey");
    ImGui::SameLine();
    const std::string label = app.session_shown().session_label();
    ImGui::TextColored(session_colour(label), "[%s]", label.c_str());
    const ImGuiStyle& style = ImGui::GetStyle();
    const char* view_label = developer ? tr("header.workspace") : tr("header.developer");
    const char* notify_label =
        app.workspace().notifications_enabled() ? tr("header.notifications_on") : tr("header.notifications_off");
    // The switch names the other language in its own words.
    const bool japanese = app::i18n::language() == app::i18n::Lang::ja;
    const char* language_label = japanese ? tr("language.en") : tr("language.ja");
    const bool workspace_controls = !developer && signed_in;
    auto button_width = [&](const char* text) { return ImGui::CalcTextSize(text).x + style.FramePadding.x * 2; };
    float right = button_width(view_label) + ImGui::CalcTextSize(tr("header.text")).x + button_width("A-") +
                  button_width("A+") + button_width(language_label) + style.ItemSpacing.x * 5;
    if (workspace_controls) {
        right += button_width(notify_label) + button_width(tr("header.sign_out")) + style.ItemSpacing.x * 2;
    }
    const float line_end = ImGui::GetWindowContentRegionMax().x;
    if (const auto& account = app.dashboard().account().value) {
        const std::string who = account->name.value_or(account->account_id);
        ImGui::SameLine();
        if (ImGui::GetCursorPosX() + ImGui::CalcTextSize(who.c_str()).x <= line_end) ImGui::Text("%s", who.c_str());
    }
    // Right-aligned on the name's line when all of it fits there; otherwise
    // the controls flow onto lines of their own (a phone's width).
    ImGui::SameLine();
    if (ImGui::GetCursorPosX() + right <= line_end) {
        ImGui::SameLine(line_end - right);
    } else {
        ImGui::NewLine();
    }
    if (ImGui::SmallButton(view_label) || (ImGui::IsKeyPressed(ImGuiKey_F2, false) && !ImGui::GetIO().WantTextInput)) {
        out.push_back(app::intent::ShowView{!developer});
    }
    note_widget(ui, "developer");
    if (workspace_controls) {
        if (ImGui::SmallButton(beside(notify_label))) {
            out.push_back(app::intent::SetNotifications{!app.workspace().notifications_enabled()});
        }
        note_widget(ui, "notifications");
        if (ImGui::SmallButton(beside(tr("header.sign_out")))) out.push_back(app::intent::SignOut{});
        note_widget(ui, "sign_out");
    }
    beside((std::string(tr("header.text")) + " A- A+ " + language_label).c_str());
    text_dim(tr("header.text"));
    ImGui::SameLine();
    ImGui::BeginDisabled(ui.text_size <= 0);
    if (ImGui::SmallButton("A-")) --ui.text_size;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(ui.text_size >= kTextSizeCount - 1);
    if (ImGui::SmallButton("A+")) ++ui.text_size;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::SmallButton((std::string(language_label) + "##language").c_str())) {
        out.push_back(app::intent::SetLanguage{japanese ? app::i18n::Lang::en : app::i18n::Lang::ja});
    }
    note_widget(ui, "language");
    // Signing out with posts still open asks first, wherever it was asked.
    if (workspace_controls && app.sign_out_confirm()) {
        ImGui::TextColored(kWarn, "%s", tr_n("header.sign_out_confirm", *app.sign_out_confirm()).c_str());
        if (ImGui::SmallButton(tr("header.sign_out_discard"))) out.push_back(app::intent::SignOut{true});
        ImGui::SameLine();
        if (ImGui::SmallButton(tr("header.stay_signed_in"))) out.push_back(app::intent::CancelSignOut{});
    }
    // A destructive call asked from the conversation (a delete) waits here.
    if (!developer && app.api_console().console().pending()) {
        const std::string call = std::string(to_string(app.api_console().console().pending()->method)) + " " +
                                 app.api_console().console().pending()->path;
        ImGui::TextColored(kWarn, "%s", tr("header.cannot_undo", {{"call", call}}).c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton((std::string(tr("common.confirm")) + "##pending").c_str())) {
            out.push_back(app::intent::ConfirmConsoleCall{});
        }
        ImGui::SameLine();
        if (ImGui::SmallButton((std::string(tr("common.cancel")) + "##pending").c_str())) {
            out.push_back(app::intent::CancelConsoleCall{});
        }
    }

    if (!app.notice().empty()) text_dim(app.notice());
    // The browser's fonts could not be used (browser_font.hpp);
    // sign-out's clipboard clear waits for a click or key press.
    for (const std::string& warning : {font_notice(), app.clipboard_notice()}) {
        if (warning.empty()) continue;
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped("%s", warning.c_str());
        ImGui::PopStyleColor();
    }
    if (const auto& error = app.last_error()) {
        ImGui::PushStyleColor(ImGuiCol_ChildBg, kErrorBg);
        // As tall as what it says, however the message and remedy wrap.
        ImGui::BeginChild("error", ImVec2(0, 0), ImGuiChildFlags_Border | ImGuiChildFlags_AutoResizeY);
        ImGui::TextColored(kBad, "%s%s%s%s", error->title.c_str(), error->code.empty() ? "" : " (", error->code.c_str(),
                           error->code.empty() ? "" : ")");
        ImGui::TextWrapped("%s", error->message.c_str());
        if (!error->remedy.empty()) ImGui::TextWrapped("%s", error->remedy.c_str());
        if (error->offers_try_again) {
            if (primary_button(tr("common.try_again"))) out.push_back(app::intent::TryAgain{});
            ImGui::SameLine();
        }
        if (ImGui::SmallButton(tr("common.dismiss"))) out.push_back(app::intent::TryAgain{});
        ImGui::EndChild();
        ImGui::PopStyleColor();
    }
    (void)now;
    ImGui::Separator();
}

}  // namespace roomkey::web::parts
