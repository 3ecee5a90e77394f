// ui_sign_in.cpp: the connection panel (upstream, scope picker, sign in, API
// token) and the session panel (scopes, expiry countdown, refresh, sign out).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "a11y.hpp"
#include "app/format.hpp"
#include "app/scope_help.hpp"
#include "roomkey/registration.hpp"
#include "app/i18n.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

namespace {

void scope_row(const ScopeInfo& info, bool offline_allowed, UiState& ui) {
    const std::string name(info.name);
    const bool chosen = ui.chosen_scopes.count(name) > 0;
    const bool granted = grants(ui.chosen_scopes, name);
    const bool implied = granted && !chosen;
    const bool offline = info.name == kOfflineAccessScope;
    // Aggregates fold open to show what they include; leaves line up with them.
    bool open = false;
    if (info.aggregate()) {
        a11y::name_next(tr("connection.scope_includes", {{"scope", name}}));
        open = ImGui::TreeNodeEx(("##" + name).c_str(), ImGuiTreeNodeFlags_AllowOverlap | tap_tree());
    } else {
        ImGui::Dummy(ImVec2(ImGui::GetTreeNodeToLabelSpacing() - ImGui::GetStyle().ItemSpacing.x, 0));
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(implied || (offline && !offline_allowed));
    bool value = granted;
    if (ImGui::Checkbox(name.c_str(), &value)) {
        if (value) {
            ui.chosen_scopes.insert(name);
        } else {
            ui.chosen_scopes.erase(name);
        }
        ui.chosen_scopes = compact(ui.chosen_scopes);
    }
    ImGui::EndDisabled();
    const std::string help = app::scope_explanation(info, offline_allowed, implied);
    help_marker(help);
    // The explanation also stands under the checkbox, in words a keyboard or
    // touch user can read without hovering; it lines up with the label.
    const float indent =
        ImGui::GetTreeNodeToLabelSpacing() + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::Indent(indent);
    text_dim(help);
    ImGui::Unindent(indent);
    if (open) {
        for (std::string_view part : info.includes) {
            if (const ScopeInfo* child = find_scope(part)) scope_row(*child, offline_allowed, ui);
        }
        ImGui::TreePop();
    }
}

}  // namespace

namespace {

// The configuration as read, or why there is none; false when there is none.
bool config_read(const App& app, UiState& ui, Instant now) {
    if (app.config()) return true;
    if (app.config_loading()) {
        loading_text(ui, tr("connection.reading_config"), now);
    } else {
        ImGui::TextColored(kBad, "%s", tr("connection.no_config", {{"why", app.config_error()}}).c_str());
    }
    return false;
}

// Where the app signs in, and the scopes it asks for (picked here).
void connection_details(const App& app, UiState& ui) {
    const auto& config = app.config();
    label_value(tr("connection.service_api"), config->upstream_base_url.empty() ? "-" : config->upstream_base_url);
    label_value(tr("connection.consent_screen"), config->consent_url.empty() ? "-" : config->consent_url);
    label_value(tr("connection.client_id"), config->client_id);
    label_value(
        tr("connection.client_type"),
        tr(config->client_type == ClientType::public_client ? "connection.client_public" : "connection.client_bff",
           {{"type", std::string(to_string(config->client_type))}}));
    label_value(tr("connection.redirect_uri"), config->redirect_uri);
    if (!app.config_error().empty()) ImGui::TextColored(kWarn, "%s", app.config_error().c_str());

    const bool signed_in = app.holder() != CredentialHolder::none;
    ImGui::Spacing();
    if (ImGui::TreeNodeEx((std::string(tr("connection.scopes")) + "###scopes").c_str(),
                          tap_tree() | (signed_in ? 0 : ImGuiTreeNodeFlags_DefaultOpen))) {
        const bool offline_allowed = offline_access_allowed(config->client_type);
        // Top-level rows: scopes no aggregate includes.
        for (const ScopeInfo& info : scope_catalog()) {
            const bool included = std::any_of(scope_catalog().begin(), scope_catalog().end(), [&](const ScopeInfo& o) {
                return std::find(o.includes.begin(), o.includes.end(), info.name) != o.includes.end();
            });
            if (!included) scope_row(info, offline_allowed, ui);
        }
        ImGui::TreePop();
    }
    const std::string requested = format_scope_list(ui.chosen_scopes);
    ImGui::TextWrapped("scope=%s", requested.empty() ? tr("common.none") : requested.c_str());
}

// The main action: Sign in (greyed out until it can start); `service` names
// where ("Sign in to Chatwork") on the first screen.
void sign_in_button(const App& app, UiState& ui, Intents& out, bool with_note, const std::string& service = {}) {
    const auto& config = app.config();
    const bool usable = gives_api_access(ui.chosen_scopes);
    if (!usable) ImGui::TextColored(kWarn, "%s", tr("connection.pick_scope"));
    const std::string state = app.session_shown().session_label();
    const bool busy = state == "signing in" || state == "exchanging";  // i18n: not shown (state names)
    ImGui::BeginDisabled(!usable || !config->configured || busy);
    const bool again = app.oauth_grant() && state == "signed in";  // i18n: not shown (a state name)
    const std::string label = again             ? tr("connection.sign_in_again")
                              : service.empty() ? tr("connection.sign_in")
                                                : tr("connection.sign_in_to", {{"service", service}});
    if (primary_button(label.c_str())) {
        out.push_back(app::intent::SignIn{ui.chosen_scopes});
    }
    ImGui::EndDisabled();
    note_widget(ui, "sign_in");
    if (state != "signed in") ux::main_action();  // the first Tab lands here  // i18n: not shown (a state name)
    if (!with_note) return;
    ImGui::SameLine();
    text_dim(tr(config->bff() ? "connection.flow_bff" : "connection.flow_pkce"));
}

// `first`: on the first screen, in a user's words (the developer view names the spec).
void api_token_form(const App& app, UiState& ui, Intents& out, bool first = false) {
    if (!ImGui::TreeNodeEx(
            (std::string(tr(first ? "first.token_form" : "connection.token_form")) + "###api_token_form").c_str(),
            tap_tree()))
        return;
    ImGui::TextWrapped("%s", tr("connection.token_header", {{"header", app.config()->token_header}}).c_str());
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool entered =
        ImGui::InputTextWithHint("##api_token", tr("connection.token_hint"), ui.api_token.data(), ui.api_token.size(),
                                 ImGuiInputTextFlags_Password | ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::BeginDisabled(ui.api_token[0] == '\0');
    if (ImGui::Button(tr("connection.use_token")) || (entered && ui.api_token[0] != '\0')) {
        out.push_back(app::intent::UseApiToken{std::string(ui.api_token.data())});
        ui.api_token.fill('\0');  // the app holds it now; the field forgets it
    }
    ImGui::EndDisabled();
    ImGui::TreePop();
}

void init_scopes(const App& app, UiState& ui) {
    if (ui.scopes_initialised) return;
    ui.chosen_scopes = app.config()->default_scopes;
    ui.scopes_initialised = true;
}

}  // namespace

void connection_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader((std::string(tr("connection.header")) + "###connection").c_str(),
                                 ImGuiTreeNodeFlags_DefaultOpen))
        return;
    if (!config_read(app, ui, now)) return;
    init_scopes(app, ui);
    connection_details(app, ui);
    sign_in_button(app, ui, out, true);
    ImGui::Spacing();
    api_token_form(app, ui, out);
}

// The first screen: one clear Sign in; the API token and the connection's
// settings (service, client, scopes, the session's state) one click away.
void sign_in_screen(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!config_read(app, ui, now)) return;
    init_scopes(app, ui);
    const auto& config = app.config();
    std::string service = config->upstream_base_url;
    if (const auto scheme = service.find("://"); scheme != std::string::npos) service.erase(0, scheme + 3);
    service = service.substr(0, service.find('/'));
    ImGui::TextColored(
        kAccent, "%s",
        service.empty() ? tr("first.your_rooms") : tr("first.your_rooms_on", {{"service", service}}).c_str());
    ImGui::TextWrapped("%s", tr("first.sign_in_to_read"));
    ImGui::Spacing();
    sign_in_button(app, ui, out, false, app::service_name(config->upstream_base_url));
    const std::string state = app.session_shown().session_label();
    if (state == "signing in") loading_text(ui, tr("connection.waiting_consent"), now);  // i18n: not shown (state)
    if (state == "exchanging") loading_text(ui, tr("connection.exchanging"), now);
    ImGui::Spacing();
    api_token_form(app, ui, out, true);
    if (ImGui::TreeNodeEx((std::string(tr("first.connection_settings")) + "###connection_settings").c_str(),
                          tap_tree())) {
        connection_details(app, ui);
        session_panel(app, ui, now, out);
        ImGui::TreePop();
    }
    text_dim(tr("first.developer_view"));
}

// Signing out with posts still open asks before they are lost.
void sign_out_question(const App& app, Intents& out) {
    const auto open = app.sign_out_confirm();
    if (!open) return;
    ImGui::TextColored(kWarn, "%s", tr_n("connection.sign_out_posts", *open).c_str());
    if (ImGui::Button(tr("connection.sign_out_discard"))) out.push_back(app::intent::SignOut{true});
    ImGui::SameLine();
    if (ImGui::Button(tr("connection.stay_signed_in"))) out.push_back(app::intent::CancelSignOut{});
}

void session_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader((std::string(tr("connection.session")) + "###session").c_str(),
                                 ImGuiTreeNodeFlags_DefaultOpen))
        return;
    const std::string label = app.session_shown().session_label();
    // The words, and the page API's value beside them as the developer view shows wire values.
    ImGui::TextColored(session_colour(label), "%s (%s)", session_words(label), label.c_str());
    sign_out_question(app, out);
    if (const std::string where = app.session_shown().tokens_held_by(); !where.empty())
        label_value(tr("connection.tokens"), where);
    if (app.holder() == CredentialHolder::helper) {
        bff_session_details(app, ui, now, out);
        return;
    }
    if (app.holder() == CredentialHolder::api_token) {
        label_value(tr("connection.api_token"), app.sign_in().masked_api_token());
        text_dim(tr("connection.api_token_note"));
        if (ImGui::Button(tr("header.sign_out"))) out.push_back(app::intent::SignOut{});
        return;
    }
    const auto& tokens = app.session().tokens();
    if (!tokens) {
        const bool bff = app.config() && app.config()->bff();
        const bool out_now = label == "signed out";  // i18n: not shown (a state name)
        if (out_now) text_dim(tr(bff ? "connection.not_signed_in_bff" : "connection.not_signed_in"));
        if (label == "signing in") loading_text(ui, tr("connection.waiting_consent"), now);  // i18n: not shown (state)
        if (label == "exchanging") loading_text(ui, tr("connection.exchanging"), now);
        return;
    }
    label_value(tr("session_panel.requested"), format_scope_list(app.sign_in().requested_scopes()));
    label_value(tr("session_panel.granted"), format_scope_list(tokens->scope));
    if (app.session_shown().scopes_differ()) ImGui::TextColored(kWarn, "%s", tr("session_panel.scopes_differ"));
    // In the countdown's whole seconds: the bar moves when its text does,
    // and an idle page draws nothing in between.
    const float fraction = app::countdown_fraction(tokens->access_expires_at, Seconds(tokens->expires_in), now);
    const std::string overlay = tr("session.access_expires_at", {{"when", local_deadline(app, ui, tokens->access_expires_at, now)}});
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, bar_fill(fraction > 0.1f ? kAccent : kWarn));
    ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), overlay.c_str());
    ImGui::PopStyleColor();
    if (tokens->refresh_expires_at) {
        label_value(
            tr("session_panel.refresh_token"),
            tr("session.refresh_valid_until", {{"when", local_deadline(app, ui, *tokens->refresh_expires_at, now)}}));
    } else {
        label_value(tr("session_panel.refresh_token"), tr("connection.refresh_no_expiry"));
    }
    if (const auto due = app.session().refresh_due_at(); due && app.sign_in().auto_refresh()) {
        label_value(tr("connection.next_refresh"), local_deadline(app, ui, *due, now));
    }
    bool automatic = app.sign_in().auto_refresh();
    if (ImGui::Checkbox(tr("connection.auto_refresh"), &automatic))
        out.push_back(app::intent::SetAutoRefresh{automatic});
    ImGui::SameLine();
    refresh_and_sign_out(app, ui, out);
    text_dim(tr("connection.refresh_counts", {{"refreshes", std::to_string(app.counters().token_refreshes)},
                                              {"retries", std::to_string(app.counters().retries_after_401)}}));
    scope_refresh_controls(app, ui, out);
}

void refresh_and_sign_out(const App& app, UiState& ui, Intents& out) {
    ImGui::BeginDisabled(app.session_shown().session_label() == "refreshing");  // i18n: not shown (a state name)
    if (ImGui::Button(tr("connection.refresh_now"))) out.push_back(app::intent::RefreshNow{});
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(tr("header.sign_out"))) out.push_back(app::intent::SignOut{});
    note_widget(ui, "sign_out");
}

}  // namespace roomkey::web::parts
