// ui_scope_refresh.cpp: "refresh with fewer scopes" in the session panel
// (spec 4.3): one checkbox per granted leaf scope, the refresh,
// and what was asked and granted (app/scope_refresh.hpp).
#include <imgui.h>

#include <string>

#include "app/i18n.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

void scope_refresh_controls(const App& app, UiState& ui, Intents& out) {
    const ScopeSet* granted = app.session_shown().granted_scopes();  // the page's tokens, or the helper's session
    if (!granted) return;
    const std::string grant = format_scope_list(*granted);
    if (ui.narrow_of != grant) {
        ui.narrow_scopes = leaf_scopes(*granted);
        ui.narrow_of = grant;
    }
    const app::ScopeRefresh& narrow = app.sign_in().scope_refresh();
    if (!ImGui::TreeNodeEx(tr("scope_refresh.header"), tap_tree())) {
        if (!narrow.error().empty()) ImGui::TextColored(kBad, "%s", narrow.error().c_str());
        return;
    }
    text_dim(tr("scope_refresh.hint"));
    for (const std::string& scope : leaf_scopes(*granted)) {
        bool kept = ui.narrow_scopes.count(scope) > 0;
        if (ImGui::Checkbox((scope + "##narrow").c_str(), &kept)) {
            if (kept) {
                ui.narrow_scopes.insert(scope);
            } else {
                ui.narrow_scopes.erase(scope);
            }
        }
    }
    const ScopeSet asked = compact(ui.narrow_scopes);
    const bool refreshing = app.session_shown().session_label() == "refreshing";
    ImGui::BeginDisabled(refreshing || asked.empty());
    if (ImGui::Button(tr("scope_refresh.button"))) out.push_back(app::intent::RefreshScopes{asked});
    ImGui::EndDisabled();
    note_widget(ui, "refresh_scopes");
    ImGui::TextWrapped("scope=%s", asked.empty() ? tr("common.none") : format_scope_list(asked).c_str());
    if (narrow.pending()) text_dim(tr("scope_refresh.refreshing", {{"scopes", format_scope_list(narrow.requested())}}));
    if (const auto& after = narrow.granted_after()) {
        label_value(tr("scope_refresh.asked"), format_scope_list(narrow.requested()));
        label_value(tr("scope_refresh.granted"), after->empty() ? tr("common.none") : format_scope_list(*after));
        label_value(tr("scope_refresh.before"), format_scope_list(narrow.granted_before()));
    }
    if (!narrow.error().empty()) ImGui::TextColored(kBad, "%s", narrow.error().c_str());
    ImGui::TreePop();
}

}  // namespace roomkey::web::parts
