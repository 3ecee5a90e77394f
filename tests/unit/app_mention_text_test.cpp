// app_mention_text_test.cpp: a notification's text for a mention
// (web/app/mention_text.hpp): the newest message that mentions you, its
// sender, the notation drawn without tags, names from the lookup or the
// senders, a long text cut on a character boundary.
#include "app/mention_text.hpp"

#include <gtest/gtest.h>

#include "app/i18n.hpp"
#include "chat_message.hpp"

namespace roomkey::app {
namespace mention_text_test {

// A message whose id is its send time.
ChatMessage message(std::string account, std::string name, std::string body, std::int64_t at) {
    return roomkey::testing::chat_message(std::to_string(at), std::move(account), std::move(name), std::move(body), at);
}

const notation::NameLookup kNames = [](std::string_view id) -> std::string {
    return id == "1001" ? "Alice" : "";
};

TEST(MentionText, TheNewestMentionAsAReaderSeesIt) {
    const std::vector<ChatMessage> messages{
        message("1002", "Bob", "[To:1001]Alice first", 100),
        message("1003", "Carol", "[To:1001]Alice [info][title]Build[/title]green[/info]", 300),
        message("1002", "Bob", "no mention here", 400),
        message("1002", "Bob", "[To:1003]Carol not you", 500),
    };
    const auto text = mention_text(messages, "1001", kNames);
    ASSERT_TRUE(text) << "no mention text for a message to 1001";
    EXPECT_EQ(*text, "Carol: To Alice Build green") << "the newest mention, tags drawn, one paragraph";
}

TEST(MentionText, RepliesAndToAllMentionYouAndSendersNameAccounts) {
    const auto reply = mention_text({message("1002", "Bob", "[rp aid=1001 to=5-7]Alice ok", 1)}, "1001", kNames);
    ASSERT_TRUE(reply) << "a reply to 1001 is not a mention";
    EXPECT_EQ(*reply, "Bob: Re Alice ok");
    const auto all = mention_text({message("1002", "Bob", "[toall]lunch", 1)}, "1001", kNames);
    ASSERT_TRUE(all) << "[toall] is not a mention";
    EXPECT_EQ(*all, "Bob: To all lunch");
    // Carol is not in the lookup; her name comes from her own message.
    const auto named = mention_text(
        {message("1003", "Carol", "hi", 1), message("1002", "Bob", "[To:1001][To:1003]Carol and you", 2)}, "1001",
        kNames);
    ASSERT_TRUE(named) << "a [To:1001] among others is not a mention";
    EXPECT_NE(named->find("To Carol"), std::string::npos) << *named;
    EXPECT_EQ(named->find("[To:"), std::string::npos) << *named;
}

TEST(MentionText, ASenderWithoutANameIsSaidInWordsNotById) {
    const auto text = mention_text({message("1009", "", "[To:1001]Alice look", 1)}, "1001", kNames);
    ASSERT_TRUE(text);
    EXPECT_EQ(*text, "Unknown member: To Alice look");
    i18n::set_language(i18n::Lang::ja);
    const auto ja = mention_text({message("1009", "", "[To:1001]Alice look", 1)}, "1001", kNames);
    i18n::set_language(i18n::Lang::en);
    ASSERT_TRUE(ja);
    EXPECT_EQ(ja->rfind("不明なメンバー: ", 0), 0u) << *ja;
}

TEST(MentionText, NothingWhenNoMessageMentionsYou) {
    EXPECT_FALSE(mention_text({message("1002", "Bob", "[To:1003]Carol", 1)}, "1001", kNames));
    EXPECT_FALSE(mention_text({}, "1001", kNames));
}

TEST(MentionText, ALongTextIsCutOnACharacterBoundary) {
    std::string body = "[To:1001]Alice ";
    for (int i = 0; i < 200; ++i) body += "日本";
    const auto text = mention_text({message("1002", "Bob", body, 1)}, "1001", kNames);
    ASSERT_TRUE(text) << "no mention text for a long body";
    EXPECT_LE(text->size(), kMentionTextMaxBytes + 3);
    EXPECT_EQ(text->substr(text->size() - 3), "\xE2\x80\xA6") << "marked as cut";
    const std::string kept = text->substr(0, text->size() - 3);
    // Every character whole: the last kept one is a whole 3-byte kanji.
    EXPECT_EQ(kept.substr(kept.size() - 3) == "日" || kept.substr(kept.size() - 3) == "本", true) << kept;
}

}  // namespace mention_text_test
}  // namespace roomkey::app
