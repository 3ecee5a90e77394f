// builtin_font.cpp: see builtin_font.hpp.
#include "app/builtin_font.hpp"

#include <algorithm>

namespace roomkey::app {

namespace {

struct ScriptRange {
    char32_t first;
    char32_t last;
    std::string_view name;
};

// Unicode blocks, coarsely, as a user names what is missing. Kana before
// the ideographs: text with kana is Japanese; ideographs alone are named
// for both languages that write them.
constexpr ScriptRange kScriptRanges[] = {
    {0x0100, 0x024F, "Latin (accented)"},
    {0x0370, 0x03FF, "Greek"},
    {0x0400, 0x052F, "Cyrillic"},
    {0x0530, 0x058F, "Armenian"},
    {0x0590, 0x05FF, "Hebrew"},
    {0x0600, 0x06FF, "Arabic"},
    {0x0900, 0x097F, "Devanagari"},
    {0x0E00, 0x0E7F, "Thai"},
    {0x10A0, 0x10FF, "Georgian"},
    {0x1E00, 0x1EFF, "Latin (accented)"},
    {0x1F00, 0x1FFF, "Greek"},
    {0x2000, 0x2BFF, "symbols"},
    {0x3000, 0x303F, "Chinese/Japanese"},
    {0x3040, 0x30FF, "Japanese"},
    {0x3100, 0x312F, "Chinese"},
    {0x3130, 0x318F, "Korean"},
    {0x3400, 0x4DBF, "Chinese/Japanese"},
    {0x4E00, 0x9FFF, "Chinese/Japanese"},
    {0xAC00, 0xD7AF, "Korean"},
    {0xFE00, 0xFE0F, "emoji"},  // variation selectors: an emoji's presentation
    {0xFF00, 0xFFEF, "Chinese/Japanese"},
    {0x1F000, 0x1FAFF, "emoji"},
    {0xFFF0, 0xFFFF, "symbols"},  // U+FFFD, the replacement character
    {0x20000, 0x3134F, "Chinese/Japanese"},
};

}  // namespace

bool builtin_font_draws(char32_t codepoint) {
    return codepoint >= 0x20 && codepoint <= 0xFF;
}

std::string_view script_name(char32_t codepoint) {
    // Emoji that sit among the symbols (U+2600 weather, U+2700 dingbats).
    if (codepoint >= 0x2600 && codepoint <= 0x27BF) return "emoji";
    for (const ScriptRange& range : kScriptRanges) {
        if (codepoint >= range.first && codepoint <= range.last) return range.name;
    }
    return "other scripts";
}

bool MissingScripts::note(char32_t codepoint) {
    if (codepoint < 0x20 || builtin_font_draws(codepoint)) return false;
    const std::string_view name = script_name(codepoint);
    if (std::find(names_.begin(), names_.end(), name) != names_.end()) return false;
    names_.emplace_back(name);
    return true;
}

std::string MissingScripts::sentence() const {
    std::string out;
    for (std::size_t i = 0; i < names_.size(); ++i) {
        if (i > 0) out += i + 1 == names_.size() ? " and " : ", ";
        out += names_[i];
    }
    return out;
}

}  // namespace roomkey::app
