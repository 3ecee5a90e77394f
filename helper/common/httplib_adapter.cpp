// httplib_adapter.cpp: field-by-field copies between cpp-httplib and shared/.
#include "common/httplib_adapter.hpp"

#include <memory>

namespace roomkey::native {
namespace {

// Hop-by-hop and framing fields that httplib writes itself (RFC 9110 7.6.1).
bool is_framing_header(std::string_view name) {
    return iequals(name, "content-length") || iequals(name, "transfer-encoding") ||
           iequals(name, "connection") || iequals(name, "keep-alive");
}

}  // namespace

std::optional<Method> parse_method(std::string_view text) {
    if (text == "GET") return Method::Get;
    if (text == "POST") return Method::Post;
    if (text == "PUT") return Method::Put;
    if (text == "DELETE") return Method::Delete;
    return std::nullopt;
}

Headers from_httplib_headers(const httplib::Headers& headers) {
    Headers out;
    for (const auto& [name, value] : headers) out.add(name, value);
    return out;
}

httplib::Headers to_httplib_headers(const Headers& headers) {
    httplib::Headers out;
    for (const auto& [name, value] : headers.fields()) out.emplace(name, value);
    return out;
}

std::optional<HttpRequest> from_httplib_request(const httplib::Request& request) {
    auto method = parse_method(request.method);
    if (!method) return std::nullopt;
    HttpRequest out;
    out.method = *method;
    out.url = request.target;
    out.headers = from_httplib_headers(request.headers);
    // httplib adds these pseudo-headers to what the peer sent.
    out.headers.remove("REMOTE_ADDR");
    out.headers.remove("REMOTE_PORT");
    out.headers.remove("LOCAL_ADDR");
    out.headers.remove("LOCAL_PORT");
    out.body = request.body;
    return out;
}

void to_httplib_response(const HttpResponse& response, httplib::Response& out) {
    out.status = response.status;
    std::string content_type;
    for (const auto& [name, value] : response.headers.fields()) {
        if (is_framing_header(name)) continue;
        if (iequals(name, "content-type")) {
            content_type = value;
            continue;
        }
        out.headers.emplace(name, value);
    }
    const std::string type = content_type.empty() ? "application/octet-stream" : content_type;
    if (response.body.empty()) {
        if (!content_type.empty()) out.set_content(response.body, type);
        return;
    }
    // A provider of known length, which httplib sends as it is: it would
    // compress a set_content body of some types on its own, and whether an
    // answer is compressed is the handler's choice (a token answer never is).
    auto body = std::make_shared<std::string>(response.body);
    out.set_content_provider(body->size(), type, [body](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        return sink.write(body->data() + offset, length);
    });
}

HttpResponse from_httplib_response(const httplib::Response& response) {
    HttpResponse out;
    out.status = response.status;
    out.headers = from_httplib_headers(response.headers);
    out.body = response.body;
    return out;
}

}  // namespace roomkey::native
