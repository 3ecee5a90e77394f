// ui_bff_session.cpp: the session panel's body in roomkey-helper's
// BFF mode: where the tokens are (with the helper, never in this page), the
// lifetimes the helper reported as countdowns, that the helper refreshes by
// itself, and Refresh now / Sign out / Refresh with fewer scopes, which the
// App sends to the helper's /bff/* routes.
#include <imgui.h>

#include <string>

#include "app/format.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

void bff_session_details(const App& app, UiState& ui, Instant now, Intents& out) {
    const app::BffSessionView& session = app.bff().view();
    const ScopeSet* granted = app.session_shown().granted_scopes();
    label_value("Requested:", format_scope_list(app.sign_in().requested_scopes()));
    label_value("Granted:  ", granted ? format_scope_list(*granted) : std::string());
    if (app.session_shown().scopes_differ()) {
        ImGui::TextColored(kWarn, "The granted scopes differ from the requested ones: some panels may get 403.");
    }
    if (const auto expires = session.access_expires_at()) {
        const float fraction = app::countdown_fraction(*expires, session.access_lifetime(), now);
        const std::string overlay = *expires > now ? "access token expires in " + countdown_to(ui, *expires, now)
                                                   : std::string("access token expired: roomkey-helper refreshes it "
                                                                 "at the next API call");
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram, bar_fill(fraction > 0.1f ? kAccent : kWarn));
        ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), overlay.c_str());
        ImGui::PopStyleColor();
    }
    if (const auto refresh = session.refresh_expires_at()) {
        label_value("Refresh token:", "valid " + countdown_to(ui, *refresh, now) + " more");
    } else {
        label_value("Refresh token:", "no known expiry (offline_access, spec 5.4.3)");
    }
    text_dim("roomkey-helper refreshes the access token by itself before it expires, and once after a 401.");
    refresh_and_sign_out(app, ui, out);
    help_marker("roomkey-helper forgets the tokens; the authorization itself stays granted at the service until "
                "you revoke it there.");
    text_dim("Refreshes asked from here: " + std::to_string(app.counters().token_refreshes));
    scope_refresh_controls(app, ui, out);
}

}  // namespace roomkey::web::parts
