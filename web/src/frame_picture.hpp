// frame_picture.hpp: what a drawn ImGui frame showed, for the draw-on-change
// settle rule (app/frame_clock.hpp): a digest of its draw lists and of the
// published widget positions, and whether ImGui will change the picture by
// itself next frame.
#pragma once

#include <string>

#include "app/frame_clock.hpp"

struct ImDrawData;

namespace roomkey::web {

// Call after ImGui::Render(). `widgets` is the widget-position text published
// with this frame (a test clicks where it says).
app::FramePicture frame_picture(const ImDrawData& draw_data, const std::string& widgets);

}  // namespace roomkey::web
