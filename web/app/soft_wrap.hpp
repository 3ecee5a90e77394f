// soft_wrap.hpp: word wrap for the composer. Dear ImGui 1.90's multiline
// field draws each '\n'-ended line as one line (no wrap), so the field is
// given the text with "soft" line breaks put in where a line is full, and
// the offsets of those breaks are kept: the text the user wrote is the field's
// text without them. An edit of the field is read back (`after_edit`) into
// the text and the caret, which are wrapped again. Pure: the width of text
// comes from the caller (`Fit`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace roomkey::app {

// How many bytes of `line` fit in `width` (word boundaries first; a word
// longer than the line is cut); at least one character.
using Fit = std::size_t (*)(std::string_view line, float width);

struct Wrapped {
    std::string shown;              // the text with soft '\n's
    std::vector<std::size_t> soft;  // their offsets in `shown`, ascending
};

Wrapped soft_wrap(std::string_view text, float width, Fit fit);
std::string unwrap(std::string_view shown, const std::vector<std::size_t>& soft);
// The caret in `shown` for a caret in the text (at a wrap point: the next line's start), and back.
std::size_t shown_pos(std::size_t text_pos, const std::vector<std::size_t>& soft);
std::size_t text_pos(std::size_t shown_pos, const std::vector<std::size_t>& soft);

struct Edited {
    std::string text;
    std::size_t caret = 0;
};
// The field went from `before` (with breaks `soft`) to `after`, the caret from
// `caret_before` to `caret_after`: the text now and its caret. Deleting a soft
// break deletes the character the key meant (Backspace: the one before it,
// Delete: the one after it), as in any wrapping editor.
Edited after_edit(std::string_view before, const std::vector<std::size_t>& soft, std::string_view after,
                  std::size_t caret_before, std::size_t caret_after);

}  // namespace roomkey::app
