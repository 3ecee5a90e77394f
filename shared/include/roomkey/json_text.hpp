// json_text.hpp: the one way roomkey reads JSON text (nlohmann_json, no
// exceptions): the parsed value, or a discarded one (is_discarded()) when
// the text is not JSON. One input type for every caller, so the web build
// links one instantiation of the parser rather than one per string type
// (bench/web_size.mjs).
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace roomkey {

nlohmann::json parse_json_text(std::string_view text);

}  // namespace roomkey
