// i18n_tags.cpp: the language tags (code, parse_tag, from_accept_language), apart from
// the catalog's texts, so what only reads a tag (the page API's
// set_language, its fuzz target) does not need the compiled-in catalog.
#include <cstdlib>
#include <string>

#include "app/i18n.hpp"
#include "roomkey/ascii.hpp"

namespace roomkey::app::i18n {

std::string_view code(Lang lang) {
    switch (lang) {
        case Lang::ja: return "ja";
        case Lang::qps: return "qps";
        case Lang::en: break;
    }
    return "en";
}

std::optional<Lang> parse_tag(std::string_view tag) {
    const std::string primary = ascii_lower(tag.substr(0, tag.find_first_of("-_")));
    if (primary == "en") return Lang::en;
    if (primary == "ja") return Lang::ja;
    if (primary == "qps") return Lang::qps;
    return std::nullopt;
}

Lang from_accept_language(std::string_view header) {
    std::optional<Lang> best;
    double best_q = 0;
    while (!header.empty()) {
        const std::size_t comma = header.find(',');
        std::string_view item = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        const std::size_t semi = item.find(';');
        std::string_view tag = item.substr(0, semi);
        while (!tag.empty() && tag.front() == ' ') tag.remove_prefix(1);
        while (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
        double q = 1;
        if (semi != std::string_view::npos) {
            const std::size_t at = item.find("q=", semi);
            if (at != std::string_view::npos) q = std::strtod(std::string(item.substr(at + 2)).c_str(), nullptr);
        }
        const std::optional<Lang> lang = parse_tag(tag);
        if (lang && *lang != Lang::qps && q > best_q) {
            best = lang;
            best_q = q;
        }
    }
    return best.value_or(Lang::en);
}

}  // namespace roomkey::app::i18n
