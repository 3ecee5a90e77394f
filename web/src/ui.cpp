// ui.cpp: the ImGui panels (see ui.hpp).
//
// [SECTION] Theme and small widgets
// [SECTION] Header: session badge, notice, error banner
// [SECTION] Connection: upstream, scope picker, sign in, API token
// [SECTION] Session: scopes, expiry countdown, refresh, sign out
// [SECTION] Account and status
// [SECTION] Rooms
// [SECTION] Posting: message, task, queue with progress
// [SECTION] Rate limits: gauge, plot, per-room budgets
// [SECTION] HTTP log: exchanges, reveal, copy as curl
// [SECTION] Layout
#include "ui.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/format.hpp"
#include "app/scope_help.hpp"
#include "roomkey/registration.hpp"

namespace roomkey::web {

namespace {

using app::App;
using app::Intent;
using Intents = std::vector<Intent>;

// ===========================================================================
// [SECTION] Theme and small widgets
// ===========================================================================

const ImVec4 kAccent{0.36f, 0.62f, 0.98f, 1.0f};
const ImVec4 kGood{0.40f, 0.80f, 0.50f, 1.0f};
const ImVec4 kWarn{0.98f, 0.76f, 0.30f, 1.0f};
const ImVec4 kBad{1.00f, 0.45f, 0.42f, 1.0f};
const ImVec4 kDim{0.62f, 0.65f, 0.70f, 1.0f};

void text_dim(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

void label_value(const char* label, const std::string& value) {
    ImGui::TextColored(kDim, "%s", label);
    ImGui::SameLine();
    ImGui::TextUnformatted(value.c_str());
}

void help_marker(const std::string& text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// Remembers where the last item was drawn, under `name`.
void note_widget(UiState& ui, const char* name) {
    const ImVec2 min = ImGui::GetItemRectMin();
    const ImVec2 max = ImGui::GetItemRectMax();
    ui.widgets[name] = {min.x, min.y, max.x - min.x, max.y - min.y};
}

bool primary_button(const char* label) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.20f, 0.45f, 0.85f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.28f, 0.53f, 0.92f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImVec4(0.16f, 0.38f, 0.75f, 1.0f));
    const bool pressed = ImGui::Button(label);
    ImGui::PopStyleColor(3);
    return pressed;
}

// "Loading" with dots that move, so a wait is visibly alive.
void loading_text(const char* what, Instant now) {
    static const char* kDots[] = {"", ".", "..", "..."};
    const auto phase = static_cast<std::size_t>((unix_ms(now) / 400) % 4);
    ImGui::TextColored(kDim, "%s%s", what, kDots[phase]);
}

std::string countdown_to(Instant at, Instant now) {
    return app::format_countdown(std::chrono::duration_cast<Millis>(at - now));
}

ImVec4 session_colour(const std::string& label) {
    if (label == "signed in" || label == "api token") return kGood;
    if (label == "failed" || label == "expired") return kBad;
    if (label == "signed out") return kDim;
    return kWarn;
}

const std::string& field(const std::optional<std::string>& value) {
    static const std::string kNone = "-";
    return value ? *value : kNone;
}

// ===========================================================================
// [SECTION] Header: session badge, notice, error banner
// ===========================================================================

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
    if (const auto& error = app.last_error()) {
        ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.35f, 0.12f, 0.12f, 1.0f));
        const float lines = 3.2f + (error->remedy.empty() ? 0.0f : 1.0f);
        ImGui::BeginChild("error", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * lines), true);
        ImGui::TextColored(kBad, "%s%s%s%s", error->title.c_str(), error->code.empty() ? "" : " (",
                           error->code.c_str(), error->code.empty() ? "" : ")");
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

// ===========================================================================
// [SECTION] Connection: upstream, scope picker, sign in, API token
// ===========================================================================

void scope_row(const ScopeInfo& info, bool offline_allowed, UiState& ui) {
    const std::string name(info.name);
    const bool chosen = ui.chosen_scopes.count(name) > 0;
    const bool granted = grants(ui.chosen_scopes, name);
    const bool implied = granted && !chosen;
    const bool offline = info.name == kOfflineAccessScope;
    // Aggregates fold open to show what they include; leaves line up with them.
    bool open = false;
    if (info.aggregate()) {
        open = ImGui::TreeNodeEx(("##" + name).c_str(), ImGuiTreeNodeFlags_AllowItemOverlap);
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
    const float indent = ImGui::GetTreeNodeToLabelSpacing() + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
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

void connection_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader("Connection", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const auto& config = app.config();
    if (!config) {
        if (app.config_loading()) {
            loading_text("Reading the helper's configuration", now);
        } else {
            ImGui::TextColored(kBad, "No configuration: %s", app.config_error().c_str());
        }
        return;
    }
    label_value("Service API:", config->upstream_base_url.empty() ? "-" : config->upstream_base_url);
    label_value("Consent screen:", config->consent_url.empty() ? "-" : config->consent_url);
    label_value("Client ID:", config->client_id);
    label_value("Client type:", std::string(to_string(config->client_type)) +
                                    (config->client_type == ClientType::public_client ? " (PKCE required)" : " (BFF)"));
    label_value("Redirect URI:", config->redirect_uri);
    if (!app.config_error().empty()) ImGui::TextColored(kWarn, "%s", app.config_error().c_str());

    const bool signed_in = app.mode() != app::Mode::none;
    if (!ui.scopes_initialised) {
        ui.chosen_scopes = config->default_scopes;
        ui.scopes_initialised = true;
    }
    ImGui::Spacing();
    if (ImGui::TreeNodeEx("Scopes to request (spec 5.5)", signed_in ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) {
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
    ImGui::TextWrapped("scope=%s", requested.empty() ? "(none)" : requested.c_str());
    const bool usable = gives_api_access(ui.chosen_scopes);
    if (!usable) ImGui::TextColored(kWarn, "Pick at least one scope that gives API access (spec 5.4.4).");

    const std::string state = app.session_label();
    const bool busy = state == "signing in" || state == "exchanging";
    ImGui::BeginDisabled(!usable || !config->configured || busy);
    if (primary_button(app.mode() == app::Mode::oauth && state == "signed in" ? "Sign in again" : "Sign in")) {
        out.push_back(app::intent::SignIn{ui.chosen_scopes});
    }
    ImGui::EndDisabled();
    note_widget(ui, "sign_in");
    ImGui::SameLine();
    text_dim("authorization code + PKCE (S256)");

    ImGui::Spacing();
    if (ImGui::TreeNode("Or use an API token (spec 5.1)")) {
        ImGui::TextWrapped("It is sent only in the %s header, through the helper, never in a URL, and kept in memory.",
                           config->token_header.c_str());
        ImGui::SetNextItemWidth(-FLT_MIN);
        const bool entered = ImGui::InputTextWithHint("##api_token", "paste the API token", ui.api_token.data(),
                                                      ui.api_token.size(),
                                                      ImGuiInputTextFlags_Password | ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::BeginDisabled(ui.api_token[0] == '\0');
        if (ImGui::Button("Use this token") || (entered && ui.api_token[0] != '\0')) {
            out.push_back(app::intent::UseApiToken{std::string(ui.api_token.data())});
            ui.api_token.fill('\0');  // the app holds it now; the field forgets it
        }
        ImGui::EndDisabled();
        ImGui::TreePop();
    }
}

// ===========================================================================
// [SECTION] Session: scopes, expiry countdown, refresh, sign out
// ===========================================================================

void session_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader("Session", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const std::string label = app.session_label();
    ImGui::TextColored(session_colour(label), "%s", label.c_str());
    if (app.mode() == app::Mode::api_token) {
        label_value("API token:", app.masked_api_token());
        text_dim("No expiry, full access (spec 5.1.3). Kept in memory only.");
        if (ImGui::Button("Sign out")) out.push_back(app::intent::SignOut{});
        return;
    }
    const auto& tokens = app.session().tokens();
    if (!tokens) {
        if (label == "signed out") text_dim("Not signed in. Tokens are kept in memory only: a reload asks to sign in again.");
        if (label == "signing in") loading_text("Waiting for the consent screen", now);
        if (label == "exchanging") loading_text("Exchanging the authorization code", now);
        return;
    }
    label_value("Requested:", format_scope_list(app.requested_scopes()));
    label_value("Granted:  ", format_scope_list(tokens->scope));
    if (app.scopes_differ()) {
        ImGui::TextColored(kWarn, "The granted scopes differ from the requested ones: some panels may get 403.");
    }
    const Millis left = std::chrono::duration_cast<Millis>(tokens->access_expires_at - now);
    const float lifetime = static_cast<float>(std::max<std::int64_t>(1, tokens->expires_in) * 1000);
    const float fraction = std::clamp(static_cast<float>(left.count()) / lifetime, 0.0f, 1.0f);
    const std::string overlay = "access token expires in " + app::format_countdown(left);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, fraction > 0.1f ? kAccent : kWarn);
    ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), overlay.c_str());
    ImGui::PopStyleColor();
    if (tokens->refresh_expires_at) {
        label_value("Refresh token:", "valid " + countdown_to(*tokens->refresh_expires_at, now) + " more (14 days, spec 2.3)");
    } else {
        label_value("Refresh token:", "no expiry (offline_access, spec 5.4.3)");
    }
    if (const auto due = app.session().refresh_due_at(); due && app.auto_refresh()) {
        label_value("Next refresh:", "in " + countdown_to(*due, now));
    }
    bool automatic = app.auto_refresh();
    if (ImGui::Checkbox("Refresh automatically", &automatic)) out.push_back(app::intent::SetAutoRefresh{automatic});
    ImGui::SameLine();
    ImGui::BeginDisabled(label == "refreshing");
    if (ImGui::Button("Refresh now")) out.push_back(app::intent::RefreshNow{});
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Sign out")) out.push_back(app::intent::SignOut{});
    note_widget(ui, "sign_out");
    text_dim("Refreshes: " + std::to_string(app.counters().token_refreshes) +
             ", retries after 401: " + std::to_string(app.counters().retries_after_401));
}

// ===========================================================================
// [SECTION] Account and status
// ===========================================================================

void account_panel(const App& app, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader("Account and status", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (app.mode() == app::Mode::none || app.session_label() == "signing in" || app.session_label() == "exchanging") {
        text_dim("Sign in or use an API token to see your account (GET /me, GET /my/status).");
        return;
    }
    if (ImGui::Button("Reload##account")) out.push_back(app::intent::ReloadAccount{});
    ImGui::SameLine();
    if (app.account().loading || app.status().loading) loading_text("Loading", now);
    for (const std::string* note : {&app.account().note, &app.status().note}) {
        if (!note->empty()) ImGui::TextColored(kWarn, "%s", note->c_str());
    }
    if (const auto& account = app.account().value) {
        label_value("account_id:", account->account_id);
        label_value("name:", field(account->name));
        label_value("chatwork_id:", field(account->chatwork_id));
        label_value("organization:", field(account->organization_name));
        label_value("mail:", field(account->mail));
    } else if (!app.account().error.empty()) {
        ImGui::TextColored(kBad, "%s", app.account().error.c_str());
    }
    if (const auto& status = app.status().value) {
        if (ImGui::BeginTable("status", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame)) {
            ImGui::TableSetupColumn("");
            ImGui::TableSetupColumn("messages");
            ImGui::TableSetupColumn("rooms");
            ImGui::TableHeadersRow();
            auto row = [](const char* name, std::int64_t count, std::int64_t rooms) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(name);
                ImGui::TableNextColumn();
                ImGui::Text("%lld", static_cast<long long>(count));
                ImGui::TableNextColumn();
                ImGui::Text("%lld", static_cast<long long>(rooms));
            };
            row("unread", status->unread_num, status->unread_room_num);
            row("mentions", status->mention_num, status->mention_room_num);
            row("my tasks", status->mytask_num, status->mytask_room_num);
            ImGui::EndTable();
        }
    } else if (!app.status().error.empty()) {
        ImGui::TextColored(kBad, "%s", app.status().error.c_str());
    }
}

// ===========================================================================
// [SECTION] Rooms
// ===========================================================================

void rooms_panel(const App& app, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader("Rooms", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (app.mode() == app::Mode::none) {
        text_dim("Your rooms appear here once you are signed in (GET /rooms).");
        return;
    }
    if (ImGui::Button("Reload##rooms")) out.push_back(app::intent::ReloadRooms{});
    ImGui::SameLine();
    if (app.rooms().loading) loading_text("Loading", now);
    if (!app.rooms().note.empty()) ImGui::TextColored(kWarn, "%s", app.rooms().note.c_str());
    const auto& rooms = app.rooms().value;
    if (!rooms) {
        if (!app.rooms().error.empty()) ImGui::TextColored(kBad, "%s", app.rooms().error.c_str());
        return;
    }
    if (rooms->empty()) {
        text_dim("You are not a member of any room.");
        return;
    }
    const float height = std::min(static_cast<float>(rooms->size()) + 0.5f, 8.5f) * ImGui::GetTextLineHeightWithSpacing();
    ImGui::BeginChild("room_list", ImVec2(0, height), true);
    for (const Room& room : *rooms) {
        std::string text = room.name + "  #" + room.room_id;
        if (room.unread_num && *room.unread_num > 0) text += "  (" + std::to_string(*room.unread_num) + " unread)";
        if (ImGui::Selectable(text.c_str(), room.room_id == app.selected_room())) {
            out.push_back(app::intent::SelectRoom{room.room_id});
        }
    }
    ImGui::EndChild();
}

// ===========================================================================
// [SECTION] Posting: message, task, queue with progress
// ===========================================================================

std::string room_name(const App& app, const std::string& room_id) {
    if (const auto& rooms = app.rooms().value) {
        for (const Room& room : *rooms) {
            if (room.room_id == room_id) return room.name + " #" + room.room_id;
        }
    }
    return "#" + room_id;
}

void posting_panel(const App& app, UiState& ui, Instant now, Intents& out) {
    if (!ImGui::CollapsingHeader("Post to a room", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const std::string& room = app.selected_room();
    if (app.mode() == app::Mode::none || room.empty()) {
        text_dim("Choose a room to post messages and tasks (spec 4.6, 4.7).");
    } else {
        label_value("Room:", room_name(app, room));
        ImGui::InputTextMultiline("##message", ui.message.data(), ui.message.size(),
                                  ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.5f));
        note_widget(ui, "message");
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
        ImGui::SliderInt("copies", &ui.repeat, 1, app::kMaxBurst);
        help_marker("Queue several numbered copies to see the pacing: at most 10 posts per 10 s per room (spec 8.2).");
        ImGui::SameLine();
        ImGui::BeginDisabled(ui.message[0] == '\0');
        if (primary_button("Queue message")) {
            out.push_back(app::intent::QueueMessage{room, std::string(ui.message.data()), ui.repeat});
        }
        ImGui::EndDisabled();
        note_widget(ui, "queue_message");

        if (ImGui::TreeNode("Add a task")) {
            ImGui::InputTextWithHint("##task_body", "what to do", ui.task_body.data(), ui.task_body.size());
            ImGui::InputTextWithHint("assignees", "account ids: 12, 34", ui.task_assignees.data(),
                                     ui.task_assignees.size());
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
            ImGui::Combo("due", &ui.task_limit_type, "none\0date\0");
            if (ui.task_limit_type == 1) {
                ImGui::SameLine();
                ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
                ImGui::InputTextWithHint("due by the end of this day (your local time)##due", "YYYY-MM-DD",
                                         ui.task_due.data(), ui.task_due.size());
            }
            if (ImGui::Button("Add task")) {
                ui.form_error.clear();
                const auto ids = app::parse_id_list(ui.task_assignees.data());
                std::optional<std::int64_t> limit;
                if (ui.task_limit_type == 1) limit = app::parse_due_date(ui.task_due.data(), ui.utc_offset);
                if (!ids || ids->empty()) {
                    ui.form_error = "Assignees: one or more account ids, separated by commas.";
                } else if (ui.task_limit_type == 1 && !limit) {
                    ui.form_error = "Due date: a real date as YYYY-MM-DD.";
                } else {
                    out.push_back(app::intent::QueueTask{room, std::string(ui.task_body.data()), *ids, limit,
                                                         limit ? TaskLimitType::date : TaskLimitType::none});
                }
            }
            if (!ui.form_error.empty()) ImGui::TextColored(kBad, "%s", ui.form_error.c_str());
            ImGui::TreePop();
        }
    }

    const app::PostBatch& batch = app.batch();
    if (batch.total == 0 && app.posts().empty()) return;
    ImGui::Spacing();
    const long done = batch.delivered + batch.failed;
    const float fraction = batch.total > 0 ? static_cast<float>(done) / static_cast<float>(batch.total) : 0.0f;
    std::string overlay = std::to_string(batch.delivered) + " of " + std::to_string(batch.total) + " delivered";
    if (batch.failed > 0) overlay += ", " + std::to_string(batch.failed) + " failed";
    if (batch.first_sent && batch.last_done && done == batch.total) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, " in %.1f s",
                      static_cast<double>((*batch.last_done - *batch.first_sent).count()) / 1000.0);
        overlay += seconds;
    }
    ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0), overlay.c_str());
    if (const auto next = app.next_send_at(now); next && *next > now) {
        text_dim("next post in " + countdown_to(*next, now) + " (paced, spec 8.2)");
    }
    if (ImGui::SmallButton("Cancel waiting")) out.push_back(app::intent::CancelQueued{});
    ImGui::SameLine();
    if (ImGui::SmallButton("Clear finished")) out.push_back(app::intent::ClearFinishedPosts{});
    ImGui::BeginChild("queue", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 7.5f), true);
    for (auto it = app.posts().rbegin(); it != app.posts().rend(); ++it) {
        const app::PostJob& job = *it;
        ImVec4 colour = kDim;
        if (job.stage == app::PostStage::delivered) colour = kGood;
        if (job.stage == app::PostStage::failed) colour = kBad;
        if (job.stage == app::PostStage::sending) colour = kAccent;
        if (job.stage == app::PostStage::waiting && job.rate_limited > 0) colour = kWarn;
        ImGui::TextColored(colour, "%-9s", std::string(to_string(job.stage)).c_str());
        ImGui::SameLine();
        ImGui::Text("%s %s: %s", job.kind == app::PostKind::message ? "msg " : "task", room_name(app, job.room_id).c_str(),
                    job.body.c_str());
        if (!job.note.empty()) {
            ImGui::SameLine();
            text_dim(job.note);
        }
    }
    ImGui::EndChild();
}

// ===========================================================================
// [SECTION] Rate limits: gauge, plot, per-room budgets
// ===========================================================================

float sample_remaining(void* data, int index) {
    const auto* samples = static_cast<const std::deque<app::RateSample>*>(data);
    return static_cast<float>((*samples)[static_cast<std::size_t>(index)].remaining);
}

void rate_panel(const App& app, Instant now) {
    if (!ImGui::CollapsingHeader("Rate limits (spec 8)", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const OverallBudget overall = app.scheduler().overall(now);
    const float fraction =
        overall.limit > 0 ? static_cast<float>(overall.remaining) / static_cast<float>(overall.limit) : 0.0f;
    std::string overlay = std::to_string(overall.remaining) + " / " + std::to_string(overall.limit) + " left";
    if (overall.reset) overlay += ", resets in " + countdown_to(*overall.reset, now);
    if (!overall.from_headers) overlay += " (estimate)";
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, fraction > 0.2f ? kGood : kWarn);
    ImGui::ProgressBar(std::clamp(fraction, 0.0f, 1.0f), ImVec2(-FLT_MIN, 0), overlay.c_str());
    ImGui::PopStyleColor();
    text_dim("300 requests per 5 minutes (x-ratelimit-*); 429 answers: " +
             std::to_string(app.counters().responses_429));
    const auto& samples = app.rate_samples();
    if (samples.size() >= 2) {
        // The y axis starts near the lowest reading, so a few calls show as a slope.
        long lowest = overall.limit;
        for (const app::RateSample& sample : samples) lowest = std::min(lowest, sample.remaining);
        const float floor_value = static_cast<float>(std::max(0L, lowest - std::max(10L, overall.limit / 10)));
        ImGui::PlotLines("##remaining", sample_remaining, const_cast<std::deque<app::RateSample>*>(&samples),
                         static_cast<int>(samples.size()), 0, "remaining calls over time", floor_value,
                         static_cast<float>(std::max(1L, overall.limit)),
                         ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.0f));
    } else {
        text_dim("The plot fills in as API answers arrive.");
    }
    // Every room's posting budget (spec 8.2): the chosen room and rooms with
    // posts first, then the rest of the room list; the list scrolls.
    std::vector<std::string> rooms;
    auto add_room = [&](const std::string& room) {
        if (!room.empty() && std::find(rooms.begin(), rooms.end(), room) == rooms.end()) rooms.push_back(room);
    };
    add_room(app.selected_room());
    for (auto it = app.posts().rbegin(); it != app.posts().rend(); ++it) add_room(it->room_id);
    if (const auto& list = app.rooms().value) {
        for (const Room& room : *list) add_room(room.room_id);
    }
    if (rooms.empty()) return;
    ImGui::TextColored(kDim, "Posting budgets, %zu room%s (10 posts per 10 s each):", rooms.size(),
                       rooms.size() == 1 ? "" : "s");
    const float row = ImGui::GetFrameHeightWithSpacing();
    const float height = std::min(static_cast<float>(rooms.size()), 6.0f) * row + ImGui::GetStyle().WindowPadding.y * 2;
    ImGui::BeginChild("room_budgets", ImVec2(0, height), true);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rooms.size()), row);
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const std::string& room = rooms[static_cast<std::size_t>(i)];
            const RoomBudget budget = app.scheduler().budget(room, now);
            const long left = std::max(0L, budget.limit - budget.used);
            std::string text = room_name(app, room) + ": " + std::to_string(left) + " of " +
                               std::to_string(budget.limit) + " left";
            if (budget.next_free > now) text += ", next in " + countdown_to(budget.next_free, now);
            ImGui::ProgressBar(budget.limit > 0 ? static_cast<float>(left) / static_cast<float>(budget.limit) : 0.0f,
                               ImVec2(-FLT_MIN, 0), text.c_str());
        }
    }
    ImGui::EndChild();
}

// ===========================================================================
// [SECTION] HTTP log: exchanges, reveal, copy as curl
// ===========================================================================

void header_lines(const std::vector<std::pair<std::string, std::string>>& headers) {
    for (const auto& [name, value] : headers) {
        ImGui::TextColored(kDim, "%s:", name.c_str());
        ImGui::SameLine();
        ImGui::TextWrapped("%s", value.c_str());
    }
}

void log_panel(const App& app, UiState& ui, Intents& out) {
    if (!ImGui::CollapsingHeader("HTTP log", ImGuiTreeNodeFlags_DefaultOpen)) return;
    bool reveal = app.reveal();
    if (ImGui::Checkbox("Reveal secrets on screen", &reveal)) out.push_back(app::intent::SetReveal{reveal});
    note_widget(ui, "reveal");
    help_marker("Tokens, codes, verifiers and secrets are masked. Revealing shows them on this screen only; "
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
    ImGui::BeginChild("log_list", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 8.5f), true);
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
    note_widget(ui, "copy_curl");
    ImGui::BeginChild("log_detail", ImVec2(0, 0), true);
    ImGui::TextColored(kAccent, "%s", shown.request_line.c_str());
    header_lines(shown.request_headers);
    if (!shown.request_body.empty()) ImGui::TextWrapped("%s", shown.request_body.c_str());
    ImGui::Separator();
    ImGui::TextColored(kAccent, "status %s", shown.status_line.c_str());
    header_lines(shown.response_headers);
    if (!shown.response_body.empty()) ImGui::TextWrapped("%s", shown.response_body.c_str());
    ImGui::EndChild();
}

}  // namespace

// ===========================================================================
// [SECTION] Layout
// ===========================================================================

void apply_theme(float scale) {
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.WindowPadding = ImVec2(12, 10);
    style.FramePadding = ImVec2(8, 4);
    style.ItemSpacing = ImVec2(8, 6);
    style.ItemInnerSpacing = ImVec2(6, 4);
    style.IndentSpacing = 16;
    style.ScrollbarSize = 14;
    style.FrameRounding = 4;
    style.ChildRounding = 4;
    style.GrabRounding = 4;
    style.WindowRounding = 0;
    style.WindowBorderSize = 0;
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.0f);
    c[ImGuiCol_ChildBg] = ImVec4(0.13f, 0.14f, 0.17f, 1.0f);
    c[ImGuiCol_Header] = ImVec4(0.20f, 0.24f, 0.30f, 1.0f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.25f, 0.32f, 0.42f, 1.0f);
    c[ImGuiCol_HeaderActive] = ImVec4(0.28f, 0.38f, 0.52f, 1.0f);
    c[ImGuiCol_FrameBg] = ImVec4(0.18f, 0.20f, 0.24f, 1.0f);
    c[ImGuiCol_Button] = ImVec4(0.22f, 0.26f, 0.32f, 1.0f);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.28f, 0.34f, 0.42f, 1.0f);
    c[ImGuiCol_CheckMark] = kAccent;
    c[ImGuiCol_PlotLines] = kAccent;
    c[ImGuiCol_PlotHistogram] = kAccent;
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.17f, 0.19f, 0.23f, 1.0f);
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

std::vector<Intent> draw_ui(const App& app, UiState& ui, Instant now, float scale) {
    Intents out;
    ui.widgets.clear();
    if (app.mode() == app::Mode::none && ui.last_mode != app::Mode::none) {
        ui.message.fill('\0');
        ui.task_body.fill('\0');
        ui.task_assignees.fill('\0');
        ui.task_due.fill('\0');
        ui.form_error.clear();
        ui.selected_log = 0;
    }
    ui.last_mode = app.mode();
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::Begin("roomkey", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus);
    header(app, ui, now, out);

    // As many columns as fit at a readable width; they follow resizes.
    const float width = ImGui::GetContentRegionAvail().x;
    const int columns = width >= 1100.0f * scale ? 3 : width >= 700.0f * scale ? 2 : 1;
    if (ImGui::BeginTable("layout", columns, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV,
                          ImVec2(0, ImGui::GetContentRegionAvail().y))) {
        auto column = [&](const char* id) {
            ImGui::TableNextColumn();
            ImGui::BeginChild(id, ImVec2(0, ImGui::GetContentRegionAvail().y), false);
        };
        column("col1");
        connection_panel(app, ui, now, out);
        session_panel(app, ui, now, out);
        if (columns == 3) {
            ImGui::EndChild();
            column("col2");
        }
        account_panel(app, now, out);
        rooms_panel(app, now, out);
        if (columns == 2) {
            ImGui::EndChild();
            column("col2");
        }
        posting_panel(app, ui, now, out);
        if (columns == 3) {
            ImGui::EndChild();
            column("col3");
        }
        rate_panel(app, now);
        log_panel(app, ui, out);
        ImGui::EndChild();
        ImGui::EndTable();
    }
    ImGui::End();
    return out;
}

}  // namespace roomkey::web
