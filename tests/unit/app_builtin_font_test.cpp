// What the built-in font draws, and the scripts named in the notice when
// text needs more (web/app/builtin_font.hpp).
#include "app/builtin_font.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace app_builtin_font_test {
namespace {

TEST(BuiltinFont, DrawsBasicLatinAndLatin1Only) {
    EXPECT_TRUE(builtin_font_draws(U'A'));
    EXPECT_TRUE(builtin_font_draws(U'\u00E9'));   // é
    EXPECT_FALSE(builtin_font_draws(U'\u0141'));  // Ł
    EXPECT_FALSE(builtin_font_draws(U'\u65E5'));  // 日
}

TEST(BuiltinFont, NamesTheScriptsAUserKnows) {
    EXPECT_EQ(script_name(U'\u3042'), "Japanese");           // あ
    EXPECT_EQ(script_name(U'\u958B'), "Chinese/Japanese");   // 開
    EXPECT_EQ(script_name(U'\u041F'), "Cyrillic");           // П
    EXPECT_EQ(script_name(U'\U0001F680'), "emoji");          // 🚀
    EXPECT_EQ(script_name(U'\u2705'), "emoji");              // ✅ among the dingbats
    EXPECT_EQ(script_name(U'\uD55C'), "Korean");             // 한
    EXPECT_EQ(script_name(U'\u2026'), "symbols");            // …
    EXPECT_EQ(script_name(U'\U00010400'), "other scripts");  // Deseret
}

TEST(BuiltinFont, MissingScriptsAreListedOnceInTheOrderFirstSeen) {
    MissingScripts missing;
    EXPECT_FALSE(missing.note(U'a')) << "Latin is drawn";
    EXPECT_EQ(missing.sentence(), "");
    EXPECT_TRUE(missing.note(U'\u958B'));
    EXPECT_FALSE(missing.note(U'\u767A')) << "the same script again";
    EXPECT_TRUE(missing.note(U'\U0001F680'));
    EXPECT_TRUE(missing.note(U'\u041F'));
    EXPECT_EQ(missing.names(), (std::vector<std::string>{"Chinese/Japanese", "emoji", "Cyrillic"}));
    EXPECT_EQ(missing.sentence(), "Chinese/Japanese, emoji and Cyrillic");
}

}  // namespace
}  // namespace app_builtin_font_test
}  // namespace roomkey::app
