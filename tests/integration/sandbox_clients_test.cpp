// sandbox_clients_test.cpp: client registration in roomkey-sandbox (spec 2.1,
// 8.3): the HTML creation and management screens, every rule violation shown
// at once, and registration from flags and from a JSON file.
#include "sandbox/html.hpp"
#include "sandbox/options.hpp"
#include "support/sandbox_fixture.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {
namespace {

class SandboxClients : public SandboxTest {
protected:
    // Logs in through /login?next=/clients/new; returns the session cookie.
    std::string login() {
        auto res = post_form("/login", {{"login", "1001"}, {"password", "alice-demo"}, {"next", "/clients/new"}});
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        EXPECT_EQ(res->status, 303);
        EXPECT_EQ(res->get_header_value("Location"), "/clients/new");
        const std::string c = res->get_header_value("Set-Cookie");
        return c.substr(0, c.find(';'));
    }
    httplib::Result submit(const std::string& cookie, const std::string& name, const std::string& type,
                           const std::string& uris, const std::vector<std::string>& scopes) {
        auto form = get("/clients/new", {{"Cookie", cookie}});
        EXPECT_TRUE(form) << why_no_answer(form);
        FormFields f{{"csrf", hidden_value(form ? form->body : "", "csrf")}, {"name", name}, {"type", type},
                     {"redirect_uris", uris}};
        for (const auto& s : scopes) f.emplace_back("scope", s);
        return post_form("/clients", f, {{"Cookie", cookie}});
    }
};

TEST_F(SandboxClients, ScreensNeedALogin) {
    auto res = get("/clients");
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 303);
    EXPECT_EQ(res->get_header_value("Location").rfind("/login?", 0), 0u);
}

// spec 2.1: a public client gets an ID and no secret; it works on the consent screen.
TEST_F(SandboxClients, PublicClientIsRegisteredAndUsable_spec2_1) {
    const std::string cookie = login();
    auto res = submit(cookie, "My app", "public", "myapp://callback\r\nhttps://127.0.0.1:7000/cb",
                      {"users.all:read"});
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 303) << res->body;
    const std::string location = res->get_header_value("Location");
    auto page = get(location, {{"Cookie", cookie}});
    ASSERT_TRUE(page) << why_no_answer(page);
    ASSERT_EQ(page->status, 200);
    const std::string id = percent_decode(location.substr(std::string("/clients/").size())).value_or("");
    EXPECT_NE(page->body.find("id=\"client-id\">" + id + "<"), std::string::npos);
    EXPECT_EQ(page->body.find("client-secret"), std::string::npos) << "a public client has no secret";
    auto list = get("/clients", {{"Cookie", cookie}});
    ASSERT_TRUE(list) << why_no_answer(list);
    EXPECT_NE(list->body.find(id), std::string::npos);

    const PkcePair pkce = make_pkce(kRandom);
    const std::string code = authorize({{"response_type", "code"}, {"client_id", id}, {"redirect_uri", "myapp://callback"},
                                        {"scope", "users.all:read"}, {"state", "s"}, {"code_challenge", pkce.challenge},
                                        {"code_challenge_method", "S256"}});
    EXPECT_FALSE(code.empty());
}

// spec 2.1: a confidential client's secret is shown on the management screen and works with Basic.
TEST_F(SandboxClients, ConfidentialClientShowsItsSecret_spec2_1) {
    const std::string cookie = login();
    auto res = submit(cookie, "Server app", "confidential", "https://127.0.0.1:7001/cb",
                      {"offline_access", "users.all:read"});
    ASSERT_TRUE(res) << why_no_answer(res);
    ASSERT_EQ(res->status, 303) << res->body;
    auto page = get(res->get_header_value("Location"), {{"Cookie", cookie}});
    ASSERT_TRUE(page) << why_no_answer(page);
    const std::regex id_re("id=\"client-id\">([^<]+)<");
    const std::regex secret_re("id=\"client-secret\">([^<]+)<");
    std::smatch m1, m2;
    ASSERT_TRUE(std::regex_search(page->body, m1, id_re)) << "the client id is not shown: " << page->body;
    ASSERT_TRUE(std::regex_search(page->body, m2, secret_re)) << "the secret is shown";
    const std::string client_id = m1[1].str();
    const std::string secret = m2[1].str();
    EXPECT_GE(secret.size(), 43u);

    const std::string code = authorize({{"response_type", "code"}, {"client_id", client_id},
                                        {"scope", "users.all:read offline_access"}, {"state", "s"}});
    auto token = post_form("/oauth/token", {{"grant_type", "authorization_code"}, {"code", code}},
                           {{"Authorization", basic(client_id, secret)}});
    ASSERT_TRUE(token) << why_no_answer(token);
    EXPECT_EQ(token->status, 200) << token->body;
}

// spec 2.1 / 8.3: every violation is listed; nothing is registered.
TEST_F(SandboxClients, EveryViolationIsShown_spec2_1_8_3) {
    const std::string cookie = login();
    auto res = submit(cookie, "", "public",
                      "http://127.0.0.1/a\nhttps://a.example/1\nhttps://a.example/2\nhttps://a.example/3\n"
                      "https://a.example/4\nhttps://a.example/5",
                      {"offline_access"});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 400);
    const std::string& page = res->body;
    ASSERT_NE(page.find("id=\"problems\""), std::string::npos);
    for (auto v : {RegistrationViolation::name_missing, RegistrationViolation::redirect_uri_count,
                   RegistrationViolation::redirect_uri_http, RegistrationViolation::offline_access_public}) {
        EXPECT_NE(page.find(html_escape(user_message(v))), std::string::npos)
            << "missing: " << to_string(v) << "\n" << page;
    }
    auto conf = submit(cookie, "Conf", "confidential", "myapp://cb", {});
    ASSERT_TRUE(conf) << why_no_answer(conf);
    EXPECT_EQ(conf->status, 400);
    EXPECT_NE(conf->body.find(html_escape(user_message(RegistrationViolation::redirect_uri_not_https))),
              std::string::npos);
    EXPECT_NE(conf->body.find(html_escape(user_message(RegistrationViolation::scope_missing))),
              std::string::npos);
}

TEST_F(SandboxClients, CreateFormNeedsTheCsrfToken) {
    const std::string cookie = login();
    auto res = post_form("/clients", {{"csrf", "forged"}, {"name", "x"}, {"type", "public"},
                                      {"redirect_uris", "myapp://cb"}, {"scope", "users.all:read"}},
                         {{"Cookie", cookie}});
    ASSERT_TRUE(res) << why_no_answer(res);
    EXPECT_EQ(res->status, 403);
}

// spec 2.1: only the user who registered a client sees its secret
// and may delete it; every other user sees the client without either.
TEST_F(SandboxClients, OnlyTheOwnerSeesTheSecretAndDeletes_spec2_1) {
    const std::string alice = login();
    const std::string id =
        register_client_on_screen(alice, "confidential", "https://127.0.0.1:7001/cb", {"users.all:read"});
    ASSERT_FALSE(id.empty()) << "registering the client on the screen gave no id";
    const std::string path = "/clients/" + percent_encode(id);
    auto own = get(path, {{"Cookie", alice}});
    ASSERT_TRUE(own) << why_no_answer(own);
    const std::regex secret_re("id=\"client-secret\">([^<]+)<");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(own->body, m, secret_re)) << "the owner sees the secret";
    const std::string secret = m[1].str();
    EXPECT_NE(own->body.find("id=\"delete-client\""), std::string::npos);

    const std::string bob = login_as("bob@example.com", "bob-demo");
    auto other = get(path, {{"Cookie", bob}});
    ASSERT_TRUE(other) << why_no_answer(other);
    ASSERT_EQ(other->status, 200);
    EXPECT_NE(other->body.find("id=\"client-id\">" + id + "<"), std::string::npos) << "the client itself is visible";
    EXPECT_EQ(other->body.find(secret), std::string::npos) << "another user must not see the secret";
    EXPECT_EQ(other->body.find("id=\"delete-client\""), std::string::npos);
    auto bob_delete = delete_client_on_screen(bob, id);
    ASSERT_TRUE(bob_delete) << why_no_answer(bob_delete);
    EXPECT_EQ(bob_delete->status, 403);
    auto still = get(path, {{"Cookie", alice}});
    ASSERT_TRUE(still) << why_no_answer(still);
    EXPECT_EQ(still->status, 200) << "the client survives another user's delete";

    auto alice_delete = delete_client_on_screen(alice, id);
    ASSERT_TRUE(alice_delete) << why_no_answer(alice_delete);
    EXPECT_EQ(alice_delete->status, 303);
    auto gone = get(path, {{"Cookie", alice}});
    ASSERT_TRUE(gone) << why_no_answer(gone);
    EXPECT_EQ(gone->status, 404);
}

// Clients registered at start-up (flags, config file, the web app's) belong
// to no screen user: read-only, secret never shown.
TEST_F(SandboxClients, StartUpClientsAreReadOnly_spec2_1) {
    const std::string alice = login();
    auto page = get("/clients/" + kConfidentialId, {{"Cookie", alice}});
    ASSERT_TRUE(page) << why_no_answer(page);
    ASSERT_EQ(page->status, 200);
    EXPECT_EQ(page->body.find(kConfidentialSecret), std::string::npos);
    EXPECT_EQ(page->body.find("id=\"delete-client\""), std::string::npos);
    for (const std::string& id : {kConfidentialId, std::string("roomkey-web")}) {
        auto res = delete_client_on_screen(alice, id);
        ASSERT_TRUE(res) << why_no_answer(res);
        EXPECT_EQ(res->status, 403) << id;
    }
    EXPECT_FALSE(authorize({{"response_type", "code"},
                            {"client_id", kConfidentialId},
                            {"redirect_uri", kConfidentialRedirect},
                            {"scope", "users.all:read"},
                            {"state", "x"}})
                     .empty())
        << "still registered";
}

// The same registration from flags and from a config file gives the same client.
TEST(SandboxClientSpecs, FlagAndFileRegistration_spec2_1) {
    auto spec = parse_client_spec("name=CLI app,type=public,redirect_uri=myapp://a,redirect_uri=myapp://b,"
                                  "scope=users.all:read rooms.all:read,client_id=cli-app");
    ASSERT_TRUE(spec) << spec.error();
    EXPECT_EQ(spec->client_id, "cli-app");
    EXPECT_EQ(spec->registration.redirect_uris.size(), 2u);
    EXPECT_EQ(spec->registration.scopes.size(), 2u);
    EXPECT_FALSE(parse_client_spec("name=x,type=confidential,client_secret=s"))
        << "secrets never come from a flag";
    EXPECT_FALSE(parse_client_spec("name=x,redirect_uri=myapp://a")) << "type is required";
    EXPECT_FALSE(parse_client_spec("name=x,type=confidential,redirect_uri=https://a.example/cb,client_id=a:b"))
        << "a confidential client ID with ':' cannot use Basic authentication (spec 4.3, RFC 7617)";

    auto file = parse_clients_json(R"({"clients":[{"client_id":"srv","name":"Server","type":"confidential",
        "redirect_uris":["https://127.0.0.1:9000/cb"],"scope":"users.all:read offline_access","client_secret":"s3"}]})");
    ASSERT_TRUE(file) << file.error();
    ASSERT_EQ(file->size(), 1u);
    EXPECT_EQ(file->front().client_secret, "s3");
    EXPECT_FALSE(parse_clients_json("[{\"type\":\"public\",\"client_secret\":\"x\"}]"));
    EXPECT_FALSE(parse_clients_json("{not json"));

    auto cl = parse_command_line({"--port", "0", "--web-port=9443", "--rate-limit", "7", "--register-client",
                                  "name=a,type=public,redirect_uri=myapp://a,scope=users.all:read"});
    ASSERT_TRUE(cl) << cl.error();
    EXPECT_EQ(cl->options.port, 0);
    EXPECT_EQ(cl->options.web_port, 9443);
    EXPECT_EQ(cl->options.rate_limit, 7);
    EXPECT_EQ(cl->options.clients.size(), 1u);
    EXPECT_FALSE(parse_command_line({"--port", "70000"}));
    EXPECT_FALSE(parse_command_line({"--bogus"}));
}

// A start-up client that breaks the rules stops the start with a clear message.
TEST(SandboxClientSpecs, InvalidStartUpClientFailsTheStart_spec2_1) {
    SandboxOptions o = test_options();
    auto bad = parse_client_spec("name=bad,type=public,redirect_uri=http://127.0.0.1/cb,scope=users.all:read");
    ASSERT_TRUE(bad) << bad.error();
    o.clients.push_back(bad.value());
    Sandbox s(o);
    auto started = s.start();
    ASSERT_FALSE(started) << "the sandbox started with an http:// redirect URI for a public client";
    EXPECT_NE(started.error().find("bad"), std::string::npos) << started.error();
}

// The web app's client follows --web-port.
TEST_F(SandboxClients, WebClientFollowsTheWebPort) {
    SandboxOptions o = test_options();
    o.web_port = 9555;
    start(o);
    const PkcePair pkce = make_pkce(kRandom);
    FormFields q = web_request(pkce);
    for (auto& [k, v] : q) {
        if (k == "redirect_uri") v = "https://127.0.0.1:9555/callback";
    }
    EXPECT_FALSE(authorize(q).empty());
}

}  // namespace
}  // namespace roomkey::sandbox::testing
