// file_images.cpp: see file_images.hpp. The page's CSP lets it fetch only
// its own origin and a download_url is on the service's host, so the image
// comes through roomkey-helper's POST /file-preview (the URL in the body,
// never in a URL or a log; the helper fetches only the configured
// service's origin, without credentials: docs/file_previews.md). It goes
// through the page's one transport (fetch_transport.hpp), as a Blob, with
// its timeout. A failure (the host refuses, the link expired, not an image,
// over the size limit, no answer in time) is an answer with ok=false: the
// app says the preview cannot be shown.
#include "file_images.hpp"

#include <GLES3/gl3.h>
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>

#include "app/file_preview.hpp"
#include "fetch_transport.hpp"
#include "roomkey/public_config.hpp"
#include "roomkey/url.hpp"

namespace {

using ImageDoneFn = void (*)(double, int, int, int);

// clang-format off
// The answer of fetch_blob_start `handle` (fetch_transport.cpp) -> a texture, or 0.
EM_JS(void, roomkey_js_image_decode, (double handle, double max_bytes, int side, ImageDoneFn done), {
    var store = Module['_rkHttp'], r = store['b' + handle];
    delete store['b' + handle];
    Promise.resolve(r).then(function(r) { if (r.e || r.s < 200 || r.s >= 300) throw r.s; return r.b; })
        .then(function(b) { if (b.size > max_bytes) throw 'size'; return createImageBitmap(b); })
        .then(function(full) {
            var s = Math.min(1, side / Math.max(full.width, full.height));
            if (s >= 1) return full;
            return createImageBitmap(full, {resizeWidth: Math.max(1, Math.round(full.width * s)),
                                            resizeHeight: Math.max(1, Math.round(full.height * s)),
                                            resizeQuality: 'high'}).then(function(small) { full.close(); return small; });
        })
        .then(function(bmp) {
            var gl = GLctx, t = gl.createTexture(), id = GL.getNewId(GL.textures);
            t.name = id;
            GL.textures[id] = t;
            gl.bindTexture(gl.TEXTURE_2D, t);
            gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
            gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
            gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
            gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
            gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bmp);
            gl.bindTexture(gl.TEXTURE_2D, null);
            var w = bmp.width, h = bmp.height;
            bmp.close();
            wasmTable.get(done)(handle, id, w, h);
        })
        .catch(function() { wasmTable.get(done)(handle, 0, 0, 0); });
});
// clang-format on

struct ImageLoader {
    roomkey::web::ImageAnswer answer = nullptr;
    std::vector<roomkey::web::ImageTexture> kept;  // a few: found by a walk
    std::vector<std::string> freed;  // told after the frame that freed them
};
ImageLoader& image_loader() {
    static ImageLoader l;
    return l;
}

void forget_image(const std::string& file_id) {
    auto& kept = image_loader().kept;
    for (auto it = kept.begin(); it != kept.end(); ++it) {
        if (it->file_id != file_id) continue;
        glDeleteTextures(1, &it->texture);
        kept.erase(it);
        return;
    }
}

void tell_freed(void*) {
    ImageLoader& l = image_loader();
    std::vector<std::string> freed;
    freed.swap(l.freed);
    for (const std::string& id : freed) l.answer(id, false, true, 0, 0);
}

// `handle` is the file's id (a resource id: digits, exact in a double).
void on_image_done(double handle, int texture, int width, int height) {
    ImageLoader& l = image_loader();
    const std::string file_id = std::to_string(static_cast<long long>(handle));
    forget_image(file_id);
    if (texture != 0) l.kept.push_back({file_id, static_cast<unsigned>(texture), width, height});
    l.answer(file_id, texture != 0, false, width, height);
}

// The preview's answer came, or none (an error, the transport's timeout).
void on_blob_done(double handle) {
    roomkey_js_image_decode(handle, static_cast<double>(roomkey::kMaxPreviewBytes), roomkey::web::kImageSide,
                            on_image_done);
}

}  // namespace

namespace roomkey::web {

void install_image_loader(ImageAnswer answer) {
    image_loader().answer = answer;
}

void load_image(const std::string& file_id, const std::string& url) {
    double handle = 0;  // FilePreviews asks only for resource ids of at most 15 digits
    for (char c : file_id) handle = handle * 10 + (c - '0');
    // The request's headers as the transport takes them: [name, value, ...].
    const std::string headers = "[\"Content-Type\",\"" +  // i18n: not shown (an HTTP header)
                                std::string(kFormContentType) + "\",\"" + std::string(kHelperRequestHeader) +
                                "\",\"1\"]";
    fetch_blob_start(handle, std::string(kHelperFilePreviewPath).c_str(), headers.c_str(), "url=" + percent_encode(url),
                     on_blob_done);
}

const ImageTexture* image_texture(const std::string& file_id) {
    for (const ImageTexture& t : image_loader().kept) {
        if (t.file_id == file_id) return &t;
    }
    return nullptr;
}

void keep_images(const std::vector<std::string>& near, const std::vector<std::string>& on_screen) {
    ImageLoader& l = image_loader();
    std::vector<app::KeptImage> kept;
    for (const ImageTexture& t : l.kept) kept.push_back({t.file_id, 4L * t.width * t.height});
    const std::vector<std::string> gone = app::images_to_free(kept, near, on_screen, kImageBytes);
    if (gone.empty()) return;
    for (const std::string& id : gone) forget_image(id);
    if (l.freed.empty()) emscripten_set_timeout(tell_freed, 0, nullptr);
    l.freed.insert(l.freed.end(), gone.begin(), gone.end());
}

}  // namespace roomkey::web
