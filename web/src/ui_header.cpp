// ui_header.cpp: the header: session badge, notice, error banner.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "a11y.hpp"
#include "app/dialog.hpp"
#include "app/format.hpp"
#include "app/i18n.hpp"
#include "app/scope_help.hpp"
#include "browser_font.hpp"
#include "input_queue.hpp"
#include "roomkey/registration.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

// A question before what cannot be undone (app/dialog.hpp), over the page:
// nothing beneath it moves. Escape is "no".
void question_dialog(const App& app, UiState& ui, Intents& out) {
    const std::optional<app::Question> q = app::open_question(app);
    constexpr const char* kId = "###question";
    if (q && !ImGui::IsPopupOpen(kId)) ImGui::OpenPopup(kId);
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.4f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    // Its width fixed, its height fitted to the text: a size of 0 set each
    // frame restarted ImGui's two-frame auto-fit every frame, so the page
    // drew continuously while the question was up.
    const float width = std::min(display.x - 16.0f, ImGui::GetFontSize() * 26.0f);
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, FLT_MAX));
    const std::string title = (q ? q->title : std::string()) + kId;
    const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_AlwaysAutoResize;
    if (!ImGui::BeginPopupModal(title.c_str(), nullptr, fixed)) return;
    if (!q) {
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    a11y::begin_dialog(q->title);  // named by its title, its buttons inside
    const bool sign_out = !app.api_console().console().pending();
    if (!q->quote.empty()) ImGui::TextWrapped("%s", q->quote.c_str());
    ImGui::TextWrapped("%s", q->detail.c_str());
    ImGui::Spacing();
    using app::Intent;
    if (primary_button(q->yes.c_str())) {
        out.push_back(sign_out ? Intent{app::intent::SignOut{true}} : Intent{app::intent::ConfirmConsoleCall{}});
    }
    note_widget(ui, "dialog_yes");
    ImGui::SameLine();
    if (ImGui::Button(q->no.c_str()) || ImGui::IsKeyPressed(ImGuiKey_Escape, false)) {
        out.push_back(sign_out ? Intent{app::intent::CancelSignOut{}} : Intent{app::intent::CancelConsoleCall{}});
    }
    note_widget(ui, "dialog_no");
    note_window(ui, "dialog");
    a11y::end_dialog();
    ImGui::EndPopup();
}

// A finger's pointer (coarse): controls at least 44 CSS px tall, as touch
// guidelines ask: buttons, fields and tap_button grow. (Not TouchExtraPadding:
// it widened child windows' hover too, and a pane's edge took taps meant for
// the button above it.)
void finger_sized(const UiState& ui) {
    ImGuiStyle& style = ImGui::GetStyle();
    const float css = ImGui::GetFontSize() / kTextSizes[ui.text_size];
    const float spare = std::max(0.0f, (44.0f * css - ImGui::GetFontSize()) * 0.5f);
    style.FramePadding.y = std::max(style.FramePadding.y, spare);
}

// The settings (app/settings.hpp), kept for this browser.
void settings_items(const App& app, Intents& out) {
    const app::Settings& settings = app.workspace().settings();
    send_key_choice(settings, out);  // ui_composer.cpp
    bool mark = settings.mark_read_on_view();
    if (ImGui::Checkbox(tr("settings.mark_read_on_view"), &mark)) {
        out.push_back(app::intent::SetSetting{"mark_read_on_view", mark ? "true" : "false"});
    }
}

void header_rest(const App& app, UiState& ui, Intents& out, bool developer, bool signed_in);

}  // namespace

// One slim line: the name, the session, then on the right the view switch
// (`developer`), notifications and sign-out in the workspace, the text size
// and the settings. When they do not fit beside the name (a phone), they are
// in a menu at the line's end, on the same line while the session's words
// leave room for them (signed out or in, in English, at 360 px), else on a
// second line of their own.
void header(const App& app, UiState& ui, Instant, Intents& out) {
    set_touch(ui.touch);
    if (ui.touch) finger_sized(ui);
    const bool developer = app.workspace().view() == app::View::developer;
    const bool signed_in = app.holder() != CredentialHolder::none;
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(kAccent, "roomkey");
    ImGui::SameLine();
    const std::string label = app.session_shown().session_label();
    // The label is the page API's value; its words are the catalog's.
    ImGui::TextColored(session_colour(label), "[%s]", session_words(label));
    note_widget(ui, "session");
    const ImGuiStyle& style = ImGui::GetStyle();
    // A touch screen has no F2 key: its label names no key.
    const char* view_label = developer ? tr(ui.touch ? "header.workspace_touch" : "header.workspace")
                                       : tr(ui.touch ? "header.developer_touch" : "header.developer");
    const char* notify_label =
        app.workspace().notifications_enabled() ? tr("header.notifications_on") : tr("header.notifications_off");
    // The switch names the other language in its own words.
    const bool japanese = app::i18n::language() == app::i18n::Lang::ja;
    const char* language_label = japanese ? tr("language.en") : tr("language.ja");
    const char* menu_label = tr("header.menu");
    const char* settings_label = tr("header.settings");
    const char* sign_out_label = tr("header.sign_out");
    const bool workspace_controls = !developer && signed_in;
    auto button_width = [&](const char* text) { return ImGui::CalcTextSize(text).x + style.FramePadding.x * 2; };
    float right = button_width(view_label) + ImGui::CalcTextSize(tr("header.text")).x + button_width("A-") +
                  button_width("A+") + button_width(language_label) + button_width(settings_label) +
                  style.ItemSpacing.x * 6;
    if (workspace_controls) right += button_width(notify_label) + button_width(sign_out_label) + style.ItemSpacing.x * 2;
    const float line_end = ImGui::GetWindowContentRegionMax().x;
    // A phone's width: one line, the controls in a menu at its end.
    ImGui::SameLine();
    const bool in_menu = ImGui::GetCursorPosX() + right > line_end;
    // In the menu's place: the view switch (the developer view stays one click away), then Menu.
    const float menu_right = button_width(view_label) + style.ItemSpacing.x + button_width(menu_label);
    // When even those do not fit beside the session's words (a long
    // language at a phone's width), they go on a line of their own under
    // it, at its end: no word is cut and nothing overlaps.
    const bool own_line = in_menu && ImGui::GetCursorPosX() + menu_right > line_end;
    if (const auto& account = app.dashboard().account().value; account && !own_line) {
        const std::string who = account->name.value_or(account->account_id);
        const float room = line_end - (in_menu ? menu_right + style.ItemSpacing.x : right);
        if (ImGui::GetCursorPosX() + ImGui::CalcTextSize(who.c_str()).x <= room) ImGui::Text("%s", who.c_str());
    }
    if (ImGui::IsKeyPressed(ImGuiKey_F2, false) && !ImGui::GetIO().WantTextInput) {
        out.push_back(app::intent::ShowView{!developer});
    }
    if (own_line) {
        ImGui::NewLine();
        ImGui::SetCursorPosX(line_end - menu_right);
    } else {
        ImGui::SameLine(line_end - (in_menu ? menu_right : right));
    }
    if (tap_button(view_label)) out.push_back(app::intent::ShowView{!developer});
    note_widget(ui, "developer");
    if (in_menu) {
        ImGui::SameLine();
        if (tap_button((std::string(menu_label) + "##menu").c_str())) ImGui::OpenPopup("header_menu");
        note_widget(ui, "menu");
        if (!ImGui::BeginPopup("header_menu")) return header_rest(app, ui, out, developer, signed_in);
    }
    if (workspace_controls) {
        if (tap_button(in_menu ? notify_label : beside(notify_label))) {
            out.push_back(app::intent::SetNotifications{!app.workspace().notifications_enabled()});
        }
        note_widget(ui, "notifications");
        if (tap_button(in_menu ? sign_out_label : beside(sign_out_label))) out.push_back(app::intent::SignOut{});
        note_widget(ui, "sign_out");
    }
    if (!in_menu) beside((std::string(tr("header.text")) + " A- A+ " + language_label).c_str());
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(kDim, "%s", tr("header.text"));
    ImGui::SameLine();
    ImGui::BeginDisabled(ui.text_size <= 0);
    if (tap_button("A-")) --ui.text_size;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(ui.text_size >= kTextSizeCount - 1);
    if (tap_button("A+")) ++ui.text_size;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (tap_button((std::string(language_label) + "##language").c_str())) {
        out.push_back(app::intent::SetLanguage{japanese ? app::i18n::Lang::en : app::i18n::Lang::ja});
    }
    note_widget(ui, "language");
    if (in_menu) {
        ImGui::Separator();
        settings_items(app, out);
        ImGui::EndPopup();
    } else {
        ImGui::SameLine();
        if (tap_button((std::string(settings_label) + "##settings").c_str())) ImGui::OpenPopup("settings");
        note_widget(ui, "settings");
        if (ImGui::BeginPopup("settings")) {
            settings_items(app, out);
            ImGui::EndPopup();
        }
    }
    header_rest(app, ui, out, developer, signed_in);
}

namespace {

// Under the header's line: the question asked, the notice, warnings, the error.
void header_rest(const App& app, UiState& ui, Intents& out, bool developer, bool signed_in) {
    if (!developer && signed_in) question_dialog(app, ui, out);
    if (!app.notice().empty()) text_dim(app.notice());
    // The browser's fonts could not be used (browser_font.hpp);
    // sign-out's clipboard clear waits for a click or key press;
    // typed text that never reached its field (input_queue.hpp), widget "text_lost".
    const std::string warnings[] = {font_notice(), app.clipboard_notice(), input_queue::lost_text_notice()};
    for (const std::string& warning : warnings) {
        if (warning.empty()) continue;
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped("%s", warning.c_str());
        ImGui::PopStyleColor();
        if (&warning == &warnings[2]) note_widget(ui, "text_lost");
    }
    if (const auto& error = app.last_error()) {
        ImGui::PushStyleColor(ImGuiCol_ChildBg, kErrorBg);
        // As tall as what it says, however the message and remedy wrap.
        ImGui::BeginChild("error", ImVec2(0, 0), ImGuiChildFlags_Border | ImGuiChildFlags_AutoResizeY);
        // The ordinary screen says it in words: what failed, when it is
        // tried again, what to do. The status and the error's name (and the
        // helper's own words) are the developer view's.
        std::string said = developer && !error->code.empty() ? error->title + " (" + error->code + ")" : error->title;
        text_wrapped(kBad, said);
        std::string words = developer ? error->message : error->shown();
        // A room that fails is read again at its next check: the room's own error line is this.
        const auto again = app.open_room().poll_at();
        if (!developer && again && !app.open_room().view().error().empty())
            words += " " + tr("errors.room_checked_at", {{"time", app::clock_seconds_text(unix_ms(*again), app.workspace().user_time())}});
        if (!error->remedy.empty()) words += "\n" + error->remedy;
        ImGui::TextWrapped("%s", words.c_str());
        said += "\n" + words;
        if (error->offers_try_again) {
            if (primary_button(tr("common.try_again"))) out.push_back(app::intent::TryAgain{true});
            note_widget(ui, "try_again");
            ImGui::SameLine();
        }
        if (tap_button(tr("common.dismiss"))) out.push_back(app::intent::TryAgain{});
        ImGui::EndChild();
        a11y::describe_last_item("error", said);  // the box's words as drawn
        ImGui::PopStyleColor();
    }
    ImGui::Separator();
}

}  // namespace

}  // namespace roomkey::web::parts
