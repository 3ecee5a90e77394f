// dtext_words.hpp: the service's own messages ([dtext:KEY]) in the app's
// language. shared/'s notation::dtext_words keeps the English reading of
// each key (plain_text, the text layer); what the UI draws comes from the
// catalog's "dtext.KEY" entries, and a key the catalog lacks reads as
// shared/ reads it.
#pragma once

#include <string>
#include <string_view>

namespace roomkey::app {

std::string dtext_in_words(std::string_view key);

}  // namespace roomkey::app
