// file_transfer.cpp: the file picker, drops, and opening download links (see
// file_transfer.hpp). A chosen file that JS holds is pulled into wasm memory
// by C++ once its size is known: no allocator is exported to JS.
#include "file_transfer.hpp"

#include <emscripten/emscripten.h>

namespace {

using ReadyFn = void (*)();

// clang-format off
EM_JS(void, roomkey_js_install_file_input, (double max_bytes, ReadyFn ready), {
    var take = function(file, dropped) {
        var deliver = function(bytes) {
            Module['_rkFile'] = {n : file.name, t : file.type || "", b : bytes, s : file.size, d : dropped};
            wasmTable.get(ready)();
        };
        // Over the limit nothing is read: the app says it is too large.
        if (file.size > max_bytes) {
            deliver(new Uint8Array(0));
        } else {
            file.arrayBuffer().then(function(buffer) { deliver(new Uint8Array(buffer)); });
        }
    };
    var input = document.createElement('input');
    input.type = 'file';
    input.style.display = 'none';
    input.setAttribute('aria-hidden', 'true');
    input.id = 'roomkey-file-input';
    input.addEventListener('change', function() {
        var file = input.files && input.files[0];
        input.value = "";
        if (file) take(file, 0);
    });
    document.body.appendChild(input);
    Module['_rkPicker'] = input;
    var canvas = document.getElementById('canvas');
    if (canvas) {
        canvas.addEventListener('dragover', function(e) {
            if (e.dataTransfer && Array.prototype.indexOf.call(e.dataTransfer.types, 'Files') >= 0) {
                e.preventDefault();
                e.dataTransfer.dropEffect = 'copy';
            }
        });
        canvas.addEventListener('drop', function(e) {
            var file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
            if (!file) return;
            e.preventDefault();
            take(file, 1);
        });
    }
});

EM_JS(void, roomkey_js_open_file_picker, (), {
    if (Module['_rkPicker']) Module['_rkPicker'].click();
});

EM_JS(int, roomkey_js_file_name_bytes, (), { return lengthBytesUTF8(Module['_rkFile'].n) + 1; });
EM_JS(int, roomkey_js_file_type_bytes, (), { return lengthBytesUTF8(Module['_rkFile'].t) + 1; });
EM_JS(int, roomkey_js_file_data_bytes, (), { return Module['_rkFile'].b.length; });
EM_JS(double, roomkey_js_file_size, (), { return Module['_rkFile'].s; });
// Copies the chosen file out and forgets it; returns 1 when it was dropped.
EM_JS(int, roomkey_js_file_take, (char* name, int name_capacity, char* type, int type_capacity,
                                  unsigned char* data), {
    var f = Module['_rkFile'];
    Module['_rkFile'] = null;
    stringToUTF8(f.n, name, name_capacity);
    stringToUTF8(f.t, type, type_capacity);
    if (f.b.length > 0) HEAPU8.set(f.b, data);
    return f.d;
});

EM_JS(void, roomkey_js_open_download, (const char* url), {
    var a = document.createElement('a');
    a.href = UTF8ToString(url);
    a.download = "";
    a.rel = 'noopener noreferrer';
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
});
// A file made here (a HAR export), saved by the browser as a download.
EM_JS(void, roomkey_js_save_file, (const char* name, const char* mime, const char* text), {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([UTF8ToString(text)], {type: UTF8ToString(mime)}));
    a.download = UTF8ToString(name);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function() { URL.revokeObjectURL(a.href); }, 60000);
});
// clang-format on

void (*g_file_listener)(roomkey::web::ChosenFile) = nullptr;

void on_file_ready() {
    roomkey::web::ChosenFile file;
    const int name_bytes = roomkey_js_file_name_bytes();
    const int type_bytes = roomkey_js_file_type_bytes();
    const int data_bytes = roomkey_js_file_data_bytes();
    file.size = static_cast<std::int64_t>(roomkey_js_file_size());
    file.name.assign(static_cast<std::size_t>(name_bytes), '\0');
    file.mime.assign(static_cast<std::size_t>(type_bytes), '\0');
    file.data.assign(static_cast<std::size_t>(data_bytes), '\0');
    file.dropped = roomkey_js_file_take(file.name.data(), name_bytes, file.mime.data(), type_bytes,
                                        reinterpret_cast<unsigned char*>(file.data.data())) != 0;
    file.name.resize(static_cast<std::size_t>(name_bytes - 1));
    file.mime.resize(static_cast<std::size_t>(type_bytes - 1));
    if (g_file_listener) g_file_listener(std::move(file));
}

}  // namespace

namespace roomkey::web {

void install_file_input(std::int64_t max_bytes, void (*listener)(ChosenFile)) {
    g_file_listener = listener;
    roomkey_js_install_file_input(static_cast<double>(max_bytes), on_file_ready);
}

void open_file_picker() {
    roomkey_js_open_file_picker();
}

void open_download(const std::string& url) {
    roomkey_js_open_download(url.c_str());
}

void save_file(const std::string& name, const std::string& mime, const std::string& text) {
    roomkey_js_save_file(name.c_str(), mime.c_str(), text.c_str());
}

}  // namespace roomkey::web
