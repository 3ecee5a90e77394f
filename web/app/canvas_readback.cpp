// canvas_readback.cpp: see canvas_readback.hpp.
#include "app/canvas_readback.hpp"

#include <cstdlib>

namespace roomkey::app {

namespace {

bool in_probe_square(const ReadbackProbe& p, int x, int y) {
    return x >= p.rect_x && x < p.rect_x + p.rect_size && y >= p.rect_y && y < p.rect_y + p.rect_size;
}

bool near_expected(int value, int expected) {
    return std::abs(value - expected) <= kReadbackTolerance;
}

}  // namespace

ReadbackVerdict judge_readback(const ReadbackProbe& p) {
    const std::size_t size = static_cast<std::size_t>(p.width > 0 && p.height > 0 ? p.width * p.height * 4 : 0);
    if (size == 0 || p.blank.size() != size || p.rect.size() != size || p.glyph_first.size() != size ||
        p.glyph_second.size() != size) {
        return {false, "the canvas could not be read back"};
    }
    for (std::uint8_t byte : p.blank) {
        if (byte != 0) return {false, "a blank canvas read back as noise"};
    }
    for (int y = 0; y < p.height; ++y) {
        for (int x = 0; x < p.width; ++x) {
            const std::size_t at = static_cast<std::size_t>((y * p.width + x) * 4);
            const int expected = in_probe_square(p, x, y) ? 255 : 0;
            for (int channel = 0; channel < 4; ++channel) {
                if (!near_expected(p.rect[at + static_cast<std::size_t>(channel)], expected)) {
                    return {false, "a white square read back altered"};
                }
            }
        }
    }
    if (p.glyph_first != p.glyph_second) return {false, "the same drawing read back differently twice"};
    bool ink = false;
    for (std::size_t at = 3; at < size && !ink; at += 4) ink = p.glyph_first[at] > 0;
    if (!ink) return {false, "a drawn letter read back empty"};
    return {true, ""};
}

}  // namespace roomkey::app
