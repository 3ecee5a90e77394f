// sandbox_language_test.cpp: roomkey-sandbox's screens speak the browser's
// language (Accept-Language), Japanese or English, as the service's own
// screens do; the wire values on them (scope names, error codes, ids) stay.
#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxLanguage : public SandboxTest {
protected:
    // Logs in with `language` and opens the consent screen.
    httplib::Result consent_in(const std::string& language) {
        const PkcePair pkce = make_pkce(kRandom);
        auto res = get("/consent?" + form_encode(web_request(pkce)), {{"Accept-Language", language}});
        if (!res || res->status != 303) return res;
        const auto reservation = field(location_query_of(res->get_header_value("Location")), "request");
        auto login = post_form("/login", {{"login", "alice@example.com"}, {"password", "alice-demo"},
                                          {"request", reservation}},
                               {{"Accept-Language", language}});
        if (!login || login->status != 303) return login;
        const std::string set_cookie = login->get_header_value("Set-Cookie");
        return get(login->get_header_value("Location"),
                   {{"Cookie", set_cookie.substr(0, set_cookie.find(';'))}, {"Accept-Language", language}});
    }
};

TEST_F(SandboxLanguage, ConsentPageIsJapaneseForAcceptLanguageJa) {
    auto page = consent_in("ja,en-US;q=0.9,en;q=0.8");
    ASSERT_TRUE(page) << why_no_answer(page);
    ASSERT_EQ(page->status, 200) << page->body;
    EXPECT_NE(page->body.find("<html lang=\"ja\">"), std::string::npos) << page->body;
    EXPECT_NE(page->body.find("アクセスを許可しますか?"), std::string::npos) << page->body;
    EXPECT_NE(page->body.find("自分のアカウントに紐づく情報の取得。"), std::string::npos) << "scopes in words";
    EXPECT_NE(page->body.find(">許可する</button>"), std::string::npos);
    EXPECT_NE(page->body.find(">拒否する</button>"), std::string::npos);
    // Wire values as they are, and no English sentence left.
    EXPECT_NE(page->body.find("<code>users.all:read</code>"), std::string::npos);
    EXPECT_NE(page->body.find("id=\"allow\""), std::string::npos);
    EXPECT_EQ(page->body.find("Allow access?"), std::string::npos);
    EXPECT_EQ(page->body.find("asks for access"), std::string::npos);
}

TEST_F(SandboxLanguage, ConsentPageStaysEnglishForEnglishOrUnknownLanguages) {
    for (const char* language : {"en-US,en;q=0.9", "fr-FR", ""}) {
        auto page = consent_in(language);
        ASSERT_TRUE(page) << why_no_answer(page);
        ASSERT_EQ(page->status, 200) << page->body;
        EXPECT_NE(page->body.find("<html lang=\"en\">"), std::string::npos) << language;
        EXPECT_NE(page->body.find("Allow access?"), std::string::npos) << language;
        EXPECT_NE(page->body.find("Read information tied to the own account."), std::string::npos) << language;
    }
}

TEST_F(SandboxLanguage, LoginAndErrorPagesFollowTheLanguage) {
    auto login = get("/login", {{"Accept-Language", "ja-JP"}});
    ASSERT_TRUE(login) << why_no_answer(login);
    EXPECT_NE(login->body.find("メールアドレスまたはアカウント ID"), std::string::npos) << login->body;
    // A spec 7.1 error page: the code and identifier as they are, the remedy in Japanese.
    const PkcePair pkce = make_pkce(kRandom);
    FormFields query = web_request(pkce);
    for (auto& f : query) {
        if (f.first == "scope") f.second = "no.such:scope";
    }
    auto error = get("/consent?" + form_encode(query), {{"Accept-Language", "ja"}});
    ASSERT_TRUE(error) << why_no_answer(error);
    EXPECT_NE(error->body.find("認可エラー"), std::string::npos) << error->body;
    EXPECT_NE(error->body.find("<code>scope_unknown</code>"), std::string::npos) << error->body;
    EXPECT_NE(error->body.find("スコープ一覧"), std::string::npos) << error->body;
}

}  // namespace
}  // namespace roomkey::sandbox::testing
