// workspace_layout.cpp: panes chosen by width (see workspace_layout.hpp).
#include "app/workspace_layout.hpp"

#include <algorithm>
#include <cmath>

namespace roomkey::app {

namespace workspace_layout_detail {
namespace {

// Side panes in layout px: a share of the width within bounds a room name and
// a task line fit in. The conversation takes the rest, so it is the largest.
constexpr float kListShare = 0.22f;
constexpr float kListMin = 240.0f;
constexpr float kListMax = 320.0f;
constexpr float kDetailsShare = 0.24f;
constexpr float kDetailsMin = 280.0f;
constexpr float kDetailsMax = 360.0f;
// The conversation's least width beside both side panes: its lines and the composer's controls on one line.
constexpr float kConversationMin = 480.0f;

float side_width(float layout_width, float scale, float share, float low, float high) {
    // Whole CSS pixels, so the edges between panes fall on pixels.
    return std::round(std::clamp(layout_width * share, low, high) * scale);
}

float valid_scale(float ui_scale) {
    return ui_scale > 0.0f ? ui_scale : 1.0f;
}

}  // namespace
}  // namespace workspace_layout_detail

WidthClass width_class(float canvas_css_px, float ui_scale) {
    const float layout_width = canvas_css_px / workspace_layout_detail::valid_scale(ui_scale);
    if (layout_width >= kExpandedMinWidth) return WidthClass::expanded;
    if (layout_width >= kMediumMinWidth) return WidthClass::medium;
    return WidthClass::compact;
}

WorkspaceLayout workspace_layout(float canvas_css_px, float ui_scale, const Navigation& nav) {
    using namespace workspace_layout_detail;
    const float scale = valid_scale(ui_scale);
    const float width = std::max(0.0f, canvas_css_px);
    const float layout_width = width / scale;
    WorkspaceLayout layout;
    layout.width_class = width_class(width, scale);
    const bool details = nav.room_open && nav.details_open;

    if (layout.width_class == WidthClass::compact) {
        const Pane shown = details ? Pane::details : nav.room_open ? Pane::conversation : Pane::room_list;
        layout.panes.push_back(PaneBox{shown, 0.0f, width});
        layout.back = shown != Pane::room_list;
        return layout;
    }

    const float list = side_width(layout_width, scale, kListShare, kListMin, kListMax);
    const float side = details ? side_width(layout_width, scale, kDetailsShare, kDetailsMin, kDetailsMax) : 0.0f;
    // The room list gives way to the details where the conversation would keep less than its least.
    const float list_shown = width - list - side >= kConversationMin * scale ? list : 0.0f;
    if (list_shown > 0.0f) layout.panes.push_back(PaneBox{Pane::room_list, 0.0f, list});
    layout.to_rooms = list_shown == 0.0f;
    layout.panes.push_back(PaneBox{Pane::conversation, list_shown, width - list_shown - side});
    if (details) layout.panes.push_back(PaneBox{Pane::details, width - side, side});
    return layout;
}

Navigation navigate_back(const Navigation& nav) {
    Navigation back = nav;
    if (nav.room_open && nav.details_open) {
        back.details_open = false;
    } else {
        back.room_open = false;
        back.details_open = false;
    }
    return back;
}

}  // namespace roomkey::app
