// line_break.cpp: see line_break.hpp. The rules are UAX #14's (LB4-LB31)
// in their order, for the classes of class_of; the number rule is the
// pair form of LB25.
#include "roomkey/line_break.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "roomkey/links.hpp"

namespace roomkey::line_break {

namespace {

// Where each run of one class starts (the first codepoint in the high 24
// bits, the class in the low 8), sorted: a run lasts until the next one.
#define R(first, cls) ((std::uint32_t{first} << 8) | static_cast<std::uint32_t>(Class::cls))
constexpr std::uint32_t kRuns[] = {
    R(0x0, AL),     R(0x9, BA),     R(0xA, LF),     R(0xB, BK),     R(0xD, CR),     R(0xE, CM),     R(0x20, SP),
    R(0x21, EX),    R(0x22, QU),    R(0x23, AL),    R(0x24, PR),    R(0x25, PO),    R(0x26, AL),    R(0x27, QU),
    R(0x28, OP),    R(0x29, CP),    R(0x2A, AL),    R(0x2B, PR),    R(0x2C, IS),    R(0x2D, HY),    R(0x2E, IS),
    R(0x2F, SY),    R(0x30, NU),    R(0x3A, IS),    R(0x3C, AL),    R(0x3F, EX),    R(0x40, AL),    R(0x5B, OP),
    R(0x5C, PR),    R(0x5D, CP),    R(0x5E, AL),    R(0x7B, OP),    R(0x7C, BA),    R(0x7D, CL),    R(0x7E, AL),
    R(0x7F, CM),    R(0x85, BK),    R(0x86, CM),    R(0xA0, GL),    R(0xA1, AL),    R(0xA2, PO),    R(0xA3, PR),
    R(0xA6, AL),    R(0xAB, QU),    R(0xAC, AL),    R(0xAD, BA),    R(0xAE, AL),    R(0xB0, PO),    R(0xB1, AL),
    R(0xB4, BB),    R(0xB5, AL),    R(0xBB, QU),    R(0xBC, AL),    R(0x300, CM),   R(0x370, AL),   R(0x17D6, NS),
    R(0x17D7, AL),  R(0x2007, GL),  R(0x2008, AL),  R(0x200B, ZW),  R(0x200C, CM),  R(0x200D, ZWJ), R(0x200E, AL),
    R(0x2010, BA),  R(0x2011, GL),  R(0x2012, BA),  R(0x2014, B2),  R(0x2015, AL),  R(0x2018, QU),  R(0x2020, AL),
    R(0x2024, IN),  R(0x2027, AL),  R(0x202F, GL),  R(0x2030, PO),  R(0x2038, AL),  R(0x203C, NS),  R(0x203E, AL),
    R(0x2047, NS),  R(0x204A, AL),  R(0x2060, WJ),  R(0x2061, AL),  R(0x20A0, PR),  R(0x20D0, CM),  R(0x2100, AL),
    R(0x2103, PO),  R(0x2104, AL),  R(0x231A, ID),  R(0x231C, AL),  R(0x261D, EB),  R(0x2600, ID),  R(0x261D, AL),
    R(0x261E, ID),  R(0x27C0, AL),  R(0x2E80, ID),  R(0x3000, BA),  R(0x3001, CL),  R(0x3003, ID),  R(0x3005, NS),
    R(0x3006, ID),  R(0x3008, OP),  R(0x3009, CL),  R(0x300A, OP),  R(0x300B, CL),  R(0x300C, OP),  R(0x300D, CL),
    R(0x300E, OP),  R(0x300F, CL),  R(0x3010, OP),  R(0x3011, CL),  R(0x3012, ID),  R(0x3014, OP),  R(0x3015, CL),
    R(0x3016, OP),  R(0x3017, CL),  R(0x3018, OP),  R(0x3019, CL),  R(0x301A, OP),  R(0x301B, CL),  R(0x301C, NS),
    R(0x301D, OP),  R(0x301E, CL),  R(0x3020, ID),  R(0x303B, NS),  R(0x303D, ID),  R(0x3041, NS),  R(0x3042, ID),
    R(0x3043, NS),  R(0x3044, ID),  R(0x3045, NS),  R(0x3046, ID),  R(0x3047, NS),  R(0x3048, ID),  R(0x3049, NS),
    R(0x304A, ID),  R(0x3063, NS),  R(0x3064, ID),  R(0x3083, NS),  R(0x3084, ID),  R(0x3085, NS),  R(0x3086, ID),
    R(0x3087, NS),  R(0x3088, ID),  R(0x308E, NS),  R(0x308F, ID),  R(0x3095, NS),  R(0x3097, AL),  R(0x3099, CM),
    R(0x309B, NS),  R(0x309F, ID),  R(0x30A0, NS),  R(0x30A2, ID),  R(0x30A3, NS),  R(0x30A4, ID),  R(0x30A5, NS),
    R(0x30A6, ID),  R(0x30A7, NS),  R(0x30A8, ID),  R(0x30A9, NS),  R(0x30AA, ID),  R(0x30C3, NS),  R(0x30C4, ID),
    R(0x30E3, NS),  R(0x30E4, ID),  R(0x30E5, NS),  R(0x30E6, ID),  R(0x30E7, NS),  R(0x30E8, ID),  R(0x30EE, NS),
    R(0x30EF, ID),  R(0x30F5, NS),  R(0x30F7, ID),  R(0x30FB, NS),  R(0x30FF, ID),  R(0x31F0, NS),  R(0x3200, ID),
    R(0x4DC0, AL),  R(0x4E00, ID),  R(0xA4D0, AL),  R(0xAC00, ID),  R(0xD7A4, AL),  R(0xF900, ID),  R(0xFB00, AL),
    R(0xFE00, CM),  R(0xFE10, AL),  R(0xFE30, ID),  R(0xFE50, AL),  R(0xFEFF, WJ),  R(0xFF00, AL),  R(0xFF01, EX),
    R(0xFF02, ID),  R(0xFF04, PR),  R(0xFF05, PO),  R(0xFF06, ID),  R(0xFF08, OP),  R(0xFF09, CL),  R(0xFF0A, ID),
    R(0xFF0C, CL),  R(0xFF0D, ID),  R(0xFF0E, CL),  R(0xFF0F, ID),  R(0xFF1A, NS),  R(0xFF1C, ID),  R(0xFF1F, EX),
    R(0xFF20, ID),  R(0xFF3B, OP),  R(0xFF3C, ID),  R(0xFF3D, CL),  R(0xFF3E, ID),  R(0xFF5B, OP),  R(0xFF5C, ID),
    R(0xFF5D, CL),  R(0xFF5E, ID),  R(0xFF5F, OP),  R(0xFF60, CL),  R(0xFF62, OP),  R(0xFF63, CL),  R(0xFF65, NS),
    R(0xFF66, AL),  R(0xFF67, NS),  R(0xFF71, AL),  R(0xFF9E, NS),  R(0xFFA0, AL),  R(0xFFE0, PO),  R(0xFFE1, PR),
    R(0xFFE2, AL),  R(0xFFE5, PR),  R(0xFFE7, AL),  R(0x1F000, ID), R(0x1F1E6, RI), R(0x1F200, ID), R(0x1F3FB, EM),
    R(0x1F400, ID), R(0x1FB00, AL), R(0x20000, ID), R(0x3FFFE, AL), R(0xE0001, CM), R(0xE0080, AL), R(0xE0100, CM),
    R(0xE01F0, AL),
};
#undef R

// The next codepoint of `text` at `at` (advanced); invalid bytes are one U+FFFD each.
char32_t next(std::string_view text, std::size_t& at) {
    const auto b = static_cast<unsigned char>(text[at]);
    const int length = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (length == 0 || at + static_cast<std::size_t>(length) > text.size()) {
        ++at;
        return 0xFFFD;
    }
    char32_t c = length == 1 ? b : b & (0x7F >> length);
    for (int i = 1; i < length; ++i) {
        const auto cont = static_cast<unsigned char>(text[at + static_cast<std::size_t>(i)]);
        if ((cont & 0xC0) != 0x80) {
            ++at;
            return 0xFFFD;
        }
        c = (c << 6) | (cont & 0x3F);
    }
    at += static_cast<std::size_t>(length);
    return c;
}

// A set of classes as bits (fewer than 32 classes): small code for the rules.
constexpr std::uint32_t bit(Class c) {
    return 1u << static_cast<unsigned>(c);
}

bool any(Class c, std::uint32_t set) {
    return (bit(c) & set) != 0;
}

}  // namespace

Class class_of(char32_t c) {
    const std::uint32_t key = (static_cast<std::uint32_t>(c) << 8) | 0xFF;
    const std::uint32_t* at = std::upper_bound(std::begin(kRuns), std::end(kRuns), key);
    return at == std::begin(kRuns) ? Class::AL : static_cast<Class>(at[-1] & 0xFF);
}

std::vector<std::size_t> break_opportunities(std::string_view text) {
    using C = Class;
    std::vector<std::size_t> out;
    std::size_t at = 0;
    C prev = C::SP;           // the class before this position (CM resolved: LB9, LB10)
    C before_spaces = C::SP;  // the class before the spaces that end at this position
    bool prev_zwj = false;
    bool first = true;
    int ri_run = 0;  // regional indicators in a row before this position
    while (at < text.size()) {
        const std::size_t here = at;
        C cur = class_of(next(text, at));
        const bool zwj = cur == C::ZWJ;
        const bool attaches = (cur == C::CM || zwj);
        bool can = false;
        bool mark = false;  // LB9: it takes the class of what it follows
        if (first) {
            if (attaches) cur = C::AL;  // LB10
        } else if (prev == C::BK || prev == C::LF || (prev == C::CR && cur != C::LF)) {
            can = true;  // LB4, LB5: after a hard break
        } else if (any(cur, (bit(C::BK) | bit(C::CR) | bit(C::LF) | bit(C::SP) | bit(C::ZW)))) {
            can = false;  // LB6, LB7
        } else if (before_spaces == C::ZW) {
            can = true;  // LB8
        } else if (prev_zwj) {
            can = false;  // LB8a
        } else if (attaches && !any(prev, (bit(C::SP) | bit(C::ZW)))) {
            mark = true;  // LB9
        } else {
            if (attaches) cur = C::AL;  // LB10
            const C b = prev;
            const C s = before_spaces;
            if (cur == C::WJ || b == C::WJ)
                can = false;  // LB11
            else if (b == C::GL)
                can = false;  // LB12
            else if (cur == C::GL && !any(b, (bit(C::SP) | bit(C::BA) | bit(C::HY))))
                can = false;  // LB12a
            else if (any(cur, (bit(C::CL) | bit(C::CP) | bit(C::EX) | bit(C::IS) | bit(C::SY))))
                can = false;  // LB13
            else if (s == C::OP)
                can = false;  // LB14
            else if (s == C::QU && cur == C::OP)
                can = false;  // LB15
            else if (any(s, (bit(C::CL) | bit(C::CP))) && cur == C::NS)
                can = false;  // LB16
            else if (s == C::B2 && cur == C::B2)
                can = false;  // LB17
            else if (b == C::SP)
                can = true;  // LB18
            else if (cur == C::QU || b == C::QU)
                can = false;  // LB19
            else if (any(cur, (bit(C::BA) | bit(C::HY) | bit(C::NS))) || b == C::BB)
                can = false;  // LB21
            else if (cur == C::IN)
                can = false;  // LB22
            else if ((b == C::AL && cur == C::NU) || (b == C::NU && cur == C::AL))
                can = false;  // LB23
            else if ((b == C::PR && any(cur, (bit(C::ID) | bit(C::EB) | bit(C::EM)))) ||
                     (any(b, (bit(C::ID) | bit(C::EB) | bit(C::EM))) && cur == C::PO))
                can = false;  // LB23a
            else if ((any(b, (bit(C::PR) | bit(C::PO))) && cur == C::AL) ||
                     (b == C::AL && any(cur, (bit(C::PR) | bit(C::PO)))))
                can = false;  // LB24
            else if ((any(b, (bit(C::CL) | bit(C::CP) | bit(C::NU))) && any(cur, (bit(C::PO) | bit(C::PR)))) ||
                     (any(b, (bit(C::PO) | bit(C::PR))) && any(cur, (bit(C::OP) | bit(C::NU)))) ||
                     (any(b, (bit(C::HY) | bit(C::IS) | bit(C::NU) | bit(C::SY))) && cur == C::NU))
                can = false;  // LB25
            else if (b == C::AL && cur == C::AL)
                can = false;  // LB28
            else if (b == C::IS && cur == C::AL)
                can = false;  // LB29
            else if ((any(b, (bit(C::AL) | bit(C::NU))) && cur == C::OP) ||
                     (b == C::CP && any(cur, (bit(C::AL) | bit(C::NU)))))
                can = false;  // LB30
            else if (b == C::RI && cur == C::RI && ri_run % 2 == 1)
                can = false;  // LB30a
            else if (b == C::EB && cur == C::EM)
                can = false;  // LB30b
            else
                can = true;  // LB31
        }
        if (can) out.push_back(here);
        first = false;
        prev_zwj = zwj;
        if (mark) continue;  // what follows sees the mark's base
        ri_run = cur == C::RI ? ri_run + 1 : 0;
        if (cur != C::SP) before_spaces = cur;
        prev = cur;
    }
    return out;
}

std::vector<Line> wrap(std::string_view text, float width, Measure measure, const void* context) {
    std::vector<Line> lines;
    if (text.empty()) return lines;
    std::vector<std::size_t> cuts = break_opportunities(text);
    // A link is one piece: no break inside it where it fits a line.
    for (const TextLink& link : find_links(text)) {
        cuts.erase(
            std::remove_if(cuts.begin(), cuts.end(), [&](std::size_t at) { return at > link.begin && at < link.end; }),
            cuts.end());
    }
    cuts.push_back(text.size());
    const auto trimmed = [&](std::size_t begin, std::size_t end) {
        while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
        return end;
    };
    const auto fits = [&](std::size_t begin, std::size_t end) {
        return measure(text.substr(begin, trimmed(begin, end) - begin), context) <= width;
    };
    std::size_t begin = 0;
    std::size_t c = 0;
    while (begin < text.size()) {
        // The furthest opportunity whose line still fits.
        std::size_t end = 0;
        while (c < cuts.size() && fits(begin, cuts[c])) end = cuts[c++];
        if (end == 0) {
            // One piece wider than a line: broken between characters.
            std::size_t at = begin;
            std::size_t last = begin;
            while (at < cuts[c]) {
                std::size_t after = at;
                next(text, after);
                if (last > begin && measure(text.substr(begin, after - begin), context) > width) break;
                last = at = after;
            }
            end = last;
            if (end == cuts[c]) ++c;
        }
        lines.push_back({begin, trimmed(begin, end)});
        begin = end;
        while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
        while (c < cuts.size() && cuts[c] <= begin) ++c;
    }
    return lines;
}

Extent extent(std::string_view text) {
    constexpr float kNarrowEms = 0.4f;
    Extent e;
    std::size_t at = 0;
    bool joined = false;  // after a zero width joiner: one glyph with the emoji before
    while (at < text.size()) {
        const char32_t c = next(text, at);
        if (c == '\n') {
            ++e.hard_lines;
            joined = false;
            continue;
        }
        const Class k = class_of(c);
        // Nothing for a space (it may end a line, where it takes no room), a
        // mark, a joiner, a skin tone or what a joiner joins.
        const bool none = k == Class::SP || c == '\t' || k == Class::CM || k == Class::ZWJ || k == Class::EM || joined;
        if (!none) e.ems += k == Class::ID || k == Class::EB ? 1.0f : kNarrowEms;
        joined = k == Class::ZWJ;
    }
    return e;
}

std::size_t fewest_lines(const Extent& extent, float width, float em) {
    if (!(width > 0) || !(em > 0)) return extent.hard_lines;
    const auto wrapped = static_cast<std::size_t>(std::ceil(extent.ems * em / width));
    return std::max(extent.hard_lines, wrapped);
}

}  // namespace roomkey::line_break
