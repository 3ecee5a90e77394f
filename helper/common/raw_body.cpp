// raw_body.cpp: the Content-Type swap of raw_body.hpp.
#include "common/raw_body.hpp"

#include <string>
#include <string_view>

namespace roomkey::native {
namespace {

// The prefixes httplib tests for, case-sensitively, at the start of the
// value (Request::is_multipart_form_data() and Server::read_content()).
constexpr std::string_view kTypesHttplibReads[] = {"multipart/form-data", "application/x-www-form-urlencoded"};

// httplib serves one request at a time on a thread, from the pre-routing
// handler to the route; the pre-routing handler sets this for every request
// that parsed, so no request sees another's.
thread_local bool t_content_type_hidden = false;

// The first Content-Type field, the one httplib reads (get_header_value).
// httplib hands its handlers its own, non-const Request (see
// refuse_unsafe_framing()).
std::string* first_content_type(const httplib::Request& request) {
    auto range = const_cast<httplib::Request&>(request).headers.equal_range("Content-Type");
    return range.first == range.second ? nullptr : &range.first->second;
}

}  // namespace

void keep_body_raw(const httplib::Request& request) {
    t_content_type_hidden = false;
    std::string* value = first_content_type(request);
    if (value == nullptr) return;
    for (std::string_view type : kTypesHttplibReads) {
        if (value->compare(0, type.size(), type) == 0) {
            (*value)[0] = static_cast<char>((*value)[0] - 'a' + 'A');
            t_content_type_hidden = true;
            return;
        }
    }
}

void restore_content_type(const httplib::Request& request) {
    if (!t_content_type_hidden) return;
    t_content_type_hidden = false;
    if (std::string* value = first_content_type(request)) (*value)[0] = static_cast<char>((*value)[0] - 'A' + 'a');
}

}  // namespace roomkey::native
