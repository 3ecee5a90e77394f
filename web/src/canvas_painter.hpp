// canvas_painter.hpp: puts a drawn ImGui frame on the canvas, and of the
// canvas only the part that changed since the last frame it painted
// (app/redraw_region.hpp). The WebGL context keeps its drawing buffer
// between frames (preserveDrawingBuffer), so the rest stays as it was.
#pragma once

#include <optional>

#include "app/redraw_region.hpp"

struct ImDrawData;
struct ImVec4;

namespace roomkey::web {

// Creates the WebGL2 context on #canvas that partial repaints need:
// preserveDrawingBuffer, and no depth, stencil or multisampling (ImGui uses
// none of them). False when the browser gives no WebGL2.
bool create_canvas_context();

class CanvasPainter {
public:
    // `canvas_intact`: the canvas still shows the last frame painted (false
    // after a resize, which blanks it, or a change of theme or font texture).
    // `draw_data` is ImGui's, after ImGui::Render(), drawn with the canvas's
    // own program (it reads no GL state back, as ImGui's backend does).
    void paint(ImDrawData& draw_data, const ImVec4& background, bool canvas_intact);

    // The region the last paint() drew again (none: the picture was the same).
    const std::optional<app::PixelRect>& last_region() const { return last_region_; }

private:
    std::optional<app::DrawnFrame> shown_;
    std::optional<app::PixelRect> last_region_;
};

}  // namespace roomkey::web
