// json_text.hpp: the one way roomkey reads JSON text (nlohmann_json, no
// exceptions): the parsed value, or a discarded one (is_discarded()) when
// the text is not JSON. One input type for every caller, so the web build
// links one instantiation of the parser rather than one per string type
// (bench/web_size.mjs). And the one way it reads a member of an object.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace roomkey {

nlohmann::json parse_json_text(std::string_view text);

// A member of a JSON object, by one rule for every reader: a missing member
// and a null one are the same, absent (a writer with nothing to say may
// leave the member out or write null); a member of another type is wrong,
// never read as absent. Text is a JSON string; an integer a JSON integer
// that fits int64 (not 1.5, not 2^63); a flag true or false. `out` is
// written only when the member is read. Whether absent is allowed is the
// caller's (the required and optional readers below).
enum class JsonMember { absent, read, wrong };
// The member's value; nullptr when absent (missing or null, or `object` is not an object).
const nlohmann::json* json_member(const nlohmann::json& object, const char* name);
JsonMember read_member(const nlohmann::json& object, const char* name, std::string& out);
JsonMember read_member(const nlohmann::json& object, const char* name, std::int64_t& out);
JsonMember read_member(const nlohmann::json& object, const char* name, bool& out);
// A member that must be there: read (not absent, not wrong).
template <class T>
bool read_required(const nlohmann::json& object, const char* name, T& out) {
    return read_member(object, name, out) == JsonMember::read;
}
// A member that may be absent (`out` keeps its value) but not wrong.
template <class T>
bool read_optional(const nlohmann::json& object, const char* name, T& out) {
    return read_member(object, name, out) != JsonMember::wrong;
}
template <class T>
bool read_optional(const nlohmann::json& object, const char* name, std::optional<T>& out) {
    T value{};
    const JsonMember got = read_member(object, name, value);
    if (got == JsonMember::read) out = std::move(value);
    return got != JsonMember::wrong;
}

}  // namespace roomkey
