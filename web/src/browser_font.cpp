// browser_font.cpp: Canvas 2D glyphs as ImGui custom-rect glyphs.
#include "browser_font.hpp"

#include <emscripten.h>
#include <imgui.h>

#include <cmath>
#include <vector>

namespace {

// clang-format off
// Measures the font; keeps one canvas for all glyphs. out: ascent, descent.
EM_JS(int, roomkey_js_font_open, (float px, float* out), {
    var canvas = document.createElement('canvas');
    var ctx = canvas.getContext('2d', {'willReadFrequently': true});
    if (!ctx) return 0;
    var font = px + 'px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", Arial, sans-serif';
    ctx.font = font;
    var m = ctx.measureText('Hgjy|');
    var ascent = m['fontBoundingBoxAscent'] || m['actualBoundingBoxAscent'] || px * 0.8;
    var descent = m['fontBoundingBoxDescent'] || m['actualBoundingBoxDescent'] || px * 0.2;
    HEAPF32[out >> 2] = ascent;
    HEAPF32[(out >> 2) + 1] = descent;
    window['roomkey']['_font'] = {'canvas': canvas, 'ctx': ctx, 'font': font};
    return 1;
});

// out: advance, ink left, ink right (relative to the pen position).
EM_JS(void, roomkey_js_glyph_metrics, (int codepoint, float* out), {
    var f = window['roomkey']['_font'];
    var m = f['ctx'].measureText(String.fromCharCode(codepoint));
    HEAPF32[out >> 2] = m.width;
    HEAPF32[(out >> 2) + 1] = m['actualBoundingBoxLeft'] || 0;
    HEAPF32[(out >> 2) + 2] = m['actualBoundingBoxRight'] || m.width;
});

// Draws every glyph on one canvas the atlas's size and copies the coverage of
// each glyph's rectangle into the Alpha8 atlas: one getImageData in all.
// glyphs: count x [codepoint, x, y, width] (int32); pens: count x pen_x (float).
EM_JS(void, roomkey_js_glyphs_blit, (const int* glyphs, const float* pens, int count, int height, float baseline,
                                     unsigned char* atlas, int atlas_width, int atlas_height), {
    var f = window['roomkey']['_font'];
    var canvas = f['canvas'];
    var ctx = f['ctx'];
    canvas.width = atlas_width;
    canvas.height = atlas_height;
    ctx.font = f['font'];
    ctx.fillStyle = "#fff";
    ctx.textBaseline = "alphabetic";
    var i, g;
    for (i = 0; i < count; i++) {
        g = (glyphs >> 2) + i * 4;
        // Clipped to its own rectangle: ink must not bleed into a neighbour.
        ctx.save();
        ctx.beginPath();
        ctx.rect(HEAP32[g + 1], HEAP32[g + 2], HEAP32[g + 3], height);
        ctx.clip();
        ctx.fillText(String.fromCharCode(HEAP32[g]), HEAP32[g + 1] + HEAPF32[(pens >> 2) + i], HEAP32[g + 2] + baseline);
        ctx.restore();
    }
    var data = ctx.getImageData(0, 0, atlas_width, atlas_height).data;
    for (i = 0; i < count; i++) {
        g = (glyphs >> 2) + i * 4;
        var x = HEAP32[g + 1], y = HEAP32[g + 2], w = HEAP32[g + 3];
        for (var row = y; row < y + height; row++) {
            var base = row * atlas_width;
            for (var col = x; col < x + w; col++) HEAPU8[atlas + base + col] = data[(base + col) * 4 + 3];
        }
    }
});

EM_JS(void, roomkey_js_font_close, (), {
    delete window['roomkey']['_font'];
});
// clang-format on

struct Glyph {
    ImWchar codepoint;
    int rect = -1;
    int width = 0;
    float pen_x = 0;
};

// ASCII, Latin-1 and the few symbols the UI uses.
std::vector<ImWchar> wanted_codepoints() {
    std::vector<ImWchar> list;
    for (ImWchar c = 0x20; c < 0x7F; ++c) list.push_back(c);
    for (ImWchar c = 0xA0; c <= 0xFF; ++c) list.push_back(c);
    static const ImWchar kSymbols[] = {0x2013, 0x2014, 0x2022, 0x2026, 0x2190, 0x2191,
                                       0x2192, 0x2193, 0x2713, 0x2717, 0x21BB};
    for (ImWchar c : kSymbols) list.push_back(c);
    return list;
}

}  // namespace

namespace roomkey::web {

bool build_font_atlas(float pixel_size) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    float metrics[3] = {0, 0, 0};
    if (!roomkey_js_font_open(pixel_size, metrics)) {
        ImFontConfig config;
        config.SizePixels = std::round(pixel_size);
        io.Fonts->AddFontDefault(&config);
        return false;
    }
    const float ascent = std::ceil(metrics[0]);
    const int line_height = static_cast<int>(ascent + std::ceil(metrics[1]));

    // A carrier font: ProggyClean for the space only, at our line height; the
    // Canvas glyphs added below replace it (the last glyph for a codepoint wins).
    static const ImWchar kCarrierRange[] = {0x20, 0x20, 0};
    ImFontConfig config;
    config.SizePixels = static_cast<float>(line_height);
    config.GlyphRanges = kCarrierRange;
    ImFont* font = io.Fonts->AddFontDefault(&config);

    std::vector<Glyph> glyphs;
    for (ImWchar codepoint : wanted_codepoints()) {
        roomkey_js_glyph_metrics(codepoint, metrics);
        const float advance = metrics[0];
        const float left = metrics[1];
        const float right = metrics[2];
        Glyph glyph;
        glyph.codepoint = codepoint;
        glyph.pen_x = std::ceil(left) + 1.0f;  // one pixel of room for antialiasing
        glyph.width = std::max(1, static_cast<int>(std::ceil(left) + std::ceil(right)) + 2);
        glyph.rect = io.Fonts->AddCustomRectFontGlyph(font, codepoint, glyph.width, line_height, advance,
                                                      ImVec2(-glyph.pen_x, 0.0f));
        glyphs.push_back(glyph);
    }
    io.Fonts->Build();
    unsigned char* pixels = nullptr;
    int atlas_width = 0;
    int atlas_height = 0;
    io.Fonts->GetTexDataAsAlpha8(&pixels, &atlas_width, &atlas_height);
    std::vector<int> packed;
    std::vector<float> pens;
    for (const Glyph& glyph : glyphs) {
        const ImFontAtlasCustomRect* rect = io.Fonts->GetCustomRectByIndex(glyph.rect);
        if (!rect || !rect->IsPacked()) continue;
        packed.insert(packed.end(), {static_cast<int>(glyph.codepoint), rect->X, rect->Y, glyph.width});
        pens.push_back(glyph.pen_x);
    }
    roomkey_js_glyphs_blit(packed.data(), pens.data(), static_cast<int>(pens.size()), line_height, ascent, pixels,
                           atlas_width, atlas_height);
    roomkey_js_font_close();
    return true;
}

}  // namespace roomkey::web
