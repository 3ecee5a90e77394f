// json_text.cpp: see json_text.hpp.
#include "roomkey/json_text.hpp"

namespace roomkey {

nlohmann::json parse_json_text(std::string_view text) {
    return nlohmann::json::parse(text.data(), text.data() + text.size(), nullptr, false);
}

}  // namespace roomkey
