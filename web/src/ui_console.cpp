// ui_console.cpp: the API console: pick any catalog
// endpoint, fill its parameters, see the scope it needs next to the granted
// ones (and "Sign in again adding <scope>" when missing), confirm destructive
// calls, and read the answer as formatted JSON with status and rate limits.
// The checks themselves are web/app's (console.hpp); this only draws.
#include <string>

#include "roomkey/endpoint_catalog.hpp"
#include "app/i18n.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

namespace {

std::string entry_label(const EndpointInfo& info) {
    return std::string(to_string(info.method)) + " " + std::string(info.path);
}

}  // namespace

void console_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader((std::string(tr("console.title")) + "###api_console").c_str())) return;
    const EndpointCatalog catalog = endpoint_catalog();
    if (catalog.size() == 0) return;
    if (ui.console_endpoint < 0 || static_cast<std::size_t>(ui.console_endpoint) >= catalog.size()) {
        ui.console_endpoint = 0;
    }
    const EndpointInfo& info = *(catalog.begin() + ui.console_endpoint);
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##endpoint", entry_label(info).c_str())) {
        int index = 0;
        for (const EndpointInfo& entry : catalog) {
            if (ImGui::Selectable(entry_label(entry).c_str(), index == ui.console_endpoint)) {
                ui.console_endpoint = index;
            }
            ++index;
        }
        ImGui::EndCombo();
    }
    note_widget(ui, "console_endpoint");

    // The scope it needs, next to what was granted.
    const ScopeSet* held = app.session_shown().granted_scopes();
    const std::string granted = app.holder() == CredentialHolder::api_token ? std::string(tr("console.api_token_scope"))
                                : held                             ? format_scope_list(*held)
                                                                   : std::string(tr("console.not_signed_in_scope"));
    const bool has_scope = !app.oauth_grant() || (held && grants(*held, info.scope));
    ImGui::TextUnformatted(tr("console.needs"));
    ImGui::SameLine();
    ImGui::TextColored(has_scope ? kGood : kWarn, "%s", std::string(info.scope).c_str());
    label_value(tr("console.granted"), granted);
    if (info.destructive) ImGui::TextColored(kWarn, "%s", tr("console.destructive"));

    app::intent::ConsoleCall call;
    call.method = info.method;
    call.path = std::string(info.path);
    for (const EndpointParam& param : info.params) {
        if (param.type == ParamType::file) continue;  // chosen with the button below, not typed
        const std::string name(param.name);
        auto& buffer = ui.console_params[name];
        std::string label = name + (param.required ? " *" : "") + " (" + std::string(to_string(param.where)) + ")";
        if (!param.allowed.empty()) label += " " + std::string(param.allowed);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
        ImGui::InputText(("##p_" + name).c_str(), buffer.data(), buffer.size());
        ImGui::SameLine();
        ImGui::TextUnformatted(label.c_str());
        const std::string value(buffer.data());
        if (!value.empty()) call.params.emplace_back(name, value);
    }
    if (takes_file_part(info)) {
        // The upload's file part is a file, not text: the button opens the
        // browser's file picker (a user gesture) and the chosen file goes
        // through the room's upload queue with the room_id and message
        // given here; its progress and outcome are in that room's Files.
        std::string room_id;
        std::string message;
        for (const auto& [name, value] : call.params) {
            if (name == "room_id") room_id = value;
            if (name == "message") message = value;
        }
        if (!is_resource_id(room_id)) {
            ImGui::TextColored(kWarn, "%s", tr("console.give_room_id"));
        } else {
            if (ImGui::Button((std::string(tr("console.choose_file")) + "##console").c_str())) {
                out.push_back(app::intent::PickFile{room_id, message});
            }
            note_widget(ui, "console_send");
            ImGui::TextColored(kDim, "%s", tr("console.upload_hint"));
        }
    } else {
        if (ImGui::Button((std::string(tr("console.send")) + "##console").c_str())) out.push_back(call);
        note_widget(ui, "console_send");
    }

    const app::Console& console = app.api_console().console();
    if (!console.problems().empty() || !console.missing_scope().empty()) {
        // After the console has said what is wrong: the service's own answer to it.
        ImGui::SameLine();
        app::intent::ConsoleCall anyway = call;
        anyway.anyway = true;
        if (ImGui::Button((std::string(tr("console.send_anyway")) + "##console").c_str())) out.push_back(anyway);
        note_widget(ui, "console_send_anyway");
    }
    if (!console.asked().path.empty()) copy_as_buttons(app, std::nullopt, out);
    if (const auto& pending = console.pending()) {
        const std::string asked = std::string(to_string(pending->method)) + " " + pending->path;
        ImGui::TextColored(kWarn, "%s", tr("console.confirm_send", {{"call", asked}}).c_str());
        if (ImGui::Button(tr("console.yes_send"))) out.push_back(app::intent::ConfirmConsoleCall{});
        ImGui::SameLine();
        if (ImGui::Button((std::string(tr("common.cancel")) + "##console").c_str())) {
            out.push_back(app::intent::CancelConsoleCall{});
        }
    }
    if (!console.missing_scope().empty() && app.oauth_grant()) {
        const std::string label = tr("console.add_scope", {{"scope", console.missing_scope()}});
        if (ImGui::Button(label.c_str())) out.push_back(app::intent::AddScopes{console.missing_scope()});
        note_widget(ui, "add_scopes");
    }
    for (const CallProblem& problem : console.problems()) {
        ImGui::TextColored(kBad, "%s", app::problem_words(problem).c_str());
    }
    if (const auto& last = console.last()) {
        ImGui::Separator();
        std::string head = last->method + " " + last->path;
        if (last->status) head += "  ->  " + std::to_string(*last->status);
        if (console.sending()) head += "  " + std::string(tr("console.sending"));
        ImGui::TextUnformatted(head.c_str());
        if (!last->rate.empty()) text_dim(last->rate);  // the raw headers
        if (last->rate_reset) {
            // In the user's zone with its countdown; the raw headers above.
            const std::string reset = tr("console.resets_at", {{"when", local_deadline(app, ui, *last->rate_reset, now)}});
            text_dim(reset);
            ux::describe_last_item("console_rate_reset", reset);
        }
        if (!last->error.empty()) text_wrapped(kBad, last->error);
        if (last->anyway) text_wrapped(kWarn, tr("console.sent_anyway", {{"check", last->check}}));
        if (!last->json.empty()) {
            ImGui::BeginChild("console_json", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 10.0f),
                              ImGuiChildFlags_Border, ImGuiWindowFlags_HorizontalScrollbar);
            ImGui::TextUnformatted(last->json.c_str());
            ImGui::EndChild();
        }
    }
}

}  // namespace roomkey::web::parts
