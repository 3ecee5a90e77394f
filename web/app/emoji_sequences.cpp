// emoji_sequences.cpp: see emoji_sequences.hpp. The sequences are those of
// UTS #51: a regional-indicator pair, and a base followed by any of VS16
// (U+FE0F), a skin tone (U+1F3FB-1F3FF), the keycap mark (U+20E3), tag
// characters (U+E0020-E007F, subdivision flags), or ZWJ (U+200D) and the
// next codepoint; and a single emoji of emoji presentation, drawn with VS16.
#include "app/emoji_sequences.hpp"

#include <vector>

namespace roomkey::app {

namespace {

struct Decoded {
    char32_t c;
    std::size_t begin;
    std::size_t end;
};

// Invalid bytes decode as themselves, one at a time: nothing is lost.
std::vector<Decoded> decode(std::string_view s) {
    std::vector<Decoded> out;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        bool ok = n > 0 && i + n <= s.size();
        char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (std::size_t k = 1; ok && k < n; ++k) {
            const auto t = static_cast<unsigned char>(s[i + k]);
            ok = (t & 0xC0) == 0x80;
            c = (c << 6) | (t & 0x3F);
        }
        if (!ok) c = 0xFFFD;
        const std::size_t len = ok ? n : 1;
        out.push_back({c, i, i + len});
        i += len;
    }
    return out;
}

bool is_ri(char32_t c) {
    return c >= 0x1F1E6 && c <= 0x1F1FF;
}

// What extends the codepoint before it into one sequence.
bool extends(char32_t c) {
    return c == 0xFE0F || (c >= 0x1F3FB && c <= 0x1F3FF) || c == 0x20E3 || (c >= 0xE0020 && c <= 0xE007F);
}

// Emoji drawn as emoji by default (Emoji_Presentation, UTS #51), whose
// text-style glyph a font earlier in the page's stack may hold (DejaVu
// Sans has 😀 in black and white): asked for as emoji with VS16.
bool emoji_presentation(char32_t c) {
    return (c >= 0x1F300 && c <= 0x1F64F) || (c >= 0x1F680 && c <= 0x1F6FF) || (c >= 0x1F7E0 && c <= 0x1F7EB) ||
           (c >= 0x1F90C && c <= 0x1F9FF) || (c >= 0x1FA70 && c <= 0x1FAFF) || c == 0x1F004 || c == 0x1F0CF ||
           c == 0x1F18E || (c >= 0x1F191 && c <= 0x1F19A);
}

void put(std::string& out, char32_t c) {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
}

}  // namespace

std::string EmojiSequences::fold(std::string_view utf8, bool singles) {
    // Every sequence holds a byte of 0xE2 or more (VS16, ZWJ, the keycap, a regional indicator...).
    bool any = false;
    for (const char ch : utf8) any = any || static_cast<unsigned char>(ch) >= 0xE2;
    if (!any) return std::string(utf8);
    const std::vector<Decoded> cps = decode(utf8);
    std::string out;
    out.reserve(utf8.size());
    std::size_t i = 0;
    while (i < cps.size()) {
        std::size_t j = i + 1;
        if (cps[i].c <= 0x20) {
            // A space or a control starts no sequence (a line break stays one).
        } else if (is_ri(cps[i].c) && j < cps.size() && is_ri(cps[j].c)) {
            ++j;
        } else {
            while (j < cps.size()) {
                if (extends(cps[j].c)) {
                    ++j;
                } else if (cps[j].c == 0x200D && j + 1 < cps.size() && cps[j + 1].c > 0x20) {
                    j += 2;
                } else {
                    break;
                }
            }
        }
        const std::string_view written = utf8.substr(cps[i].begin, cps[j - 1].end - cps[i].begin);
        const bool single = j == i + 1;
        // A codepoint of the area itself, as written, is folded too (standing for itself): unfold stays exact.
        const bool own = cps[i].c >= kFirst && cps[i].c <= kLast;
        if (single && !own && (!singles || !emoji_presentation(cps[i].c))) {
            out += written;
            i = j;
            continue;
        }
        const std::string sequence = single && !own ? std::string(written) + "\xEF\xB8\x8F" : std::string(written);  // + VS16
        std::size_t index = 0;
        while (index < sequences_.size() && sequences_[index] != sequence) ++index;
        if (index == sequences_.size()) {
            if (kFirst + index > kLast) {
                out += written;
                i = j;
                continue;
            }
            sequences_.push_back(sequence);
        }
        put(out, kFirst + static_cast<char32_t>(index));
        i = j;
    }
    return out;
}

std::string EmojiSequences::unfold(std::string_view folded) const {
    if (folded.find('\xF3') == std::string_view::npos) return std::string(folded);  // no codepoint of the area
    std::string out;
    out.reserve(folded.size());
    std::size_t done = 0;
    for (const Decoded& d : decode(folded)) {
        const std::string* sequence = sequence_of(d.c);
        if (!sequence) continue;
        out.append(folded.substr(done, d.begin - done));
        out += *sequence;
        done = d.end;
    }
    out.append(folded.substr(done));
    return out;
}

const std::string* EmojiSequences::sequence_of(char32_t codepoint) const {
    if (codepoint < kFirst || codepoint - kFirst >= sequences_.size()) return nullptr;
    return &sequences_[codepoint - kFirst];
}

}  // namespace roomkey::app
