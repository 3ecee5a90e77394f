// ui_rate.cpp: rate limits: gauge, plot of x-ratelimit-remaining, per-room budgets.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/format.hpp"
#include "app/scope_help.hpp"
#include "roomkey/registration.hpp"
#include "ui_parts.hpp"

namespace roomkey::web::parts {

namespace {

float sample_remaining(void* data, int index) {
    const auto* samples = static_cast<const std::deque<app::RateSample>*>(data);
    return static_cast<float>((*samples)[static_cast<std::size_t>(index)].remaining);
}

}  // namespace

void rate_panel(const App& app, UiState& ui, Instant now) {
    if (!ImGui::CollapsingHeader("Rate limits (spec 8)", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const OverallBudget overall = app.scheduler().overall(now);
    const float fraction =
        overall.limit > 0 ? static_cast<float>(overall.remaining) / static_cast<float>(overall.limit) : 0.0f;
    std::string overlay = std::to_string(overall.remaining) + " / " + std::to_string(overall.limit) + " left";
    if (overall.reset) overlay += ", resets in " + countdown_to(ui, *overall.reset, now);
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
            std::string text =
                room_name(app, room) + ": " + std::to_string(left) + " of " + std::to_string(budget.limit) + " left";
            if (budget.next_free > now) text += ", next in " + countdown_to(ui, budget.next_free, now);
            ImGui::ProgressBar(budget.limit > 0 ? static_cast<float>(left) / static_cast<float>(budget.limit) : 0.0f,
                               ImVec2(-FLT_MIN, 0), text.c_str());
        }
    }
    ImGui::EndChild();
}

}  // namespace roomkey::web::parts
