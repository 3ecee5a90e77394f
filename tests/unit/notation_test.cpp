// notation_test.cpp: the service's notation read into parts that keep every byte (shared/notation.hpp).
#include "roomkey/notation.hpp"

#include "app/dtext_words.hpp"
#include "app/i18n.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace roomkey {
namespace notation_test {
namespace {

using notation::LimitType;
using notation::Part;
using notation::PartKind;
using notation::Span;
using notation::TaskState;

// Parts cover `range` exactly, in order, and so do every container's children
// its inner range; a part's inner range lies within its source.
::testing::AssertionResult covers(const std::vector<Part>& parts, Span range) {
    std::size_t cursor = range.begin;
    for (const Part& part : parts) {
        if (part.source.begin != cursor) {
            return ::testing::AssertionFailure()
                   << to_string(part.kind) << " starts at " << part.source.begin << ", expected " << cursor;
        }
        if (part.source.end <= part.source.begin) {
            return ::testing::AssertionFailure() << "empty " << to_string(part.kind) << " at " << cursor;
        }
        if (part.inner.begin < part.source.begin || part.inner.end > part.source.end) {
            return ::testing::AssertionFailure() << to_string(part.kind) << "'s inner range leaves its source";
        }
        if (!part.children.empty() || part.kind == PartKind::quote || part.kind == PartKind::info ||
            part.kind == PartKind::service_event || part.kind == PartKind::task) {
            auto inside = covers(part.children, part.inner);
            if (!inside) return inside;
        }
        cursor = part.source.end;
    }
    if (cursor != range.end) return ::testing::AssertionFailure() << "parts end at " << cursor << ", not " << range.end;
    return ::testing::AssertionSuccess();
}

std::vector<Part> parse_checked(std::string_view body) {
    std::vector<Part> parts = notation::parse_parts(body);
    EXPECT_TRUE(covers(parts, Span{0, body.size()})) << "body: " << body.substr(0, 200);
    return parts;
}

std::string kinds(const std::vector<Part>& parts) {
    std::string out;
    for (const Part& part : parts) {
        if (!out.empty()) out += ' ';
        out += std::string(to_string(part.kind));
        if (!part.children.empty()) out += "(" + kinds(part.children) + ")";
    }
    return out;
}

std::string names_of(std::string_view id) {
    static const std::map<std::string, std::string, std::less<>> names = {
        {"1001", "Alice"}, {"1002", "Bob"}, {"1003", "Carol"}};
    const auto found = names.find(id);
    return found == names.end() ? std::string() : found->second;
}

// The words are the app's, in English (shared/ yields which words; the app
// puts them in the reader's language: app_i18n_test has them in Japanese).
std::string plain(std::string body) {
    app::i18n::set_language(app::i18n::Lang::en);
    return notation::plain_text(notation::parse(std::move(body)), names_of, app::notation_words());
}

TEST(Notation, PlainTextIsOneTextPart) {
    const std::string body = "hello [world] a[b]c ]";
    const auto parts = parse_checked(body);
    ASSERT_EQ(parts.size(), 1u);
    EXPECT_EQ(parts[0].kind, PartKind::text);
    EXPECT_TRUE(parse_checked("").empty());
}

TEST(Notation, MentionTakesTheRestOfItsLineAsTheWrittenName) {
    const std::string body = "[To:1001]Alice\n[To:1002] Bob, look[hr]";
    const auto parts = parse_checked(body);
    EXPECT_EQ(kinds(parts), "mention text mention rule");
    EXPECT_EQ(parts[0].account_id.of(body), "1001");
    EXPECT_EQ(parts[0].name.of(body), "Alice");
    EXPECT_EQ(parts[2].account_id.of(body), "1002");
    EXPECT_EQ(parts[2].name.of(body), " Bob, look") << "the name stops at the next tag";
}

TEST(Notation, BrokenMentionsAreText) {
    for (const char* body : {"[To:1001", "[to:1001]", "[To:]", "[To:10a1]", "[To:1001 ]", "[To:\n1001]"}) {
        EXPECT_EQ(kinds(parse_checked(body)), "text") << body;
    }
}

TEST(Notation, ToAllRuleAndPictures) {
    const std::string body = "[toall][hr][picon:1002][piconname:1003][picon:x]";
    const auto parts = parse_checked(body);
    EXPECT_EQ(kinds(parts), "to_all rule picon piconname text");
    EXPECT_EQ(parts[2].account_id.of(body), "1002");
    EXPECT_EQ(parts[3].account_id.of(body), "1003");
}

TEST(Notation, RepliesInBothSpellings) {
    const std::string body = "[rp aid=1002 to=2100-1600000000000000007]Bob\nthanks";
    const auto parts = parse_checked(body);
    EXPECT_EQ(kinds(parts), "reply text");
    EXPECT_EQ(parts[0].account_id.of(body), "1002");
    EXPECT_EQ(parts[0].room_id.of(body), "2100");
    EXPECT_EQ(parts[0].message_id.of(body), "1600000000000000007");
    EXPECT_EQ(parts[0].name.of(body), "Bob");

    const std::string japanese =
        "[\xE8\xBF\x94\xE4\xBF\xA1 aid=1003 to=2100-5]Carol\xE3\x81\x95\xE3\x82\x93";  // [返信 ...]Carolさん
    const auto jp = parse_checked(japanese);
    EXPECT_EQ(kinds(jp), "reply");
    EXPECT_EQ(jp[0].account_id.of(japanese), "1003");
    EXPECT_EQ(jp[0].message_id.of(japanese), "5");

    const std::string no_target = "[rp aid=1002]Bob";
    const auto partial = parse_checked(no_target);
    EXPECT_EQ(kinds(partial), "reply") << "a reply without to= still names whom it answers";
    EXPECT_TRUE(partial[0].message_id.empty());
    EXPECT_EQ(kinds(parse_checked("[rp aid=x to=2100-5]")), "text");
    EXPECT_EQ(kinds(parse_checked("[rpaid=1002 to=2100-5]")), "text");
}

TEST(Notation, QuoteWithMetaHoldsItsParts) {
    const std::string body = "[qt][qtmeta aid=1002 time=1700000000][To:1001]Alice\nsee [code]x[/code][/qt]\nagreed";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "quote(mention text code) text");
    EXPECT_EQ(parts[0].account_id.of(body), "1002");
    EXPECT_EQ(parts[0].time.value_or(0), 1700000000);
    EXPECT_EQ(parts[0].inner.of(body), "[To:1001]Alice\nsee [code]x[/code]");
}

TEST(Notation, QuoteWithoutMetaAndNestedQuotes) {
    const std::string body = "[qt]outer [qt][qtmeta aid=1003 time=5]inner[/qt] tail[/qt]";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "quote(text quote(text) text)");
    EXPECT_TRUE(parts[0].account_id.empty());
    EXPECT_FALSE(parts[0].time);
    EXPECT_EQ(parts[0].children[1].account_id.of(body), "1003");
    EXPECT_EQ(notation::depth(parts), 2);
}

TEST(Notation, QtmetaThatDoesNotReadStaysInsideAsText) {
    const std::string body = "[qt][qtmeta aid=bob time=1]x[/qt]";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "quote(text)");
    EXPECT_TRUE(parts[0].account_id.empty());
    EXPECT_EQ(parts[0].children[0].source.of(body), "[qtmeta aid=bob time=1]x");
}

TEST(Notation, InfoWithAndWithoutTitle) {
    const std::string body = "[info][title]Minutes[/title]1. [To:1001]Alice\n[hr]2. done[/info][info]plain[/info]";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "info(text mention text rule text) info(text)");
    EXPECT_EQ(parts[0].name.of(body), "Minutes");
    EXPECT_TRUE(parts[1].name.empty());
}

TEST(Notation, TitleIsVerbatimAndOnlyRightAfterInfo) {
    const std::string body = "[info][title][To:1001][/title]x[/info] [title]t[/title]";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "info(text) text");
    EXPECT_EQ(parts[0].name.of(body), "[To:1001]");
}

TEST(Notation, ServiceEventsAreInfoBoxesTitledWithADtextKey) {
    const std::string task =
        "[info][title][dtext:task_added][/title][task aid=1001 st=open lt=1385996399 ltype=date]Review[/task][/info]";
    const auto parts = parse_checked(task);
    ASSERT_EQ(kinds(parts), "service_event(task(text))");
    EXPECT_EQ(parts[0].key.of(task), "task_added");
    const Part& t = parts[0].children[0];
    EXPECT_EQ(t.account_id.of(task), "1001");
    EXPECT_EQ(t.task_state, TaskState::open);
    EXPECT_EQ(t.time.value_or(0), 1385996399);
    EXPECT_EQ(t.limit_type, LimitType::date);

    const std::string created =
        "[info][title][dtext:chatroom_groupchat_created][/title][dtext:chatroom_chatname_is]Design[dtext:chatroom_set]"
        "\n\n[dtext:chatroom_member_is][piconname:1002][piconname:1003][dtext:chatroom_added][/info]";
    EXPECT_EQ(kinds(parse_checked(created)), "service_event(dtext text dtext text dtext piconname piconname dtext)");

    EXPECT_EQ(kinds(parse_checked("[info][title][dtext:Task][/title]x[/info]")), "info(text)")
        << "a key is lower case letters, digits and _";
}

TEST(Notation, CodeIsVerbatim) {
    const std::string body = "[code][To:1001][qt]x[/qt]\n  indented[/code][/code]";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "code text");
    EXPECT_EQ(parts[0].inner.of(body), "[To:1001][qt]x[/qt]\n  indented");
    EXPECT_EQ(kinds(parse_checked("[code]never closed [To:1001]")), "text mention");
}

TEST(Notation, TasksWithAndWithoutAttributes) {
    const std::string body =
        "[task]Review the consent screen wording[/task][task aid=1002 st=done lt=0 ltype=none]x[/task]";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "task(text) task(text)");
    EXPECT_TRUE(parts[0].account_id.empty());
    EXPECT_EQ(parts[0].task_state, TaskState::unknown);
    EXPECT_EQ(parts[1].task_state, TaskState::done);
    EXPECT_EQ(parts[1].limit_type, LimitType::none);
    EXPECT_EQ(kinds(parse_checked("[task st=later]x[/task]")), "text") << "a value the service never writes";
    EXPECT_EQ(kinds(parse_checked("[task lt=99999999999999999999]x[/task]")), "text");
}

TEST(Notation, PreviewAndDownload) {
    const std::string body = "[preview id=5 ht=120][download:5]report 2024.pdf (12.5 KB)[/download]";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "preview download");
    EXPECT_EQ(parts[0].file_id.of(body), "5");
    EXPECT_EQ(parts[1].file_id.of(body), "5");
    EXPECT_EQ(parts[1].name.of(body), "report 2024.pdf");
    EXPECT_EQ(parts[1].size.of(body), "12.5 KB");
    const std::string bare = "[download:7]notes.txt[/download]";
    const auto no_size = parse_checked(bare);
    EXPECT_EQ(no_size[0].name.of(bare), "notes.txt");
    EXPECT_TRUE(no_size[0].size.empty());
    EXPECT_EQ(kinds(parse_checked("[preview id=x]")), "text");
}

TEST(Notation, UnknownAndStrayTagsAreTextAndMerge) {
    const std::string body = "a [b] [/qt] [/info][unknown tag] [qtmeta aid=1 time=2] [/code] z";
    const auto parts = parse_checked(body);
    ASSERT_EQ(kinds(parts), "text");
}

TEST(Notation, CrossedContainersKeepTheOuterPair) {
    // [info] opened inside the quote never closes before [/qt]: it is text.
    const std::string body = "[qt]a[info]b[/qt]c[/info]";
    const auto parts = parse_checked(body);
    EXPECT_EQ(kinds(parts), "quote(text) text");
    EXPECT_EQ(parts[0].children[0].source.of(body), "a[info]b");
}

TEST(Notation, JapaneseAndEmojiKeepTheirBytes) {
    const std::string body =
        "[To:1001]\xE3\x82\xA2\xE3\x83\xAA\xE3\x82\xB9\xE3\x81\x95\xE3\x82\x93\n"  // アリスさん
        "\xE7\xA2\xBA\xE8\xAA\x8D\xE3\x81\x8A\xE9\xA1\x98\xE3\x81\x84\xE3\x81\x97\xE3\x81\xBE\xE3\x81\x99 "  // 確認お願いします
        "\xF0\x9F\x99\x8F [qt]\xF0\x9F\x8E\x89[/qt]";  // 🙏 [qt]🎉[/qt]
    const auto parts = parse_checked(body);
    EXPECT_EQ(kinds(parts), "mention text quote(text)");
    EXPECT_EQ(parts[0].name.of(body), "\xE3\x82\xA2\xE3\x83\xAA\xE3\x82\xB9\xE3\x81\x95\xE3\x82\x93");
}

TEST(Notation, DepthIsBounded) {
    std::string body;
    for (int i = 0; i < 20; ++i) body += "[qt]";
    body += "x";
    for (int i = 0; i < 20; ++i) body += "[/qt]";
    const auto parts = parse_checked(body);
    EXPECT_EQ(notation::depth(parts), notation::kMaxDepth);
}

// 65,535 characters, the service's longest body, of each hostile shape: every
// byte in one part, the depth bounded. How long it takes is not asserted here
// (a timed assertion fails on a loaded machine: it did, 1.65 s under Node
// beside a full test run); the parser's closers are found in one forward pass
// and a tag is read at most kMaxTagInside bytes far (notation.cpp).
TEST(Notation, HostileBodiesParseWhole) {
    const char* units[] = {"[qt]",
                           "[/qt]",
                           "[qt][qtmeta aid=1 time=2]",
                           "[code]",
                           "[info][title]",
                           "[",
                           "[To:1",
                           "[To:1]",
                           "[download:1]",
                           "[task aid=1 st=open lt=1 ltype=date]",
                           "[info]",
                           "[qt][info][task]"};
    for (const char* unit : units) {
        std::string body;
        while (body.size() < 65535) body += unit;
        body.resize(65535);
        const auto parts = parse_checked(body);
        EXPECT_LE(notation::depth(parts), notation::kMaxDepth) << unit;
    }
}

TEST(NotationPlainText, MentionsReadAsToAndTheName) {
    EXPECT_EQ(plain("[To:1001]Alice\nhello"), "To Alice\nhello");
    EXPECT_EQ(plain("[To:1001] Alice, the sandbox is up."), "To Alice, the sandbox is up.")
        << "the name the writer typed is not said twice";
    EXPECT_EQ(plain("[To:1001]Ali\nhi"), "To Alice Ali\nhi");
    EXPECT_EQ(plain("[To:1001][To:1002]\nboth of you"), "To Alice To Bob\nboth of you");
    EXPECT_EQ(plain("[To:9999]Dave\nhi"), "To Dave\nhi") << "an unknown account reads as what was written";
    EXPECT_EQ(plain("[To:9999]\nhi"), "To 9999\nhi") << "and as its id when nothing was";
    EXPECT_EQ(plain("[toall]lunch?"), "To all lunch?");
}

TEST(NotationPlainText, RepliesQuotesAndBoxes) {
    EXPECT_EQ(plain("[rp aid=1002 to=2100-5]Bob\nthanks"), "Re Bob\nthanks");
    EXPECT_EQ(plain("[qt][qtmeta aid=1002 time=1700000000]line 1\nline 2[/qt]\nagreed"),
              "> Bob\n> line 1\n> line 2\nagreed");
    EXPECT_EQ(plain("see[qt]a[qt][qtmeta aid=1003 time=1]b[/qt][/qt]ok"), "see\n> a\n> > Carol\n> > b\nok");
    EXPECT_EQ(plain("[info][title]Minutes[/title]\n1. ok\n[/info]"), "Minutes\n1. ok");
    EXPECT_EQ(plain("[code]\nint x;\n[/code]after"), "int x;\nafter");
    EXPECT_EQ(plain("a[hr]b"), "a\n----\nb");
}

TEST(NotationPlainText, ServiceMessagesInWords) {
    EXPECT_EQ(plain("[info][title][dtext:task_added][/title][task aid=1001 st=open lt=1385996399 ltype=date]Review"
                    "[/task][/info]"),
              "Task added\nTask for Alice: Review");
    EXPECT_EQ(plain("[info][title][dtext:chatroom_groupchat_created][/title][dtext:chatroom_chatname_is]Design"
                    "[dtext:chatroom_set]\n\n[dtext:chatroom_member_is][piconname:1002][piconname:1003]"
                    "[dtext:chatroom_added][/info]"),
              "Group chat created\nChat name set to Design.\n\nMembers: Bob, Carol added.");
    EXPECT_EQ(plain("[info][title][dtext:chatroom_chat_edited][/title][dtext:chatroom_member_is][piconname:1003]"
                    "[dtext:chatroom_deleted][/info]"),
              "Chat edited\nMembers: Carol removed.");
    EXPECT_EQ(plain("[info][title][dtext:file_uploaded][/title][preview id=5 ht=120][download:5]r.pdf (12.5 KB)"
                    "[/download][/info]"),
              "File uploaded\nr.pdf (12.5 KB)");
    EXPECT_EQ(plain("[task aid=1002 st=done lt=0 ltype=none]Ship it[/task]"), "Task for Bob: Ship it, done");
    EXPECT_EQ(notation::dtext_words("chatroom_description_is"), "Chatroom description is");
}

TEST(NotationPlainText, BrokenTagsReadAsTheyAre) {
    EXPECT_EQ(plain("[qt]never closed [To:1001"), "[qt]never closed [To:1001");
    EXPECT_EQ(plain("[picon:1003] and [picon:4242]"), "Carol and 4242");
}

}  // namespace
}  // namespace notation_test
}  // namespace roomkey
