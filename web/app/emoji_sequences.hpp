// emoji_sequences.hpp: an emoji written as several codepoints (a flag's two
// regional indicators, a ZWJ sequence such as a family, a skin tone, a
// keycap, a character with VS16 asking for emoji presentation) drawn as one
// glyph: the text to draw gets one codepoint of Supplementary Private Use
// Area-A in the sequence's place, and the glyph of that codepoint is the
// sequence as the browser draws it (web/src/emoji_glyphs.cpp). A single
// emoji of emoji presentation (😀) is folded too, standing for itself with
// VS16, so that the browser draws it from a colour font. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace roomkey::app {

class EmojiSequences {
public:
    // `utf8` with each sequence (and each single emoji) replaced by its
    // own codepoint; text without one comes back unchanged. A new sequence
    // gets the next free codepoint (`added` counts them); past the area's
    // end a sequence stays as written.
    std::string fold(std::string_view utf8);
    // The sequence a folded codepoint stands for; nullptr for any other.
    const std::string* sequence_of(char32_t codepoint) const;
    std::size_t added() const { return by_codepoint_.size(); }

    static constexpr char32_t kFirst = 0xF0000;  // Supplementary Private Use Area-A
    static constexpr char32_t kLast = 0xFFFFD;

private:
    std::map<std::string, char32_t, std::less<>> by_sequence_;
    std::map<char32_t, std::string> by_codepoint_;
};

}  // namespace roomkey::app
