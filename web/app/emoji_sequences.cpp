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

void put(std::string& out, char32_t c) {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
}

}  // namespace

bool emoji_presentation(char32_t c) {
    // Emoji_Presentation=Yes of emoji-data.txt (Emoji 15.0), ranges merged;
    // the regional indicators left out (one alone is a letter, not a flag).
    static constexpr char32_t kRanges[][2] = {
        {0x231A, 0x231B},   {0x23E9, 0x23EC},   {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},
        {0x2614, 0x2615},   {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
        {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},   {0x26D4, 0x26D4},
        {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},   {0x26FA, 0x26FA},   {0x26FD, 0x26FD},
        {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},
        {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
        {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
        {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F201, 0x1F201}, {0x1F21A, 0x1F21A}, {0x1F22F, 0x1F22F},
        {0x1F232, 0x1F236}, {0x1F238, 0x1F23A}, {0x1F250, 0x1F251}, {0x1F300, 0x1F320}, {0x1F32D, 0x1F335},
        {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0},
        {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E}, {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D},
        {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4},
        {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7},
        {0x1F6DC, 0x1F6DF}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB}, {0x1F7F0, 0x1F7F0},
        {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FA7C}, {0x1FA80, 0x1FA88},
        {0x1FA90, 0x1FABD}, {0x1FABF, 0x1FAC5}, {0x1FACE, 0x1FADB}, {0x1FAE0, 0x1FAE8}, {0x1FAF0, 0x1FAF8},
    };
    if (c < 0x231A) return false;  // most text: no look-up
    for (const auto& r : kRanges) {
        if (c < r[0]) return false;
        if (c <= r[1]) return true;
    }
    return false;
}

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
