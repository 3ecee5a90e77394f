// message_tags_notation_test.cpp: message_tags.hpp (mention_num in the sandbox, mentions_me in the app) and
// notation.hpp (what the conversation draws) read the same tags the same way, over a corpus of bodies.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "roomkey/message_tags.hpp"
#include "roomkey/notation.hpp"

namespace roomkey {
namespace message_tags_notation_test {
namespace {

using notation::Part;
using notation::PartKind;

// What a reader of the drawn parts sees: a mention or reply chip naming the account anywhere in the tree.
bool drawn_as_addressed(std::string_view body, const std::vector<Part>& parts, std::string_view account) {
    for (const Part& part : parts) {
        if ((part.kind == PartKind::mention || part.kind == PartKind::reply) && part.account_id.of(body) == account) {
            return true;
        }
        if (drawn_as_addressed(body, part.children, account)) return true;
    }
    return false;
}

bool drawn_to_all(const std::vector<Part>& parts) {
    for (const Part& part : parts) {
        if (part.kind == PartKind::to_all || drawn_to_all(part.children)) return true;
    }
    return false;
}

struct Expected {
    const char* body;
    bool mentions_1001;
    const char* reply_message;  // reply_target's message id, or nullptr
    const char* event_key;      // service_event_key, or nullptr
};

// Bodies as the service and people write them, with the broken and the tricky.
const Expected kCorpus[] = {
    {"[To:1001] Alice, the sandbox is up. Can you review the consent screen?", true, nullptr, nullptr},
    {"[To:1002]Bob\n[To:1001]Alice\nboth of you", true, nullptr, nullptr},
    {"[To:10010] someone else", false, nullptr, nullptr},
    {"[To:1001", false, nullptr, nullptr},
    {"[to:1001]", false, nullptr, nullptr},
    {"[toall] lunch at noon", true, nullptr, nullptr},
    {"lunch at noon", false, nullptr, nullptr},
    {"[rp aid=1001 to=2100-1600000000000000001]Alice\nok", true, "1600000000000000001", nullptr},
    {"[\xE8\xBF\x94\xE4\xBF\xA1 aid=1001 to=2100-5]Alice\xE3\x81\x95\xE3\x82\x93", true, "5", nullptr},
    {"[rp aid=1002 to=2100-7]Bob\nthanks", false, "7", nullptr},
    {"[rp aid=1001]Alice", true, nullptr, nullptr},
    {"[rp aid=1001 to=2100-5", false, nullptr, nullptr},
    // A tag in [code] is text a reader sees as typed: no mention.
    {"[code][To:1001]Alice[/code]", false, nullptr, nullptr},
    {"[code][toall][/code] is how you call everyone", false, nullptr, nullptr},
    // A [code] that never closes is text, and the tag after it is a tag.
    {"[code] [To:1001]", true, nullptr, nullptr},
    // In a quote the tag is drawn as a mention, and counts.
    {"[qt][qtmeta aid=1002 time=1700000000][To:1001]Alice\nplease[/qt]\nseen", true, nullptr, nullptr},
    // The reply a message is: its own, not the one it quotes.
    {"[qt][qtmeta aid=1002 time=1][rp aid=1003 to=2100-9]Carol\nyes[/qt]agreed", false, nullptr, nullptr},
    {"[info][title][To:1001][/title]the title is verbatim[/info]", false, nullptr, nullptr},
    {"[info][title]Minutes[/title][To:1001]Alice\n1. ok[/info]", true, nullptr, nullptr},
    {"[info][title][dtext:task_added][/title][task aid=1001 st=open lt=1385996399 ltype=date]Review[/task][/info]",
     false, nullptr, "task_added"},
    {"[info][title][dtext:file_uploaded][/title][preview id=5 ht=120][download:5]r.pdf (12.5 KB)[/download][/info]",
     false, nullptr, "file_uploaded"},
    {"[info][title][dtext:chatroom_chat_edited][/title][dtext:chatroom_member_is][piconname:1001]"
     "[dtext:chatroom_added][/info]",
     false, nullptr, "chatroom_chat_edited"},
    {"see [info][title][dtext:task_added][/title]x[/info]", false, nullptr, nullptr},
    {"[info][title][dtext:task_added][/title] never closed", false, nullptr, nullptr},
    {"[download:5][To:1001].pdf (1 KB)[/download]", false, nullptr, nullptr},
    {"\xF0\x9F\x8E\x89 [To:1001]\xE3\x82\xA2\xE3\x83\xAA\xE3\x82\xB9\n\xE3\x81\x8A\xE7\x96\xB2\xE3\x82\x8C", true,
     nullptr, nullptr},
};

TEST(MessageTagsNotation, TheCorpusReadsAsExpected) {
    for (const Expected& e : kCorpus) {
        EXPECT_EQ(mentions_account(e.body, "1001"), e.mentions_1001) << e.body;
        const auto target = reply_target(e.body);
        EXPECT_EQ(target ? std::string(target->message_id) : std::string(), e.reply_message ? e.reply_message : "")
            << e.body;
        const auto key = service_event_key(e.body);
        EXPECT_EQ(key ? std::string(*key) : std::string(), e.event_key ? e.event_key : "") << e.body;
    }
}

TEST(MessageTagsNotation, MentionsAreWhatTheConversationDraws) {
    for (const Expected& e : kCorpus) {
        const std::string_view body = e.body;
        const auto parts = notation::parse_parts(body);
        for (const char* account : {"1001", "1002", "1003", "9999"}) {
            EXPECT_EQ(addresses_account(body, account), drawn_as_addressed(body, parts, account))
                << account << " in " << body;
            EXPECT_EQ(mentions_account(body, account), drawn_to_all(parts) || drawn_as_addressed(body, parts, account))
                << account << " in " << body;
        }
        EXPECT_EQ(addresses_everyone(body), drawn_to_all(parts)) << body;
        const auto target = reply_target(body);
        std::optional<std::string_view> drawn_target;
        for (const Part& part : parts) {
            if (part.kind == PartKind::reply && !part.message_id.empty()) {
                drawn_target = part.message_id.of(body);
                break;
            }
        }
        EXPECT_EQ(target ? std::optional<std::string_view>(target->message_id) : std::nullopt, drawn_target) << body;
        const auto key = service_event_key(body);
        const bool drawn_event = !parts.empty() && parts[0].kind == PartKind::service_event;
        EXPECT_EQ(key.has_value(), drawn_event) << body;
        if (key && drawn_event) {
            EXPECT_EQ(*key, parts[0].key.of(body));
        }
    }
}

}  // namespace
}  // namespace message_tags_notation_test
}  // namespace roomkey
