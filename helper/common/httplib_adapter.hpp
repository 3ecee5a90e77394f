// httplib_adapter.hpp: translates between cpp-httplib's Request/Response and
// shared/'s HttpRequest/HttpResponse (the native twin of web/'s fetch
// transport). Pairs with roomkey/http.hpp; does nothing but copy fields.
#pragma once

#include <httplib.h>

#include <optional>
#include <string_view>

#include "roomkey/http.hpp"

namespace roomkey::native {

// GET/POST/PUT/DELETE (case-sensitive, as RFC 9110 9.1 says); others are empty.
std::optional<Method> parse_method(std::string_view text);

Headers from_httplib_headers(const httplib::Headers& headers);
httplib::Headers to_httplib_headers(const Headers& headers);

// A request as a server received it. `url` is the raw request-target
// ("/path?query", still percent-encoded). Empty for methods shared/ does not know.
std::optional<HttpRequest> from_httplib_request(const httplib::Request& request);

// Fills `out` with status, headers and body. Content-Length and framing
// headers are left to httplib; Content-Type goes through set_content (or
// the provider) so httplib does not add its own. The body goes as it is:
// httplib never compresses it (a handler that wants it compressed does it
// and says Content-Encoding).
void to_httplib_response(const HttpResponse& response, httplib::Response& out);

// A response as a client received it (httplib::Client result).
HttpResponse from_httplib_response(const httplib::Response& response);

}  // namespace roomkey::native
