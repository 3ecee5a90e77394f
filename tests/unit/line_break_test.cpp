// line_break_test.cpp: shared/line_break.hpp: UAX #14 for the classes it
// knows, checked against lines of the Unicode LineBreakTest data, and the
// Japanese rules (no line starts with 、。」）ー… or ends with 「（), numbers
// kept whole, and the wrap.
#include "roomkey/line_break.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

using roomkey::line_break::break_opportunities;
using roomkey::line_break::Line;
using roomkey::line_break::wrap;
using roomkey::line_break::extent;
using roomkey::line_break::fewest_lines;

std::string utf8(char32_t c) {
    std::string out;
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
    return out;
}

// Lines of LineBreakTest-12.0.0.txt (Unicode, Inc.; the rows for the
// classes this breaker knows: AL and IN against CL, CP, EX, IS, SY, NU, PO,
// PR, OP, QU, HY, IN, NS, BA, GL, ID, WJ, ZW, SP and the combining mark).
// "÷" a break opportunity, "×" none.
const char* const kData[] = {
    "× 0023 × 0023 ÷", "× 0023 × 0020 ÷ 0023 ÷", "× 0023 × 0308 × 0023 ÷", "× 0023 × 0308 × 0020 ÷ 0023 ÷",
    "× 0023 × 0009 ÷", "× 0023 × 0020 ÷ 0009 ÷", "× 0023 ÷ 00B4 ÷", "× 0023 × 007D ÷", "× 0023 × 0020 × 007D ÷",
    "× 0023 × 0308 × 007D ÷", "× 0023 × 0029 ÷", "× 0023 × 0020 × 0029 ÷", "× 0023 × 0021 ÷",
    "× 0023 × 0020 × 0021 ÷", "× 0023 × 00A0 ÷", "× 0023 × 0020 ÷ 00A0 ÷", "× 0023 × 0308 × 00A0 ÷",
    "× 0023 × 002D ÷", "× 0023 × 0020 ÷ 002D ÷", "× 0023 ÷ 231A ÷", "× 0023 × 0020 ÷ 231A ÷",
    "× 0023 × 0308 ÷ 231A ÷", "× 0023 × 2024 ÷", "× 0023 × 0020 ÷ 2024 ÷", "× 0023 × 002C ÷",
    "× 0023 × 0020 × 002C ÷", "× 0023 × 17D6 ÷", "× 0023 × 0020 ÷ 17D6 ÷", "× 0023 × 0030 ÷",
    "× 0023 × 0020 ÷ 0030 ÷", "× 0023 × 0028 ÷", "× 0023 × 0020 ÷ 0028 ÷", "× 0023 × 0025 ÷",
    "× 0023 × 0020 ÷ 0025 ÷", "× 0023 × 0024 ÷", "× 0023 × 0022 ÷", "× 0023 × 0020 ÷ 0022 ÷", "× 0023 × 0020 ÷",
    "× 0023 × 0020 × 0020 ÷", "× 0023 × 002F ÷", "× 0023 × 0020 × 002F ÷", "× 0023 × 2060 ÷",
    "× 0023 × 0020 × 2060 ÷", "× 2024 × 007D ÷", "× 2024 × 0020 × 007D ÷", "× 2024 × 0029 ÷", "× 2024 × 0021 ÷",
    "× 2024 × 00A0 ÷", "× 2024 × 0020 ÷ 00A0 ÷", "× 2024 × 002D ÷", "× 2024 ÷ 231A ÷", "× 2024 × 2024 ÷",
    "× 2024 × 0020 ÷ 2024 ÷", "× 2024 × 002C ÷", "× 2024 × 17D6 ÷", "× 2024 ÷ 0030 ÷", "× 2024 × 0308 ÷ 0030 ÷",
    "× 2024 ÷ 0028 ÷", "× 2024 ÷ 0025 ÷", "× 2024 ÷ 0024 ÷", "× 2024 × 0022 ÷", "× 2024 × 0020 ÷ 0022 ÷",
    "× 2024 × 0308 × 0022 ÷", "× 2024 × 002F ÷", "× 2024 × 2060 ÷", "× 2024 × 200B ÷", "× 2024 × 0020 × 200B ÷",
    "× 2024 ÷ 261D ÷", "× 2024 ÷ 1F3FB ÷",
};

TEST(LineBreak, UnicodeTestData) {
    for (const char* line : kData) {
        std::istringstream in(line);
        std::string token;
        std::string text;
        std::vector<std::size_t> expected;
        while (in >> token) {
            if (token == "÷") {
                if (!text.empty()) expected.push_back(text.size());
            } else if (token != "×") {
                text += utf8(static_cast<char32_t>(std::strtoul(token.c_str(), nullptr, 16)));
            }
        }
        if (!expected.empty() && expected.back() == text.size()) expected.pop_back();  // the end of text
        EXPECT_EQ(break_opportunities(text), expected) << line;
    }
}

// Each character one unit wide.
float units(std::string_view s, const void*) {
    float n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1.0f : 0.0f;
    return n;
}

std::vector<std::string> wrapped(std::string_view text, float width) {
    std::vector<std::string> out;
    for (const Line& l : wrap(text, width, units, nullptr)) out.emplace_back(text.substr(l.begin, l.end - l.begin));
    return out;
}

using List = std::vector<std::string>;

TEST(LineBreak, NoLineStartsWithJapaneseClosingPunctuationOrLongVowel) {
    // 、 。 」 ） ー … and small kana never start a line: the character before goes with them.
    EXPECT_EQ(wrapped("あいうえ、かき", 4), (List{"あいう", "え、かき"}));
    EXPECT_EQ(wrapped("あいうえ。かき", 4), (List{"あいう", "え。かき"}));
    EXPECT_EQ(wrapped("「あいう」です", 5), (List{"「あいう」", "です"}));
    EXPECT_EQ(wrapped("（あいう）です", 4), (List{"（あい", "う）です"}));
    EXPECT_EQ(wrapped("データベース", 4), (List{"データ", "ベース"}));
    EXPECT_EQ(wrapped("あいうえ…かき", 4), (List{"あいう", "え…かき"}));
    EXPECT_EQ(wrapped("あいうちょっと", 4), (List{"あいう", "ちょっと"}));
}

TEST(LineBreak, NoLineEndsWithAnOpeningBracket) {
    EXPECT_EQ(wrapped("あいう「かき」", 4), (List{"あいう", "「かき」"}));
    EXPECT_EQ(wrapped("あいう（かき）", 4), (List{"あいう", "（かき）"}));
}

TEST(LineBreak, NumbersStayWholeWhereTheyFit) {
    EXPECT_EQ(wrapped("価格は￥1,280,000です", 12), (List{"価格は", "￥1,280,000です"}));
    EXPECT_EQ(wrapped("価格は￥1,280,000です", 11), (List{"価格は", "￥1,280,000で", "す"}));
    EXPECT_EQ(wrapped("合計 12.5% です", 6), (List{"合計", "12.5%", "です"}));
}

TEST(LineBreak, UrlsStayWholeWhereTheyFitAndBreakWhenTheyCannot) {
    EXPECT_EQ(wrapped("see https://x.org/a now", 17), (List{"see", "https://x.org/a", "now"}));
    EXPECT_EQ(wrapped("abcdefghij", 4), (List{"abcd", "efgh", "ij"}));
}

TEST(LineBreak, LatinBreaksAtSpacesAndAfterHyphens) {
    EXPECT_EQ(wrapped("the quick brown fox", 10), (List{"the quick", "brown fox"}));
    EXPECT_EQ(wrapped("well-known words", 6), (List{"well-", "known", "words"}));
}

TEST(LineBreak, EmojiSequencesStayWhole) {
    const std::string family = "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7";  // 👨‍👩‍👧
    EXPECT_TRUE(break_opportunities(family).empty());
    const std::string flag = "\xF0\x9F\x87\xAF\xF0\x9F\x87\xB5\xF0\x9F\x87\xAF\xF0\x9F\x87\xB5";  // 🇯🇵🇯🇵
    EXPECT_EQ(break_opportunities(flag), (std::vector<std::size_t>{8}));
}

TEST(LineBreak, EmptyAndSpaces) {
    EXPECT_TRUE(wrapped("", 4).empty());
    EXPECT_EQ(wrapped("ab   ", 4), (List{"ab"}));
}

// A font 16 px high as a browser's might draw: ideographs, kana and emoji
// 1 em, Latin letters 0.45-0.6 em, a space 0.25 em.
float browser_like(std::string_view s, const void*) {
    float px = 0;
    for (std::size_t at = 0; at < s.size();) {
        const auto b = static_cast<unsigned char>(s[at]);
        const std::size_t length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        px += length >= 3 ? 16.0f : b == ' ' ? 4.0f : (b == 'i' || b == 'l') ? 7.2f : 9.6f;
        at += length;
    }
    return px;
}

TEST(LineBreakExtent, CountsWideCharactersAnEmAndOthersLessAndTheHardLines) {
    EXPECT_EQ(extent("").hard_lines, 1u);
    EXPECT_FLOAT_EQ(extent("").ems, 0.0f);
    EXPECT_FLOAT_EQ(extent("日本語です").ems, 5.0f);
    EXPECT_FLOAT_EQ(extent("ab cd").ems, 1.6f);  // the space counts nothing
    EXPECT_EQ(extent("一行目\n\n三行目").hard_lines, 3u);
    // A family is one glyph: what the joiners join counts nothing.
    EXPECT_FLOAT_EQ(extent("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7").ems, 1.0f);
}

TEST(LineBreakExtent, TheFewestLinesNeverExceedWhatTheWrapMakes) {
    const std::string japanese =
        "本日の会議では、新しいリリースの日程と担当者を確認しました。資料は共有フォルダーにあります。"
        "ご質問があれば、このルームで聞いてください。よろしくお願いします。";
    const std::string english = "The quick brown fox jumps over the lazy dog while the release notes are written.";
    const std::vector<std::string> texts = {
        "", "短い", japanese, english, japanese + english, japanese + "\n\n" + english + "\n" + japanese,
        std::string(300, 'i'), "https://example.com/a/very/long/path/that/does/not/break/anywhere/at/all"};
    for (const std::string& text : texts) {
        for (float width : {120.0f, 333.0f, 600.0f, 1000.0f}) {
            std::size_t lines = 0;
            std::size_t from = 0;
            while (true) {  // each hard line wrapped alone, an empty one a line
                const std::size_t end = std::min(text.find('\n', from), text.size());
                lines += std::max<std::size_t>(1, wrap(std::string_view(text).substr(from, end - from), width,
                                                       browser_like, nullptr).size());
                if (end == text.size()) break;
                from = end + 1;
            }
            EXPECT_LE(fewest_lines(extent(text), width, 16.0f), lines) << text << " at " << width;
        }
    }
    // And it is near for a long Japanese paragraph: 3,000 characters at 600 px are 80 lines.
    std::string long_text;
    for (int i = 0; i < 1000; ++i) long_text += "日本語";
    EXPECT_EQ(fewest_lines(extent(long_text), 600.0f, 16.0f), 80u);
}

}  // namespace
