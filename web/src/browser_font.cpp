// browser_font.cpp: Canvas 2D glyphs as ImGui custom-rect glyphs, added on
// demand (see browser_font.hpp).
#include "browser_font.hpp"

#include <emscripten.h>
#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app/builtin_font.hpp"
#include "app/canvas_readback.hpp"
#include "app/emoji_sequences.hpp"
#include "imgui_hooks.hpp"

namespace {

// clang-format off
// The read-back probe (app/canvas_readback.hpp), on a canvas of
// its own made as the atlas's is. Writes four RGBA images of size x size
// into `out`, one after the other: the blank canvas, a white square at
// (square, square) of `square` pixels, then a letter drawn once and read
// twice. 0 when there is no Canvas 2D at all.
EM_JS(int, roomkey_js_readback_probe, (unsigned char* out, int size, int square), {
    var canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    var ctx = canvas.getContext('2d', {'willReadFrequently': true});
    if (!ctx) return 0;
    var bytes = size * size * 4;
    var read = function(index) {
        HEAPU8.set(ctx.getImageData(0, 0, size, size).data.subarray(0, bytes), out + index * bytes);
    };
    try {
        read(0);
        ctx.fillStyle = '#fff';
        ctx.fillRect(square, square, square, square);
        read(1);
        ctx.clearRect(0, 0, size, size);
        ctx.font = Math.round(size * 0.75) + 'px sans-serif';
        ctx.textBaseline = 'alphabetic';
        ctx.fillText('H', 1, Math.round(size * 0.8));
        read(2);
        read(3);
    } catch (e) {
        return 0;  // read-back refused outright (a tainted canvas, a blocked API)
    }
    return 1;
});

// Opens the font at `px` and keeps it, with every glyph made at that size,
// across rebuilds: a rebuild measures and draws only the glyphs new to it
// (a room's Japanese) and copies the others' pixels from here. Another size
// starts afresh. out: ascent, descent.
// Text falls back through the browser's own fonts for every script; an
// emoji (emoji_presentation, or a folded sequence) is asked of the
// platforms' colour emoji fonts first: a text font earlier in the stack
// may hold it in black and white (DejaVu Sans: 😀, 🚀), and WebKitGTK takes
// that one even with VS16.
EM_JS(int, roomkey_js_font_open, (float px, float* out), {
    var f = window['roomkey']['_font'];
    if (!f || f['px'] !== px) {
        var canvas = document.createElement('canvas');
        var ctx = canvas.getContext('2d', {'willReadFrequently': true});
        if (!ctx) return 0;
        var emoji = '"Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji"';
        var text = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", Arial, sans-serif';
        f = window['roomkey']['_font'] = {'px': px, 'canvas': canvas, 'ctx': ctx, 'font': px + 'px ' + text + ', ' + emoji,
            'emoji': px + 'px ' + emoji + ', ' + text,
            // codepoint -> {'m': [advance, ink left, ink right], 'px': RGBA rows, 'c': colour}
            'glyphs': {},
            // The glyph of `codepoint` (a folded sequence's: the sequence) in its font.
            'use': function(codepoint, emoji) {
                var seq = (window['roomkey']['_sequences'] || {})[codepoint];
                var want = emoji || seq ? f['emoji'] : f['font'];
                if (f['cur'] !== want) ctx.font = f['cur'] = want;
                return seq || String.fromCodePoint(codepoint);
            }};
    }
    var m = f['ctx'].measureText(f['use'](72) + 'gjy|');  // "Hgjy|" in the text font
    HEAPF32[out >> 2] = m['fontBoundingBoxAscent'] || m['actualBoundingBoxAscent'] || px * 0.8;
    HEAPF32[(out >> 2) + 1] = m['fontBoundingBoxDescent'] || m['actualBoundingBoxDescent'] || px * 0.2;
    return 1;
});

// out: advance, ink left, ink right (relative to the pen position).
EM_JS(void, roomkey_js_glyph_metrics, (int codepoint, int emoji, float* out), {
    var f = window['roomkey']['_font'];
    var g = f['glyphs'][codepoint];
    if (!g) {
        var m = f['ctx'].measureText(f['use'](codepoint, emoji));
        g = f['glyphs'][codepoint] = {'m': [m.width, m['actualBoundingBoxLeft'] || 0, m['actualBoundingBoxRight'] || m.width]};
    }
    HEAPF32.set(g['m'], out >> 2);
});

// Copies every glyph's pixels into its rectangle of the RGBA atlas. A glyph
// not drawn before is drawn first, alone at the corner of the canvas, and
// its rectangle read back (ink beyond it is not: it must not bleed into a
// neighbour). Text glyphs are stored white with coverage as alpha (ImGui
// tints them); a glyph with colour of its own (emoji) keeps its colours and
// is flagged (its emoji field becomes 1, 0 for any other). Glyphs no
// longer resident are forgotten.
// glyphs: count x [codepoint, x, y, width, emoji, pen_x] (int32).
EM_JS(void, roomkey_js_glyphs_blit, (int* glyphs, int count, int height, float baseline, unsigned char* atlas,
                                     int atlas_width), {
    var f = window['roomkey']['_font'], ctx = f['ctx'], kept = {}, ready = 0, i, g, w, e, px, p, color;
    for (i = 0; i < count; i++) {
        g = (glyphs >> 2) + i * 6;
        w = HEAP32[g + 3];
        e = kept[HEAP32[g]] = f['glyphs'][HEAP32[g]];
        if (!e['px']) {
            if (!ready++) {
                f['canvas'].width = atlas_width;
                f['canvas'].height = height;
                f['cur'] = null;  // a resized canvas forgets its font and fill
                ctx.fillStyle = "#fff";
                ctx.textBaseline = "alphabetic";
            }
            var text = f['use'](HEAP32[g], HEAP32[g + 4]);
            ctx.clearRect(0, 0, w, height);
            ctx.fillText(text, HEAP32[g + 5], baseline);
            px = ctx.getImageData(0, 0, w, height).data;
            // Antialiased white text stays near white; colour means emoji.
            for (p = 0, color = 0; p < px.length && !color; p += 4) {
                color = px[p + 3] > 32 && (px[p] < 200 || px[p + 1] < 200 || px[p + 2] < 200) ? 1 : 0;
            }
            for (p = 0; p < px.length && !color; p += 4) px[p] = px[p + 1] = px[p + 2] = 255;
            e['px'] = px;
            e['c'] = color;
        }
        for (p = 0; p < height; p++) {
            HEAPU8.set(e['px'].subarray(p * w * 4, (p + 1) * w * 4), atlas + ((HEAP32[g + 2] + p) * atlas_width + HEAP32[g + 1]) * 4);
        }
        HEAP32[g + 4] = e['c'];
    }
    f['glyphs'] = kept;
});

// builtin: 1 when the built-in font draws; notice: what the UI
// says about it; scripts: the missing scripts, one a line.
EM_JS(void, roomkey_js_publish_font_stats, (int resident, int missing, int capacity, int rebuilds, int colored,
                                            int builtin, const char* notice, const char* scripts), {
    var names = UTF8ToString(scripts);
    window['roomkey']['_publishFont']({'resident': resident, 'missing': missing, 'capacity': capacity,
                                       'rebuilds': rebuilds, 'colored': colored, 'builtin': !!builtin,
                                       'notice': UTF8ToString(notice) || null,
                                       'missing_scripts': names ? names.split('\n') : []});
});
// clang-format on

struct Glyph {
    char32_t codepoint = 0;
    int rect = -1;
    int width = 0;
    int pen_x = 0;
};

struct FontState {
    roomkey::app::GlyphCache cache{roomkey::app::default_pinned_codepoints(), roomkey::web::kGlyphCapacity};
    int rebuilds = 0;
    int colored = 0;
    float em = 0;  // the pixel size of the last build
    // Read-back is probed once, at the first build. Untrustworthy,
    // the built-in font draws from then on, and the scripts it lacks are
    // collected for the notice (which then needs a frame to show them).
    bool probed = false;
    roomkey::app::ReadbackVerdict readback;
    roomkey::app::MissingScripts missing_scripts;
    bool notice_changed = false;

    bool builtin() const { return probed && !readback.trustworthy; }
};

FontState& font_state() {
    static FontState state;
    return state;
}

void on_codepoint(unsigned int codepoint) {
    FontState& state = font_state();
    if (state.builtin()) {
        if (state.missing_scripts.note(static_cast<char32_t>(codepoint))) state.notice_changed = true;
        return;
    }
    state.cache.note(static_cast<char32_t>(codepoint));
}

// Side and square of the probe: big enough for a letter with some ink.
constexpr int kProbeSize = 16;
constexpr int kProbeSquare = 4;

roomkey::app::ReadbackVerdict probe_readback() {
    roomkey::app::ReadbackProbe probe;
    probe.width = kProbeSize;
    probe.height = kProbeSize;
    probe.rect_x = kProbeSquare;
    probe.rect_y = kProbeSquare;
    probe.rect_size = kProbeSquare;
    const std::size_t bytes = static_cast<std::size_t>(kProbeSize * kProbeSize * 4);
    std::vector<std::uint8_t> images(bytes * 4, 0);
    if (!roomkey_js_readback_probe(images.data(), kProbeSize, kProbeSquare)) {
        return {false, "the canvas cannot be read back"};
    }
    const auto image = [&](std::size_t index) {
        return std::vector<std::uint8_t>(images.begin() + static_cast<std::ptrdiff_t>(index * bytes),
                                         images.begin() + static_cast<std::ptrdiff_t>((index + 1) * bytes));
    };
    probe.blank = image(0);
    probe.rect = image(1);
    probe.glyph_first = image(2);
    probe.glyph_second = image(3);
    return roomkey::app::judge_readback(probe);
}

// The built-in font alone, at the text size (it needs no read-back).
void build_builtin_atlas(float pixel_size) {
    ImFontConfig config;
    config.SizePixels = std::round(pixel_size);
    ImGui::GetIO().Fonts->AddFontDefault(&config);
}

}  // namespace

namespace roomkey::web {

void install_glyph_hook() {
    imgui_hooks::hooks().codepoint = on_codepoint;
}

const app::GlyphCache& glyph_cache() {
    return font_state().cache;
}

float font_em() {
    return font_state().em;
}

bool font_atlas_stale() {
    // The built-in font holds what it holds: no rebuild adds a glyph.
    return !font_state().builtin() && font_state().cache.needs_rebuild();
}

bool take_font_notice_changed() {
    FontState& state = font_state();
    const bool changed = state.notice_changed;
    state.notice_changed = false;
    return changed;
}

std::string font_notice() {
    const FontState& state = font_state();
    if (!state.builtin()) return {};
    std::string text = "Text is drawn with roomkey's built-in font, which has Latin letters only: in this browser " +
                       state.readback.why +
                       " (privacy.resistFingerprinting and similar protections do that), so its own fonts cannot be "
                       "used.";
    const std::string missing = state.missing_scripts.sentence();
    if (!missing.empty()) text += " Not shown: " + missing + ".";
    return text;
}

void font_frame_done() {
    font_state().cache.next_frame();
}

void publish_font_stats() {
    const FontState& s = font_state();
    std::string scripts;
    for (const std::string& name : s.missing_scripts.names()) scripts += (scripts.empty() ? "" : "\n") + name;
    roomkey_js_publish_font_stats(static_cast<int>(s.cache.size()), static_cast<int>(s.cache.missing()),
                                  static_cast<int>(s.cache.capacity()), s.rebuilds, s.colored, s.builtin() ? 1 : 0,
                                  font_notice().c_str(), scripts.c_str());
}

bool build_font_atlas(float pixel_size) {
    FontState& state = font_state();
    if (!state.probed) {
        state.readback = probe_readback();
        state.probed = true;
        state.notice_changed = !state.readback.trustworthy;
    }
    ++state.rebuilds;
    state.em = pixel_size;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    if (state.builtin()) {
        build_builtin_atlas(pixel_size);
        return false;
    }
    const std::vector<char32_t> codepoints = state.cache.rebuild();
    float metrics[3] = {0, 0, 0};
    if (!roomkey_js_font_open(pixel_size, metrics)) {
        build_builtin_atlas(pixel_size);
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
    // AddFontDefault names ProggyClean's U+0085 as the ellipsis, a control
    // character no Canvas glyph stands for: a shortened label (a tab's) then
    // ended in the replacement glyph. U+2026 is pinned in every atlas.
    font->EllipsisChar = 0x2026;

    std::vector<Glyph> glyphs;
    glyphs.reserve(codepoints.size());
    for (char32_t codepoint : codepoints) {
        roomkey_js_glyph_metrics(static_cast<int>(codepoint), roomkey::app::emoji_presentation(codepoint) ? 1 : 0,
                                 metrics);
        const float advance = metrics[0];
        const float left = metrics[1];
        const float right = metrics[2];
        Glyph glyph;
        glyph.codepoint = codepoint;
        // One pixel of room for antialiasing. A combining mark has no
        // advance and ink left of the pen: it lands on the letter before it.
        glyph.pen_x = static_cast<int>(std::ceil(std::max(left, 0.0f))) + 1;
        glyph.width =
            std::max(1, static_cast<int>(std::ceil(std::max(left, 0.0f)) + std::ceil(std::max(right, 0.0f))) + 2);
        glyph.rect = io.Fonts->AddCustomRectFontGlyph(font, static_cast<ImWchar>(codepoint), glyph.width, line_height,
                                                      advance, ImVec2(static_cast<float>(-glyph.pen_x), 0.0f));
        glyphs.push_back(glyph);
    }
    io.Fonts->Build();
    unsigned char* pixels = nullptr;
    int atlas_width = 0;
    int atlas_height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &atlas_width, &atlas_height);
    std::vector<int> packed;
    for (const Glyph& glyph : glyphs) {
        const ImFontAtlasCustomRect* rect = io.Fonts->GetCustomRectByIndex(glyph.rect);
        if (!rect || !rect->IsPacked()) continue;
        packed.insert(packed.end(), {static_cast<int>(glyph.codepoint), rect->X, rect->Y, glyph.width,
                                     roomkey::app::emoji_presentation(glyph.codepoint) ? 1 : 0, glyph.pen_x});
    }
    roomkey_js_glyphs_blit(packed.data(), static_cast<int>(packed.size() / 6), line_height, ascent, pixels,
                           atlas_width);
    // Colour glyphs are drawn untinted (ImGui's ImFontGlyph::Colored).
    state.colored = 0;
    for (std::size_t i = 0; i < packed.size(); i += 6) {
        if (!packed[i + 4]) continue;
        if (auto* glyph = const_cast<ImFontGlyph*>(font->FindGlyphNoFallback(static_cast<ImWchar>(packed[i])))) {
            glyph->Colored = 1;
            ++state.colored;
        }
    }
    return true;
}

}  // namespace roomkey::web
