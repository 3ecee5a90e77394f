// request_body_rules.hpp: which request bodies the helper and the generated
// nginx front accept, route by route. The upload route (shared/'s catalog:
// an endpoint with a file part, POST /rooms/{room_id}/files, under /api)
// takes multipart/form-data with a boundary, up to kMaxUploadRequestBytes;
// every other route takes at most kMaxRequestBodyBytes and never
// multipart/form-data (upload_limits.hpp). The helper reads these functions,
// nginx_config.cpp writes the same rules as locations and maps.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "roomkey/endpoint_catalog.hpp"
#include "roomkey/http.hpp"

namespace roomkey::helper {

// Whether an endpoint takes a file part: shared/'s takes_file_part (endpoint_catalog.hpp).

// The catalog's endpoints that take a file part, in catalog order.
std::vector<const EndpointInfo*> upload_endpoints();

// Whether `method` `path` (a request path, e.g. "/api/rooms/5/files") is an
// upload route: under a route whose body rule is the catalog's (routes.hpp:
// /api/), a path match_endpoint() maps to an endpoint with a file part.
// `method` as on the wire ("POST").
bool is_upload_route(std::string_view method, std::string_view path);

// The largest body the route takes: `upload_bytes` for an upload route,
// `other_bytes` for any other (HelperConfig: kMaxUploadRequestBytes and
// kMaxRequestBodyBytes unless a test sets others).
std::size_t body_limit(std::string_view method, std::string_view path, std::size_t other_bytes,
                       std::size_t upload_bytes);

// Content-Type patterns, ECMAScript and PCRE alike, searched for
// case-insensitively in the header value (std::regex_search here, nginx's
// maps there; both anchor with ^ and end with (;|$), so no unbounded
// backtracking over a long value).
// The media type multipart/form-data, with or without parameters:
inline constexpr std::string_view kMultipartTypePattern = "^multipart/form-data[ \\t]*(;|$)";
// ... with a boundary parameter (RFC 2046 5.1.1: 1 to 70 characters; a
// token, or a quoted string that may hold spaces but not end in one), in a
// value of at most 512 characters. The character classes leave out '$' and
// the backslash, which nginx would read as a variable or an escape.
inline constexpr std::string_view kMultipartWithBoundaryPattern =
    "^(?=.{0,512}$)multipart/form-data[ \\t]*;(.*;)?[ \\t]*boundary=("
    "\"[0-9A-Za-z'()+_,./:=? -]{0,69}[0-9A-Za-z'()+_,./:=?-]\"|[0-9A-Za-z'+_.!#%&*^`|~-]{1,70})[ \\t]*(;|$)";

bool is_multipart_form_data(std::string_view content_type);
bool has_multipart_boundary(std::string_view content_type);

}  // namespace roomkey::helper
