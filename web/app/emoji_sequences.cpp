// emoji_sequences.cpp: see emoji_sequences.hpp. The sequences are those of
// UTS #51: a regional-indicator pair, and a base followed by any of VS16
// (U+FE0F), a skin tone (U+1F3FB-1F3FF), the keycap mark (U+20E3), tag
// characters (U+E0020-E007F, subdivision flags), or ZWJ (U+200D) and the
// next codepoint; and a single emoji of emoji presentation, drawn with VS16.
#include "app/emoji_sequences.hpp"

#include <cstdint>
#include <iterator>
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

void put(std::string& out, char32_t c) {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
}

}  // namespace

bool emoji_presentation(char32_t c) {
    // Emoji_Presentation=Yes of emoji-data.txt (Emoji 15.0, checked against
    // the file: EmojiPresentationMatchesTheEdgesOfEmojiData15), ranges merged
    // (16 bits each: the plane-1 ones less 0x1F000); the regional
    // indicators left out (one alone is a letter, not a flag).
    static constexpr std::uint16_t kBmp[][2] = {
        {0x231A, 0x231B}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0}, {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615},
        {0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE},
        {0x26C4, 0x26C5}, {0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
        {0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728}, {0x274C, 0x274C},
        {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
        {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
    };
    static constexpr std::uint16_t kPlane1[][2] = {
        {0x0004, 0x0004}, {0x00CF, 0x00CF}, {0x018E, 0x018E}, {0x0191, 0x019A}, {0x0201, 0x0201}, {0x021A, 0x021A},
        {0x022F, 0x022F}, {0x0232, 0x0236}, {0x0238, 0x023A}, {0x0250, 0x0251}, {0x0300, 0x0320}, {0x032D, 0x0335},
        {0x0337, 0x037C}, {0x037E, 0x0393}, {0x03A0, 0x03CA}, {0x03CF, 0x03D3}, {0x03E0, 0x03F0}, {0x03F4, 0x03F4},
        {0x03F8, 0x043E}, {0x0440, 0x0440}, {0x0442, 0x04FC}, {0x04FF, 0x053D}, {0x054B, 0x054E}, {0x0550, 0x0567},
        {0x057A, 0x057A}, {0x0595, 0x0596}, {0x05A4, 0x05A4}, {0x05FB, 0x064F}, {0x0680, 0x06C5}, {0x06CC, 0x06CC},
        {0x06D0, 0x06D2}, {0x06D5, 0x06D7}, {0x06DC, 0x06DF}, {0x06EB, 0x06EC}, {0x06F4, 0x06FC}, {0x07E0, 0x07EB},
        {0x07F0, 0x07F0}, {0x090C, 0x093A}, {0x093C, 0x0945}, {0x0947, 0x09FF}, {0x0A70, 0x0A7C}, {0x0A80, 0x0A88},
        {0x0A90, 0x0ABD}, {0x0ABF, 0x0AC5}, {0x0ACE, 0x0ADB}, {0x0AE0, 0x0AE8}, {0x0AF0, 0x0AF8},
    };
    const bool plane1 = c >= 0x1F000 && c <= 0x1FFFF;
    if (!plane1 && (c < 0x231A || c > 0x2B55)) return false;  // most text: no look-up
    const char32_t k = plane1 ? c - 0x1F000 : c;
    const std::uint16_t(*r)[2] = plane1 ? kPlane1 : kBmp;
    const std::size_t n = plane1 ? std::size(kPlane1) : std::size(kBmp);
    for (std::size_t i = 0; i < n && k >= r[i][0]; ++i) {
        if (k <= r[i][1]) return true;
    }
    return false;
}

std::string EmojiSequences::fold(std::string_view utf8, bool singles) {
    // Every sequence, and every emoji folded alone, holds a codepoint of
    // U+2000-2FFF (ZWJ, the keycap, the BMP's emoji), U+FE00-FE3F (VS16) or
    // of a plane above the BMP (regional indicators, skin tones, tags, the
    // area): lead byte 0xE2, 0xEF 0xB8, or 0xF0 and up. Japanese (0xE3-0xE9,
    // fullwidth 0xEF 0xBC-0xBF) goes through as it is: it was most of the
    // line breaking's measures in a long Japanese room.
    bool any = false;
    for (std::size_t k = 0; k < utf8.size() && !any; ++k) {
        const auto b = static_cast<unsigned char>(utf8[k]);
        any = b == 0xE2 || b >= 0xF0 || (b == 0xEF && k + 1 < utf8.size() && static_cast<unsigned char>(utf8[k + 1]) == 0xB8);
    }
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
