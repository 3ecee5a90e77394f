// emoji_glyphs.cpp: see emoji_glyphs.hpp. The sequences folded so far are
// handed to the page once each (roomkey._sequences, codepoint -> text),
// where browser_font.cpp's canvas measures and draws a glyph.
#include "emoji_glyphs.hpp"

#include <emscripten.h>

#include "app/emoji_sequences.hpp"

namespace roomkey::web {

namespace {

// clang-format off
EM_JS(void, roomkey_js_emoji_sequence, (int codepoint, const char* text), {
    var r = window['roomkey'];
    (r['_sequences'] = r['_sequences'] || {})[codepoint] = UTF8ToString(text);
});
// clang-format on

app::EmojiSequences sequences;

}  // namespace

std::string emoji_unfolded(std::string_view folded) {
    return sequences.unfold(folded);
}

std::string emoji_folded(std::string_view utf8, bool singles) {
    const std::size_t before = sequences.added();
    std::string out = sequences.fold(utf8, singles);
    for (std::size_t i = before; i < sequences.added(); ++i) {
        const char32_t codepoint = app::EmojiSequences::kFirst + static_cast<char32_t>(i);
        roomkey_js_emoji_sequence(static_cast<int>(codepoint), sequences.sequence_of(codepoint)->c_str());
    }
    return out;
}

}  // namespace roomkey::web
