// reader_checks.hpp: the invariants every reader of service data keeps,
// shared by the reader fuzz targets (api_readers_fuzz.cpp for api.hpp,
// api_records_fuzz.cpp for api_records.hpp). A broken invariant aborts, which
// the fuzzer reports as a crash.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "roomkey/api.hpp"
#include "roomkey/endpoints.hpp"

namespace roomkey::fuzz {

// A response as the service would send it: `body` as JSON with `status`.
inline HttpResponse with_body(int status, std::string body) {
    HttpResponse response;
    response.status = status;
    response.headers.set("Content-Type", "application/json");
    response.body = std::move(body);
    return response;
}

inline void check_id(const std::string& id) {
    if (!is_resource_id(id)) std::abort();
}
inline void check_id(const std::optional<std::string>& id) {
    if (id) check_id(*id);
}
inline void check_count(std::int64_t n) {
    if (n < 0) std::abort();
}
inline void check_count(const std::optional<std::int64_t>& n) {
    if (n) check_count(*n);
}

// A non-2xx response is refused as http_status, naming the status; a 2xx is
// never; a field-level error names its field; every error can be told.
template <class T>
void check_status_rule(const Result<T, ApiReadError>& result, int status) {
    const bool ok_status = status >= 200 && status <= 299;
    if (!ok_status && (result || result.error().kind != ApiReadErrorKind::http_status)) std::abort();
    if (ok_status && !result && result.error().kind == ApiReadErrorKind::http_status) std::abort();
    if (result) return;
    const ApiReadError& e = result.error();
    const bool field_error = e.kind == ApiReadErrorKind::missing_field || e.kind == ApiReadErrorKind::wrong_type ||
                             e.kind == ApiReadErrorKind::invalid_value;
    if (field_error && e.field.empty()) std::abort();
    if (to_string(e).empty()) std::abort();
}

}  // namespace roomkey::fuzz
