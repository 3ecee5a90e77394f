// i18n_tags.cpp: the language tags (code, parse_tag, choose), apart from
// the catalog's texts, so what only reads a tag (the page API's
// set_language, its fuzz target) does not need the compiled-in catalog.
#include <string>

#include "app/i18n.hpp"

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
    std::string primary;
    for (char c : tag.substr(0, tag.find_first_of("-_"))) {
        primary += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    if (primary == "en") return Lang::en;
    if (primary == "ja") return Lang::ja;
    if (primary == "qps") return Lang::qps;
    return std::nullopt;
}

Lang choose(std::string_view query_lang, std::string_view stored, const std::vector<std::string>& browser_languages) {
    if (auto lang = parse_tag(query_lang)) return *lang;
    if (auto lang = parse_tag(stored)) return *lang;
    for (const std::string& tag : browser_languages) {
        if (auto lang = parse_tag(tag); lang && *lang != Lang::qps) return *lang;
    }
    return Lang::en;
}

}  // namespace roomkey::app::i18n
