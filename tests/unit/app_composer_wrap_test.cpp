// app_composer_wrap_test.cpp: the composer's word wrap (web/app/soft_wrap.hpp):
// long text breaks at words into lines that fit, the breaks never reach the
// text that is sent, and an edit of the wrapped field reads back into the
// text and the caret the user expects. Widths here: one unit a byte.
#include "app/soft_wrap.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
namespace {

// The longest prefix of at most `width` bytes that ends after a space
// (else a cut), as Dear ImGui's CalcWordWrapPositionA breaks.
std::size_t fit(std::string_view line, float width) {
    const auto w = static_cast<std::size_t>(width);
    if (line.size() <= w) return line.size();
    for (std::size_t i = w; i > 0; --i) {
        if (line[i - 1] == ' ') return i;
    }
    return w;
}

TEST(ComposerWrap, LongTextBreaksAtWordsAndUnwrapsToTheSameText) {
    const std::string text = "Alice, the sandbox is up again\nand ready";
    const Wrapped w = soft_wrap(text, 12, fit);
    EXPECT_EQ(w.shown, "Alice, the \nsandbox is \nup again\nand ready");
    ASSERT_EQ(w.soft.size(), 2u);
    EXPECT_EQ(unwrap(w.shown, w.soft), text);
}

TEST(ComposerWrap, AWordLongerThanTheLineIsCutNeverInsideACharacter) {
    const std::string text = "ééééé";  // two bytes each
    const Wrapped w = soft_wrap(text, 3, fit);
    for (std::size_t at : w.soft) EXPECT_NE(static_cast<unsigned char>(w.shown[at + 1]) & 0xC0, 0x80u) << w.shown;
    EXPECT_EQ(unwrap(w.shown, w.soft), text);
}

TEST(ComposerWrap, TheCaretMovesBetweenTextAndField) {
    const Wrapped w = soft_wrap("aaaa bbbb cccc", 5, fit);
    ASSERT_EQ(w.shown, "aaaa \nbbbb \ncccc");
    EXPECT_EQ(shown_pos(5, w.soft), 6u);  // at a wrap point: the next line's start
    EXPECT_EQ(shown_pos(3, w.soft), 3u);
    EXPECT_EQ(text_pos(8, w.soft), 7u);
    EXPECT_EQ(text_pos(shown_pos(12, w.soft), w.soft), 12u);
}

TEST(ComposerWrap, TypingIntoTheFieldReadsBackWithoutTheBreaks) {
    const Wrapped w = soft_wrap("aaaa bbbb", 5, fit);
    ASSERT_EQ(w.shown, "aaaa \nbbbb");
    const Edited e = after_edit(w.shown, w.soft, "aaaa \nbbbbX", 10, 11);
    EXPECT_EQ(e.text, "aaaa bbbbX");
    EXPECT_EQ(e.caret, 10u);
}

TEST(ComposerWrap, BackspaceOnASoftBreakDeletesTheCharacterBeforeIt) {
    const Wrapped w = soft_wrap("aaaa bbbb", 5, fit);
    // The caret at the start of "bbbb" (after the break); Backspace takes the break out of the field.
    const Edited e = after_edit(w.shown, w.soft, "aaaa bbbb", 6, 5);
    EXPECT_EQ(e.text, "aaaabbbb");
    EXPECT_EQ(e.caret, 4u);
}

TEST(ComposerWrap, DeleteOnASoftBreakDeletesTheCharacterAfterIt) {
    const Wrapped w = soft_wrap("aaaa bbbb", 5, fit);
    const Edited e = after_edit(w.shown, w.soft, "aaaa bbbb", 5, 5);
    EXPECT_EQ(e.text, "aaaa bbb");
    EXPECT_EQ(e.caret, 5u);
}

TEST(ComposerWrap, AHardLineBreakTypedStaysInTheText) {
    const Wrapped w = soft_wrap("aaaa bbbb", 5, fit);
    const Edited e = after_edit(w.shown, w.soft, "aa\naa \nbbbb", 2, 3);
    EXPECT_EQ(e.text, "aa\naa bbbb");
    EXPECT_EQ(e.caret, 3u);
}

}  // namespace
}  // namespace roomkey::app
