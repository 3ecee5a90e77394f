// browser_font.cpp: Canvas 2D glyphs as ImGui custom-rect glyphs, added on
// demand (see browser_font.hpp).
#include "browser_font.hpp"

#include <emscripten.h>
#include <imgui.h>

#include <cmath>
#include <string>
#include <vector>

#include "imgui_hooks.hpp"

namespace {

// clang-format off
// Measures the font; keeps one canvas for all glyphs. out: ascent, descent.
// The stack ends with the platforms' colour emoji fonts so emoji come in
// colour; every other script falls back through the browser's own fonts.
EM_JS(int, roomkey_js_font_open, (float px, float* out), {
    var canvas = document.createElement('canvas');
    var ctx = canvas.getContext('2d', {'willReadFrequently': true});
    if (!ctx) return 0;
    var font = px + 'px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", Arial, sans-serif, ' +
               '"Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji"';
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
    var m = f['ctx'].measureText(String.fromCodePoint(codepoint));
    HEAPF32[out >> 2] = m.width;
    HEAPF32[(out >> 2) + 1] = m['actualBoundingBoxLeft'] || 0;
    HEAPF32[(out >> 2) + 2] = m['actualBoundingBoxRight'] || m.width;
});

// Draws every glyph on one canvas the atlas's size and copies each glyph's
// rectangle into the RGBA atlas: one getImageData in all. Text glyphs are
// stored white with coverage as alpha (ImGui tints them); a glyph with
// colour of its own (emoji) keeps its colours and is flagged in colored[i].
// glyphs: count x [codepoint, x, y, width] (int32); pens: count x pen_x (float).
EM_JS(void, roomkey_js_glyphs_blit, (const int* glyphs, const float* pens, int count, int height, float baseline,
                                     unsigned char* atlas, int atlas_width, int atlas_height, int* colored), {
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
        ctx.fillText(String.fromCodePoint(HEAP32[g]), HEAP32[g + 1] + HEAPF32[(pens >> 2) + i], HEAP32[g + 2] + baseline);
        ctx.restore();
    }
    var data = ctx.getImageData(0, 0, atlas_width, atlas_height).data;
    for (i = 0; i < count; i++) {
        g = (glyphs >> 2) + i * 4;
        var x = HEAP32[g + 1], y = HEAP32[g + 2], w = HEAP32[g + 3];
        var row, col, p, color = 0;
        for (row = y; row < y + height && !color; row++) {
            for (col = x; col < x + w; col++) {
                p = (row * atlas_width + col) * 4;
                // Antialiased white text stays near white; colour means emoji.
                if (data[p + 3] > 32 && (data[p] < 200 || data[p + 1] < 200 || data[p + 2] < 200)) { color = 1; break; }
            }
        }
        HEAP32[(colored >> 2) + i] = color;
        for (row = y; row < y + height; row++) {
            for (col = x; col < x + w; col++) {
                p = (row * atlas_width + col) * 4;
                var o = atlas + p;
                HEAPU8[o] = color ? data[p] : 255;
                HEAPU8[o + 1] = color ? data[p + 1] : 255;
                HEAPU8[o + 2] = color ? data[p + 2] : 255;
                HEAPU8[o + 3] = data[p + 3];
            }
        }
    }
});

EM_JS(void, roomkey_js_font_close, (), {
    delete window['roomkey']['_font'];
});

EM_JS(void, roomkey_js_publish_font_stats, (int resident, int missing, int capacity, int rebuilds, int colored), {
    window['roomkey']['_publishFont']({'resident': resident, 'missing': missing, 'capacity': capacity,
                                       'rebuilds': rebuilds, 'colored': colored});
});
// clang-format on

struct Glyph {
    char32_t codepoint = 0;
    int rect = -1;
    int width = 0;
    float pen_x = 0;
};

struct FontState {
    roomkey::app::GlyphCache cache{roomkey::app::default_pinned_codepoints(), roomkey::web::kGlyphCapacity};
    int rebuilds = 0;
    int colored = 0;
};

FontState& font_state() {
    static FontState state;
    return state;
}

void on_codepoint(unsigned int codepoint) {
    font_state().cache.note(static_cast<char32_t>(codepoint));
}

}  // namespace

namespace roomkey::web {

void install_glyph_hook() {
    imgui_hooks::hooks().codepoint = on_codepoint;
}

const app::GlyphCache& glyph_cache() {
    return font_state().cache;
}

bool font_atlas_stale() {
    return font_state().cache.needs_rebuild();
}

void font_frame_done() {
    font_state().cache.next_frame();
}

void publish_font_stats() {
    const FontState& s = font_state();
    roomkey_js_publish_font_stats(static_cast<int>(s.cache.size()), static_cast<int>(s.cache.missing()),
                                  static_cast<int>(s.cache.capacity()), s.rebuilds, s.colored);
}

bool build_font_atlas(float pixel_size) {
    FontState& state = font_state();
    const std::vector<char32_t> codepoints = state.cache.rebuild();
    ++state.rebuilds;
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
    glyphs.reserve(codepoints.size());
    for (char32_t codepoint : codepoints) {
        roomkey_js_glyph_metrics(static_cast<int>(codepoint), metrics);
        const float advance = metrics[0];
        const float left = metrics[1];
        const float right = metrics[2];
        Glyph glyph;
        glyph.codepoint = codepoint;
        // One pixel of room for antialiasing. A combining mark has no
        // advance and ink left of the pen: it lands on the letter before it.
        glyph.pen_x = std::ceil(std::max(left, 0.0f)) + 1.0f;
        glyph.width =
            std::max(1, static_cast<int>(std::ceil(std::max(left, 0.0f)) + std::ceil(std::max(right, 0.0f))) + 2);
        glyph.rect = io.Fonts->AddCustomRectFontGlyph(font, static_cast<ImWchar>(codepoint), glyph.width, line_height,
                                                      advance, ImVec2(-glyph.pen_x, 0.0f));
        glyphs.push_back(glyph);
    }
    io.Fonts->Build();
    unsigned char* pixels = nullptr;
    int atlas_width = 0;
    int atlas_height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &atlas_width, &atlas_height);
    std::vector<int> packed;
    std::vector<float> pens;
    std::vector<char32_t> placed;
    for (const Glyph& glyph : glyphs) {
        const ImFontAtlasCustomRect* rect = io.Fonts->GetCustomRectByIndex(glyph.rect);
        if (!rect || !rect->IsPacked()) continue;
        packed.insert(packed.end(), {static_cast<int>(glyph.codepoint), rect->X, rect->Y, glyph.width});
        pens.push_back(glyph.pen_x);
        placed.push_back(glyph.codepoint);
    }
    std::vector<int> colored(pens.size(), 0);
    roomkey_js_glyphs_blit(packed.data(), pens.data(), static_cast<int>(pens.size()), line_height, ascent, pixels,
                           atlas_width, atlas_height, colored.data());
    roomkey_js_font_close();
    // Colour glyphs are drawn untinted (ImGui 1.86's ImFontGlyph::Colored).
    state.colored = 0;
    for (std::size_t i = 0; i < placed.size(); ++i) {
        if (!colored[i]) continue;
        if (auto* glyph = const_cast<ImFontGlyph*>(font->FindGlyphNoFallback(static_cast<ImWchar>(placed[i])))) {
            glyph->Colored = 1;
            ++state.colored;
        }
    }
    return true;
}

}  // namespace roomkey::web
