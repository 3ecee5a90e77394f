// file_images.hpp: the browser side of image previews: fetches a
// download_url's image through roomkey-helper (POST /file-preview), decodes it
// (createImageBitmap, scaled down to kImageSide), puts the pixels in a WebGL
// texture and answers with intent::PreviewLoaded; frees the textures of
// previews far off screen (their rows not drawn) or over kImageBytes.
// Emscripten-only; pairs with App's effect::LoadImage (app/file_preview.hpp).
#pragma once

#include <string>
#include <vector>

#include "app/intents.hpp"

namespace roomkey::web {

// The longest side a preview's texture keeps (twice the drawn bound, for HiDPI screens).
inline constexpr int kImageSide = 640;
// The textures kept, in RGBA bytes: beyond it the rest of those near the screen go too.
inline constexpr long kImageBytes = 24L * 1024 * 1024;

struct ImageTexture {
    unsigned texture = 0;
    int width = 0;
    int height = 0;
};

// `deliver` gets each answer as an intent (main.cpp applies and settles them).
void install_image_loader(void (*deliver)(const std::vector<app::Intent>&));
void load_image(const std::string& file_id, const std::string& url);
// The texture of `file_id`, when one is kept.
const ImageTexture* image_texture(const std::string& file_id);
// The previews whose rows are drawn now (`near`): every other texture goes,
// and those beyond kImageBytes (in the file ids' order). Their files are reported
// freed in `out` (the UI's intents: applied after the frame).
void keep_images(const std::vector<std::string>& near, std::vector<app::Intent>& out);

}  // namespace roomkey::web
