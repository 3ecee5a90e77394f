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
// Which language to use: ?lang= first, then the choice kept in this browser,
// then the first of navigator.languages the app has, else English.
Lang choose(std::string_view query_lang, std::string_view stored, const std::vector<std::string>& browser_languages);

void set_language(Lang lang);
Lang language();

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
