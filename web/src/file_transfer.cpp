// file_transfer.cpp: XHR upload with progress, the file picker, drops, and
// opening download links (see file_transfer.hpp). Results that JS holds
// (an XHR's answer, a chosen file) are pulled into wasm memory by C++ once
// their size is known: no allocator is exported to JS.
#include "file_transfer.hpp"

#include <emscripten/emscripten.h>

#include <nlohmann/json.hpp>

#include "fetch_transport.hpp"

namespace {

using ProgressFn = void (*)(double, double, double);
using DoneFn = void (*)(double);
using ReadyFn = void (*)();

// clang-format off
EM_JS(void, roomkey_js_upload, (double id, const char* method, const char* url, const char* headers_json,
                                const unsigned char* body, int size, int timeout_ms, ProgressFn progress,
                                DoneFn done), {
    var store = Module['_rkUploads'] || (Module['_rkUploads'] = {});
    var xhr = new XMLHttpRequest();
    xhr.open(UTF8ToString(method), UTF8ToString(url));
    var headers = JSON.parse(UTF8ToString(headers_json));
    for (var i = 0; i + 1 < headers.length; i += 2) xhr.setRequestHeader(headers[i], headers[i + 1]);
    xhr.timeout = timeout_ms;
    xhr.responseType = 'arraybuffer';
    // A copy: wasm memory may grow (and move) while the body is sent.
    var data = HEAPU8.slice(body, body + size);
    xhr.upload.onprogress = function(e) {
        wasmTable.get(progress)(id, e.loaded, e.lengthComputable ? e.total : size);
    };
    var finish = function(timedOut) {
        store[id] = {s : xhr.status, h : xhr.getAllResponseHeaders() || "",
                     b : new Uint8Array(xhr.response || new ArrayBuffer(0)), t : timedOut};
        wasmTable.get(done)(id);
    };
    xhr.onload = function() { finish(0); };
    xhr.onerror = function() { finish(0); };
    xhr.onabort = function() { finish(0); };
    xhr.ontimeout = function() { finish(1); };
    xhr.send(data);
});

EM_JS(int, roomkey_js_upload_header_bytes, (double id), {
    return lengthBytesUTF8(Module['_rkUploads'][id].h) + 1;
});
EM_JS(int, roomkey_js_upload_body_bytes, (double id), {
    return Module['_rkUploads'][id].b.length;
});
// Copies the answer out and forgets it: status * 2 + (timed out ? 1 : 0).
EM_JS(int, roomkey_js_upload_take, (double id, char* headers, int capacity, unsigned char* body), {
    var r = Module['_rkUploads'][id];
    delete Module['_rkUploads'][id];
    stringToUTF8(r.h, headers, capacity);
    if (r.b.length > 0) HEAPU8.set(r.b, body);
    return r.s * 2 + (r.t ? 1 : 0);
});

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
// clang-format on

void (*g_progress)(std::uint64_t, std::int64_t, std::int64_t) = nullptr;
void (*g_file_listener)(roomkey::web::ChosenFile) = nullptr;

void on_progress(double id, double sent, double total) {
    if (g_progress) {
        g_progress(static_cast<std::uint64_t>(id), static_cast<std::int64_t>(sent), static_cast<std::int64_t>(total));
    }
}

void on_done(double id) {
    const int header_bytes = roomkey_js_upload_header_bytes(id);
    const int body_bytes = roomkey_js_upload_body_bytes(id);
    std::string headers(static_cast<std::size_t>(header_bytes), '\0');
    std::string body(static_cast<std::size_t>(body_bytes), '\0');
    const int code = roomkey_js_upload_take(id, headers.data(), header_bytes,
                                            reinterpret_cast<unsigned char*>(body.data()));
    headers.resize(headers.find('\0') == std::string::npos ? headers.size() : headers.find('\0'));
    roomkey::web::FetchOutcome outcome;
    outcome.id = static_cast<std::uint64_t>(id);
    const int status = code / 2;
    if (status == 0) {
        outcome.failure = (code % 2) ? roomkey::app::TransportFailure::timeout
                                     : roomkey::app::TransportFailure::network_error;
        outcome.error = roomkey::app::describe(*outcome.failure);
    } else {
        roomkey::HttpResponse response;
        response.status = status;
        response.headers = roomkey::web::parse_raw_headers(headers);
        response.body = std::move(body);
        outcome.response = std::move(response);
    }
    roomkey::web::deliver_fetch_outcome(std::move(outcome));
}

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

void upload_start(std::uint64_t id, const HttpRequest& request, unsigned timeout_ms) {
    nlohmann::json headers = nlohmann::json::array();
    for (const auto& [name, value] : request.headers.fields()) {
        headers.push_back(name);
        headers.push_back(value);
    }
    const std::string headers_json = headers.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string method(to_string(request.method));
    roomkey_js_upload(static_cast<double>(id), method.c_str(), request.url.c_str(), headers_json.c_str(),
                      reinterpret_cast<const unsigned char*>(request.body.data()), static_cast<int>(request.body.size()),
                      static_cast<int>(timeout_ms), on_progress, on_done);
}

void set_upload_progress_listener(void (*listener)(std::uint64_t, std::int64_t, std::int64_t)) {
    g_progress = listener;
}

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

}  // namespace roomkey::web
