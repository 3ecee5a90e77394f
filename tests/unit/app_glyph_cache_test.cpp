// The glyph atlas cache: what a rebuild brings in, the cap, and which glyphs
// are evicted (web/app/glyph_cache.hpp).
#include "app/glyph_cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_glyph_cache_test {
namespace {

bool contains(const std::vector<char32_t>& set, char32_t c) {
    return std::find(set.begin(), set.end(), c) != set.end();
}

TEST(GlyphCache, PinnedGlyphsAreResidentAndNeedNoRebuild) {
    GlyphCache cache(default_pinned_codepoints(), 1024);
    cache.note_text("Sign in \xC3\xA9t\xC3\xA9");  // "été": Latin-1
    EXPECT_TRUE(cache.resident(U'A'));
    EXPECT_TRUE(cache.resident(U'\u00E9'));
    EXPECT_FALSE(cache.needs_rebuild());
    EXPECT_EQ(cache.missing(), 0u);
}

TEST(GlyphCache, TextInOtherScriptsIsWantedThenAdmittedByARebuild) {
    GlyphCache cache({U'a'}, 100);
    // "開発 🚀 Пр": CJK, an astral-plane emoji, Cyrillic.
    cache.note_text("\xE9\x96\x8B\xE7\x99\xBA \xF0\x9F\x9A\x80 \xD0\x9F\xD1\x80");
    EXPECT_TRUE(cache.needs_rebuild());
    EXPECT_EQ(cache.missing(), 6u);  // 開 発 space 🚀 П р
    const std::vector<char32_t> set = cache.rebuild();
    for (char32_t c : {U'\u958B', U'\u767A', U' ', U'\U0001F680', U'\u041F', U'\u0440'}) {
        EXPECT_TRUE(contains(set, c)) << std::hex << static_cast<unsigned>(c);
        EXPECT_TRUE(cache.resident(c));
    }
    EXPECT_EQ(cache.missing(), 0u);
    EXPECT_FALSE(cache.needs_rebuild());
    cache.note_text("\xE9\x96\x8B");
    EXPECT_FALSE(cache.needs_rebuild()) << "a resident glyph must not cause another rebuild";
}

TEST(GlyphCache, ControlCharactersAndInvalidUtf8AreIgnored) {
    GlyphCache cache({U'a'}, 100);
    cache.note_text("\n\t\x7F\xC2\x85");  // controls, C1 control U+0085
    cache.note_text("\xFF\xC3");          // invalid lead byte, truncated sequence
    EXPECT_EQ(cache.missing(), 0u);
    EXPECT_FALSE(cache.needs_rebuild());
}

TEST(GlyphCache, TheCapEvictsTheLeastRecentlyUsedUnpinnedGlyphs) {
    GlyphCache cache({U'a'}, 4);  // 'a' pinned + 3 free slots
    cache.note(U'\u3042');        // あ
    cache.note(U'\u3044');        // い
    cache.note(U'\u3046');        // う
    cache.rebuild();
    EXPECT_EQ(cache.size(), 4u);

    cache.next_frame();
    cache.note(U'\u3044');  // い used in frame 2
    cache.next_frame();
    cache.note(U'\u3046');  // う used in frame 3
    cache.next_frame();
    cache.note(U'\u3048');  // え is new in frame 4
    ASSERT_TRUE(cache.needs_rebuild()) << "a new glyph did not ask for a rebuild";
    const std::vector<char32_t> set = cache.rebuild();
    EXPECT_EQ(set.size(), 4u) << "the cap holds";
    EXPECT_TRUE(contains(set, U'a')) << "pinned glyphs are never evicted";
    EXPECT_FALSE(contains(set, U'\u3042')) << "あ went unused the longest";
    EXPECT_TRUE(contains(set, U'\u3044'));
    EXPECT_TRUE(contains(set, U'\u3046'));
    EXPECT_TRUE(contains(set, U'\u3048'));
}

// A frame notes every character of its text; only the first note of a
// codepoint in a frame looks it up, and each frame's first note counts.
TEST(GlyphCache, AGlyphNotedManyTimesCountsAsUsedInEachFrameItIsNoted) {
    GlyphCache cache({U'a'}, 3);
    cache.note(U'\u3042');  // あ
    cache.note(U'\u3044');  // い
    for (int i = 0; i < 3; ++i) cache.note(U'\u3042');
    EXPECT_EQ(cache.missing(), 2u) << "あ is wanted once, however often noted";
    cache.rebuild();
    for (int frame = 0; frame < 3; ++frame) {
        cache.next_frame();
        for (int i = 0; i < 3; ++i) cache.note(U'\u3042');  // あ drawn in every frame, い in none
    }
    cache.next_frame();
    cache.note(U'\u3046');  // う
    const std::vector<char32_t> set = cache.rebuild();
    EXPECT_TRUE(contains(set, U'\u3042')) << "あ was used in the last frames";
    EXPECT_FALSE(contains(set, U'\u3044')) << "い went unused the longest";
    EXPECT_TRUE(contains(set, U'\u3046'));
    EXPECT_TRUE(cache.resident(U'\u3046') && !cache.resident(U'\u3044'));
    EXPECT_EQ(set, (std::vector<char32_t>{U'a', U'\u3042', U'\u3046'})) << "the resident set stays in order";
}

TEST(GlyphCache, GlyphsDrawnInTheCurrentFrameAreNotEvicted) {
    GlyphCache cache({U'a'}, 3);
    cache.note(U'\u3042');
    cache.note(U'\u3044');
    cache.rebuild();
    cache.next_frame();
    // A frame drawing more distinct glyphs than the cap allows: the ones on
    // screen stay, the overflow stays missing, and no rebuild can help.
    cache.note(U'\u3042');
    cache.note(U'\u3044');
    cache.note(U'\u3046');
    EXPECT_EQ(cache.missing(), 1u);
    EXPECT_FALSE(cache.needs_rebuild()) << "rebuilding would only thrash";
    const std::vector<char32_t> set = cache.rebuild();
    EXPECT_TRUE(contains(set, U'\u3042'));
    EXPECT_TRUE(contains(set, U'\u3044'));
    EXPECT_EQ(cache.missing(), 1u);

    // Next frame the old ones are off screen: う gets a slot.
    cache.next_frame();
    cache.note(U'\u3046');
    EXPECT_TRUE(cache.needs_rebuild());
    cache.rebuild();
    EXPECT_TRUE(cache.resident(U'\u3046'));
    EXPECT_EQ(cache.missing(), 0u);
    EXPECT_EQ(cache.size(), 3u);
}

TEST(GlyphCache, ACapBelowThePinnedSetKeepsThePinnedSet) {
    GlyphCache cache(default_pinned_codepoints(), 10);
    EXPECT_EQ(cache.capacity(), cache.size());
    cache.note(U'\u4E00');
    EXPECT_FALSE(cache.needs_rebuild());
    EXPECT_EQ(cache.missing(), 1u);
}

}  // namespace
}  // namespace app_glyph_cache_test
}  // namespace roomkey::app
