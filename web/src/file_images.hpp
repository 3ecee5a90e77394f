// file_images.hpp: the browser side of image previews: fetches a
// download_url's image through roomkey-helper (POST /file-preview), decodes it
// (createImageBitmap, scaled down to kImageSide), puts the pixels in a WebGL
// texture and answers (App::preview_loaded); frees the textures of
// previews far off screen (their rows not drawn), and near kImageBytes
// those off screen before any on it.
// Emscripten-only; pairs with App's effect::LoadImage (app/file_preview.hpp).
#pragma once

#include <string>
#include <vector>


namespace roomkey::web {

// The longest side a preview's texture keeps (twice the drawn bound, for HiDPI screens).
inline constexpr int kImageSide = 640;
// The textures kept, in RGBA bytes: beyond it the rest of those near the screen go too.
inline constexpr long kImageBytes = 24L * 1024 * 1024;

struct ImageTexture {
    std::string file_id;
    unsigned texture = 0;
    int width = 0;
    int height = 0;
};

// An image loaded (`ok`, its texture's size) or not, or its texture freed
// (`freed`): main.cpp hands it to App::preview_loaded and settles.
using ImageAnswer = void (*)(const std::string& file_id, bool ok, bool freed, int width, int height);
void install_image_loader(ImageAnswer answer);
void load_image(const std::string& file_id, const std::string& url);
// The texture of `file_id`, when one is kept.
const ImageTexture* image_texture(const std::string& file_id);
// The previews whose rows are drawn now (`near`) and those of them on
// screen: every other texture goes, and beyond kImageBytes near ones off
// screen (app::images_to_free); each is told freed after the frame (the UI
// holds the App read-only while it draws).
void keep_images(const std::vector<std::string>& near, const std::vector<std::string>& on_screen);

}  // namespace roomkey::web
