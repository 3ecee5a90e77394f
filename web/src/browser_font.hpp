// browser_font.hpp: the ImGui font atlas built from the browser's own fonts,
// rasterized by Canvas 2D at the exact device-pixel size: crisp text at any
// HiDPI scale or zoom, every script the browser can draw, colour emoji as
// the platform draws them, and no font file in the download. The atlas grows
// on demand: ImGui's UTF-8 decoder reports each codepoint text needs
// (web/imgui_hooks), the glyph cache (web/app/glyph_cache.hpp) decides what
// the atlas holds, and a rebuild between frames brings new glyphs in: the
// page keeps each glyph's metrics and pixels at the current size, so a
// rebuild measures and draws only the glyphs new to it. Falls
// back to Dear ImGui's built-in ProggyClean when Canvas 2D cannot help:
// when its read-back is noise (privacy.resistFingerprinting; a
// probe at the first build, web/app/canvas_readback.hpp), and then says so
// (font_notice) and which scripts it cannot show (web/app/builtin_font.hpp).
// Emscripten-only; call between frames (it rebuilds io.Fonts).
#pragma once

#include <string>

#include "app/glyph_cache.hpp"

namespace roomkey::web {

// The glyph cap: glyphs beyond it are evicted, least recently drawn first.
inline constexpr std::size_t kGlyphCapacity = 2048;

// Starts listening to the codepoints ImGui decodes. Call once, at start.
void install_glyph_hook();

// Rebuilds io.Fonts with a font whose text is `pixel_size` device pixels
// tall, holding every glyph the cache admits (new codepoints included).
// Returns false when it fell back to ProggyClean.
bool build_font_atlas(float pixel_size);

// The `pixel_size` of the last build_font_atlas: an em of the text, in
// device pixels (ImGui's font size is the taller line height).
float font_em();

// Text drawn since the last rebuild needs glyphs the atlas lacks and a
// rebuild can add (see GlyphCache::needs_rebuild). Never with the built-in font.
bool font_atlas_stale();

// With the built-in font: why, and which scripts the text drawn so far
// needed that it lacks ("" with the browser's fonts). For the UI, the
// page's fontStats() and the text mirror.
std::string font_notice();
// The notice changed since the last call (a script newly missing): the
// frame that drew that text drew the notice before it, so one more frame.
bool take_font_notice_changed();

// Marks the end of a drawn frame: glyphs noted from now on count as used in
// the next one (eviction keeps what the current frame drew).
void font_frame_done();

const app::GlyphCache& glyph_cache();

// {"resident":N,"missing":N,"capacity":N,"rebuilds":N,"colored":N,
// "builtin":bool,"notice":text|null,"missing_scripts":[...]} for
// window.roomkey.fontStats() (tests count glyphs missing from the atlas).
void publish_font_stats();

}  // namespace roomkey::web
