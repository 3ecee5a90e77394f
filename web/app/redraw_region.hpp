// redraw_region.hpp: which part of the canvas a new frame changed, so only
// that part is cleared and drawn again (idle cost).
//
// A drawn frame is a sequence of triangles, each with the clip rectangle and
// texture it is drawn with. Between two frames that differ a little (a
// countdown's digits, a caret, one row of a list) the sequences share a long
// common head and a long common tail. Every pixel outside the bounding box of
// the triangles in between is covered by the same triangles, in the same
// order, in both frames, so it already shows the new picture; inside that box
// the frame is cleared and drawn in full, clipped to the box. The result is
// the same picture, pixel for pixel, as a full redraw, at a fraction of the
// rasterizing (on a software-rendered canvas, most of an idle page's cost).
//
// Pure C++, no ImGui: web/src/frame_picture.cpp flattens ImGui's draw data
// into a DrawnFrame, and the unit tests build them by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace roomkey::app {

// In canvas pixels, x to the right and y down (ImGui's coordinates);
// [x0, x1) x [y0, y1).
struct PixelRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool empty() const { return x1 <= x0 || y1 <= y0; }
    friend bool operator==(const PixelRect& a, const PixelRect& b) {
        return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1;
    }
};

// The layout of ImDrawVert (position, texture coordinate, packed colour).
struct DrawnVertex {
    float x = 0, y = 0, u = 0, v = 0;
    std::uint32_t colour = 0;
};

// A run of triangles drawn with one clip rectangle and one texture.
struct DrawnBatch {
    PixelRect clip;
    std::uint64_t texture = 0;
    std::uint32_t first_index = 0;  // into DrawnFrame::indices, a multiple of 3
    std::uint32_t index_count = 0;  // a multiple of 3
};

// Everything a frame drew, all draw lists in drawing order; indices point
// into `vertices` directly.
struct DrawnFrame {
    float width = 0, height = 0;
    std::vector<DrawnVertex> vertices;
    std::vector<std::uint32_t> indices;
    std::vector<DrawnBatch> batches;
};

// The rectangle, in whole pixels inside the canvas, that must be drawn again
// to turn `shown` into `next`: nothing when the two draw the same picture,
// the whole canvas when the canvas size changed.
std::optional<PixelRect> changed_region(const DrawnFrame& shown, const DrawnFrame& next);

}  // namespace roomkey::app
