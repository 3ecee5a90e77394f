// dtext_words.hpp: the words of the service's notation in the app's
// language. shared/'s notation::plain_text says which words go where a tag
// stood (a mention, a reply, a task, the service's own messages
// [dtext:KEY]); they come from the catalog's "notation.*" and "dtext.*"
// entries. A dtext key the catalog lacks reads as shared/ reads it
// (notation::dtext_words: the key itself, in words).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "roomkey/notation.hpp"

namespace roomkey::app {

std::string dtext_in_words(std::string_view key);

// notation::plain_text's words from the catalog, in the current language.
const notation::Wording& notation_words();

// The message as a reader sees it, without tags, in the app's language.
std::string plain_text(const notation::Parts& parts, const notation::NameLookup& names);
std::string plain_text(std::string_view body, const std::vector<notation::Part>& parts,
                       const notation::NameLookup& names);

}  // namespace roomkey::app
