// line_break.hpp: where a line of text may break, as a reader expects:
// Unicode line breaking (UAX #14) for the classes chat text uses (Latin,
// digits and their punctuation, Japanese and Chinese, emoji), with the
// Japanese rules of JIS X 4051 / W3C JLREQ (strict: small kana and ー are
// non-starters, so no line starts with 、。」）ー… and none ends with 「（),
// numbers (￥1,280,000) kept whole; and the greedy wrap that uses it.
// Pure: the layout is a function of the text, the width and a measure.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace roomkey::line_break {

// UAX #14 line-breaking classes this breaker knows (others count as AL).
enum class Class : unsigned char {
    AL, BA, BB, B2, BK, CL, CM, CP, CR, EB, EM, EX, GL, HY, ID, IN, IS, LF, NS, NU, OP, PO, PR, QU, RI, SP, SY, WJ,
    ZW, ZWJ
};

// A codepoint's class (CJ resolved to NS: the strict Japanese rule).
Class class_of(char32_t c);

// Byte offsets, in (0, text.size()), where a line may break before the
// character there (after a hard line break it must).
std::vector<std::size_t> break_opportunities(std::string_view utf8);

struct Line {
    std::size_t begin = 0;  // bytes of the text
    std::size_t end = 0;    // its trailing spaces excluded
};

// How wide a piece of text is drawn; `context` is the caller's.
using Measure = float (*)(std::string_view piece, const void* context);

// The lines of `utf8` (no '\n' in it: a paragraph's hard lines are split
// first) at most `width` wide as `measure(piece, context)` says, broken where the rules
// allow; a piece wider than a line alone (a long URL, a number) is kept
// whole when it fits a line, else broken between characters.
std::vector<Line> wrap(std::string_view utf8, float width, Measure measure, const void* context);

// What a text holds, for a guess at its lines before it is laid out (a
// long list's rows not drawn yet): its hard lines, and its width set on one
// line in ems, counted low: an ideograph, kana or emoji (class ID, EB) 1 em,
// a space, a mark or what a joiner joins nothing, any other character
// 0.4 em (Latin letters average about half).
struct Extent {
    std::size_t hard_lines = 1;
    float ems = 0;
};
Extent extent(std::string_view utf8);

// The fewest lines a text of `extent` can take at `width` in a font `em`
// pixels high: one per hard line at least, and no fewer than its width on
// one line over `width`. Never more than wrap() makes (an empty hard line
// counted as one) with a measure that gives each character at least the
// width extent() counts.
std::size_t fewest_lines(const Extent& extent, float width, float em);

}  // namespace roomkey::line_break
