// i18n.cpp: lookup, placeholders, plurals and the pseudo-locale over the
// generated tables (scripts/i18n.mjs writes i18n_catalog.cpp in the build tree).
#include "app/i18n.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>

#include "roomkey/ascii.hpp"

namespace roomkey::app::i18n {

namespace detail {
// Sorted keys ("a.b" for a text, "a.b#one" for a plural form) and, per
// compiled-in language, its texts in the keys' order, each ended by a NUL
// ("\1" for an entry the language lacks).
extern const std::size_t kEntryCount;
extern const char* const kKeys[];
extern const char* const kTexts[2];
}  // namespace detail

namespace {

thread_local Lang g_i18n_lang = Lang::en;
PluralRule g_i18n_plural = builtin_plural;

// Where each entry's text starts, per language (nullptr: the language lacks
// it), found once by walking the language's texts.
struct TextIndex {
    std::unique_ptr<const char*[]> at[2];
    TextIndex() {
        for (int lang = 0; lang < 2; ++lang) {
            at[lang].reset(new const char*[detail::kEntryCount]);
            const char* text = detail::kTexts[lang];
            for (std::size_t i = 0; i < detail::kEntryCount; ++i) {
                at[lang][i] = text[0] == '\1' && text[1] == '\0' ? nullptr : text;
                text += std::strlen(text) + 1;
            }
        }
    }
};

// The text of entry `index` in `lang` (en or ja), or nullptr.
const char* text_in(std::size_t index, Lang lang) {
    static const TextIndex texts;
    return texts.at[static_cast<int>(lang)][index];
}

// The index of `key`, or kEntryCount.
std::size_t catalog_index(std::string_view key) {
    const char* const* begin = detail::kKeys;
    const char* const* end = detail::kKeys + detail::kEntryCount;
    const char* const* at = std::lower_bound(begin, end, key, [](const char* k, std::string_view want) {
        return std::string_view(k) < want;
    });
    return at != end && std::string_view(*at) == key ? static_cast<std::size_t>(at - begin) : detail::kEntryCount;
}

// Accented look-alikes for a-z and A-Z (Latin-1, Latin Extended-A/B and
// Additional: letters the browser's fonts have).
const char* const kPseudoAccented[26] = {"á", "ƀ", "ç", "ð", "é", "ƒ", "ĝ", "ĥ", "í", "ĵ", "ķ", "ĺ", "ṁ",
                                         "ñ", "ö", "þ", "ǫ", "ŕ", "š", "ţ", "ü", "ṽ", "ŵ", "ẋ", "ý", "ž"};
const char* const kPseudoAccentedCapital[26] = {"Á", "Ɓ", "Ç", "Ð", "É", "Ƒ", "Ĝ", "Ĥ", "Í", "Ĵ", "Ķ", "Ĺ", "Ṁ",
                                                "Ñ", "Ö", "Þ", "Ǫ", "Ŕ", "Š", "Ţ", "Ü", "Ṽ", "Ŵ", "Ẋ", "Ý", "Ž"};

// English made 40 % longer with accents, placeholders kept: "[Šéñð ·····]".
std::string pseudo_of(std::string_view english) {
    std::string out = "[";
    for (std::size_t i = 0; i < english.size(); ++i) {
        const char c = english[i];
        if (c == '{') {  // a placeholder stays as it is
            const std::size_t close = english.find('}', i);
            if (close != std::string_view::npos) {
                out.append(english.substr(i, close - i + 1));
                i = close;
                continue;
            }
        }
        const char l = ascii_lower(c);
        if (l >= 'a' && l <= 'z') {
            out += (c == l ? kPseudoAccented : kPseudoAccentedCapital)[l - 'a'];
        } else {
            out += c;
        }
    }
    const std::size_t pad = (english.size() * 2 + 4) / 5;  // 40 %, rounded up
    if (pad > 0) out += ' ';
    for (std::size_t i = 1; i < pad; ++i) out += "\xC2\xB7";  // U+00B7 middle dot
    out += ']';
    return out;
}

// The pseudo texts, made once per entry on first use.
const char* pseudo_text_at(std::size_t index) {
    static std::unique_ptr<std::string[]> cache(new std::string[detail::kEntryCount + 1]);
    std::string& slot = cache[index];
    if (slot.empty()) slot = pseudo_of(text_in(index, Lang::en));
    return slot.c_str();
}

// The text of entry `index` in the current language, English when it has none.
const char* catalog_text_at(std::size_t index) {
    if (g_i18n_lang == Lang::qps) return pseudo_text_at(index);
    const char* text = text_in(index, g_i18n_lang);
    return text ? text : text_in(index, Lang::en);
}

std::string fill_placeholders(std::string_view text, std::initializer_list<Arg> args) {
    std::string out;
    out.reserve(text.size() + 16);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{') {
            const std::size_t close = text.find('}', i);
            if (close != std::string_view::npos) {
                const std::string_view name = text.substr(i + 1, close - i - 1);
                const Arg* arg = std::find_if(args.begin(), args.end(), [&](const Arg& a) { return a.name == name; });
                if (arg != args.end()) {
                    out += arg->value;
                    i = close;
                    continue;
                }
            }
        }
        out += text[i];
    }
    return out;
}

}  // namespace

void set_language(Lang lang) {
    g_i18n_lang = lang;
}

Lang language() {
    return g_i18n_lang;
}

std::vector<std::pair<std::string, std::string>> entries(std::string_view prefix) {
    std::vector<std::pair<std::string, std::string>> out;
    const char* const* end = detail::kKeys + detail::kEntryCount;
    for (const char* const* at = std::lower_bound(detail::kKeys, end, prefix,
                                                  [](const char* k, std::string_view p) { return std::string_view(k) < p; });
         at != end && std::string_view(*at).substr(0, prefix.size()) == prefix; ++at) {
        out.emplace_back(*at, catalog_text_at(static_cast<std::size_t>(at - detail::kKeys)));
    }
    return out;
}

bool has(std::string_view key) {
    return catalog_index(key) != detail::kEntryCount;
}

std::string scope_words(std::string_view scope) {
    std::string key = "scope." + std::string(scope);
    std::replace(key.begin(), key.end(), ':', '_');
    return has(key) ? tr(key) : tr("scope.unknown");
}

const char* tr(std::string_view key) {
    const std::size_t index = catalog_index(key);
    if (index != detail::kEntryCount) return catalog_text_at(index);
    // Not in the catalog (the check reports it): the key, kept for the
    // program's life as the catalog's texts are.
    static std::set<std::string, std::less<>> unknown;
    return unknown.emplace(key).first->c_str();
}

std::string tr(std::string_view key, std::initializer_list<Arg> args) {
    const std::size_t index = catalog_index(key);
    if (index == detail::kEntryCount) return std::string(key);
    return fill_placeholders(catalog_text_at(index), args);
}

std::string tr_n(std::string_view key, long long n, std::initializer_list<Arg> args) {
    const Lang lang = g_i18n_lang == Lang::qps ? Lang::en : g_i18n_lang;
    std::string name = std::string(key) + '#';
    const std::size_t base = name.size();
    // The entry of key#category when `in` has a text for it.
    auto form = [&](Lang in, const char* category) {
        name.resize(base);
        name += category;
        const std::size_t at = catalog_index(name);
        return at != detail::kEntryCount && text_in(at, in) ? at : detail::kEntryCount;
    };
    // The language's own form for n, else its "other"; then English's.
    std::size_t at = form(lang, g_i18n_plural(lang, n));
    if (at == detail::kEntryCount) at = form(lang, "other");
    const char* text = at != detail::kEntryCount ? catalog_text_at(at) : nullptr;
    if (!text) {
        at = form(Lang::en, g_i18n_plural(Lang::en, n));
        if (at == detail::kEntryCount) at = form(Lang::en, "other");
        if (at == detail::kEntryCount) return std::string(key);
        text = text_in(at, Lang::en);
    }
    return fill_placeholders(fill_placeholders(text, args), {{"n", std::to_string(n)}});
}

const char* builtin_plural(Lang lang, long long n) {
    if (lang == Lang::ja) return "other";
    return n == 1 ? "one" : "other";
}

void set_plural_rule(PluralRule rule) {
    g_i18n_plural = rule ? rule : builtin_plural;
}

}  // namespace roomkey::app::i18n
