// app_redraw_region_test.cpp: the part of the canvas a new frame must draw
// again (web/app/redraw_region.hpp): nothing for the same picture, the
// changed triangles' box for a small change, the whole canvas when its size
// changed; unchanged triangles that moved within the draw lists (something
// before them got shorter) are not counted as changed.
#include "app/redraw_region.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_redraw_region_test {
namespace {

constexpr std::uint64_t kFont = 1;
constexpr std::uint64_t kOther = 2;
const PixelRect kNoClip{0, 0, 800, 600};

// Builds frames the way ImGui's draw lists look: quads (two triangles each)
// in batches of one clip rectangle and one texture.
class FrameBuilder {
public:
    FrameBuilder() {
        frame_.width = 800;
        frame_.height = 600;
    }
    FrameBuilder& size(float width, float height) {
        frame_.width = width;
        frame_.height = height;
        return *this;
    }
    // Starts a batch; the quads after it belong to it.
    FrameBuilder& batch(PixelRect clip = kNoClip, std::uint64_t texture = kFont) {
        DrawnBatch b;
        b.clip = clip;
        b.texture = texture;
        b.first_index = static_cast<std::uint32_t>(frame_.indices.size());
        frame_.batches.push_back(b);
        return *this;
    }
    // An axis-aligned quad; `u` stands for which glyph it shows.
    FrameBuilder& quad(float x, float y, float w, float h, float u = 0, std::uint32_t colour = 0xffffffff) {
        const auto base = static_cast<std::uint32_t>(frame_.vertices.size());
        frame_.vertices.push_back({x, y, u, 0, colour});
        frame_.vertices.push_back({x + w, y, u + 1, 0, colour});
        frame_.vertices.push_back({x + w, y + h, u + 1, 1, colour});
        frame_.vertices.push_back({x, y + h, u, 1, colour});
        for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) frame_.indices.push_back(base + i);
        frame_.batches.back().index_count += 6;
        return *this;
    }
    // A line of `text`, one quad per character, 10 px apart, the character
    // code as its glyph.
    FrameBuilder& text(float x, float y, const std::string& text) {
        for (char c : text) {
            quad(x, y, 8, 12, static_cast<float>(c));
            x += 10;
        }
        return *this;
    }
    DrawnFrame build() const { return frame_; }

private:
    DrawnFrame frame_;
};

// A panel: a background, a title, a countdown, a list of rows.
DrawnFrame panel(const std::string& countdown, int rows = 3) {
    FrameBuilder f;
    f.batch().quad(0, 0, 800, 600, 0, 0xff202020);
    f.text(20, 20, "Rate limit").text(20, 40, "resets in " + countdown);
    f.batch(PixelRect{0, 100, 800, 400}, kFont);
    for (int row = 0; row < rows; ++row) f.text(20, 110 + 20.0f * static_cast<float>(row), "room " + std::to_string(row));
    f.batch(kNoClip, kOther).quad(700, 560, 80, 24);  // a button
    return f.build();
}

void expect_rect(const std::optional<PixelRect>& got, PixelRect want) {
    ASSERT_TRUE(got.has_value()) << "no region to redraw";
    EXPECT_EQ(got->x0, want.x0);
    EXPECT_EQ(got->y0, want.y0);
    EXPECT_EQ(got->x1, want.x1);
    EXPECT_EQ(got->y1, want.y1);
}

TEST(RedrawRegion, TheSamePictureNeedsNothingDrawn) {
    EXPECT_FALSE(changed_region(panel("0:42"), panel("0:42")).has_value());
}

TEST(RedrawRegion, ACountdownTickRedrawsItsLastDigitOnly) {
    // "resets in 0:42" -> "0:41": the 14th character, x 150..158, y 40..52,
    // one pixel more on each side.
    expect_rect(changed_region(panel("0:42"), panel("0:41")), PixelRect{149, 39, 159, 53});
}

TEST(RedrawRegion, TwoChangedDigitsRedrawTheBoxAroundBoth) {
    expect_rect(changed_region(panel("1:00"), panel("0:59")), PixelRect{119, 39, 159, 53});
}

TEST(RedrawRegion, ARemovedRowRedrawsThatRowNotWhatFollowsIt) {
    // The button after the list moved within the draw data (fewer vertices
    // before it) but not on the canvas.
    const std::optional<PixelRect> region = changed_region(panel("0:42", 3), panel("0:42", 2));
    expect_rect(region, PixelRect{19, 149, 79, 163});
}

TEST(RedrawRegion, ACanvasOfAnotherSizeIsDrawnWhole) {
    const DrawnFrame shown = FrameBuilder().size(800, 600).batch().quad(0, 0, 10, 10).build();
    const DrawnFrame next = FrameBuilder().size(1024, 600).batch().quad(0, 0, 10, 10).build();
    expect_rect(changed_region(shown, next), PixelRect{0, 0, 1024, 600});
}

TEST(RedrawRegion, NothingShownYetMeansTheWholeCanvas) {
    expect_rect(changed_region(DrawnFrame{}, panel("0:42")), PixelRect{0, 0, 800, 600});
}

TEST(RedrawRegion, AChangeOutsideItsClipDrawsNothing) {
    // Row 14 of a list that shows rows 0..13: scrolled out of its clip.
    const PixelRect list{0, 0, 800, 100};
    const DrawnFrame shown = FrameBuilder().batch(list).text(0, 300, "a").build();
    const DrawnFrame next = FrameBuilder().batch(list).text(0, 300, "b").build();
    EXPECT_FALSE(changed_region(shown, next).has_value());
}

TEST(RedrawRegion, APartlyClippedChangeRedrawsOnlyItsVisiblePart) {
    const PixelRect list{0, 0, 800, 100};
    const DrawnFrame shown = FrameBuilder().batch(list).quad(10, 90, 20, 40, 1).build();
    const DrawnFrame next = FrameBuilder().batch(list).quad(10, 90, 20, 40, 2).build();
    expect_rect(changed_region(shown, next), PixelRect{9, 89, 31, 101});
}

TEST(RedrawRegion, TheSameTrianglesWithAnotherTextureOrClipAreAChange) {
    const DrawnFrame font = FrameBuilder().batch(kNoClip, kFont).quad(10, 10, 20, 20).build();
    const DrawnFrame image = FrameBuilder().batch(kNoClip, kOther).quad(10, 10, 20, 20).build();
    expect_rect(changed_region(font, image), PixelRect{9, 9, 31, 31});
    const DrawnFrame clipped = FrameBuilder().batch(PixelRect{0, 0, 20, 20}, kFont).quad(10, 10, 20, 20).build();
    expect_rect(changed_region(font, clipped), PixelRect{9, 9, 31, 31});
}

TEST(RedrawRegion, OverlappingShapesDrawnInAnotherOrderAreAChange) {
    // A popup over a button, then the button over the popup: the same
    // triangles, another picture where they overlap.
    const DrawnFrame shown = FrameBuilder().batch().quad(10, 10, 50, 50, 1).quad(40, 40, 50, 50, 2).build();
    const DrawnFrame next = FrameBuilder().batch().quad(40, 40, 50, 50, 2).quad(10, 10, 50, 50, 1).build();
    expect_rect(changed_region(shown, next), PixelRect{9, 9, 91, 91});
}

TEST(RedrawRegion, AColourChangeIsAChange) {
    const DrawnFrame shown = FrameBuilder().batch().quad(10, 10, 20, 20, 0, 0xff0000ff).build();
    const DrawnFrame next = FrameBuilder().batch().quad(10, 10, 20, 20, 0, 0xff00ff00).build();
    expect_rect(changed_region(shown, next), PixelRect{9, 9, 31, 31});
}

TEST(RedrawRegion, TheRegionStaysInsideTheCanvas) {
    const DrawnFrame shown = FrameBuilder().batch().quad(-5, -5, 20, 20, 1).quad(790, 590, 20, 20, 1).build();
    const DrawnFrame next = FrameBuilder().batch().quad(-5, -5, 20, 20, 2).quad(790, 590, 20, 20, 2).build();
    expect_rect(changed_region(shown, next), PixelRect{0, 0, 800, 600});
}

TEST(RedrawRegion, FractionalPositionsAreRoundedOutward) {
    const DrawnFrame shown = FrameBuilder().batch().quad(10.5f, 20.25f, 5, 5, 1).build();
    const DrawnFrame next = FrameBuilder().batch().quad(10.5f, 20.25f, 5, 5, 2).build();
    expect_rect(changed_region(shown, next), PixelRect{9, 19, 17, 27});
}

TEST(RedrawRegion, AnAddedShapeAtTheEndRedrawsOnlyIt) {
    const DrawnFrame shown = panel("0:42");
    DrawnFrame next = panel("0:42");
    // A tooltip drawn last, in a batch of its own.
    next.batches.push_back({kNoClip, kFont, static_cast<std::uint32_t>(next.indices.size()), 6});
    const auto base = static_cast<std::uint32_t>(next.vertices.size());
    next.vertices.insert(next.vertices.end(), {{300, 300, 0, 0, 1}, {340, 300, 1, 0, 1}, {340, 320, 1, 1, 1},
                                               {300, 320, 0, 1, 1}});
    for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) next.indices.push_back(base + i);
    expect_rect(changed_region(shown, next), PixelRect{299, 299, 341, 321});
}

}  // namespace
}  // namespace app_redraw_region_test
}  // namespace roomkey::app
