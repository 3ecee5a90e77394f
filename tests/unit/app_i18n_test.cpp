// app_i18n_test.cpp: the language catalog (web/app/i18n.hpp): lookup with
// English fallback, named placeholders, plurals by each language's rule, the
// pseudo-locale, choosing the language, and the user errors in Japanese.
#include <gtest/gtest.h>

#include "app/i18n.hpp"
#include "app/user_errors.hpp"
#include "roomkey/errors.hpp"

namespace roomkey::app {
namespace {

// Every test leaves the app in English, as the rest of the suite expects.
class I18nTest : public ::testing::Test {
protected:
    void TearDown() override {
        i18n::set_language(i18n::Lang::en);
        i18n::set_plural_rule(nullptr);
    }
};

TEST_F(I18nTest, LooksUpByKeyInTheCurrentLanguage) {
    EXPECT_STREQ(tr("errors.sign_in_again"), "Sign in again.");
    i18n::set_language(i18n::Lang::ja);
    EXPECT_STREQ(tr("errors.sign_in_again"), "もう一度ログインしてください。");
}

TEST_F(I18nTest, AnUnknownKeyShowsTheKeyNotNothing) {
    EXPECT_STREQ(tr("no.such_key"), "no.such_key");
    EXPECT_EQ(tr("no.such_key", {{"x", "1"}}), "no.such_key");
}

TEST_F(I18nTest, FillsNamedPlaceholdersInAnyOrder) {
    EXPECT_EQ(tr("errors.failed.title", {{"what", "Loading rooms"}}), "Loading rooms failed");
    i18n::set_language(i18n::Lang::ja);
    EXPECT_EQ(tr("errors.failed.title", {{"what", "ルームの読み込み"}}), "ルームの読み込みに失敗しました");
    // A value is inserted as it is, never read as another placeholder.
    EXPECT_EQ(tr("errors.status.message", {{"status", "{status}"}}), "サービスがステータス {status} を返しました。");
}

TEST_F(I18nTest, CountsUseTheLanguagesPluralRule) {
    EXPECT_EQ(tr_n("count.posts", 1), "1 post");
    EXPECT_EQ(tr_n("count.posts", 0), "0 posts");
    EXPECT_EQ(tr_n("count.posts", 2), "2 posts");
    i18n::set_language(i18n::Lang::ja);
    EXPECT_EQ(tr_n("count.posts", 1), "1 件の投稿");
    EXPECT_EQ(tr_n("count.posts", 5), "5 件の投稿");
}

TEST_F(I18nTest, TheBrowsersPluralRuleIsUsedWhenInstalled) {
    // As Intl.PluralRules would answer for a language with a "two" form: a
    // category the catalog lacks falls back to "other".
    i18n::set_plural_rule([](i18n::Lang, long long n) { return n == 2 ? "two" : n == 1 ? "one" : "other"; });
    EXPECT_EQ(tr_n("count.posts", 2), "2 posts");
    EXPECT_EQ(tr_n("count.posts", 1), "1 post");
}

TEST_F(I18nTest, TheBuiltInRulesMatchIntlPluralRules) {
    EXPECT_STREQ(i18n::builtin_plural(i18n::Lang::en, 1), "one");
    EXPECT_STREQ(i18n::builtin_plural(i18n::Lang::en, 0), "other");
    EXPECT_STREQ(i18n::builtin_plural(i18n::Lang::en, 21), "other");
    EXPECT_STREQ(i18n::builtin_plural(i18n::Lang::ja, 1), "other");
}

TEST_F(I18nTest, PseudoLocaleIsLongerAccentedAndKeepsPlaceholders) {
    i18n::set_language(i18n::Lang::qps);
    const std::string english = "Sign in again.";
    const std::string pseudo = tr("errors.sign_in_again");
    EXPECT_EQ(pseudo.front(), '[');
    EXPECT_EQ(pseudo.back(), ']');
    EXPECT_EQ(pseudo.rfind("[\xC5\xA0\xC3\xAD", 0), 0u) << pseudo;  // "[Ší"
    // At least 40 % more characters than the English (UTF-8 aware count).
    auto chars = [](const std::string& s) {
        std::size_t n = 0;
        for (unsigned char c : s) n += (c & 0xC0) != 0x80;
        return n;
    };
    EXPECT_GE(chars(pseudo) * 10, chars(english) * 14) << pseudo;
    EXPECT_EQ(tr("errors.failed.title", {{"what", "X"}}).find("X"), 1u) << "the value is not accented";
    EXPECT_NE(tr_n("count.posts", 3).find('3'), std::string::npos);
}

// Which language to use is shell/page.js's choice (e2e app_language: "the
// page chooses the language before the app runs"); the app reads its tag.
TEST_F(I18nTest, ReadsTheLanguagesTag) {
    using i18n::Lang;
    EXPECT_EQ(i18n::parse_tag("ja-JP"), Lang::ja);
    EXPECT_EQ(i18n::parse_tag("EN-gb"), Lang::en);
    EXPECT_EQ(i18n::parse_tag("qps"), Lang::qps);
    EXPECT_FALSE(i18n::parse_tag("fr"));
    EXPECT_EQ(i18n::code(Lang::ja), "ja");
    EXPECT_EQ(i18n::code(Lang::en), "en");
}

// Every spec 7.1 code and every token error of spec 2.4 has its words in
// both languages (their keys are built from the identifiers at run time).
TEST_F(I18nTest, EveryAuthorizationAndTokenErrorHasJapaneseWords) {
    for (const auto& entry : all_authorization_errors()) {
        const std::string base = "auth_error." + std::string(entry.identifier);
        for (const char* part : {".message", ".remedy"}) {
            i18n::set_language(i18n::Lang::en);
            const std::string english = tr(base + part);
            i18n::set_language(i18n::Lang::ja);
            const std::string japanese = tr(base + part);
            EXPECT_NE(english, base + part) << "missing in en.json";
            EXPECT_NE(japanese, english) << base + part << " has no Japanese";
        }
    }
    for (const auto& entry : all_token_errors()) {
        const std::string key = "token_error." + std::string(entry.identifier) + ".remedy";
        i18n::set_language(i18n::Lang::en);
        EXPECT_EQ(std::string(tr(key)), entry.remedy) << "the English words are shared/'s";
        i18n::set_language(i18n::Lang::ja);
        EXPECT_NE(std::string(tr(key)), entry.remedy) << key;
    }
}

TEST_F(I18nTest, UserErrorsReadInJapaneseWithTheWireCodeUnchanged) {
    i18n::set_language(i18n::Lang::ja);
    CallbackError denied;
    denied.kind = CallbackErrorKind::access_denied;
    denied.code = AuthorizationErrorCode::access_denied;
    denied.error = "access_denied";
    const UserError error = callback_error(denied);
    EXPECT_EQ(error.title, "ログインが拒否されました");
    EXPECT_EQ(error.code, "3001 access_denied");
    EXPECT_NE(error.remedy.find("許可"), std::string::npos) << error.remedy;

    SessionEnd end;
    end.kind = SessionEndKind::refresh_rejected;
    const UserError ended = session_end_error(
        end, HttpResponse{400, {}, R"({"error":"invalid_grant","error_description":"","error_uri":null})"});
    EXPECT_EQ(ended.title, "セッションが終了しました");
    EXPECT_EQ(ended.code, "invalid_grant");
    EXPECT_NE(ended.remedy.find("もう一度ログイン"), std::string::npos) << ended.remedy;
}

TEST_F(I18nTest, UserErrorsInEnglishAreTheWordsOfShared) {
    CallbackError unknown_scope;
    unknown_scope.kind = CallbackErrorKind::authorization_error;
    unknown_scope.code = AuthorizationErrorCode::client_id_unknown;
    const UserError error = callback_error(unknown_scope);
    EXPECT_EQ(error.message.rfind(describe(AuthorizationErrorCode::client_id_unknown, ""), 0), 0u) << error.message;
    EXPECT_EQ(error.remedy, info(AuthorizationErrorCode::client_id_unknown).remedy);
    SessionEnd end;
    end.kind = SessionEndKind::refresh_token_expired;
    EXPECT_EQ(session_end_error(end, std::nullopt).message, describe(end));
}

}  // namespace
}  // namespace roomkey::app

namespace roomkey::app {
namespace {

TEST(I18nAcceptLanguage, PicksTheMostPreferredLanguageCompiledIn) {
    using i18n::Lang;
    EXPECT_EQ(i18n::from_accept_language("ja"), Lang::ja);
    EXPECT_EQ(i18n::from_accept_language("ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7"), Lang::ja);
    EXPECT_EQ(i18n::from_accept_language("en-US,en;q=0.9,ja;q=0.8"), Lang::en);
    EXPECT_EQ(i18n::from_accept_language("fr-FR, en;q=0.5, ja;q=0.7"), Lang::ja);
    EXPECT_EQ(i18n::from_accept_language("fr"), Lang::en);
    EXPECT_EQ(i18n::from_accept_language(""), Lang::en);
    EXPECT_EQ(i18n::from_accept_language("ja;q=0"), Lang::en) << "q=0 means not acceptable";
    EXPECT_EQ(i18n::from_accept_language("qps, ja;q=0.1"), Lang::ja);
    EXPECT_EQ(i18n::from_accept_language(",,;q=,ja;q=abc"), Lang::en) << "garbage is not an error";
}

}  // namespace
}  // namespace roomkey::app

#include "app/dtext_words.hpp"
#include "roomkey/notation.hpp"

namespace roomkey::app {
namespace {

TEST(I18nDtext, TheServicesMessagesReadInTheAppsLanguage) {
    // English: the words shared/ read them in before its words moved to the catalog.
    const std::pair<const char*, const char*> english[] = {
        {"task_added", "Task added"},
        {"file_uploaded", "File uploaded"},
        {"chatroom_groupchat_created", "Group chat created"},
        {"chatroom_chat_edited", "Chat edited"},
        {"chatroom_chatname_is", "Chat name set to "},
        {"chatroom_set", "."},
        {"chatroom_member_is", "Members: "},
        {"chatroom_added", " added."},
        {"chatroom_deleted", " removed."},
    };
    for (const auto& [key, words] : english) {
        EXPECT_EQ(dtext_in_words(key), words) << "the English words of " << key;
    }
    i18n::set_language(i18n::Lang::ja);
    EXPECT_EQ(dtext_in_words("task_added"), "タスクを追加しました");
    EXPECT_EQ(dtext_in_words("chatroom_description_is"), "Chatroom description is") << "an unknown key as shared/ reads it";
    i18n::set_language(i18n::Lang::en);
}

}  // namespace
}  // namespace roomkey::app

namespace roomkey::app {
namespace {

// A message without its tags, as the conversation, the page API's
// room.messages[].text and a notification read it: shared/ says which
// words go where a tag stood, the catalog gives them.
TEST(I18nNotation, AMessageReadsInTheAppsLanguage) {
    const notation::NameLookup names = [](std::string_view id) {
        return id == "1001" ? std::string("Alice") : std::string();
    };
    const auto read = [&](const char* body) { return plain_text(notation::parse(body), names); };
    const char* task = "[info][title][dtext:task_added][/title][task aid=1001 st=open lt=0 ltype=none]Review[/task][/info]";
    i18n::set_language(i18n::Lang::en);
    EXPECT_EQ(read(task), "Task added\nTask for Alice: Review");
    EXPECT_EQ(read("[rp aid=1001 to=2100-5]Alice\nthanks"), "Re Alice\nthanks");
    i18n::set_language(i18n::Lang::ja);
    EXPECT_EQ(read(task), "タスクを追加しました\nAliceさんのタスク: Review");
    EXPECT_EQ(read("[task st=done]Ship it[/task]"), "タスク(完了): Ship it");
    EXPECT_EQ(read("[task aid=1001 st=done]Ship it[/task]"), "Aliceさんのタスク(完了): Ship it");
    EXPECT_EQ(read("[task]Ship it[/task]"), "タスク: Ship it");
    EXPECT_EQ(read("[rp aid=1001 to=2100-5]Alice\nありがとう"), "返信 Alice\nありがとう");
    EXPECT_EQ(read("[To:1001]Aliceさん\nお昼です"), "To Aliceさん\nお昼です") << "the writer's さん stays theirs";
    EXPECT_EQ(read("[toall]お昼です"), "全員宛て お昼です");
    EXPECT_EQ(read("[info][title][dtext:chatroom_groupchat_created][/title][dtext:chatroom_chatname_is]Design"
                   "[dtext:chatroom_set][/info]"),
              "グループチャットを新規作成しました\nチャット名を「Design」に設定しました。");
    i18n::set_language(i18n::Lang::en);
}

}  // namespace
}  // namespace roomkey::app
