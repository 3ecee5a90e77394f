// browser_font.hpp: the ImGui font atlas built from the browser's own UI font
// (system-ui), rasterized by Canvas 2D at the exact device-pixel size: crisp
// text at any HiDPI scale or zoom, and no font file in the download. Falls
// back to Dear ImGui's built-in ProggyClean when Canvas 2D cannot help.
// Emscripten-only; call between frames (it rebuilds io.Fonts).
#pragma once

namespace roomkey::web {

// Rebuilds io.Fonts with a font whose text is `pixel_size` device pixels
// tall. Returns false when it fell back to ProggyClean.
bool build_font_atlas(float pixel_size);

}  // namespace roomkey::web
