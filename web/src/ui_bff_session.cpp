// ui_bff_session.cpp: the session panel's body in roomkey-helper's
// BFF mode: where the tokens are (with the helper, never in this page), the
// lifetimes the helper reported as countdowns, that the helper refreshes by
// itself, and Refresh now / Sign out / Refresh with fewer scopes, which the
// App sends to the helper's /bff/* routes.
#include <imgui.h>

#include <string>

#include "app/i18n.hpp"
#include "app/format.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

void bff_session_details(const App& app, UiState& ui, Instant now, Intents& out) {
    const app::BffSessionView& session = app.bff().view();
    const ScopeSet* granted = app.session_shown().granted_scopes();
    label_value(tr("session_panel.requested"), format_scope_list(app.sign_in().requested_scopes()));
    label_value(tr("session_panel.granted"), granted ? format_scope_list(*granted) : std::string());
    if (app.session_shown().scopes_differ()) {
        ImGui::TextColored(kWarn, "%s", tr("session_panel.scopes_differ"));
    }
    if (const auto expires = session.access_expires_at()) {
        const float fraction = app::countdown_fraction(*expires, session.access_lifetime(), now);
        const std::string overlay = *expires > now
                                        ? tr("session_panel.access_expires_in", {{"time", countdown_to(ui, *expires, now)}})
                                        : std::string(tr("session_panel.bff_access_expired"));
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram, bar_fill(fraction > 0.1f ? kAccent : kWarn));
        ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), overlay.c_str());
        ImGui::PopStyleColor();
    }
    if (const auto refresh = session.refresh_expires_at()) {
        label_value(tr("session_panel.refresh_token"), tr("session_panel.refresh_valid", {{"time", countdown_to(ui, *refresh, now)}}));
    } else {
        label_value(tr("session_panel.refresh_token"), tr("session_panel.refresh_no_expiry"));
    }
    text_dim(tr("session_panel.bff_refreshes"));
    refresh_and_sign_out(app, ui, out);
    help_marker(tr("session_panel.bff_sign_out_help"));
    text_dim(tr("session_panel.refresh_count", {{"count", std::to_string(app.counters().token_refreshes)}}));
    scope_refresh_controls(app, ui, out);
}

}  // namespace roomkey::web::parts
