// line_break_fuzz.cpp: property: break_opportunities and wrap never crash or
// hang on any bytes; the opportunities are in order inside the text, on
// character boundaries of valid UTF-8, one after every hard line break, and
// none puts a closing mark or a Japanese comma or full stop (、。」）) at the
// start of a line after a character it belongs to; wrap's lines cover the text in order, apart only by
// spaces, and each fits the width unless it is a single character wider
// than the width. Input: the first byte picks the width (1 to 64 bytes,
// the measure counts bytes), the rest is the text.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "roomkey/line_break.hpp"

namespace {

using roomkey::line_break::Class;

// The length of the UTF-8 character at `at`, 0 when the bytes are not valid UTF-8.
std::size_t char_length(std::string_view s, std::size_t at) {
    const auto b = static_cast<unsigned char>(s[at]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (n == 0 || at + n > s.size()) return 0;
    for (std::size_t i = 1; i < n; ++i) {
        if ((static_cast<unsigned char>(s[at + i]) & 0xC0) != 0x80) return 0;
    }
    return n;
}

char32_t decode(std::string_view s, std::size_t at, std::size_t n) {
    const auto b = static_cast<unsigned char>(s[at]);
    char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t i = 1; i < n; ++i) c = (c << 6) | (static_cast<unsigned char>(s[at + i]) & 0x3F);
    return c;
}

float bytes(std::string_view piece, const void*) {
    return static_cast<float>(piece.size());
}

void check_opportunities(std::string_view text) {
    const std::vector<std::size_t> cuts = roomkey::line_break::break_opportunities(text);
    std::size_t last = 0;
    for (const std::size_t at : cuts) {
        if (at <= last || at >= text.size()) std::abort();
        last = at;
    }
    // Valid UTF-8: the characters, to check what lies on either side of each opportunity.
    std::vector<std::size_t> starts;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t n = char_length(text, at);
        if (n == 0) return;
        starts.push_back(at);
        at += n;
    }
    std::vector<bool> is_cut(text.size() + 1, false);
    for (const std::size_t at : cuts) is_cut[at] = true;
    for (const std::size_t at : cuts) {
        if ((static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) std::abort();  // inside a character
    }
    for (std::size_t i = 1; i < starts.size(); ++i) {
        const std::size_t at = starts[i];
        const std::size_t before_at = starts[i - 1];
        const char32_t before = decode(text, before_at, at - before_at);
        const char32_t here = decode(text, at, char_length(text, at));
        if (before == U'\n' && !is_cut[at]) std::abort();  // a hard break always breaks
        const Class b = roomkey::line_break::class_of(before);
        const bool after_space_or_break = b == Class::SP || b == Class::BK || b == Class::CR || b == Class::LF ||
                                          b == Class::ZW;
        const bool closing = here == U'\u3001' || here == U'\u3002' || here == U'\u300D' || here == U'\uFF09';
        if (closing && !after_space_or_break && is_cut[at]) std::abort();
    }
}

void check_wrap(std::string_view text, float width) {
    // Each hard line on its own, as the conversation does.
    for (std::size_t begin = 0; begin <= text.size();) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view piece = text.substr(begin, end - begin);
        std::size_t covered = 0;
        for (const auto& line : roomkey::line_break::wrap(piece, width, bytes, nullptr)) {
            if (line.begin < covered || line.end < line.begin || line.end > piece.size()) std::abort();
            for (std::size_t i = covered; i < line.begin; ++i) {
                if (piece[i] != ' ' && piece[i] != '\t') std::abort();  // only spaces between lines
            }
            const std::size_t length = line.end - line.begin;
            if (bytes(piece.substr(line.begin, length), nullptr) > width) {
                const std::size_t n = char_length(piece, line.begin);
                if (n != 0 && n != length) std::abort();  // wider than the width: one character alone
            }
            covered = line.end;
        }
        for (std::size_t i = covered; i < piece.size(); ++i) {
            if (piece[i] != ' ' && piece[i] != '\t') std::abort();  // nothing left out
        }
        begin = end + 1;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const float width = static_cast<float>(data[0] % 64 + 1);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    check_opportunities(text);
    check_wrap(text, width);
    return 0;
}
