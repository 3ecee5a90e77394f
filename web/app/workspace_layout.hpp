// workspace_layout.hpp: which panes of the workspace are shown at a canvas width, and where: the one place
// that decides it (Material 3's list-detail layout and its compact / medium / expanded window classes).
//   expanded (>= 1200 px): room list | conversation | details (details only while open)
//   medium   (>= 800 px):  room list | conversation; with details, room list | conversation | details
//                          while the conversation keeps 480 px (a workspace from 1000 px), else the
//                          room list gives way until the details close: conversation | details,
//                          with "< Rooms" in the conversation (to_rooms)
//   compact  (<  800 px):  one pane at a time, room list -> conversation -> details, with a back control
// Details never lie over the conversation or its composer: beside them, or the whole pane (a sheet with
// Back). Measured in Chromium at 100 % (the workspace is the window less 24 px of padding):
// 1366x800 three panes (about 300 | 720 | 320); 1000x700 conversation | details (696 | 280);
// 760x700 and 390x844 the details alone. The composer's controls (Send, Attach, To, Info, Code, the
// send key) take about 480 px on one line (its hint 120 more) and wrap below; two panes under 800 px would leave the
// conversation narrower than the details.
// Widths are compared in layout pixels: CSS pixels divided by the UI scale, so a
// larger text size moves to fewer panes as a narrower window would.
#pragma once

#include <vector>

namespace roomkey::app {

inline constexpr float kExpandedMinWidth = 1200.0f;  // layout px
inline constexpr float kMediumMinWidth = 800.0f;

enum class WidthClass { compact, medium, expanded };
enum class Pane { room_list, conversation, details };

// Where the user is: a room open or not, its details asked for or not.
struct Navigation {
    bool room_open = false;
    bool details_open = false;
};

// A pane's horizontal place on the canvas, in CSS px (x from the left edge).
struct PaneBox {
    Pane pane = Pane::room_list;
    float x = 0.0f;
    float width = 0.0f;
};

struct WorkspaceLayout {
    WidthClass width_class = WidthClass::compact;
    // Side by side, left to right; they touch and their widths sum to the canvas width.
    std::vector<PaneBox> panes;
    // compact only, off the room list: a back control, and where it goes.
    bool back = false;
    // medium, the room list given way to the details: the conversation offers
    // "< Rooms" (navigate_back: the details close and the list is back), one
    // step to another room, as chat clients do on a narrow window.
    bool to_rooms = false;
};

WidthClass width_class(float canvas_css_px, float ui_scale);

// The panes for a canvas `canvas_css_px` wide at `ui_scale` (1 = 100 %), for
// the user at `nav`. A UI scale of 0 or less counts as 1.
WorkspaceLayout workspace_layout(float canvas_css_px, float ui_scale, const Navigation& nav);

// Where the back control takes the user: details -> conversation -> room list.
Navigation navigate_back(const Navigation& nav);

}  // namespace roomkey::app
