// composer_test.cpp: what the composer inserts reads back as the part it means (shared/composer.hpp).
#include "roomkey/composer.hpp"

#include <gtest/gtest.h>

#include "roomkey/message_tags.hpp"
#include "roomkey/notation.hpp"

namespace roomkey {
namespace composer_test {
namespace {

using notation::PartKind;

TEST(Composer, MentionReadsBackAsAMentionOfThatAccount) {
    const auto written = composer::mention("1001", "Alice");
    ASSERT_TRUE(written) << "composer::mention refused its input";
    EXPECT_EQ(*written, "[To:1001]Alice");
    const auto parsed = notation::parse(*written);
    ASSERT_EQ(parsed.parts.size(), 1u);
    EXPECT_EQ(parsed.parts[0].kind, PartKind::mention);
    EXPECT_EQ(parsed.of(parsed.parts[0].account_id), "1001");
    EXPECT_EQ(parsed.of(parsed.parts[0].name), "Alice");
    EXPECT_TRUE(mentions_account(*written, "1001"));
    EXPECT_EQ(composer::mention("1001", "Al\nice").value_or(""), "[To:1001]Al ice");
    EXPECT_FALSE(composer::mention("alice", "Alice"));
}

TEST(Composer, ReplyHeaderReadsBackAsTheReplyTarget) {
    const auto written = composer::reply("1002", "2100", "1600000000000000007", "Bob");
    ASSERT_TRUE(written) << "composer::reply refused its input";
    EXPECT_EQ(*written, "[rp aid=1002 to=2100-1600000000000000007]Bob\n");
    const std::string body = *written + "thanks";
    const auto target = reply_target(body);
    ASSERT_TRUE(target) << "no reply target in " << body;
    EXPECT_EQ(target->account_id, "1002");
    EXPECT_EQ(target->room_id, "2100");
    EXPECT_EQ(target->message_id, "1600000000000000007");
    EXPECT_FALSE(composer::reply("1002", "2100", "x", "Bob"));
}

TEST(Composer, QuoteReadsBackWithAuthorTimeAndTheQuotedParts) {
    const std::string text = "[To:1001]Alice\n\xE7\xA2\xBA\xE8\xAA\x8D\xE3\x81\x97\xE3\x81\xA6";  // 確認して
    const auto written = composer::quote("1002", 1700000000, text);
    ASSERT_TRUE(written) << "composer::quote refused its input";
    EXPECT_EQ(*written, "[qt][qtmeta aid=1002 time=1700000000]" + text + "[/qt]\n");
    const auto parsed = notation::parse(*written);
    ASSERT_EQ(parsed.parts.size(), 2u);
    const auto& quote = parsed.parts[0];
    EXPECT_EQ(quote.kind, PartKind::quote);
    EXPECT_EQ(parsed.of(quote.account_id), "1002");
    EXPECT_EQ(quote.time.value_or(0), 1700000000);
    ASSERT_EQ(quote.children.size(), 2u);
    EXPECT_EQ(quote.children[0].kind, PartKind::mention);
}

TEST(Composer, QuoteOfAQuoteNests) {
    const auto inner = composer::quote("1003", 5, "first");
    ASSERT_TRUE(inner) << "composer::quote refused its input";
    const auto outer = composer::quote("1002", 6, *inner + "second");
    ASSERT_TRUE(outer) << "composer::quote refused a quote as its text: " << *inner;
    EXPECT_EQ(notation::depth(notation::parse_parts(*outer)), 2);
}

TEST(Composer, QuoteRefusesTextThatWouldCloseItEarly) {
    EXPECT_FALSE(composer::quote("1002", 1, "stray [/qt] closer"));
    EXPECT_FALSE(composer::quote("1002", 1, "open [qt] never closed"));
    EXPECT_FALSE(composer::quote("1002", -1, "x"));
}

TEST(Composer, InfoBoxWithAndWithoutTitle) {
    const auto titled = composer::info_box("Minutes", "1. ok\n2. [To:1001]Alice");
    ASSERT_TRUE(titled) << "composer::info_box refused its input";
    EXPECT_EQ(*titled, "[info][title]Minutes[/title]1. ok\n2. [To:1001]Alice[/info]");
    const auto parsed = notation::parse(*titled);
    ASSERT_EQ(parsed.parts.size(), 1u);
    EXPECT_EQ(parsed.parts[0].kind, PartKind::info);
    EXPECT_EQ(parsed.of(parsed.parts[0].name), "Minutes");

    EXPECT_EQ(composer::info_box("", "note").value_or(""), "[info]note[/info]");
    EXPECT_FALSE(composer::info_box("a[/title]b", "x"));
    EXPECT_FALSE(composer::info_box("x", "[/info]"));
    EXPECT_FALSE(composer::info_box("[dtext:task_added]", "x")) << "people cannot write the service's own events";
}

TEST(Composer, CodeBlockKeepsItsTextVerbatim) {
    const std::string text = "if (a[0] == ']') { /* [To:1001] */ }";
    const auto written = composer::code_block(text);
    ASSERT_TRUE(written) << "composer::code_block refused: " << text;
    const auto parsed = notation::parse(*written);
    ASSERT_EQ(parsed.parts.size(), 1u);
    EXPECT_EQ(parsed.parts[0].kind, PartKind::code);
    EXPECT_EQ(parsed.of(parsed.parts[0].inner), text);
    EXPECT_FALSE(mentions_account(*written, "1001"));
    EXPECT_FALSE(composer::code_block("a [/code] b"));
}

}  // namespace
}  // namespace composer_test
}  // namespace roomkey
