// glyph_cache.hpp: which codepoints the font atlas holds, and when it must be
// rebuilt. The browser rasterizes glyphs on demand with its own fonts
// (web/src/browser_font.cpp); this module decides what goes in: every
// codepoint that text needs, up to a cap, evicting the glyphs that went
// unused the longest. Pure (no ImGui, no browser), so its rules are tested
// natively and under Node.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <map>
#include <vector>

namespace roomkey::app {

class GlyphCache {
public:
    // `pinned` are always resident and never evicted (ASCII, Latin-1 and the
    // UI's own symbols); `capacity` caps the resident glyphs, pinned included.
    GlyphCache(std::vector<char32_t> pinned, std::size_t capacity);

    // Text is about to be measured or drawn with this codepoint: it counts as
    // used in the current frame, or as wanted when the atlas lacks it.
    // Control characters are ignored (nothing to draw).
    void note(char32_t codepoint);
    // note() for every codepoint of a UTF-8 string (invalid bytes skipped).
    void note_text(std::string_view utf8);

    bool resident(char32_t codepoint) const { return last_used_.count(codepoint) != 0; }
    // True when a rebuild would bring in at least one wanted codepoint: some
    // room is free, or some glyph is evictable (unpinned, unused this frame).
    bool needs_rebuild() const;
    // Codepoints noted since the last rebuild that the atlas does not hold.
    std::size_t missing() const { return wanted_.size(); }

    // Decides the next atlas: admits the wanted codepoints (in the order they
    // were first noted), evicting the least recently used unpinned glyphs not
    // used in the current frame to stay within the cap. Wanted codepoints
    // that still do not fit stay missing until room frees up. Returns the new
    // resident set, sorted.
    std::vector<char32_t> rebuild();
    // The resident set, sorted (to re-rasterize at a new pixel size).
    std::vector<char32_t> resident_set() const;

    // Starts a new frame: what is noted from now on counts as "used now".
    void next_frame() {
        ++frame_;
        noted_.fill(0);
    }

    std::size_t size() const { return last_used_.size(); }
    std::size_t capacity() const { return capacity_; }

private:
    bool pinned(char32_t codepoint) const;
    std::size_t evictable() const;

    std::vector<char32_t> pinned_;  // sorted
    std::size_t capacity_;
    std::uint64_t frame_ = 1;
    std::map<char32_t, std::uint64_t> last_used_;  // resident -> frame last used (0 = never)
    std::vector<char32_t> wanted_;                           // not resident, in order first noted
    // BMP codepoints already noted since the frame began: a frame notes each
    // character of all its text, and the look-ups above were a long room's
    // cost (the wanted list's most of all, while a room's glyphs came in).
    std::array<std::uint32_t, 0x10000 / 32> noted_{};
};

// ASCII, Latin-1 and the few symbols the UI itself draws: always resident.
std::vector<char32_t> default_pinned_codepoints();

}  // namespace roomkey::app
