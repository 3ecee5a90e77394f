// fetch_transport.hpp: the page's one HTTP transport, an adapter in the
// manner of Dear ImGui's imgui_impl_* backends: it sends shared/'s
// HttpRequest with one XMLHttpRequest and turns the answer into an
// HttpResponse with EVERY response header (x-ratelimit-*, WWW-Authenticate,
// ...). Pairs with roomkey-helper's same-origin routes (/config.json,
// /oauth/token, /api/..., /bff/...). Async only: outcomes are collected on
// the main thread and handed over between frames by take_fetch_outcomes().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/post_outcome.hpp"
#include "roomkey/http.hpp"

namespace roomkey::web {

// Exactly one of `response` and `failure` is set.
//
// What the browser can and cannot tell when no answer came: XMLHttpRequest
// reports status 0 with one "error" event both when the connection was
// refused (nothing sent: the helper is down) and when it broke after the
// request went out (the helper may have forwarded it). So `network_error`
// never proves "not sent"; the app treats a post that ends so as unknown.
// A timeout is XHR's own "timeout" event, fired at timeout_ms.
struct FetchOutcome {
    std::uint64_t id = 0;
    std::optional<HttpResponse> response;          // any HTTP status, 4xx/5xx included
    std::optional<app::TransportFailure> failure;  // set when no HTTP answer arrived
    std::string error;                             // failure in plain words, for the log
};

// 30 s: a hung request must end in an error the user can see.
inline constexpr unsigned kFetchTimeoutMs = 30000;
// An upload's body may take longer to go out than an ordinary request.
inline constexpr unsigned kUploadTimeoutMs = kFetchTimeoutMs * 4;

// Starts sending `request`; its outcome appears in take_fetch_outcomes().
// With `report_upload_progress`, each XHR upload progress event of the body
// goes to the upload progress listener.
void fetch_start(std::uint64_t id, const HttpRequest& request, unsigned timeout_ms = kFetchTimeoutMs,
                 bool report_upload_progress = false);

// The same transport for an answer the page keeps as a Blob (an image to
// decode), with the same timeout: a POST of `body` to `url` with the
// headers as a JSON array [name, value, ...]; `done(handle)` is called when
// it ended, and the answer waits in the page for the caller's own JS
// (file_images.cpp).
void fetch_blob_start(double handle, const char* url, const char* headers_json, const std::string& body,
                      void (*done)(double handle), unsigned timeout_ms = kFetchTimeoutMs);

// The outcomes that arrived since the last call, in arrival order.
std::vector<FetchOutcome> take_fetch_outcomes();

// Called (on the main thread, between frames) each time an outcome arrived,
// so the app can answer at once instead of at the next frame: a paced post
// then follows its predecessor without waiting up to a frame.
void set_fetch_listener(void (*listener)());
void set_upload_progress_listener(void (*listener)(std::uint64_t id, std::int64_t sent, std::int64_t total));

// "name: value\r\n..." (XMLHttpRequest.getAllResponseHeaders) into Headers.
Headers parse_raw_headers(const std::string& raw);

}  // namespace roomkey::web
