// app_emoji_sequences_test.cpp: each emoji sequence (a flag, a ZWJ family, a
// skin tone, a keycap, VS16) becomes one codepoint to draw, the same one
// each time, and a single emoji stands for itself with VS16; other single
// codepoints, text, line breaks and broken bytes are left as written (web/app/emoji_sequences.hpp).
#include "app/emoji_sequences.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roomkey::app {
namespace emoji_sequences_test {

// The codepoints of UTF-8 text (valid input only).
std::u32string codepoints(const std::string& s) {
    std::u32string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : 4;
        char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (std::size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out += c;
        i += n;
    }
    return out;
}

TEST(EmojiSequences, EachSequenceIsOneCodepointStandingForIt) {
    EmojiSequences seq;
    const std::string flag = "\U0001F1EF\U0001F1F5";                       // 🇯🇵
    const std::string family = "\U0001F468\u200D\U0001F469\u200D\U0001F467";  // 👨‍👩‍👧
    const std::string warning = "\u26A0\uFE0F";                              // ⚠️
    const std::string keycap = "1\uFE0F\u20E3";                              // 1️⃣
    const std::string thumbs = "\U0001F44D\U0001F3FD";                       // 👍🏽
    for (const std::string& s : {flag, family, warning, keycap, thumbs}) {
        const std::u32string folded = codepoints(seq.fold("a " + s + " b"));
        ASSERT_EQ(folded.size(), 5u) << s;
        EXPECT_EQ(folded[0], U'a');
        EXPECT_GE(folded[2], EmojiSequences::kFirst);
        ASSERT_NE(seq.sequence_of(folded[2]), nullptr);
        EXPECT_EQ(*seq.sequence_of(folded[2]), s) << "its glyph is the whole sequence";
    }
    EXPECT_EQ(seq.added(), 5u);
    EXPECT_EQ(seq.fold(flag + flag), seq.fold(flag) + seq.fold(flag)) << "the same sequence, the same codepoint";
    EXPECT_EQ(codepoints(seq.fold(flag + "\U0001F1FA\U0001F1F8")).size(), 2u) << "🇯🇵🇺🇸: two flags";
    EXPECT_EQ(seq.added(), 6u);
    // A single emoji of emoji presentation stands for itself with VS16, as if written so.
    const std::u32string grin = codepoints(seq.fold("\U0001F600"));
    ASSERT_EQ(grin.size(), 1u);
    ASSERT_NE(seq.sequence_of(grin[0]), nullptr);
    EXPECT_EQ(*seq.sequence_of(grin[0]), "\U0001F600\uFE0F");
    EXPECT_EQ(seq.fold("\U0001F600\uFE0F"), seq.fold("\U0001F600"));
}

TEST(EmojiSequences, WithoutSinglesOnlySequencesFold) {
    EmojiSequences seq;
    const std::string flag = "\U0001F1EF\U0001F1F5";  // 🇯🇵
    EXPECT_EQ(seq.fold("\U0001F680 Dev", false), "\U0001F680 Dev") << "🚀 alone stays as written";
    const std::u32string folded = codepoints(seq.fold(flag + " Dev \U0001F680", false));
    ASSERT_EQ(folded.size(), 7u);
    ASSERT_NE(seq.sequence_of(folded[0]), nullptr);
    EXPECT_EQ(*seq.sequence_of(folded[0]), flag);
    EXPECT_EQ(folded[6], U'\U0001F680');
    EXPECT_EQ(seq.added(), 1u);
}

// Japanese is passed over without a look at each codepoint, but a sequence
// inside it, or one made of a Japanese character and VS16, is still folded.
TEST(EmojiSequences, SequencesAmidJapaneseFold) {
    EmojiSequences seq;
    const std::u32string folded = codepoints(seq.fold("日本㊗️語⭐！", false));
    ASSERT_EQ(folded.size(), 6u) << "日, 本, ㊗️ as one, 語, ⭐ (alone: kept), ！";
    EXPECT_EQ(folded[4], U'\u2B50');
    ASSERT_NE(seq.sequence_of(folded[2]), nullptr);
    EXPECT_EQ(*seq.sequence_of(folded[2]), "㊗️");
    EXPECT_EQ(seq.fold("日本⭐"), "日本" + std::string(seq.fold("⭐"))) << "⭐ of emoji presentation folds";
    EXPECT_NE(seq.fold("⭐"), "⭐");
}

TEST(EmojiSequences, EverythingElseStaysAsWritten) {
    EmojiSequences seq;
    for (const std::string s : {"plain text", "日本語のテキスト、です。", "\u2600 text-style sun",
                                "line\nbreak", "\xFF\xFE broken \xE2\x80", "a\u200D\nb", "\u200D", "\U0001F1EF alone"}) {
        EXPECT_EQ(seq.fold(s), s);
    }
    EXPECT_EQ(seq.added(), 0u);
    EXPECT_EQ(seq.sequence_of(EmojiSequences::kFirst), nullptr);
}

// Emoji_Presentation (emoji-data.txt): what is drawn from a colour emoji
// font even written alone, though DejaVu Sans holds a black-and-white 😀.
TEST(EmojiSequences, EmojiPresentationIsAskedOfTheColourFont) {
    for (const char32_t c : {U'\U0001F600', U'\U0001F680', U'\u231A', U'\u2B50', U'\U0001F004', U'\U0001F3FD',
                             U'\U0001FAF8', U'\u2705'}) {
        EXPECT_TRUE(emoji_presentation(c)) << std::hex << static_cast<unsigned>(c);
    }
    // Text presentation by default (VS16 asks for the emoji), letters, kana, a lone regional indicator.
    for (const char32_t c : {U'\u2600', U'\u26A0', U'\U0001F321', U'\U0001F93B', U'\U0001F946', U'A', U'\u3042',
                             U'\U0001F1EF', U'\u2B51', U'\U0001FAF9'}) {
        EXPECT_FALSE(emoji_presentation(c)) << std::hex << static_cast<unsigned>(c);
    }
}

// Code points at the edges of Emoji_Presentation's ranges (adjacent ranges
// merged), taken from Unicode's emoji-data.txt for Emoji 15.0 (ucd/15.0.0/
// emoji/emoji-data.txt, dated 2022-08-02, as unicode-org/unicodetools holds
// it; unchanged in 15.1): each first and last is Yes, the code point on
// either side No. Among them the fast path's bounds (U+231A, U+2B55), the
// neighbours of the regional indicators, and Emoji 15.0's additions
// (U+1F6DC wireless, U+1FA87-1FA88, U+1FAF7-1FAF8).
TEST(EmojiSequences, EmojiPresentationMatchesTheEdgesOfEmojiData15) {
    for (const char32_t c : {0x231AU, 0x231BU, 0x23E9U, 0x23ECU, 0x2753U, 0x2755U, 0x2B55U, 0x1F004U, 0x1F18EU,
                             0x1F191U, 0x1F19AU, 0x1F201U, 0x1F3F4U, 0x1F6DCU, 0x1F6DFU, 0x1FA70U, 0x1FA7CU, 0x1FA80U,
                             0x1FA88U, 0x1FAF0U, 0x1FAF8U}) {
        EXPECT_TRUE(emoji_presentation(c)) << std::hex << static_cast<unsigned>(c);
    }
    for (const char32_t c : {0x2319U, 0x231CU, 0x23E8U, 0x23EDU, 0x2752U, 0x2756U, 0x2B54U, 0x2B56U, 0x1F003U,
                             0x1F005U, 0x1F18DU, 0x1F18FU, 0x1F190U, 0x1F19BU, 0x1F200U, 0x1F202U, 0x1F3F3U, 0x1F3F5U,
                             0x1F6DBU, 0x1F6E0U, 0x1FA6FU, 0x1FA7DU, 0x1FA7FU, 0x1FA89U, 0x1FAEFU, 0x1FAF9U}) {
        EXPECT_FALSE(emoji_presentation(c)) << std::hex << static_cast<unsigned>(c);
    }
}

// The composer's field holds the text folded, and what is sent is the text
// unfolded: exactly what was typed, whatever was typed (a codepoint of the
// folding area itself, broken bytes, a single emoji, text without emoji).
TEST(EmojiSequences, TextFoldedWithoutSinglesUnfoldsExactlyAsTyped) {
    EmojiSequences seq;
    seq.fold("\U0001F680 \U0001F1EF\U0001F1F5");  // a message drawn before: a single folded with VS16, a flag
    const std::string typed[] = {
        "\U0001F1EF\U0001F1F5 and \U0001F468\u200D\U0001F469\u200D\U0001F467 at ten",
        "\U0001F680 alone, \u26A0\uFE0F and 1\uFE0F\u20E3",
        std::string("\U000F0000 \U000F0001 written in the area, ") + "\xF3\xB0 broken" + "\xFF",
        "plain text\n\u65E5\u672C\u8A9E",
        "",
    };
    for (const std::string& t : typed) {
        const std::string folded = seq.fold(t, false);
        EXPECT_EQ(seq.unfold(folded), t);
    }
    const std::u32string flag = codepoints(seq.fold("\U0001F1EF\U0001F1F5", false));
    ASSERT_EQ(flag.size(), 1u);
    EXPECT_GE(flag[0], EmojiSequences::kFirst);
    EXPECT_EQ(seq.fold("\U0001F680", false), "\U0001F680");  // a single stays as written
}

}  // namespace emoji_sequences_test
}  // namespace roomkey::app
