// fetch_transport.cpp: HttpRequest -> emscripten_fetch -> HttpResponse.
#include "fetch_transport.hpp"

#include <emscripten/emscripten.h>
#include <emscripten/fetch.h>

#include <cstring>
#include <memory>

namespace roomkey::web {

namespace {

// Kept alive until the fetch ends: emscripten_fetch reads these pointers.
struct InFlight {
    std::uint64_t id = 0;
    double started_ms = 0;  // emscripten_get_now() when sent
    unsigned timeout_ms = 0;
    std::string url;
    std::string body;
    std::vector<std::string> header_text;
    std::vector<const char*> header_pointers;  // name, value, ..., nullptr
};

void (*g_listener)() = nullptr;

std::vector<FetchOutcome>& outcomes() {
    static std::vector<FetchOutcome> list;
    return list;
}

void finish(emscripten_fetch_t* fetch) {
    std::unique_ptr<InFlight> in_flight(static_cast<InFlight*>(fetch->userData));
    FetchOutcome outcome;
    outcome.id = in_flight->id;
    if (fetch->status == 0) {
        // No HTTP answer. XHR ends a timeout and a network error the same way
        // (readyState 4, status 0; emscripten_fetch hands over no event), so
        // the time it took tells them apart: a timeout fires at timeout_ms.
        const double took = emscripten_get_now() - in_flight->started_ms;
        const bool timed_out = in_flight->timeout_ms > 0 && took + 50.0 >= in_flight->timeout_ms;
        outcome.failure = timed_out ? app::TransportFailure::timeout : app::TransportFailure::network_error;
        outcome.error = app::describe(*outcome.failure);
    } else {
        HttpResponse response;
        response.status = fetch->status;
        const std::size_t length = emscripten_fetch_get_response_headers_length(fetch);
        if (length > 0) {
            std::string raw(length + 1, '\0');
            emscripten_fetch_get_response_headers(fetch, raw.data(), raw.size());
            raw.resize(length);
            response.headers = parse_raw_headers(raw);
        }
        if (fetch->data && fetch->numBytes > 0) {
            response.body.assign(fetch->data, static_cast<std::size_t>(fetch->numBytes));
        }
        outcome.response = std::move(response);
    }
    emscripten_fetch_close(fetch);
    outcomes().push_back(std::move(outcome));
    if (g_listener) g_listener();
}

}  // namespace

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

void fetch_start(std::uint64_t id, const HttpRequest& request, unsigned timeout_ms) {
    auto in_flight = std::make_unique<InFlight>();
    in_flight->id = id;
    in_flight->timeout_ms = timeout_ms;
    in_flight->url = request.url;
    in_flight->body = request.body;
    for (const auto& [name, value] : request.headers.fields()) {
        in_flight->header_text.push_back(name);
        in_flight->header_text.push_back(value);
    }
    for (const std::string& text : in_flight->header_text) in_flight->header_pointers.push_back(text.c_str());
    in_flight->header_pointers.push_back(nullptr);

    emscripten_fetch_attr_t attr;
    emscripten_fetch_attr_init(&attr);
    const std::string_view method = to_string(request.method);
    std::memcpy(attr.requestMethod, method.data(), method.size());
    attr.requestMethod[method.size()] = '\0';
    // Into memory only: nothing is cached or persisted (no IndexedDB).
    attr.attributes = EMSCRIPTEN_FETCH_LOAD_TO_MEMORY;
    attr.timeoutMSecs = timeout_ms;
    attr.requestHeaders = in_flight->header_pointers.data();
    if (!in_flight->body.empty()) {
        attr.requestData = in_flight->body.data();
        attr.requestDataSize = in_flight->body.size();
    }
    // Both callbacks carry the answer: emscripten_fetch calls onerror for any
    // status outside 2xx, and its data and headers are there all the same.
    attr.onsuccess = finish;
    attr.onerror = finish;
    attr.userData = in_flight.get();
    const std::string url = in_flight->url;
    in_flight->started_ms = emscripten_get_now();
    in_flight.release();  // owned by the fetch until finish()
    emscripten_fetch(&attr, url.c_str());
}

void deliver_fetch_outcome(FetchOutcome outcome) {
    outcomes().push_back(std::move(outcome));
    if (g_listener) g_listener();
}

void set_fetch_listener(void (*listener)()) {
    g_listener = listener;
}

std::vector<FetchOutcome> take_fetch_outcomes() {
    std::vector<FetchOutcome> taken;
    taken.swap(outcomes());
    return taken;
}

}  // namespace roomkey::web
