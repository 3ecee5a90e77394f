// i18n.hpp: the words a user reads, by key, in the user's language. The
// texts are web/i18n/<lang>.json, compiled in at build time
// (scripts/i18n.mjs); how to add a string or a language: docs/i18n.md.
//
//   tr("composer.send")                                   -> "Send" / "送信"
//   tr("errors.api_failed", {{"what", "Loading rooms"}})  -> "Loading rooms failed"
//   tr_n("posts.queued", 3)                               -> "3 posts queued" ({n} is the count)
//
// A key missing in the language falls back to English; a key missing in
// English (a typo the check did not see) shows the key itself.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roomkey::app::i18n {

// The languages compiled in (the order of scripts/i18n.mjs's LANGS), then
// the pseudo-locale: English lengthened by 40 % with accented letters, to
// see what would clip (?lang=qps).
enum class Lang : unsigned char { en, ja, qps };

// "en", "ja", "qps": the page API's `lang` and the stored choice.
std::string_view code(Lang lang);
// A BCP 47 tag as navigator.languages or ?lang= give it ("ja", "ja-JP",
// "en-US", "qps", any case) -> the language, or nullopt for one not compiled in.
std::optional<Lang> parse_tag(std::string_view tag);
// Which language the browser app uses is shell/page.js's choice (?lang=, the
// choice kept in this browser, navigator.languages): made before the wasm
// runs, so the loading words are in it too (web/src/language.cpp).

// The language of the calling thread: the browser app has one thread; the
// sandbox's pages set it per request (Accept-Language).
void set_language(Lang lang);
Lang language();
// An Accept-Language header ("ja,en-US;q=0.9") -> the language compiled in
// that it prefers most (q order, then order written), else English.
Lang from_accept_language(std::string_view header);

// Whether the catalog has `key` (a text, in English at least).
bool has(std::string_view key);
// What a scope of spec 5.5 allows, in words ("rooms.all:read" -> its
// "scope.rooms.all_read" entry); the name itself stays as it is.
std::string scope_words(std::string_view scope);

// Every entry whose key starts with `prefix`, in the current language:
// (key, text); a count's forms as "key#one", "key#other". For the page's
// own words (the text mirror, shell/page.js).
std::vector<std::pair<std::string, std::string>> entries(std::string_view prefix);

// A named value for a placeholder {name}.
struct Arg {
    std::string_view name;
    std::string value;
};

// The text of `key` (its NUL-terminated storage lives as long as the program).
const char* tr(std::string_view key);
// The text with each {name} replaced by its value.
std::string tr(std::string_view key, std::initializer_list<Arg> args);
// A count's text, its form chosen by the language's plural rule for n; {n}
// is n, the other placeholders come from args.
std::string tr_n(std::string_view key, long long n, std::initializer_list<Arg> args = {});

// The plural category ("one", "other", ...) of n in a language. Natively
// (and by default) the rule of each language compiled in (English: 1 ->
// "one", else "other"; Japanese: always "other"); the browser build installs
// one that asks Intl.PluralRules.
using PluralRule = const char* (*)(Lang lang, long long n);
const char* builtin_plural(Lang lang, long long n);
void set_plural_rule(PluralRule rule);

}  // namespace roomkey::app::i18n

namespace roomkey::app {
using i18n::tr;
using i18n::tr_n;
}  // namespace roomkey::app

// The UI (web/src) names its words the same way.
namespace roomkey::web {
using app::i18n::tr;
using app::i18n::tr_n;
}  // namespace roomkey::web
