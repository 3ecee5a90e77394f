// sandbox_fixture.hpp: what the roomkey-sandbox integration tests share: an
// in-process sandbox on 127.0.0.1 port 0 (with test controls), HTTPS clients
// that trust only the local CA, raw TLS exchanges for framing tests, and the
// steps of a browser sign-in (login form, consent form, cookies) and of a
// token exchange.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "roomkey/authorization.hpp"
#include "roomkey/encoding.hpp"
#include "roomkey/pkce.hpp"
#include "roomkey/rate_limit_headers.hpp"
#include "roomkey/url.hpp"
#include "sandbox/server.hpp"
#include "support/trust_only.hpp"
#include "support/why_no_answer.hpp"

namespace roomkey::sandbox::testing {

// One state directory (local CA + server certificate) for the whole test
// binary: making the CA once keeps each test's start-up in milliseconds.
inline const std::string& shared_state_dir() {
    static const std::string dir = [] {
        const char* base = std::getenv("TMPDIR");
        std::string pattern = std::string(base != nullptr ? base : "/tmp") + "/roomkey-sandbox-test-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        return std::string(::mkdtemp(buf.data()) != nullptr ? buf.data() : "");
    }();
    static const struct Cleanup {
        ~Cleanup() {
            if (!dir.empty()) std::system(("rm -rf '" + dir + "'").c_str());
        }
    } cleanup;
    (void)cleanup;
    return dir;
}

inline void test_random(unsigned char* out, std::size_t size) {
    ASSERT_EQ(RAND_bytes(out, static_cast<int>(size)), 1);
}
inline const RandomSource kRandom = test_random;

// Demo data (docs/sandbox.md).
inline const std::string kAliceToken = "sandbox-api-token-alice-1001";
inline const std::string kBobToken = "sandbox-api-token-bob-1002";
inline const std::string kWebRedirect = "https://127.0.0.1:8443/callback";
inline const std::string kConfidentialId = "test-server-app";
inline const std::string kConfidentialSecret = "test-server-app-secret-0123456789abcdef";
inline const std::string kConfidentialRedirect = "https://127.0.0.1:9443/auth/callback";
inline const std::string kConfidentialRedirect2 = "https://127.0.0.1:9443/auth/other";

// Options every test starts from: port 0, test controls on, quiet, plus a
// confidential client with two redirect URIs and offline_access.
inline SandboxOptions test_options() {
    SandboxOptions o;
    o.port = 0;
    o.state_dir = shared_state_dir();
    o.test_controls = true;
    o.log_requests = false;
    ClientSpec conf;
    conf.client_id = kConfidentialId;
    conf.client_secret = kConfidentialSecret;
    conf.registration.name = "Test server app";
    conf.registration.type = ClientType::confidential;
    conf.registration.redirect_uris = {kConfidentialRedirect, kConfidentialRedirect2};
    conf.registration.scopes = {"offline_access", "users.all:read", "rooms.all:read_write"};
    o.clients.push_back(conf);
    return o;
}

using Fields = std::vector<std::pair<std::string, std::string>>;

// What came back on one raw TLS connection.
struct RawExchange {
    std::string received;
    bool closed_by_server = false;  // false: the server kept it open, silent
    // How many responses the bytes hold.
    std::size_t responses() const {
        std::size_t n = 0;
        for (std::size_t at = received.find("HTTP/1.1 "); at != std::string::npos;
             at = received.find("HTTP/1.1 ", at + 1)) {
            ++n;
        }
        return n;
    }
};

// Sends `chunks` over one TLS connection (verified against `ca_path`), each
// as its own write after a pause, so the server has answered what came
// before; then reads until the server closes or stays silent for idle_ms.
// For framing tests: bytes httplib's client would never send.
inline RawExchange raw_tls_exchange(int port, const std::string& ca_path, const std::vector<std::string>& chunks,
                                    int pause_ms = 300, int idle_ms = 1500) {
    RawExchange out;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return out;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
    SSL* ssl = nullptr;
    if (ctx && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        SSL_CTX_load_verify_locations(ctx, ca_path.c_str(), nullptr) == 1) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
        ssl = SSL_new(ctx);
        SSL_set_fd(ssl, fd);
        if (SSL_connect(ssl) == 1) {
            for (std::size_t i = 0; i < chunks.size(); ++i) {
                if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
                if (SSL_write(ssl, chunks[i].data(), static_cast<int>(chunks[i].size())) <= 0) break;
            }
            timeval tv{idle_ms / 1000, (idle_ms % 1000) * 1000};
            ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            char buf[4096];
            for (;;) {
                errno = 0;
                const int n = SSL_read(ssl, buf, sizeof buf);
                if (n > 0) {
                    out.received.append(buf, static_cast<std::size_t>(n));
                    continue;
                }
                // A receive timeout surfaces as WANT_READ (EAGAIN); anything
                // else is the end: close_notify, EOF (OpenSSL 3 reports a
                // bare EOF as SSL_ERROR_SSL) or a reset.
                const int err = SSL_get_error(ssl, n);
                out.closed_by_server = err != SSL_ERROR_WANT_READ && errno != EAGAIN && errno != EWOULDBLOCK;
                break;
            }
        }
    }
    if (ssl) SSL_free(ssl);
    if (ctx) SSL_CTX_free(ctx);
    ::close(fd);
    return out;
}

// The x-ratelimit-* headers of a response (spec 8.1), or a failure saying why not.
inline ::testing::AssertionResult has_rate_limit_headers(const httplib::Result& res) {
    if (!res) return ::testing::AssertionFailure() << "no response";
    Headers h;
    for (const auto& [k, v] : res->headers) h.add(k, v);
    auto limit = read_rate_limit(h);
    if (!limit) return ::testing::AssertionFailure() << "status " << res->status << ": unusable x-ratelimit-*";
    if (!limit->has_value()) return ::testing::AssertionFailure() << "status " << res->status << " lacks x-ratelimit-*";
    return ::testing::AssertionSuccess();
}

// The query of a Location header as fields (empty when there is none).
inline FormFields location_query(const httplib::Result& res) {
    if (!res || !res->has_header("Location")) return {};
    auto url = parse_url(res->get_header_value("Location"));
    if (!url || !url->query) return {};
    auto fields = form_decode(*url->query);
    return fields ? fields.value() : FormFields{};
}

inline std::string field(const FormFields& fields, std::string_view name) {
    return form_get(fields, name).value_or("");
}

// The value of a hidden form field in an HTML page.
inline std::string hidden_value(const std::string& html, const std::string& name) {
    const std::regex re("name=\"" + name + "\" value=\"([^\"]*)\"");
    std::smatch m;
    return std::regex_search(html, m, re) ? m[1].str() : std::string();
}

class SandboxTest : public ::testing::Test {
protected:
    void SetUp() override { start(test_options()); }
    void TearDown() override {
        if (sandbox_) sandbox_->stop();
    }

    void start(SandboxOptions options) {
        if (sandbox_) sandbox_->stop();
        sandbox_ = std::make_unique<Sandbox>(std::move(options));
        auto started = sandbox_->start();
        ASSERT_TRUE(started) << started.error();
    }

    Sandbox& sandbox() { return *sandbox_; }

    // An HTTPS client that trusts only the sandbox's local CA.
    std::unique_ptr<httplib::SSLClient> client() const {
        auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", sandbox_->port());
        integration::trust_only(*c, "127.0.0.1", sandbox_->ca_cert_path());
        c->set_tcp_nodelay(true);
        c->set_read_timeout(10, 0);
        // Paths are sent exactly as form_encode made them (httplib would turn '+' into %2B).
        c->set_url_encode(false);
        return c;
    }

    httplib::Result get(const std::string& path, const httplib::Headers& headers = {}) {
        return client()->Get(path.c_str(), headers);
    }
    httplib::Result post_form(const std::string& path, const FormFields& fields,
                              const httplib::Headers& headers = {}) {
        return client()->Post(path.c_str(), headers, form_encode(fields), "application/x-www-form-urlencoded");
    }
    httplib::Result api_get(const std::string& path, const std::string& api_token = kAliceToken) {
        return get("/v2" + path, {{"x-servicetoken", api_token}});
    }
    httplib::Result bearer_get(const std::string& path, const std::string& access_token) {
        return get("/v2" + path, {{"Authorization", "Bearer " + access_token}});
    }
    httplib::Result bearer_post(const std::string& path, const std::string& access_token, const FormFields& fields) {
        return post_form("/v2" + path, fields, {{"Authorization", "Bearer " + access_token}});
    }

    // --- test controls ---
    void advance_clock(std::int64_t seconds) {
        auto res = client()->Post(("/_sandbox/clock/advance?seconds=" + std::to_string(seconds)).c_str(),
                                  httplib::Headers{{"X-Roomkey-Sandbox-Control", "1"}}, "", "text/plain");
        ASSERT_TRUE(res) << why_no_answer(res);
        ASSERT_EQ(res->status, 200) << res->body;
    }
    void inject_fault(const std::string& json) {
        auto res = client()->Post("/_sandbox/faults", httplib::Headers{{"X-Roomkey-Sandbox-Control", "1"}}, json,
                                  "application/json");
        ASSERT_TRUE(res) << why_no_answer(res);
        ASSERT_EQ(res->status, 200) << res->body;
    }

    // Logs in on the login screen (no authorization request); returns the
    // session cookie ("name=value").
    std::string login_as(const std::string& login, const std::string& password) {
        auto res = post_form("/login", {{"login", login}, {"password", password}, {"next", "/clients"}});
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        EXPECT_EQ(res->status, 303) << res->body;
        const std::string c = res->get_header_value("Set-Cookie");
        return c.substr(0, c.find(';'));
    }

    // Registers a client on the creation screen as the cookie's user;
    // returns its client_id (empty on failure).
    std::string register_client_on_screen(const std::string& cookie, const std::string& type,
                                          const std::string& redirect_uri, const std::vector<std::string>& scopes) {
        auto form = get("/clients/new", {{"Cookie", cookie}});
        EXPECT_TRUE(form) << why_no_answer(form);
        FormFields f{{"csrf", hidden_value(form ? form->body : "", "csrf")},
                     {"name", "Screen app"},
                     {"type", type},
                     {"redirect_uris", redirect_uri}};
        for (const auto& s : scopes) f.emplace_back("scope", s);
        auto res = post_form("/clients", f, {{"Cookie", cookie}});
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res || res->status != 303) return {};
        const std::string location = res->get_header_value("Location");
        return percent_decode(location.substr(std::string("/clients/").size())).value_or("");
    }

    // Deletes a client on the management screen as the cookie's user.
    httplib::Result delete_client_on_screen(const std::string& cookie, const std::string& client_id) {
        // The session's CSRF token, from the log-out form of the list.
        auto list = get("/clients", {{"Cookie", cookie}});
        const std::string csrf = hidden_value(list ? list->body : "", "csrf");
        return post_form("/clients/" + percent_encode(client_id) + "/delete", {{"csrf", csrf}}, {{"Cookie", cookie}});
    }

    // --- a browser's way through the consent screen (spec 4.2) ---
    struct Browser {
        std::string cookie;  // "name=value" of the sandbox session
    };

    // GET {consent_url}?query; follows the login screen when needed and
    // returns the consent page response (200) or whatever came instead.
    httplib::Result open_consent(Browser& browser, const FormFields& query, const std::string& login = "alice@example.com",
                                 const std::string& password = "alice-demo") {
        httplib::Headers h;
        if (!browser.cookie.empty()) h.emplace("Cookie", browser.cookie);
        auto res = get("/consent?" + form_encode(query), h);
        if (!res || res->status != 303) return res;
        const std::string location = res->get_header_value("Location");
        if (location.rfind("/login?", 0) != 0) return res;
        const auto reservation = field(location_query_of(location), "request");
        auto login_res = post_form("/login", {{"login", login}, {"password", password}, {"request", reservation}});
        if (!login_res || login_res->status != 303) return login_res;
        const std::string set_cookie = login_res->get_header_value("Set-Cookie");
        browser.cookie = set_cookie.substr(0, set_cookie.find(';'));
        return get(login_res->get_header_value("Location"), {{"Cookie", browser.cookie}});
    }

    // Presses Allow or Deny on a consent page; returns the 303 to the client.
    httplib::Result decide(const Browser& browser, const std::string& consent_html, const std::string& decision) {
        return post_form("/consent",
                         {{"request", hidden_value(consent_html, "request")},
                          {"csrf", hidden_value(consent_html, "csrf")},
                          {"decision", decision}},
                         {{"Cookie", browser.cookie}});
    }

    static FormFields location_query_of(const std::string& location) {
        const auto q = location.find('?');
        if (q == std::string::npos) return {};
        auto fields = form_decode(location.substr(q + 1));
        return fields ? fields.value() : FormFields{};
    }

    // The web app's request: public client, PKCE S256, state.
    static FormFields web_request(const PkcePair& pkce, const std::string& scope = "users.all:read rooms.all:read_write",
                                  const std::string& state = "state-123") {
        return {{"response_type", "code"},          {"client_id", "roomkey-web"},
                {"redirect_uri", kWebRedirect},     {"scope", scope},
                {"state", state},                   {"code_challenge", pkce.challenge},
                {"code_challenge_method", "S256"}};
    }

    // Login + Allow; the code from the redirect (fails the test otherwise).
    std::string authorize(const FormFields& query) {
        Browser browser;
        auto page = open_consent(browser, query);
        EXPECT_TRUE(page) << why_no_answer(page);
        if (!page) return {};
        EXPECT_EQ(page->status, 200) << page->body;
        auto res = decide(browser, page->body, "allow");
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        EXPECT_EQ(res->status, 303);
        return field(location_query(res), "code");
    }

    httplib::Result exchange_public(const std::string& code, const std::string& verifier,
                                    const std::string& redirect_uri = kWebRedirect) {
        FormFields f{{"grant_type", "authorization_code"}, {"code", code}, {"client_id", "roomkey-web"}};
        if (!redirect_uri.empty()) f.emplace_back("redirect_uri", redirect_uri);
        if (!verifier.empty()) f.emplace_back("code_verifier", verifier);
        return post_form("/oauth/token", f);
    }

    static std::string basic(const std::string& id, const std::string& secret) {
        return "Basic " + base64_encode(id + ":" + secret);
    }

    httplib::Result token_confidential(const FormFields& fields, const std::string& secret = kConfidentialSecret) {
        return post_form("/oauth/token", fields, {{"Authorization", basic(kConfidentialId, secret)}});
    }

    httplib::Result refresh_public(const std::string& refresh_token, const std::string& scope = {}) {
        FormFields f{{"grant_type", "refresh_token"}, {"refresh_token", refresh_token}, {"client_id", "roomkey-web"}};
        if (!scope.empty()) f.emplace_back("scope", scope);
        return post_form("/oauth/token", f);
    }

    // A full sign-in of the web app: the token response's JSON.
    nlohmann::json sign_in_web(const std::string& scope = "users.all:read rooms.all:read_write") {
        const PkcePair pkce = make_pkce(kRandom);
        const std::string code = authorize(web_request(pkce, scope));
        auto res = exchange_public(code, pkce.verifier);
        EXPECT_TRUE(res) << why_no_answer(res);
        if (!res) return {};
        EXPECT_EQ(res->status, 200) << res->body;
        return nlohmann::json::parse(res->body, nullptr, false);
    }

private:
    std::unique_ptr<Sandbox> sandbox_;
};

inline std::string json_string(const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

}  // namespace roomkey::sandbox::testing
