#include "roomkey/ascii.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches compile test files together.
namespace ascii_test {
namespace {

TEST(Ascii, LowerFoldsOnlyAsciiLetters) {
    EXPECT_EQ(ascii_lower('A'), 'a');
    EXPECT_EQ(ascii_lower('Z'), 'z');
    EXPECT_EQ(ascii_lower('@'), '@') << "the byte before 'A' stays";
    EXPECT_EQ(ascii_lower('['), '[') << "the byte after 'Z' stays";
    // UTF-8 bytes are never changed, whatever the C library's locale says.
    EXPECT_EQ(ascii_lower("HTTPS://Ex.COM/Ä日本"), "https://ex.com/Ä日本");
    EXPECT_EQ(ascii_lower(std::string_view()), "");
}

TEST(Ascii, IequalsIsHeaderNameEquality) {
    EXPECT_TRUE(iequals("WWW-Authenticate", "www-authenticate"));
    EXPECT_TRUE(iequals("", ""));
    EXPECT_FALSE(iequals("Content-Type", "Content-Typ"));
    EXPECT_FALSE(iequals("a", "b"));
    EXPECT_FALSE(iequals("Ä", "ä")) << "only ASCII folds";
}

TEST(Ascii, IstartsWith) {
    EXPECT_TRUE(istarts_with("HTTPS://example.com", "https://"));
    EXPECT_TRUE(istarts_with("Alice", ""));
    EXPECT_FALSE(istarts_with("http", "https"));
    EXPECT_FALSE(istarts_with("Bob", "al"));
}

TEST(Ascii, IfindFindsTheFirstFoldedOccurrence) {
    EXPECT_EQ(ifind("/rooms/2100/Messages", "MESSAGES"), 12u);
    EXPECT_EQ(ifind("開発チーム / Dev team", "dev"), std::string_view("開発チーム / ").size());
    EXPECT_EQ(ifind("abcabc", "C"), 2u);
    EXPECT_EQ(ifind("anything", ""), 0u) << "an empty needle matches at once (an empty filter keeps all)";
    EXPECT_EQ(ifind("", ""), 0u);
    EXPECT_EQ(ifind("rooms", "tasks"), std::string_view::npos);
    EXPECT_EQ(ifind("ab", "abc"), std::string_view::npos);
}

}  // namespace
}  // namespace ascii_test
}  // namespace roomkey
