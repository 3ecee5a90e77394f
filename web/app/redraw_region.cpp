// redraw_region.cpp: see redraw_region.hpp.
#include "app/redraw_region.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace roomkey::app {

namespace {

// A frame's triangles by number, in drawing order: for each, its batch and
// where its three indices start.
class Triangles {
public:
    explicit Triangles(const DrawnFrame& frame) : frame_(frame) {
        for (std::uint32_t b = 0; b < frame.batches.size(); ++b) {
            const DrawnBatch& batch = frame.batches[b];
            for (std::uint32_t i = 0; i + 3 <= batch.index_count; i += 3) {
                triangles_.push_back({b, batch.first_index + i});
            }
        }
    }
    std::size_t size() const { return triangles_.size(); }
    const DrawnBatch& batch(std::size_t t) const { return frame_.batches[triangles_[t].batch]; }
    const DrawnVertex& vertex(std::size_t t, int corner) const {
        return frame_.vertices[frame_.indices[triangles_[t].first_index + static_cast<std::size_t>(corner)]];
    }

    // What the triangle can colour: its bounding box within its clip.
    PixelRect reach(std::size_t t) const {
        PixelRect box{vertex(t, 0).x, vertex(t, 0).y, vertex(t, 0).x, vertex(t, 0).y};
        for (int corner = 1; corner < 3; ++corner) {
            box.x0 = std::min(box.x0, vertex(t, corner).x);
            box.y0 = std::min(box.y0, vertex(t, corner).y);
            box.x1 = std::max(box.x1, vertex(t, corner).x);
            box.y1 = std::max(box.y1, vertex(t, corner).y);
        }
        const PixelRect& clip = batch(t).clip;
        return {std::max(box.x0, clip.x0), std::max(box.y0, clip.y0), std::min(box.x1, clip.x1),
                std::min(box.y1, clip.y1)};
    }

private:
    struct Triangle {
        std::uint32_t batch;
        std::uint32_t first_index;
    };
    const DrawnFrame& frame_;
    std::vector<Triangle> triangles_;
};

bool same_vertex(const DrawnVertex& a, const DrawnVertex& b) {
    // Bitwise: the same bits rasterize to the same pixels.
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool same_triangle(const Triangles& a, std::size_t i, const Triangles& b, std::size_t j) {
    const DrawnBatch& batch_a = a.batch(i);
    const DrawnBatch& batch_b = b.batch(j);
    if (!(batch_a.clip == batch_b.clip) || batch_a.texture != batch_b.texture) return false;
    for (int corner = 0; corner < 3; ++corner) {
        if (!same_vertex(a.vertex(i, corner), b.vertex(j, corner))) return false;
    }
    return true;
}

void add(std::optional<PixelRect>& region, const PixelRect& rect) {
    if (rect.empty()) return;  // clipped away: draws nothing
    if (!region) {
        region = rect;
        return;
    }
    region->x0 = std::min(region->x0, rect.x0);
    region->y0 = std::min(region->y0, rect.y0);
    region->x1 = std::max(region->x1, rect.x1);
    region->y1 = std::max(region->y1, rect.y1);
}

}  // namespace

std::optional<PixelRect> changed_region(const DrawnFrame& shown, const DrawnFrame& next) {
    const PixelRect canvas{0, 0, next.width, next.height};
    if (shown.width != next.width || shown.height != next.height) return canvas;

    const Triangles before(shown);
    const Triangles after(next);
    const std::size_t shorter = std::min(before.size(), after.size());
    std::size_t head = 0;
    while (head < shorter && same_triangle(before, head, after, head)) ++head;
    std::size_t tail = 0;
    while (tail < shorter - head &&
           same_triangle(before, before.size() - 1 - tail, after, after.size() - 1 - tail)) {
        ++tail;
    }

    std::optional<PixelRect> region;
    for (std::size_t t = head; t < before.size() - tail; ++t) add(region, before.reach(t));
    for (std::size_t t = head; t < after.size() - tail; ++t) add(region, after.reach(t));
    if (!region) return std::nullopt;
    // Whole pixels, one more on each side for rounding in the rasterizer and
    // in the backend's scissor, and never outside the canvas.
    PixelRect whole{std::floor(region->x0) - 1, std::floor(region->y0) - 1, std::ceil(region->x1) + 1,
                    std::ceil(region->y1) + 1};
    whole.x0 = std::max(whole.x0, 0.0f);
    whole.y0 = std::max(whole.y0, 0.0f);
    whole.x1 = std::min(whole.x1, canvas.x1);
    whole.y1 = std::min(whole.y1, canvas.y1);
    if (whole.empty()) return std::nullopt;
    return whole;
}

}  // namespace roomkey::app
