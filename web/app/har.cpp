// har.cpp: the HTTP log as HAR 1.2 (har.hpp).
#include "app/har.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/time_text.hpp"
#include "roomkey/url.hpp"

namespace roomkey::app {

namespace {

using json = nlohmann::json;

// "2026-11-27T10:04:05.123Z" (ISO 8601, as HAR's startedDateTime), or with '-' for a file name.
std::string utc_text(Instant at, char colon, bool millis) {
    const std::int64_t ms = unix_ms(at);
    const std::int64_t seconds = ms / 1000 - (ms % 1000 < 0 ? 1 : 0);
    const LocalTime t = local_time(seconds, UserTime{});
    char out[40];
    std::snprintf(out, sizeof out, "%04lld-%02u-%02uT%02u%c%02u%c%02lld", static_cast<long long>(t.year), t.month,  // i18n: not shown (the HAR file format)
                  t.day, t.hour, colon, t.minute, colon, static_cast<long long>(seconds % 60 + (seconds % 60 < 0 ? 60 : 0)));
    std::string text = out;
    if (millis) {
        std::snprintf(out, sizeof out, ".%03lld", static_cast<long long>(ms - seconds * 1000));
        text += out;
    }
    return text + "Z";
}

// A JSON writer by hand: the HAR is written once per export, and text
// appends cost the wasm far less than a tree of initializer lists.
std::string as_json(std::string_view text) {
    return json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
}

void pairs(std::string& out, const char* name, const std::vector<std::pair<std::string, std::string>>& fields) {
    out += ",\"" + std::string(name) + "\":[";
    for (std::size_t i = 0; i < fields.size(); ++i) {
        out += (i ? ",{\"name\":" : "{\"name\":") + as_json(fields[i].first) + ",\"value\":" + as_json(fields[i].second) + "}";  // i18n: not shown (the HAR file format)
    }
    out += "]";
}

std::string mime_of(const Headers& headers) { return as_json(headers.get("content-type").value_or("")); }

// The members every request and response has: "httpVersion" ... "headers".
void common(std::string& out, const Headers& headers) {
    out += ",\"httpVersion\":\"HTTP/1.1\",\"cookies\":[],\"headersSize\":-1";  // i18n: not shown (the HAR file format)
    pairs(out, "headers", headers.fields());
}

void request_of(std::string& out, const HttpRequest& request, std::string_view origin) {
    std::string url = request.url;
    if (!url.empty() && url.front() == '/') url = std::string(origin) + url;
    FormFields query;
    if (const auto question = url.find('?'); question != std::string::npos) {
        auto fields = form_decode(std::string_view(url).substr(question + 1, url.find('#') - question - 1));
        if (fields) query = std::move(*fields);
    }
    out += "\"request\":{\"method\":\"" + std::string(to_string(request.method)) + "\",\"url\":" + as_json(url) +  // i18n: not shown (the HAR file format)
           ",\"bodySize\":" + std::to_string(request.body.size());  // i18n: not shown (the HAR file format)
    common(out, request.headers);
    pairs(out, "queryString", query);  // i18n: not shown (the HAR file format)
    if (!request.body.empty()) {
        out += ",\"postData\":{\"mimeType\":" + mime_of(request.headers) + ",\"text\":" + as_json(request.body);  // i18n: not shown (the HAR file format)
        if (has_form_content_type(request.headers)) {
            if (auto fields = form_decode(request.body)) pairs(out, "params", *fields);
        }
        out += "}";
    }
    out += "}";
}

void response_of(std::string& out, const LogEntry& entry) {
    const HttpResponse none;
    const HttpResponse& response = entry.response ? *entry.response : none;
    const std::string size = std::to_string(response.body.size());
    out += ",\"response\":{\"status\":" + std::to_string(entry.response ? response.status : 0) +  // i18n: not shown (the HAR file format)
           ",\"statusText\":\"\",\"redirectURL\":" + as_json(response.headers.get("location").value_or("")) +  // i18n: not shown (the HAR file format)
           ",\"bodySize\":" + (entry.response ? size : "-1") + ",\"content\":{\"size\":" + size +  // i18n: not shown (the HAR file format)
           ",\"mimeType\":" + mime_of(response.headers) + ",\"text\":" + as_json(response.body) + "}";  // i18n: not shown (the HAR file format)
    common(out, response.headers);
    out += "}";
}

// What the entry was: its purpose, then a step's note and decoded parameters or a failure.
std::string comment_of(const LogEntry& entry) {
    std::string text = entry.purpose;
    const auto line = [&](const std::string& more) { text += (text.empty() ? "" : "\n") + more; };
    if (!entry.step_note.empty()) line("flow step (not a fetch): " + entry.step_note);  // i18n: not shown (the HAR file format)
    for (const StepParameter& p : entry.step_parameters) line(p.name + ": " + p.value + (p.note.empty() ? "" : "  (" + p.note + ")"));
    if (!entry.transport_error.empty()) line("no response: " + entry.transport_error);  // i18n: not shown (the HAR file format)
    if (!entry.response && entry.transport_error.empty() && entry.step_note.empty()) line("pending: no answer yet");  // i18n: not shown (the HAR file format)
    return text;
}

}  // namespace

std::string write_har(const std::vector<LogEntry>& entries, const RedactionRules& rules, bool reveal,
                      std::string_view origin) {
    std::string out = "{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"roomkey\",\"version\":\"web\"},";  // i18n: not shown (the HAR file format)
    out += reveal ? "\"comment\":\"secrets REVEALED\"" : "\"comment\":\"secrets masked as ********\"";  // i18n: not shown (the HAR file format)
    out += ",\"entries\":[";  // i18n: not shown (the HAR file format)
    for (LogEntry entry : entries) {
        if (!reveal) mask_entry(entry, rules);
        const std::string ms = std::to_string(entry.finished ? (*entry.finished - entry.started).count() : 0);
        out += out.back() == '[' ? "\n{" : ",\n{";
        out += "\"startedDateTime\":\"" + utc_text(entry.started, ':', true) + "\",\"time\":" + ms +  // i18n: not shown (the HAR file format)
               ",\"cache\":{},\"timings\":{\"send\":0,\"wait\":" + ms + ",\"receive\":0},\"comment\":" +  // i18n: not shown (the HAR file format)
               as_json(comment_of(entry)) + ",";
        request_of(out, entry.request, origin);
        response_of(out, entry);
        out += "}";
    }
    return out + "\n]}}\n";
}

std::string har_file_name(Instant now) { return "roomkey-" + utc_text(now, '-', false) + ".har"; }

}  // namespace roomkey::app
