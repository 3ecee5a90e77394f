// ui_rate.cpp: rate limits: gauge, plot of x-ratelimit-remaining, per-room budgets.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/i18n.hpp"
#include "app/format.hpp"
#include "app/plot_axes.hpp"
#include "app/scope_help.hpp"
#include "roomkey/registration.hpp"
#include "app/time_text.hpp"
#include "app/i18n.hpp"
#include "ui_parts.hpp"
#include "ux_frame.hpp"

namespace roomkey::web::parts {

namespace {

float seconds_between(Instant from, Instant to) {
    return std::chrono::duration<float>(to - from).count();
}

// The plot of x-ratelimit-remaining: a value axis of calls with round
// ticks, the limit as a line, and a time axis ending at the latest reading
// (app/plot_axes.hpp). Every size follows the font, which follows the
// device-pixel ratio, so it reads the same at 100 % and 200 % zoom. The
// same labels, in words, describe it to assistive technology.
void rate_plot(UiState& ui, const std::vector<app::RateSample>& samples, long limit) {
    const float font = ImGui::GetFontSize();
    const float thin = std::max(1.0f, std::round(font / 14.0f));
    long lowest = limit;
    for (const app::RateSample& sample : samples) lowest = std::min(lowest, sample.remaining);
    // The value axis starts a little below the lowest reading, so a few calls show as a slope.
    const double low = static_cast<double>(std::max(0L, lowest - std::max(10L, limit / 10)));
    // Headroom above the limit, so readings just under it show below its line.
    const double high = static_cast<double>(std::max(1L, limit)) + (static_cast<double>(limit) - low) * 0.1;
    const std::vector<app::AxisTick> values = app::value_ticks(low, static_cast<double>(limit), 3);
    float label_width = 0;
    for (const app::AxisTick& tick : values)
        label_width = std::max(label_width, ImGui::CalcTextSize(tick.label.c_str()).x);

    const ImVec2 size(ImGui::GetContentRegionAvail().x, font * 7.5f);
    ImGui::Dummy(size);
    note_widget(ui, "rate_plot");
    const ImVec2 min = ImGui::GetItemRectMin();
    const ImVec2 max = ImGui::GetItemRectMax();
    const ImRect area(ImVec2(min.x + label_width + font * 0.6f, min.y + font * 1.4f),
                      ImVec2(max.x - font * 1.2f, max.y - font * 1.6f));
    if (area.GetWidth() < font * 4 || area.GetHeight() < font) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Text, 0.18f);
    const ImU32 dim = ImGui::ColorConvertFloat4ToU32(kDim);
    draw->AddRectFilled(area.Min, area.Max, ImGui::GetColorU32(ImGuiCol_FrameBg));

    auto y_of = [&](double value) {
        const double t = (std::clamp(value, low, high) - low) / std::max(1e-9, high - low);
        return area.Max.y - static_cast<float>(t) * area.GetHeight();
    };
    // Value axis: grid lines and their labels, right-aligned to the axis.
    for (const app::AxisTick& tick : values) {
        const float y = std::round(y_of(tick.at));
        draw->AddLine(ImVec2(area.Min.x, y), ImVec2(area.Max.x, y), grid, thin);
        const ImVec2 label = ImGui::CalcTextSize(tick.label.c_str());
        draw->AddText(ImVec2(area.Min.x - font * 0.3f - label.x, y - label.y * 0.5f), dim, tick.label.c_str());
    }
    // The limit: a line of its own colour with its label above it.
    const float limit_y = std::round(y_of(static_cast<double>(limit)));
    const ImU32 warn = ImGui::ColorConvertFloat4ToU32(kWarn);
    draw->AddLine(ImVec2(area.Min.x, limit_y), ImVec2(area.Max.x, limit_y), warn, thin * 2);
    const std::string limit_label = tr("rate.limit_line", {{"limit", std::to_string(limit)}});
    const ImVec2 limit_size = ImGui::CalcTextSize(limit_label.c_str());
    draw->AddText(ImVec2(area.Max.x - limit_size.x, limit_y - limit_size.y - thin * 2), warn, limit_label.c_str());

    // Time axis: ticks back from the latest reading.
    const Instant last = samples.back().at;
    // At least half a minute wide: readings a moment apart are drawn as the
    // moment they are, not stretched over the whole width.
    const float span = std::max(30.0f, seconds_between(samples.front().at, last));
    const int max_ticks = std::max(2, static_cast<int>(area.GetWidth() / (font * 5.0f)));
    const std::vector<app::AxisTick> times = app::time_ticks(span, max_ticks);
    auto x_of = [&](float before_last) {
        if (span <= 0) return area.Max.x;
        return area.Max.x - before_last / span * area.GetWidth();
    };
    for (const app::AxisTick& tick : times) {
        const float x = std::round(x_of(static_cast<float>(tick.at)));
        draw->AddLine(ImVec2(x, area.Max.y), ImVec2(x, area.Max.y + font * 0.3f), text, thin);
        const ImVec2 label = ImGui::CalcTextSize(tick.label.c_str());
        const float left = std::clamp(x - label.x * 0.5f, min.x, max.x - label.x);
        draw->AddText(ImVec2(left, area.Max.y + font * 0.35f), dim, tick.label.c_str());
    }
    // The axes themselves.
    draw->AddLine(ImVec2(area.Min.x, area.Min.y), ImVec2(area.Min.x, area.Max.y), text, thin);
    draw->AddLine(ImVec2(area.Min.x, area.Max.y), ImVec2(area.Max.x, area.Max.y), text, thin);

    // The readings.
    std::vector<ImVec2> points;
    points.reserve(samples.size());
    for (const app::RateSample& sample : samples) {
        points.emplace_back(x_of(seconds_between(sample.at, last)), y_of(static_cast<double>(sample.remaining)));
    }
    const ImU32 accent = ImGui::ColorConvertFloat4ToU32(kAccent);
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), accent, ImDrawFlags_None, thin * 2);
    draw->AddCircleFilled(points.back(), thin * 3, accent);

    // The same picture in words, for screen readers (an image in the tree).
    std::string words = tr("rate.plot_words", {{"left", std::to_string(samples.back().remaining)},
                                               {"limit", std::to_string(limit)},
                                               {"lowest", std::to_string(lowest)},
                                               {"limit_line", limit_label}});
    for (const app::AxisTick& tick : values) words += " " + tick.label;
    words += tr("rate.time_axis");
    for (auto it = times.rbegin(); it != times.rend(); ++it) words += " " + it->label;
    ux::describe_last_item("rate_plot", words);
}

}  // namespace

std::string local_deadline(const App& app, UiState& ui, Instant at, Instant now) {
    const std::string when = app::message_time_text(unix_seconds(at), unix_seconds(now), app.workspace().user_time());
    return tr(at >= now ? "time.deadline_in" : "time.deadline_ago", {{"time", when}, {"left", countdown_to(ui, at, now)}});
}

void rate_panel(const App& app, UiState& ui, Instant now) {
    if (!ImGui::CollapsingHeader(tr("rate.header"), ImGuiTreeNodeFlags_DefaultOpen)) return;
    const OverallBudget overall = app.scheduler().overall(now);
    const float fraction =
        overall.limit > 0 ? static_cast<float>(overall.remaining) / static_cast<float>(overall.limit) : 0.0f;
    std::string overlay =
        tr("rate.left", {{"left", std::to_string(overall.remaining)}, {"limit", std::to_string(overall.limit)}});
    if (overall.reset) overlay += ", " + tr("rate.resets_at", {{"when", local_deadline(app, ui, *overall.reset, now)}});
    if (!overall.from_headers) overlay += tr("rate.estimate");
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, bar_fill(fraction > 0.2f ? kGood : kWarn));
    ImGui::ProgressBar(std::clamp(fraction, 0.0f, 1.0f), ImVec2(-FLT_MIN, 0), overlay.c_str());
    ImGui::PopStyleColor();
    text_dim(tr("rate.summary", {{"headers", "x-ratelimit-*"}, {"count", std::to_string(app.counters().responses_429)}}));
    const auto& samples = app.rate_samples();
    if (samples.size() >= 2) {
        text_dim(tr("rate.plot_title", {{"header", "x-ratelimit-remaining"}}));
        rate_plot(ui, samples, std::max(1L, overall.limit));
    } else {
        text_dim(tr("rate.plot_empty"));
    }
    // Every room's posting budget (spec 8.2): the chosen room and rooms with
    // posts first, then the rest of the room list; the list scrolls.
    std::vector<std::string> rooms;
    auto add_room = [&](const std::string& room) {
        if (!room.empty() && std::find(rooms.begin(), rooms.end(), room) == rooms.end()) rooms.push_back(room);
    };
    add_room(app.dashboard().selected_room());
    for (auto it = app.posting().posts().rbegin(); it != app.posting().posts().rend(); ++it) add_room(it->room_id);
    if (const auto& list = app.dashboard().rooms().value) {
        for (const Room& room : *list) add_room(room.room_id);
    }
    if (rooms.empty()) return;
    ImGui::TextColored(kDim, "%s", tr_n("rate.posting_budgets", static_cast<long long>(rooms.size())).c_str());
    const float row = ImGui::GetFrameHeightWithSpacing();
    const float height = std::min(static_cast<float>(rooms.size()), 6.0f) * row + ImGui::GetStyle().WindowPadding.y * 2;
    ImGui::BeginChild("room_budgets", ImVec2(0, height), ImGuiChildFlags_Border);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rooms.size()), row);
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const std::string& room = rooms[static_cast<std::size_t>(i)];
            const RoomBudget budget = app.scheduler().budget(room, now);
            const long left = std::max(0L, budget.limit - budget.used);
            std::string text = tr("rate.room_left", {{"room", room_name(app, room)},
                                                      {"left", std::to_string(left)},
                                                      {"limit", std::to_string(budget.limit)}});
            if (budget.next_free > now) text += tr("rate.next_in", {{"time", countdown_to(ui, budget.next_free, now)}});
            ImGui::ProgressBar(budget.limit > 0 ? static_cast<float>(left) / static_cast<float>(budget.limit) : 0.0f,
                               ImVec2(-FLT_MIN, 0), text.c_str());
        }
    }
    ImGui::EndChild();
}

}  // namespace roomkey::web::parts
