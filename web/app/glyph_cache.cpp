// glyph_cache.cpp: see glyph_cache.hpp.
#include "app/glyph_cache.hpp"

#include <algorithm>

#include "app/stable_order.hpp"

namespace roomkey::app {

namespace {

// One codepoint from UTF-8 at `i`; advances `i`. Returns
// false for an invalid sequence (one byte skipped).
bool next_codepoint(std::string_view text, std::size_t& i, char32_t& out) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    char32_t value = 0;
    if (lead < 0x80) {
        out = lead;
        ++i;
        return true;
    }
    if ((lead & 0xE0) == 0xC0) {
        length = 2;
        value = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        value = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        value = lead & 0x07;
    } else {
        ++i;
        return false;
    }
    if (i + length > text.size()) {
        ++i;
        return false;
    }
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) {
            ++i;
            return false;
        }
        value = (value << 6) | (byte(i + k) & 0x3F);
    }
    i += length;
    out = value;
    return value <= 0x10FFFF;
}

// Through the app's one sort (stable_order.hpp), not a std::sort of its own.
std::vector<char32_t> sorted_codepoints(std::vector<char32_t> codepoints) {
    const std::vector<std::size_t> order =
        stable_order(codepoints.size(), [&](std::size_t a, std::size_t b) { return codepoints[a] < codepoints[b]; });
    return in_order(std::move(codepoints), order);
}

}  // namespace

GlyphCache::GlyphCache(std::vector<char32_t> pinned, std::size_t capacity)
    : pinned_(std::move(pinned)), capacity_(capacity) {
    pinned_ = sorted_codepoints(std::move(pinned_));
    pinned_.erase(std::unique(pinned_.begin(), pinned_.end()), pinned_.end());
    if (capacity_ < pinned_.size()) capacity_ = pinned_.size();
    for (char32_t c : pinned_) last_used_.emplace(c, 0);
}

bool GlyphCache::pinned(char32_t codepoint) const {
    return std::binary_search(pinned_.begin(), pinned_.end(), codepoint);
}

void GlyphCache::note(char32_t codepoint) {
    if (codepoint < 0x20 || (codepoint >= 0x7F && codepoint < 0xA0) || codepoint > 0x10FFFF) return;
    if (codepoint < 0x10000) {
        const std::uint32_t bit = 1u << (codepoint & 31);
        if (noted_[codepoint >> 5] & bit) return;
        noted_[codepoint >> 5] |= bit;
    }
    auto it = last_used_.find(codepoint);
    if (it != last_used_.end()) {
        it->second = frame_;
        return;
    }
    if (std::find(wanted_.begin(), wanted_.end(), codepoint) == wanted_.end()) wanted_.push_back(codepoint);
}

void GlyphCache::note_text(std::string_view utf8) {
    std::size_t i = 0;
    char32_t c = 0;
    while (i < utf8.size()) {
        if (next_codepoint(utf8, i, c)) note(c);
    }
}

std::size_t GlyphCache::evictable() const {
    std::size_t count = 0;
    for (const auto& [c, used] : last_used_) {
        if (used < frame_ && !pinned(c)) ++count;
    }
    return count;
}

bool GlyphCache::needs_rebuild() const {
    if (wanted_.empty()) return false;
    return last_used_.size() < capacity_ || evictable() > 0;
}

std::vector<char32_t> GlyphCache::rebuild() {
    const std::size_t free = capacity_ - std::min(capacity_, last_used_.size());
    if (wanted_.size() > free) {
        // Oldest first; only glyphs not drawn in the current frame may go.
        std::vector<std::pair<std::uint64_t, char32_t>> candidates;
        for (const auto& [c, used] : last_used_) {
            if (used < frame_ && !pinned(c)) candidates.emplace_back(used, c);
        }
        const std::vector<std::size_t> oldest_first = stable_order(candidates.size(), [&](std::size_t a, std::size_t b) {
            return candidates[a] < candidates[b];
        });
        candidates = in_order(std::move(candidates), oldest_first);
        std::size_t to_evict = std::min(candidates.size(), wanted_.size() - free);
        for (std::size_t k = 0; k < to_evict; ++k) last_used_.erase(candidates[k].second);
    }
    std::size_t admitted = 0;
    while (admitted < wanted_.size() && last_used_.size() < capacity_) {
        last_used_.emplace(wanted_[admitted], frame_);
        ++admitted;
    }
    wanted_.erase(wanted_.begin(), wanted_.begin() + static_cast<std::ptrdiff_t>(admitted));
    noted_.fill(0);  // residency changed: the next note of each codepoint counts again
    return resident_set();
}

std::vector<char32_t> GlyphCache::resident_set() const {
    std::vector<char32_t> set;
    set.reserve(last_used_.size());
    for (const auto& entry : last_used_) set.push_back(entry.first);  // a std::map: already in order
    return set;
}

std::vector<char32_t> default_pinned_codepoints() {
    std::vector<char32_t> list;
    for (char32_t c = 0x20; c < 0x7F; ++c) list.push_back(c);
    for (char32_t c = 0xA0; c <= 0xFF; ++c) list.push_back(c);
    // Dashes, bullet, ellipsis, arrows, check marks, refresh, and the
    // replacement character ImGui draws for a glyph still missing.
    static const char32_t kSymbols[] = {0x2013, 0x2014, 0x2022, 0x2026, 0x2190, 0x2191, 0x2192,
                                        0x2193, 0x2713, 0x2717, 0x21BB, 0x25CF, 0xFFFD};
    for (char32_t c : kSymbols) list.push_back(c);
    return list;
}

}  // namespace roomkey::app
