// message_tags_test.cpp: who a message is for, read from the service's notation.
#include "roomkey/message_tags.hpp"

#include <gtest/gtest.h>

namespace roomkey {
// A namespace of its own: unity batches compile test files together, and
// their helpers' names may repeat.
namespace message_tags_test {
namespace {

TEST(MessageTags, ToTagAddressesExactlyThatAccount) {
    EXPECT_TRUE(addresses_account("[To:1001] Alice, hi", "1001"));
    EXPECT_TRUE(addresses_account("hello\n[To:1002]Bob\n[To:1001]Alice", "1001"));
    EXPECT_FALSE(addresses_account("[To:10010] someone else", "1001"));
    EXPECT_FALSE(addresses_account("[To:100] someone else", "1001"));
    EXPECT_FALSE(addresses_account("[To:1001", "1001")) << "a tag left open is text";
    EXPECT_FALSE(addresses_account("[to:1001]", "1001")) << "the service writes To with a capital";
    EXPECT_FALSE(addresses_account("[To:1001]", "")) << "no account, no mention";
}

TEST(MessageTags, RepliesAddressTheirAidInBothSpellings) {
    EXPECT_TRUE(addresses_account("[rp aid=1001 to=2100-1600000000000000001]Alice\nok", "1001"));
    EXPECT_TRUE(addresses_account("[\xE8\xBF\x94\xE4\xBF\xA1 aid=1001 to=2100-5]Alice", "1001"));  // [返信 ...]
    EXPECT_FALSE(addresses_account("[rp aid=1002 to=2100-5]Bob", "1001"));
    EXPECT_FALSE(addresses_account("[rp aid=10011 to=2100-5]", "1001"));
    EXPECT_FALSE(addresses_account("[rpaid=1001 to=2100-5]", "1001"));
    EXPECT_FALSE(addresses_account("[rp aid=1001 to=2100-5", "1001")) << "left open";
}

TEST(MessageTags, ToAllMentionsEveryone) {
    EXPECT_TRUE(addresses_everyone("[toall] lunch"));
    EXPECT_TRUE(mentions_account("[toall] lunch", "1003"));
    EXPECT_FALSE(mentions_account("lunch at noon", "1003"));
    EXPECT_TRUE(mentions_account("[To:1003]", "1003"));
}

TEST(MessageTags, ReplyTargetNamesTheAccountRoomAndMessage) {
    const auto target = reply_target("[rp aid=1002 to=2100-1600000000000000007]Bob\nthanks");
    ASSERT_TRUE(target) << "no reply target in the [rp] header";
    EXPECT_EQ(target->account_id, "1002");
    EXPECT_EQ(target->room_id, "2100");
    EXPECT_EQ(target->message_id, "1600000000000000007");
    EXPECT_FALSE(reply_target("[rp aid=1002]Bob"));
    EXPECT_FALSE(reply_target("[rp aid=x to=2100-7]"));
    EXPECT_FALSE(reply_target("no reply"));
}

TEST(MessageTags, ServiceEventKeyReadsTheServicesOwnMessages) {
    EXPECT_EQ(service_event_key("[info][title][dtext:task_added][/title][task aid=1001 st=open lt=0 ltype=none]x[/task]"
                                "[/info]")
                  .value_or(""),
              "task_added");
    EXPECT_EQ(service_event_key("[info][title][dtext:file_uploaded][/title][preview id=5 ht=120][download:5]r.pdf "
                                "(12.5 KB)[/download][/info]")
                  .value_or(""),
              "file_uploaded");
    EXPECT_FALSE(service_event_key("[info][title]Minutes[/title]a person's info box[/info]"));
    EXPECT_FALSE(service_event_key("see [info][title][dtext:task_added][/title]"))
        << "only a message that opens with the box is the service's";
    EXPECT_FALSE(service_event_key("[info][title][dtext:task_added]"));
    EXPECT_FALSE(service_event_key("[info][title][dtext:][/title]"));
}

}  // namespace
}  // namespace message_tags_test
}  // namespace roomkey
