// sandbox_language_test.cpp: roomkey-sandbox's screens speak the browser's
// language (Accept-Language), Japanese or English, as the service's own
// screens do; the wire values on them (scope names, error codes, ids) stay.
#include "app/i18n.hpp"
#include "roomkey/registration.hpp"
#include "sandbox/html.hpp"
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
    // Logs in on the client registration screens; returns the session cookie.
    std::string clients_login(const std::string& language) {
        auto res = post_form("/login", {{"login", "1001"}, {"password", "alice-demo"}, {"next", "/clients/new"}},
                             {{"Accept-Language", language}});
        EXPECT_TRUE(res && res->status == 303) << why_no_answer(res);
        if (!res) return {};
        const std::string c = res->get_header_value("Set-Cookie");
        return c.substr(0, c.find(';'));
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

// A page the sandbox does not serve, or a method a page does not take: the
// 404 and 405 pages speak the request's language too; Allow and the method
// names stay as they are.
TEST_F(SandboxLanguage, NotFoundAndMethodNotAllowedPagesFollowTheLanguage) {
    auto missing = get("/no-such-page", {{"Accept-Language", "ja-JP,ja;q=0.9"}});
    ASSERT_TRUE(missing) << why_no_answer(missing);
    EXPECT_EQ(missing->status, 404);
    EXPECT_NE(missing->body.find("<html lang=\"ja\">"), std::string::npos) << missing->body;
    EXPECT_NE(missing->body.find("<h1>見つかりません</h1>"), std::string::npos) << missing->body;
    EXPECT_NE(missing->body.find("<a href=\"/\">トップページから始めてください。</a>"), std::string::npos) << missing->body;
    EXPECT_EQ(missing->body.find("Not found"), std::string::npos) << missing->body;

    auto put = client()->Put("/login", {{"Accept-Language", "ja"}}, "", "text/plain");
    ASSERT_TRUE(put) << why_no_answer(put);
    EXPECT_EQ(put->status, 405);
    EXPECT_EQ(put->get_header_value("Allow"), "GET, POST");
    EXPECT_NE(put->body.find("<h1>このメソッドは使えません</h1>"), std::string::npos) << put->body;
    EXPECT_NE(put->body.find("GET, POST だけです"), std::string::npos) << put->body;
    EXPECT_EQ(put->body.find("Method not allowed"), std::string::npos) << put->body;

    auto bad_query = get("/login?next=%zz", {{"Accept-Language", "ja"}});
    ASSERT_TRUE(bad_query) << why_no_answer(bad_query);
    EXPECT_EQ(bad_query->status, 400);
    EXPECT_NE(bad_query->body.find("<h1>不正なリクエスト</h1>"), std::string::npos) << bad_query->body;

    // English for an English browser, as before.
    auto en = get("/no-such-page", {{"Accept-Language", "en-US"}});
    ASSERT_TRUE(en) << why_no_answer(en);
    EXPECT_NE(en->body.find("<h1>Not found</h1>"), std::string::npos) << en->body;
    EXPECT_NE(en->body.find("<html lang=\"en\">"), std::string::npos) << en->body;
    auto en_put = client()->Put("/login", {{"Accept-Language", "en-US"}}, "", "text/plain");
    ASSERT_TRUE(en_put) << why_no_answer(en_put);
    EXPECT_NE(en_put->body.find("<h1>Method not allowed</h1>"), std::string::npos) << en_put->body;
}

// The client registration screens (spec 2.1) as the service's own are: the
// form, its refusals, a client's page and the list in Japanese; the wire
// values (scope names, client types, client_id) as they are.
TEST_F(SandboxLanguage, ClientRegistrationPagesAreJapaneseForAcceptLanguageJa) {
    const std::string cookie = clients_login("ja");
    const httplib::Headers ja{{"Cookie", cookie}, {"Accept-Language", "ja-JP,ja;q=0.9"}};
    auto form = get("/clients/new", ja);
    ASSERT_TRUE(form) << why_no_answer(form);
    ASSERT_EQ(form->status, 200) << form->body;
    const std::string& page = form->body;
    EXPECT_NE(page.find("<html lang=\"ja\">"), std::string::npos) << page;
    for (const char* words : {"<h1>クライアントの新規登録</h1>", ">クライアント名</label>", ">クライアントタイプ</label>",
                              "パブリック(", "コンフィデンシャル(", ">登録する</button>", ">一覧に戻る</a>",
                              "<code>offline_access</code> はコンフィデンシャルクライアントのみ",
                              "<code>users.all:read</code> 自分のアカウントに紐づく情報の取得。"}) {
        EXPECT_NE(page.find(words), std::string::npos) << words << "\n" << page;
    }
    for (const char* english : {"Register a client", "Client name", "Back to the list", "at least one"}) {
        EXPECT_EQ(page.find(english), std::string::npos) << english;
    }
    EXPECT_NE(page.find("value=\"public\""), std::string::npos) << "the form's values stay wire values";

    // Every refusal at once, in Japanese.
    FormFields bad{{"csrf", hidden_value(page, "csrf")}, {"name", ""}, {"type", "public"},
                   {"redirect_uris", "http://127.0.0.1/a"}, {"scope", "offline_access"}};
    auto refused = post_form("/clients", bad, ja);
    ASSERT_TRUE(refused) << why_no_answer(refused);
    EXPECT_EQ(refused->status, 400);
    for (const char* words : {"クライアントは登録されませんでした:", "クライアント名を入力してください。",
                              "http:// を使えません", "コンフィデンシャルクライアントだけです。"}) {
        EXPECT_NE(refused->body.find(words), std::string::npos) << words << "\n" << refused->body;
    }
    EXPECT_EQ(refused->body.find("Enter a client name."), std::string::npos);

    // A client's own page and the list.
    FormFields good{{"csrf", hidden_value(page, "csrf")}, {"name", "私のアプリ"}, {"type", "public"},
                    {"redirect_uris", "myapp://callback"}, {"scope", "users.all:read"}};
    auto made = post_form("/clients", good, ja);
    ASSERT_TRUE(made) << why_no_answer(made);
    ASSERT_EQ(made->status, 303) << made->body;
    auto item = get(made->get_header_value("Location"), ja);
    ASSERT_TRUE(item) << why_no_answer(item);
    EXPECT_NE(item->body.find(">クライアントタイプ</th><td id=\"client-type\">public<"), std::string::npos) << item->body;
    EXPECT_NE(item->body.find("<code>client_id</code> を送り"), std::string::npos) << item->body;
    EXPECT_NE(item->body.find(">このクライアントを削除"), std::string::npos) << item->body;
    auto list = get("/clients", ja);
    ASSERT_TRUE(list) << why_no_answer(list);
    EXPECT_NE(list->body.find("<h1>OAuth クライアント</h1>"), std::string::npos) << list->body;
    EXPECT_NE(list->body.find("私のアプリ"), std::string::npos);
    EXPECT_NE(list->body.find(">ログアウト</button>"), std::string::npos);

    // The same screens in English for an English browser, as before.
    auto en = get("/clients/new", {{"Cookie", cookie}, {"Accept-Language", "en-US"}});
    ASSERT_TRUE(en) << why_no_answer(en);
    EXPECT_NE(en->body.find("<h1>Register a client</h1>"), std::string::npos) << en->body;
    EXPECT_NE(en->body.find("<html lang=\"en\">"), std::string::npos);
}

// The refusals' English is shared/'s sentence (what the registration rules
// say); every rule has its words in each language of the catalog.
TEST(SandboxLanguageCatalog, EveryRegistrationRuleHasItsWords) {
    using V = RegistrationViolation;
    struct English {  // the thread's language back to English, whatever happens
        ~English() { app::i18n::set_language(app::i18n::Lang::en); }
    } english;
    for (V v : {V::name_missing, V::redirect_uri_count, V::redirect_uri_malformed, V::redirect_uri_not_https,
                V::redirect_uri_http, V::redirect_uri_fragment, V::redirect_uri_duplicate, V::scope_missing,
                V::scope_unknown, V::offline_access_public, V::offline_access_alone}) {
        const std::string key = "sandbox.violation." + std::string(to_string(v));
        ASSERT_TRUE(app::i18n::has(key)) << key;
        app::i18n::set_language(app::i18n::Lang::en);
        EXPECT_EQ(app::tr(key), user_message(v)) << key;
        app::i18n::set_language(app::i18n::Lang::ja);
        EXPECT_NE(app::tr(key), user_message(v)) << key << " is not translated";
    }
}

}  // namespace
}  // namespace roomkey::sandbox::testing
