// language.cpp: see language.hpp.
#include "language.hpp"

#include <emscripten.h>

#include <string>

#include <nlohmann/json.hpp>

#include "app/i18n.hpp"
#include "page_bridge.hpp"

namespace {

// clang-format off
// The language shell/page.js chose (?lang=, the choice kept in this browser,
// navigator.languages: the rule's one owner, which runs before the wasm is
// requested so the loading words are in it too), staged for page_bridge's reader.
EM_JS(int, roomkey_js_stage_language, (), {
    return lengthBytesUTF8(window["roomkey"]["_language"]());
});

// Kept in this browser by the page, the owner of the choice's storage.
EM_JS(void, roomkey_js_keep_lang, (const char* lang), {
    window["roomkey"]["_keepLanguage"](UTF8ToString(lang));
});

EM_JS(void, roomkey_js_page_lang, (const char* lang), {
    document.documentElement.lang = UTF8ToString(lang);
});

// The text mirror's words in the app's language (shell/page.js's say()).
EM_JS(void, roomkey_js_publish_words, (const char* lang, const char* json), {
    var api = window["roomkey"];
    if (api && api["_publishWords"]) api["_publishWords"](UTF8ToString(lang), UTF8ToString(json));
});

// Intl.PluralRules's category of n, as an index into the names below.
EM_JS(int, roomkey_js_plural, (const char* lang, double n), {
    var rules = Module["pluralRules"] || (Module["pluralRules"] = {});
    var tag = UTF8ToString(lang);
    try {
        var rule = rules[tag] || (rules[tag] = new Intl.PluralRules(tag));
        return ["zero", "one", "two", "few", "many", "other"].indexOf(rule.select(n));
    } catch (e) {
        return -1;
    }
});
// clang-format on

// A count's category asked of the page once per language (counts under 256):
// asked every frame, each count's trip to Intl and back was most of a large
// account's counted words (300 rooms' badges) in a scroll's frame.
const char* intl_plural(roomkey::app::i18n::Lang lang, long long n) {
    static const char* const kCategories[] = {"zero", "one", "two", "few", "many", "other"};
    static signed char kept[3][256];  // the category's index + 1; 0: not asked yet
    signed char* known = n >= 0 && n < 256 ? &kept[static_cast<int>(lang) % 3][n] : nullptr;
    if (known && *known > 0) return kCategories[*known - 1];
    const std::string tag(roomkey::app::i18n::code(lang == roomkey::app::i18n::Lang::qps ? roomkey::app::i18n::Lang::en : lang));
    const int at = roomkey_js_plural(tag.c_str(), static_cast<double>(n));
    if (known && at >= 0) *known = static_cast<signed char>(at + 1);
    return at >= 0 ? kCategories[at] : roomkey::app::i18n::builtin_plural(lang, n);
}

roomkey::app::i18n::Lang g_page_language = roomkey::app::i18n::Lang::en;

void tell_page(roomkey::app::i18n::Lang lang) {
    g_page_language = lang;
    // The pseudo-locale is English's text in disguise.
    roomkey_js_page_lang(lang == roomkey::app::i18n::Lang::ja ? "ja" : "en");
    nlohmann::json words = nlohmann::json::object();
    for (const char* prefix : {"mirror.", "session."}) {
        for (auto& [key, text] : roomkey::app::i18n::entries(prefix)) words[key] = std::move(text);
    }
    roomkey_js_publish_words(lang == roomkey::app::i18n::Lang::ja ? "ja" : "en",
                             words.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
}

}  // namespace

namespace roomkey::web {

void install_language() {
    namespace i18n = app::i18n;
    const i18n::Lang lang = i18n::parse_tag(detail::read_staged(roomkey_js_stage_language())).value_or(i18n::Lang::en);
    i18n::set_plural_rule(intl_plural);
    i18n::set_language(lang);
    tell_page(lang);
}

bool follow_language() {
    namespace i18n = app::i18n;
    if (i18n::language() == g_page_language) return false;
    roomkey_js_keep_lang(std::string(i18n::code(i18n::language())).c_str());
    tell_page(i18n::language());
    return true;
}

}  // namespace roomkey::web
