// app_message_view_test.cpp: a message as the conversation draws it
// (web/app/message_view.hpp): plain text without tags, mentions of you,
// the reply's target, the service's own messages, edits and local times.
#include "app/message_view.hpp"

#include <gtest/gtest.h>

#include "app/i18n.hpp"

namespace roomkey::app {
namespace message_view_test {

ChatMessage message(std::string body, std::int64_t at, std::optional<std::int64_t> updated = std::nullopt) {
    ChatMessage m;
    m.message_id = "7";
    m.account.account_id = "1002";
    m.account.name = "Bob";
    m.body = std::move(body);
    m.send_time = at;
    m.update_time = updated;
    return m;
}

std::string names(std::string_view id) {
    if (id == "1001") return "Alice";
    if (id == "1002") return "Bob";
    return {};
}

constexpr std::int64_t kNow = 1700000000;  // 2023-11-14 22:13 UTC

TEST(MessageView, AMentionOfYouReadsWithoutTags) {
    const DrawnMessage d = drawn_message(message("[To:1001]Alice, the sandbox is up", kNow - 60), "1001", names, kNow,
                                         fixed_utc_offset(540));
    EXPECT_TRUE(d.mentions_me);
    EXPECT_EQ(d.text.find('['), std::string::npos) << d.text;
    EXPECT_NE(d.text.find("Alice"), std::string::npos) << d.text;
    EXPECT_FALSE(d.reply_to);
    EXPECT_FALSE(d.system);
    EXPECT_FALSE(d.edited);
    EXPECT_EQ(d.time_text, "07:12") << "local time in Japan, today";
}

TEST(MessageView, AReplyNamesItsTarget) {
    const DrawnMessage d = drawn_message(message("[rp aid=1001 to=2100-55]Alice\nyes", kNow, kNow + 5), "1003", names,
                                         kNow, fixed_utc_offset(0));
    ASSERT_TRUE(d.reply_to) << "the [rp] tag was not drawn as a reply";
    EXPECT_EQ(d.reply_to->account_id, "1001");
    EXPECT_EQ(d.reply_to->message_id, "55");
    EXPECT_FALSE(d.mentions_me);
    EXPECT_TRUE(d.edited);
}

// A sender the service gave no name is "Unknown member" in the language
// shown, never "account 1009": the id stays the page API's.
TEST(MessageView, ASenderWithoutANameIsSaidInWordsNotById) {
    ChatMessage m = message("hello", kNow);
    m.account.account_id = "1009";
    m.account.name.clear();
    DrawnMessage d = drawn_message(m, "1001", names, kNow, fixed_utc_offset(0));
    EXPECT_EQ(d.sender, "Unknown member");
    EXPECT_EQ(d.spoken.find("1009"), std::string::npos) << d.spoken;
    i18n::set_language(i18n::Lang::ja);
    d = drawn_message(m, "1001", names, kNow, fixed_utc_offset(0));
    i18n::set_language(i18n::Lang::en);
    EXPECT_EQ(d.sender, "不明なメンバー");
}

TEST(MessageView, TheServicesOwnMessageIsSystem) {
    const DrawnMessage d = drawn_message(
        message("[info][title][dtext:task_added][/title][task aid=1001 st=open]Review[/task][/info]", kNow), "1001",
        names, kNow, fixed_utc_offset(0));
    EXPECT_TRUE(d.system);
    EXPECT_EQ(d.text.find("[task"), std::string::npos) << d.text;
    EXPECT_NE(d.text.find("Review"), std::string::npos) << d.text;
}

TEST(MessageView, NamesComeFromMembersThenContacts) {
    RoomView view;
    view.open("2100", "Launch");
    RoomMember bob;
    bob.account_id = "1002";
    bob.name = "Bob";
    view.set_members({bob});
    Contact carol;
    carol.account_id = "1003";
    carol.name = "Carol";
    const std::vector<Contact> contacts{carol};
    const auto lookup = account_names(view, &contacts);
    EXPECT_EQ(lookup("1002"), "Bob");
    EXPECT_EQ(lookup("1003"), "Carol");
    EXPECT_EQ(lookup("9"), "");
}

}  // namespace message_view_test
}  // namespace roomkey::app
