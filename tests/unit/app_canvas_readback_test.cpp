// Whether canvas read-back can be trusted for the glyph atlas:
// what privacy.resistFingerprinting's noise looks like to the probe, and
// what a faithful browser reads back (web/app/canvas_readback.hpp).
#include "app/canvas_readback.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_canvas_readback_test {
namespace {

constexpr int kReadbackSide = 16;

std::vector<std::uint8_t> readback_blank_image() {
    return std::vector<std::uint8_t>(kReadbackSide * kReadbackSide * 4, 0);
}

// What a browser that reads back faithfully gives: a white 4x4 square at
// (4, 4), and an "H" of two stems and a bar.
ReadbackProbe faithful_readback_probe() {
    ReadbackProbe p;
    p.width = kReadbackSide;
    p.height = kReadbackSide;
    p.rect_x = 4;
    p.rect_y = 4;
    p.rect_size = 4;
    p.blank = readback_blank_image();
    p.rect = readback_blank_image();
    for (int y = 4; y < 8; ++y) {
        for (int x = 4; x < 8; ++x) {
            for (int c = 0; c < 4; ++c) p.rect[static_cast<std::size_t>((y * kReadbackSide + x) * 4 + c)] = 255;
        }
    }
    p.glyph_first = readback_blank_image();
    for (int y = 3; y < 13; ++y) {
        for (int x : {2, 8}) p.glyph_first[static_cast<std::size_t>((y * kReadbackSide + x) * 4 + 3)] = 230;
    }
    for (int x = 2; x < 9; ++x) p.glyph_first[static_cast<std::size_t>((8 * kReadbackSide + x) * 4 + 3)] = 200;
    p.glyph_second = p.glyph_first;
    return p;
}

// Firefox's resistFingerprinting answers getImageData with random bytes.
void add_readback_noise(std::vector<std::uint8_t>& image, std::mt19937& random) {
    for (auto& byte : image) byte = static_cast<std::uint8_t>(random() & 0xFF);
}

TEST(CanvasReadback, AFaithfulReadBackIsTrusted) {
    const ReadbackVerdict verdict = judge_readback(faithful_readback_probe());
    EXPECT_TRUE(verdict.trustworthy) << verdict.why;
    EXPECT_EQ(verdict.why, "");
}

TEST(CanvasReadback, NoiseOnEveryReadIsNotTrusted) {
    std::mt19937 random(28);
    ReadbackProbe p = faithful_readback_probe();
    for (auto* image : {&p.blank, &p.rect, &p.glyph_first, &p.glyph_second}) add_readback_noise(*image, random);
    const ReadbackVerdict verdict = judge_readback(p);
    EXPECT_FALSE(verdict.trustworthy);
    EXPECT_EQ(verdict.why, "a blank canvas read back as noise");
}

TEST(CanvasReadback, AnAllWhitePlaceholderIsNotTrusted) {
    // Older Firefox releases give an opaque white image instead of noise.
    ReadbackProbe p = faithful_readback_probe();
    for (auto* image : {&p.blank, &p.rect, &p.glyph_first, &p.glyph_second}) image->assign(image->size(), 255);
    EXPECT_FALSE(judge_readback(p).trustworthy);
}

TEST(CanvasReadback, NoiseOnlyWhereSomethingWasDrawnIsNotTrusted) {
    // Protections that leave an empty canvas alone and perturb drawn pixels.
    ReadbackProbe p = faithful_readback_probe();
    p.rect[static_cast<std::size_t>((5 * kReadbackSide + 5) * 4)] = 180;
    const ReadbackVerdict verdict = judge_readback(p);
    EXPECT_FALSE(verdict.trustworthy);
    EXPECT_EQ(verdict.why, "a white square read back altered");
}

TEST(CanvasReadback, OneLevelNudgesAreTolerated) {
    ReadbackProbe p = faithful_readback_probe();
    p.rect[static_cast<std::size_t>((5 * kReadbackSide + 5) * 4)] = 254;
    p.rect[static_cast<std::size_t>((0 * kReadbackSide + 0) * 4 + 2)] = 1;
    EXPECT_TRUE(judge_readback(p).trustworthy) << judge_readback(p).why;
}

TEST(CanvasReadback, TwoReadsOfTheSameDrawingThatDifferAreNotTrusted) {
    ReadbackProbe p = faithful_readback_probe();
    p.glyph_second[static_cast<std::size_t>((8 * kReadbackSide + 4) * 4 + 3)] = 201;
    const ReadbackVerdict verdict = judge_readback(p);
    EXPECT_FALSE(verdict.trustworthy);
    EXPECT_EQ(verdict.why, "the same drawing read back differently twice");
}

TEST(CanvasReadback, ALetterThatLeftNoInkIsNotTrusted) {
    ReadbackProbe p = faithful_readback_probe();
    p.glyph_first = readback_blank_image();
    p.glyph_second = readback_blank_image();
    EXPECT_EQ(judge_readback(p).why, "a drawn letter read back empty");
}

TEST(CanvasReadback, AMissingOrShortImageIsNotTrusted) {
    ReadbackProbe p = faithful_readback_probe();
    p.glyph_second.pop_back();
    EXPECT_FALSE(judge_readback(p).trustworthy);
    EXPECT_FALSE(judge_readback(ReadbackProbe{}).trustworthy);
}

}  // namespace
}  // namespace app_canvas_readback_test
}  // namespace roomkey::app
