// language.hpp: the app's language in the browser (app/i18n.hpp): the one
// shell/page.js chose at start (?lang=, the choice kept in this browser
// (localStorage), navigator.languages); plurals by Intl.PluralRules; a
// change of language is kept and put on <html lang>. Emscripten-only.
#pragma once

namespace roomkey::web {

// Before the App starts: takes the page's language and installs the plural rule.
void install_language();
// After the app handled intents: when the language changed (the switch,
// set_language), keeps the choice and tells the page. True when it changed.
bool follow_language();

}  // namespace roomkey::web
