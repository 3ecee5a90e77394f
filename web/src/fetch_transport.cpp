// fetch_transport.cpp: HttpRequest -> XMLHttpRequest -> HttpResponse (see
// fetch_transport.hpp). Implements fetch_start and the outcome queue; the
// answer JS holds is pulled into wasm memory by C++ once its size is known,
// so no allocator is exported to JS.
//
// Why XMLHttpRequest itself rather than emscripten_fetch: emscripten_fetch
// hands over no event, so a timeout could only be guessed from the time a
// failure took, and its progress follows the download, never the upload.
#include "fetch_transport.hpp"

#include <emscripten/emscripten.h>

#include <nlohmann/json.hpp>

namespace {

using ProgressFn = void (*)(double, double, double);
using DoneFn = void (*)(double);

// How a request ended, as roomkey_js_http_take returns it with the status.
enum Ending : int { kAnswered = 0, kNetworkError = 1, kTimedOut = 2 };

// clang-format off
// With `blob` the answer stays in the page as a Blob under 'b' + id, for
// the caller's own JS (an image to decode: file_images.cpp).
EM_JS(void, roomkey_js_http_send, (double id, const char* method, const char* url, const char* headers_json,
                                   const unsigned char* body, int size, int timeout_ms, ProgressFn progress,
                                   DoneFn done, int blob), {
    var store = Module['_rkHttp'] || (Module['_rkHttp'] = {});
    var xhr = new XMLHttpRequest();
    xhr.open(UTF8ToString(method), UTF8ToString(url));
    var headers = JSON.parse(UTF8ToString(headers_json));
    for (var i = 0; i + 1 < headers.length; i += 2) xhr.setRequestHeader(headers[i], headers[i + 1]);
    xhr.timeout = timeout_ms;
    xhr.responseType = blob ? 'blob' : 'arraybuffer';
    // A copy: wasm memory may grow (and move) while the body is sent.
    var data = size > 0 ? HEAPU8.slice(body, body + size) : null;
    if (progress) {
        xhr.upload.onprogress = function(e) {
            wasmTable.get(progress)(id, e.loaded, e.lengthComputable ? e.total : size);
        };
    }
    var finish = function(ending) {
        store[blob ? 'b' + id : id] = {s : ending ? 0 : xhr.status, e : ending, h : xhr.getAllResponseHeaders() || "",
                                         b : blob ? xhr.response : new Uint8Array(xhr.response || new ArrayBuffer(0))};
        wasmTable.get(done)(id);
    };
    xhr.onload = function() { finish(0); };
    xhr.onerror = function() { finish(1); };
    xhr.onabort = function() { finish(1); };
    xhr.ontimeout = function() { finish(2); };
    xhr.send(data);
});

EM_JS(int, roomkey_js_http_header_bytes, (double id), {
    return lengthBytesUTF8(Module['_rkHttp'][id].h) + 1;
});
EM_JS(int, roomkey_js_http_body_bytes, (double id), {
    return Module['_rkHttp'][id].b.length;
});
// Copies the answer out and forgets it: status * 4 + Ending.
EM_JS(int, roomkey_js_http_take, (double id, char* headers, int capacity, unsigned char* body), {
    var r = Module['_rkHttp'][id];
    delete Module['_rkHttp'][id];
    stringToUTF8(r.h, headers, capacity);
    if (r.b.length > 0) HEAPU8.set(r.b, body);
    return r.s * 4 + r.e;
});
// clang-format on

void (*g_listener)() = nullptr;
void (*g_progress)(std::uint64_t, std::int64_t, std::int64_t) = nullptr;

std::vector<roomkey::web::FetchOutcome>& outcomes() {
    static std::vector<roomkey::web::FetchOutcome> list;
    return list;
}

void on_progress(double id, double sent, double total) {
    if (g_progress) {
        g_progress(static_cast<std::uint64_t>(id), static_cast<std::int64_t>(sent), static_cast<std::int64_t>(total));
    }
}

void on_done(double id) {
    const int header_bytes = roomkey_js_http_header_bytes(id);
    const int body_bytes = roomkey_js_http_body_bytes(id);
    std::string headers(static_cast<std::size_t>(header_bytes), '\0');
    std::string body(static_cast<std::size_t>(body_bytes), '\0');
    const int code =
        roomkey_js_http_take(id, headers.data(), header_bytes, reinterpret_cast<unsigned char*>(body.data()));
    headers.resize(headers.find('\0') == std::string::npos ? headers.size() : headers.find('\0'));
    roomkey::web::FetchOutcome outcome;
    outcome.id = static_cast<std::uint64_t>(id);
    const int ending = code % 4;
    if (ending != kAnswered || code / 4 == 0) {
        // No HTTP answer: XHR's own timeout event, or its error / abort.
        outcome.failure = ending == kTimedOut ? roomkey::app::TransportFailure::timeout
                                              : roomkey::app::TransportFailure::network_error;
        outcome.error = roomkey::app::describe(*outcome.failure);
    } else {
        roomkey::HttpResponse response;
        response.status = code / 4;
        response.headers = roomkey::web::parse_raw_headers(headers);
        response.body = std::move(body);
        outcome.response = std::move(response);
    }
    outcomes().push_back(std::move(outcome));
    if (g_listener) g_listener();
}

void send(double id, const char* method, const char* url, const char* headers_json, const std::string& body,
          unsigned timeout_ms, ProgressFn progress, DoneFn done, bool blob) {
    roomkey_js_http_send(id, method, url, headers_json, reinterpret_cast<const unsigned char*>(body.data()),
                         static_cast<int>(body.size()), static_cast<int>(timeout_ms), progress, done, blob);
}

}  // namespace

namespace roomkey::web {

Headers parse_raw_headers(const std::string& raw) {
    Headers headers;
    std::size_t start = 0;
    while (start < raw.size()) {
        std::size_t end = raw.find("\r\n", start);
        if (end == std::string::npos) end = raw.size();
        const std::string line = raw.substr(start, end - start);
        start = end + 2;
        const auto colon = line.find(':');
        if (colon == std::string::npos || colon == 0) continue;
        std::string value = line.substr(colon + 1);
        const auto first = value.find_first_not_of(" \t");
        value = first == std::string::npos ? std::string() : value.substr(first);
        headers.add(line.substr(0, colon), std::move(value));
    }
    return headers;
}

void fetch_start(std::uint64_t id, const HttpRequest& request, unsigned timeout_ms, bool report_upload_progress) {
    nlohmann::json headers = nlohmann::json::array();
    for (const auto& [name, value] : request.headers.fields()) {
        headers.push_back(name);
        headers.push_back(value);
    }
    const std::string headers_json = headers.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string method(to_string(request.method));
    send(static_cast<double>(id), method.c_str(), request.url.c_str(), headers_json.c_str(), request.body, timeout_ms,
         report_upload_progress ? on_progress : nullptr, on_done, false);
}

void fetch_blob_start(double handle, const char* url, const char* headers_json, const std::string& body,
                      void (*done)(double handle), unsigned timeout_ms) {
    send(handle, "POST", url, headers_json, body, timeout_ms, nullptr, done, true);
}

void set_fetch_listener(void (*listener)()) {
    g_listener = listener;
}

void set_upload_progress_listener(void (*listener)(std::uint64_t, std::int64_t, std::int64_t)) {
    g_progress = listener;
}

std::vector<FetchOutcome> take_fetch_outcomes() {
    std::vector<FetchOutcome> taken;
    taken.swap(outcomes());
    return taken;
}

}  // namespace roomkey::web
