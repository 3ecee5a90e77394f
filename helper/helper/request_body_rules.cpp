// request_body_rules.cpp: the rules of request_body_rules.hpp, read from
// shared/'s endpoint catalog.
#include "helper/request_body_rules.hpp"

#include <algorithm>
#include <regex>
#include <string>

#include "common/httplib_adapter.hpp"
#include "helper/routes.hpp"
#include "roomkey/endpoints.hpp"

namespace roomkey::helper {

std::vector<const EndpointInfo*> upload_endpoints() {
    std::vector<const EndpointInfo*> out;
    for (const EndpointInfo& info : endpoint_catalog()) {
        if (takes_file_part(info)) out.push_back(&info);
    }
    return out;
}

bool is_upload_route(std::string_view method, std::string_view path) {
    const auto parsed = native::parse_method(method);
    if (!parsed) return false;
    for (const Route& route : helper_routes()) {
        // The catalog's paths are under the row's prefix, less its '/'.
        if (route.body != BodyRule::api_catalog || route.match != PathMatch::prefix || !route_matches(route, path)) {
            continue;
        }
        const auto match = match_endpoint(*parsed, path.substr(route.path.size() - 1));
        return match && takes_file_part(endpoint_info(match->endpoint));
    }
    return false;
}

std::size_t body_limit(std::string_view method, std::string_view path, std::size_t other_bytes,
                       std::size_t upload_bytes) {
    return is_upload_route(method, path) ? upload_bytes : other_bytes;
}

bool is_multipart_form_data(std::string_view content_type) {
    static const std::regex pattern(std::string(kMultipartTypePattern), std::regex::icase);
    return std::regex_search(content_type.begin(), content_type.end(), pattern);
}

bool has_multipart_boundary(std::string_view content_type) {
    static const std::regex pattern(std::string(kMultipartWithBoundaryPattern), std::regex::icase);
    return std::regex_search(content_type.begin(), content_type.end(), pattern);
}

}  // namespace roomkey::helper
