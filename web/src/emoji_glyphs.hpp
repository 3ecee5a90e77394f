// emoji_glyphs.hpp: text as the conversation draws it, each emoji sequence
// one glyph in colour (app/emoji_sequences.hpp): the folded text goes to
// Dear ImGui, and the browser font (browser_font.cpp) draws a folded
// codepoint's glyph as its whole sequence.
#pragma once

#include <string>
#include <string_view>

namespace roomkey::web {

// `singles`: a single emoji too (EmojiSequences::fold).
std::string emoji_folded(std::string_view utf8, bool singles = true);
// Folded text (without singles) back as written.
std::string emoji_unfolded(std::string_view folded);

}  // namespace roomkey::web
