// json_text.cpp: see json_text.hpp.
#include "roomkey/json_text.hpp"

#include <limits>

namespace roomkey {

nlohmann::json parse_json_text(std::string_view text) {
    // What json::parse(first, last, nullptr, false) does, without its
    // callback branch: that branch (a second DOM builder, taken only when a
    // callback is given, which roomkey never does) was linked all the same.
    nlohmann::json value;
    nlohmann::detail::json_sax_dom_parser<nlohmann::json> builder(value, false);
    const bool read = nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &builder);
    if (!read || builder.is_errored()) return nlohmann::json(nlohmann::json::value_t::discarded);
    return value;
}

const nlohmann::json* json_member(const nlohmann::json& object, const char* name) {
    if (!object.is_object()) return nullptr;
    const auto it = object.find(name);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

JsonMember read_member(const nlohmann::json& object, const char* name, std::string& out) {
    const nlohmann::json* value = json_member(object, name);
    if (!value) return JsonMember::absent;
    if (!value->is_string()) return JsonMember::wrong;
    out = value->get<std::string>();
    return JsonMember::read;
}

JsonMember read_member(const nlohmann::json& object, const char* name, std::int64_t& out) {
    const nlohmann::json* value = json_member(object, name);
    if (!value) return JsonMember::absent;
    if (!value->is_number_integer()) return JsonMember::wrong;
    // The parser keeps a non-negative integer unsigned: above int64 it does not fit.
    constexpr auto most = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (value->is_number_unsigned() && value->get<std::uint64_t>() > most) return JsonMember::wrong;
    out = value->get<std::int64_t>();
    return JsonMember::read;
}

JsonMember read_member(const nlohmann::json& object, const char* name, bool& out) {
    const nlohmann::json* value = json_member(object, name);
    if (!value) return JsonMember::absent;
    if (!value->is_boolean()) return JsonMember::wrong;
    out = value->get<bool>();
    return JsonMember::read;
}

}  // namespace roomkey
