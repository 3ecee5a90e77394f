// api_json.hpp (private to shared/src): the JSON field readers of api.cpp,
// shared with api_records.cpp so every reader keeps ids and counts by the same
// rules (ids exact as strings even above 2^53, counts non-negative int64).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "roomkey/api.hpp"
#include "roomkey/json_text.hpp"

namespace roomkey::detail {

using json = nlohmann::json;

ApiReadError read_error(ApiReadErrorKind kind, std::string field);
std::string join_field(std::string_view prefix, std::string_view name);
// Parses a 2xx body as JSON.
Result<json, ApiReadError> parse_body(const HttpResponse& response);
// parse_body, then requires a JSON object.
Result<json, ApiReadError> parse_object(const HttpResponse& response);
// A field's value: json_member (json_text.hpp), nullptr when absent or null
// (the service may send null for an empty optional field).
Result<std::string, ApiReadError> id_value(const json& value, const std::string& field);
Result<std::string, ApiReadError> required_id(const json& object, const char* name, const std::string& prefix);
Result<std::optional<std::string>, ApiReadError> optional_id(const json& object, const char* name,
                                                             const std::string& prefix);
Result<std::optional<std::string>, ApiReadError> optional_string(const json& object, const char* name,
                                                                 const std::string& prefix);
Result<std::optional<std::int64_t>, ApiReadError> optional_count(const json& object, const char* name,
                                                                 const std::string& prefix);
Result<std::int64_t, ApiReadError> required_count(const json& object, const char* name, const std::string& prefix);
Result<std::optional<bool>, ApiReadError> optional_bool(const json& object, const char* name,
                                                        const std::string& prefix);

// Assigns a reader's value to `out`, or keeps the first error in `error`.
template <class T>
void take(Result<T, ApiReadError> result, T& out, std::optional<ApiReadError>& error) {
    if (error) return;
    if (!result) {
        error = result.error();
        return;
    }
    out = std::move(result).value();
}

// For fields the spec does not show (2.6): a value of an unexpected type is
// read as absent rather than failing the whole record; only the fields the
// spec promises (account_id) may refuse a response.
template <class T>
void take_if_valid(Result<std::optional<T>, ApiReadError> result, std::optional<T>& out) {
    out = result ? std::move(result).value() : std::nullopt;
}

}  // namespace roomkey::detail
