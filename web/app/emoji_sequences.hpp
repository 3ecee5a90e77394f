// emoji_sequences.hpp: an emoji written as several codepoints (a flag's two
// regional indicators, a ZWJ sequence such as a family, a skin tone, a
// keycap, a character with VS16 asking for emoji presentation) drawn as one
// glyph: the text to draw gets one codepoint of Supplementary Private Use
// Area-A in the sequence's place, and the glyph of that codepoint is the
// sequence as the browser draws it (web/src/emoji_glyphs.cpp). A single
// emoji of emoji presentation (😀) is folded too, standing for itself with
// VS16. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roomkey::app {

// Whether `c` is an emoji drawn as one even without VS16
// (Emoji_Presentation, UTS #51): its glyph comes from a colour emoji font
// (web/src/browser_font.cpp), though a text font earlier in the page's
// stack may hold a black-and-white one (DejaVu Sans has 😀 and 🚀).
bool emoji_presentation(char32_t c);

class EmojiSequences {
public:
    // `utf8` with each sequence (and each single emoji) replaced by its
    // own codepoint; text without one comes back unchanged. A new sequence
    // gets the next free codepoint (`added` counts them); past the area's
    // end a sequence stays as written. Without `singles`, a single emoji
    // stays as written (names: WebKitGTK drew 🚀 with VS16 in monochrome).
    std::string fold(std::string_view utf8, bool singles = true);
    // Folded text back as written: exact for text folded without singles
    // (a codepoint of the area written in the text folds to itself).
    std::string unfold(std::string_view folded) const;
    // The sequence a folded codepoint stands for; nullptr for any other.
    const std::string* sequence_of(char32_t codepoint) const;
    std::size_t added() const { return sequences_.size(); }

    static constexpr char32_t kFirst = 0xF0000;  // Supplementary Private Use Area-A
    static constexpr char32_t kLast = 0xFFFFD;

private:
    std::vector<std::string> sequences_;  // kFirst + index: a message holds few
};

}  // namespace roomkey::app
