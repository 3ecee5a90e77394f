// canvas_readback.hpp: whether the browser's canvas read-back can be trusted
// to build the glyph atlas. The atlas is drawn with Canvas 2D and
// read back with getImageData (web/src/browser_font.cpp); with Firefox's
// privacy.resistFingerprinting (LibreWolf, Tor Browser and Mullvad Browser
// turn it on) or a similar anti-fingerprinting protection, the read-back is
// noise, and every glyph becomes a striped block. web/src draws a probe at
// start-up and this module judges it. Pure, so the rules are tested natively
// and under Node.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace roomkey::app {

// What the probe canvas read back, each an RGBA image of width x height.
struct ReadbackProbe {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> blank;  // a fresh canvas: nothing drawn
    // The same canvas with an opaque white rectangle at (rect_x, rect_y),
    // rect_size x rect_size pixels, and nothing else.
    std::vector<std::uint8_t> rect;
    int rect_x = 0;
    int rect_y = 0;
    int rect_size = 0;
    // A glyph drawn once, read back twice.
    std::vector<std::uint8_t> glyph_first;
    std::vector<std::uint8_t> glyph_second;
};

struct ReadbackVerdict {
    bool trustworthy = false;
    std::string why;  // for the notice when not: what the probe saw
};

// Trustworthy when a blank canvas reads back all zero, the rectangle reads
// back as drawn (each channel within kReadbackTolerance: rounding, and the
// one-level nudges some browsers add do not stripe a glyph), the glyph left
// ink, and the glyph's two read-backs agree byte for byte (noise is
// drawn afresh at each read).
inline constexpr int kReadbackTolerance = 2;
ReadbackVerdict judge_readback(const ReadbackProbe& probe);

}  // namespace roomkey::app
