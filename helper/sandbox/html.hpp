// html.hpp: the small HTML toolkit of the sandbox's screens (login, consent,
// client registration): escaping and one page frame. The pages are plain
// forms that work without JavaScript and load nothing from elsewhere.
#pragma once

#include <string>
#include <string_view>

#include "roomkey/http.hpp"

namespace roomkey::sandbox {

// Escapes & < > " ' for text and attribute values.
std::string html_escape(std::string_view text);

// A complete page with the sandbox's inline style; `body` is trusted HTML.
std::string html_page(std::string_view title, std::string_view body);

// The pages' language for this request (this thread), from its
// Accept-Language: Japanese or English, as the service's own screens.
void use_page_language(const Headers& headers);

// <input type="hidden" name=.. value=..> with both escaped.
std::string hidden_field(std::string_view name, std::string_view value);

}  // namespace roomkey::sandbox
