// ui_http_log.cpp: the HTTP log: exchanges, reveal, copy as curl, fetch, Python.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/format.hpp"
#include "app/time_text.hpp"
#include "app/scope_help.hpp"
#include "gesture_copy.hpp"
#include "roomkey/registration.hpp"
#include "app/i18n.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

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

void copy_as_buttons(const App& app, std::optional<std::uint64_t> entry, Intents& out) {
    ImGui::TextColored(kDim, "%s", tr("log.copy_as"));
    for (SnippetFormat format : {SnippetFormat::curl_service, SnippetFormat::fetch, SnippetFormat::python}) {
        const std::string label = app::snippet_words(format) + "##" + (entry ? "log" : "console");
        // The user's own click: the one way a revealed copy can be made.
        if (tap_button(beside(label.c_str()))) out.push_back(app::intent::CopyAs{entry, format, true});
        // Written in the click's own handler, where every engine allows it (gesture_copy.hpp).
        if (const std::string text = app.text_as(entry, format, true); !text.empty()) gesture_copy::arm_last_item(text);
    }
}

void log_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader((std::string(tr("log.title")) + "###http_log").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
        return;
    }
    bool reveal = app.reveal();
    if (ImGui::Checkbox(tr("log.reveal"), &reveal)) out.push_back(app::intent::SetReveal{reveal});
    note_widget(ui, "reveal");
    help_marker(tr("log.reveal_help"));
    ImGui::SameLine();
    if (tap_button(tr("log.clear"))) {
        out.push_back(app::intent::ClearLog{});
        ui.selected_log = ui.log_hold = 0;
    }
    ImGui::SameLine();
    // A file download, masked unless revealed (the user's own click may reveal).
    if (tap_button(tr("log.export_har"))) out.push_back(app::intent::ExportHar{true});
    note_widget(ui, "export_har");
    ImGui::SameLine();
    ImGui::Checkbox(tr("log.newest_first"), &ui.log_newest_first);

    // The filter: path text, method, status class (the app keeps it: state log_filter).
    const app::LogFilter& filter = app.trace().filter();
    if (!ImGui::IsAnyItemActive() && filter.text != ui.log_filter.data()) {
        std::snprintf(ui.log_filter.data(), ui.log_filter.size(), "%s", filter.text.c_str());
    }
    app::intent::SetLogFilter change{filter.text, filter.method, filter.status};
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
    if (ImGui::InputTextWithHint("##log_filter", tr("log.filter_hint"), ui.log_filter.data(), ui.log_filter.size())) {
        change.text = ui.log_filter.data();
        out.push_back(change);
    }
    note_widget(ui, "log_filter");
    static constexpr const char* kMethods[] = {"", "GET", "POST", "PUT", "DELETE"};
    static constexpr const char* kClasses[] = {"", "2xx", "3xx", "4xx", "5xx", "none"};
    const auto choice = [&](const char* id, const char* const* names, int count, std::string& value) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
        if (!ImGui::BeginCombo(id, value.empty() ? tr("log.any") : value.c_str())) return;
        for (int i = 0; i < count; ++i) {
            if (ImGui::Selectable(i == 0 ? tr("log.any") : names[i], value == names[i])) {
                value = names[i];
                out.push_back(change);
            }
        }
        ImGui::EndCombo();
    };
    choice("##log_method", kMethods, 5, change.method);
    choice("##log_status", kClasses, 6, change.status);

    const auto& entries = app.log().entries();
    if (entries.empty()) {
        text_dim(tr("log.empty"));
        return;
    }
    // While the pointer rests on the list it holds still: what came since
    // waits behind "N new", so an entry never moves under a click.
    std::vector<const app::LogEntry*> visible;
    long waiting = 0;
    for (const app::LogEntry& e : entries) {
        if (!app::matches(e, filter)) continue;
        if (ui.log_hold != 0 && e.id > ui.log_hold) {
            ++waiting;
        } else {
            visible.push_back(&e);
        }
    }
    if (ui.log_newest_first) std::reverse(visible.begin(), visible.end());
    // "log_latest" is the newest entry shown: while the list holds still
    // under the pointer, the newest of all waits behind "N new" unseen.
    const app::LogEntry* newest_shown =
        visible.empty() ? nullptr : (ui.log_newest_first ? visible.front() : visible.back());
    // At most 8.5 lines, and short enough that the newest entry (at the
    // list's end) and the chosen entry's Copy buttons under it stay on
    // screen when little of the pane is left.
    const float line = std::max(tap_height(), ImGui::GetTextLineHeight()) + ImGui::GetStyle().ItemSpacing.y;
    const float list_h = std::clamp(ImGui::GetContentRegionAvail().y - line * 3.0f, line * 3.0f, line * 8.5f);
    ImGui::BeginChild("log_list", ImVec2(0, list_h), ImGuiChildFlags_Border);
    const auto new_button = [&] {
        if (waiting == 0) return;
        if (tap_button(tr_n("log.new", waiting).c_str())) ui.log_hold = entries.back().id;
        note_widget(ui, "log_new");
    };
    if (ui.log_newest_first) new_button();
    for (const app::LogEntry* e : visible) {
        const std::string title = app::entry_title(*e) + "##" + std::to_string(e->id);
        const bool bad = (e->response && e->response->status >= 400) || !e->transport_error.empty();
        ImGui::PushStyleColor(ImGuiCol_Text, bad ? kBad : ImGui::GetStyleColorVec4(ImGuiCol_Text));
        if (ImGui::Selectable(title.c_str(), ui.selected_log == e->id, 0, ImVec2(0, tap_height()))) {
            ui.selected_log = e->id;
        }
        ImGui::PopStyleColor();
        if (e == newest_shown) note_widget(ui, "log_latest");
    }
    if (!ui.log_newest_first) {
        new_button();
        if (ui.log_hold == 0) follow_bottom();
    }
    const bool over = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows);
    ImGui::EndChild();
    if (!over) {
        ui.log_hold = 0;
    } else if (ui.log_hold == 0) {
        ui.log_hold = entries.back().id;
    }
    const app::LogEntry* entry = app.log().find(ui.selected_log);
    if (!entry) {
        text_dim(tr("log.select"));
        return;
    }
    const app::RenderedExchange shown = app::render(*entry, app.redaction(), app.reveal());
    if (ImGui::Button(tr(app.reveal() ? "log.copy_curl_revealed" : "log.copy_curl_masked"))) {
        // The user's own click: the one way a revealed copy can be made.
        out.push_back(app::intent::CopyCurl{entry->id, true});
    }
    // Written in the click's own handler, where every engine allows it (gesture_copy.hpp).
    if (const auto curl = app.curl_text(entry->id, true)) gesture_copy::arm_last_item(*curl);
    note_widget(ui, "copy_curl");
    copy_as_buttons(app, entry->id, out);
    ImGui::BeginChild("log_detail", ImVec2(0, 0), ImGuiChildFlags_Border);
    ImGui::TextColored(kAccent, "%s", shown.request_line.c_str());
    // In the user's zone; the raw instant (Unix ms) beside it.
    const std::string sent = tr("log.sent_at", {{"time", app::message_time_text(unix_seconds(entry->started),
                                                                                  unix_seconds(now),
                                                                                  app.workspace().user_time())},
                                                {"raw", std::to_string(unix_ms(entry->started))}});
    text_dim(sent);
    ux::describe_last_item("log_sent_at", sent);
    // A flow step's parameters, decoded.
    for (const std::string& parameter : shown.parameters) ImGui::TextWrapped("  %s", parameter.c_str());
    header_lines(shown.request_headers);
    if (!shown.request_body.empty()) ImGui::TextWrapped("%s", shown.request_body.c_str());
    ImGui::Separator();
    ImGui::TextColored(kAccent, "%s", tr("log.status", {{"status", shown.status_line}}).c_str());
    header_lines(shown.response_headers);
    if (!shown.response_body.empty()) ImGui::TextWrapped("%s", shown.response_body.c_str());
    ImGui::EndChild();
}

}  // namespace roomkey::web::parts
