// app_composer_mention_test.cpp: "@" in the composer offers the room's
// members by name (web/app/member_completion.hpp) and taking one writes the
// service's To tag in place of what was typed.
#include "app/member_completion.hpp"

#include <gtest/gtest.h>

namespace roomkey::app {
namespace {

std::vector<RoomMember> members() {
    std::vector<RoomMember> out(3);
    out[0].account_id = "1001";
    out[0].name = "Alice Smith";
    out[1].account_id = "1002";
    out[1].name = "Bob";
    out[2].account_id = "1003";
    out[2].name = "Bonnie Tyler";
    return out;
}

TEST(ComposerMention, AtFollowedByLettersIsAQueryAnEmailIsNot) {
    auto q = mention_query("hi @bo", 6);
    ASSERT_TRUE(q) << "\"hi @bo\" at its end is not read as a mention query";
    EXPECT_EQ(q->at, 3u);
    EXPECT_EQ(q->query, "bo");
    EXPECT_TRUE(mention_query("@", 1));
    EXPECT_FALSE(mention_query("mail a@bo", 9));
    EXPECT_FALSE(mention_query("@bo and", 7));
}

TEST(ComposerMention, NamesMatchByAnyWordIgnoringCase) {
    const auto all = members();
    const auto bo = matching_members(all, "bo");
    ASSERT_EQ(bo.size(), 2u);
    EXPECT_EQ(bo[0]->name, "Bob");
    EXPECT_EQ(bo[1]->name, "Bonnie Tyler");
    const auto smith = matching_members(all, "SMI");
    ASSERT_EQ(smith.size(), 1u);
    EXPECT_EQ(smith[0]->account_id, "1001");
    EXPECT_TRUE(matching_members(all, "zed").empty());
}

TEST(ComposerMention, TakingANameWritesTheToTagAndKeepsTheRest) {
    const auto all = members();
    const std::string text = "thanks @bo see you";
    const auto q = mention_query(text, 10);
    ASSERT_TRUE(q) << "the caret after \"@bo\" is not read as a mention query";
    const Edited e = complete_mention(text, 10, *q, all[1]);
    EXPECT_EQ(e.text, "thanks [To:1002]Bob  see you");
    EXPECT_EQ(e.caret, std::string("thanks [To:1002]Bob ").size());
    const Edited first = complete_mention("@b", 2, *mention_query("@b", 2), all[1]);
    EXPECT_EQ(first.text, "[To:1002]Bob\n");  // a To at a line's start is a line of its own
}

}  // namespace
}  // namespace roomkey::app
