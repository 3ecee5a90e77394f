// links_test.cpp: shared/links.hpp: what becomes a link in a message's text.
#include "roomkey/links.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> urls(std::string_view text) {
    std::vector<std::string> out;
    for (const roomkey::TextLink& link : roomkey::find_links(text)) {
        EXPECT_EQ(text.substr(link.begin, link.end - link.begin).size(), link.url.size()) << text;
        out.push_back(link.url);
    }
    return out;
}

using List = std::vector<std::string>;

TEST(Links, HttpAndHttpsUrlsInText) {
    EXPECT_EQ(urls("see https://example.com/a?b=1#c and http://x.org"),
              (List{"https://example.com/a?b=1#c", "http://x.org"}));
    EXPECT_EQ(urls("https://example.com"), (List{"https://example.com"}));
}

TEST(Links, TheServicesLinkToAMessage) {
    EXPECT_EQ(urls("前の話 https://www.chatwork.com/#!rid2100-5 を見て"),
              (List{"https://www.chatwork.com/#!rid2100-5"}));
}

TEST(Links, NoOtherSchemeEverBecomesALink) {
    EXPECT_TRUE(urls("javascript:alert(1)").empty());
    EXPECT_TRUE(urls("data:text/html,<b>x</b>").empty());
    EXPECT_TRUE(urls("file:///etc/passwd ftp://x.org www.example.com mailto:a@b.c").empty());
    EXPECT_TRUE(urls("javascript:https://x.org").size() == 1);  // the https link after it, nothing of the scheme
    EXPECT_EQ(urls("javascript:https://x.org")[0], "https://x.org");
    EXPECT_TRUE(urls("xhttps://x.org a+http://x.org").empty());
}

TEST(Links, NeedAHost) {
    EXPECT_TRUE(urls("https:// http://").empty());
    EXPECT_TRUE(urls("https://").empty());
    EXPECT_TRUE(urls("http://-x").empty());
}

TEST(Links, JapaneseRightAfterAUrlIsNotPartOfIt) {
    EXPECT_EQ(urls("詳細はhttps://example.com/pathです。"), (List{"https://example.com/path"}));
}

TEST(Links, TrailingPunctuationIsTheSentences) {
    EXPECT_EQ(urls("Go to https://example.com/a. Then http://b.org, ok?"),
              (List{"https://example.com/a", "http://b.org"}));
    EXPECT_EQ(urls("(see https://example.com/x)"), (List{"https://example.com/x"}));
    EXPECT_EQ(urls("https://en.wikipedia.org/wiki/Foo_(bar)"), (List{"https://en.wikipedia.org/wiki/Foo_(bar)"}));
}

TEST(Links, StopAtTagsAndQuotes) {
    EXPECT_EQ(urls("[info]https://example.com[/info]"), (List{"https://example.com"}));
    EXPECT_EQ(urls("<https://example.com>\"http://b.org\""), (List{"https://example.com", "http://b.org"}));
}

TEST(Links, SchemeIsLowerCasedTheRestKept) {
    EXPECT_EQ(urls("HTTPS://Example.com/A"), (List{"https://Example.com/A"}));
}

TEST(Links, SpansAreTheTextAsWritten) {
    const std::string text = "a https://x.org b";
    const auto links = roomkey::find_links(text);
    ASSERT_EQ(links.size(), 1u);
    EXPECT_EQ(links[0].begin, 2u);
    EXPECT_EQ(links[0].end, 15u);
}

}  // namespace
