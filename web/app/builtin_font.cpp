// builtin_font.cpp: see builtin_font.hpp.
#include "app/builtin_font.hpp"

#include <algorithm>

#include "app/i18n.hpp"

namespace roomkey::app {

namespace {

struct ScriptRange {
    char32_t first;
    char32_t last;
    // What the page API's font stats list (its values stay English), and
    // the catalog's "script.<key>" that names it to the user.
    std::string_view name;
    std::string_view key;
};

// Unicode blocks, coarsely, as a user names what is missing. Kana before
// the ideographs: text with kana is Japanese; ideographs alone are named
// for both languages that write them.
constexpr ScriptRange kLatin{0, 0, "Latin (accented)", "latin"};  // i18n: not shown (page API value)
constexpr ScriptRange kGreek{0, 0, "Greek", "greek"};             // i18n: not shown (page API value)
constexpr ScriptRange kCjk{0, 0, "Chinese/Japanese", "cjk"};      // i18n: not shown (page API value)
constexpr ScriptRange kEmoji{0, 0, "emoji", "emoji"};
constexpr ScriptRange kSymbols{0, 0, "symbols", "symbols"};
constexpr ScriptRange kKorean{0, 0, "Korean", "korean"};          // i18n: not shown (page API value)
constexpr ScriptRange kOther{0, 0, "other scripts", "other"};     // i18n: not shown (page API value)

constexpr ScriptRange in(char32_t first, char32_t last, const ScriptRange& script) {
    return {first, last, script.name, script.key};
}

constexpr ScriptRange kScriptRanges[] = {
    in(0x0100, 0x024F, kLatin),
    in(0x0370, 0x03FF, kGreek),
    {0x0400, 0x052F, "Cyrillic", "cyrillic"},  // i18n: not shown (page API value)
    {0x0530, 0x058F, "Armenian", "armenian"},  // i18n: not shown (page API value)
    {0x0590, 0x05FF, "Hebrew", "hebrew"},      // i18n: not shown (page API value)
    {0x0600, 0x06FF, "Arabic", "arabic"},      // i18n: not shown (page API value)
    {0x0900, 0x097F, "Devanagari", "devanagari"},  // i18n: not shown (page API value)
    {0x0E00, 0x0E7F, "Thai", "thai"},          // i18n: not shown (page API value)
    {0x10A0, 0x10FF, "Georgian", "georgian"},  // i18n: not shown (page API value)
    in(0x1E00, 0x1EFF, kLatin),
    in(0x1F00, 0x1FFF, kGreek),
    in(0x2000, 0x2BFF, kSymbols),
    in(0x3000, 0x303F, kCjk),
    {0x3040, 0x30FF, "Japanese", "japanese"},  // i18n: not shown (page API value)
    {0x3100, 0x312F, "Chinese", "chinese"},    // i18n: not shown (page API value)
    in(0x3130, 0x318F, kKorean),
    in(0x3400, 0x4DBF, kCjk),
    in(0x4E00, 0x9FFF, kCjk),
    in(0xAC00, 0xD7AF, kKorean),
    in(0xFE00, 0xFE0F, kEmoji),  // variation selectors: an emoji's presentation
    in(0xFF00, 0xFFEF, kCjk),
    in(0x1F000, 0x1FAFF, kEmoji),
    in(0xFFF0, 0xFFFF, kSymbols),  // U+FFFD, the replacement character
    in(0x20000, 0x3134F, kCjk),
};

const ScriptRange& script_of(char32_t codepoint) {
    // Emoji that sit among the symbols (U+2600 weather, U+2700 dingbats).
    if (codepoint >= 0x2600 && codepoint <= 0x27BF) return kEmoji;
    for (const ScriptRange& range : kScriptRanges) {
        if (codepoint >= range.first && codepoint <= range.last) return range;
    }
    return kOther;
}

const char* script_words(std::string_view key) {
    return tr("script." + std::string(key));
}

}  // namespace

bool builtin_font_draws(char32_t codepoint) {
    return codepoint >= 0x20 && codepoint <= 0xFF;
}

std::string_view script_name(char32_t codepoint) {
    return script_words(script_of(codepoint).key);
}

bool MissingScripts::note(char32_t codepoint) {
    if (codepoint < 0x20 || builtin_font_draws(codepoint)) return false;
    const ScriptRange& script = script_of(codepoint);
    if (std::find(keys_.begin(), keys_.end(), script.key) != keys_.end()) return false;
    keys_.push_back(script.key);
    names_.emplace_back(script.name);
    return true;
}

std::string MissingScripts::sentence() const {
    std::string out;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        if (i == 0) {
            out = script_words(keys_[i]);
        } else {
            out = tr(i + 1 == keys_.size() ? "script.list_last" : "script.list",
                     {{"list", std::move(out)}, {"script", script_words(keys_[i])}});
        }
    }
    return out;
}

}  // namespace roomkey::app
