// builtin_font.hpp: what Dear ImGui's built-in font (ProggyClean) can draw,
// and, for the text it cannot, the names of the scripts the user is not
// shown. The app falls back to that font when the browser's canvas
// read-back is noise (canvas_readback.hpp): it needs no
// read-back, but holds Basic Latin and Latin-1 only, so the notice says
// which scripts are missing. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace roomkey::app {

// U+0020..U+00FF: ImGui's default glyph range.
bool builtin_font_draws(char32_t codepoint);

// "Japanese", "Cyrillic", "emoji", ...: the script a codepoint the
// built-in font lacks belongs to, in words a user knows, in the app's
// language ("other scripts" for the rest, "symbols" for punctuation and marks).
std::string_view script_name(char32_t codepoint);

// The scripts of the text drawn so far that the built-in font lacks, in the
// order first seen.
class MissingScripts {
public:
    // True when `codepoint` added a script to the list.
    bool note(char32_t codepoint);
    // Their names as the page API lists them (English, whatever the language).
    const std::vector<std::string>& names() const { return names_; }
    // "Japanese, Cyrillic and emoji" in the app's language; "" when none.
    std::string sentence() const;

private:
    std::vector<std::string_view> keys_;  // the catalog's script.<key>
    std::vector<std::string> names_;
};

}  // namespace roomkey::app
